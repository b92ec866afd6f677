"""The web server (FastAPI): guests, the lobby's HTTP API, the table websocket, and the browser client.

``create_app(config)`` builds it; ``taash serve`` runs it with uvicorn. The websocket protocol is described in
``docs/web-protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import re
import secrets
import sys
import time
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Cookie, FastAPI, Query, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from itsdangerous import URLSafeSerializer
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketState

from taash.bots.base import LEVELS
from taash.chips.ledger import Ledger
from taash.fairness import SEED_RULE
from taash.tables.adapter import TIMEOUT, Settings, TableError, adapter, game_names
from taash.tables.session import TIMEOUT_REFUSED
from taash.web.accounts import accounts_router
from taash.web.admissions import Admission, Admissions
from taash.web.chips_routes import chips_router
from taash.web.db import make_engine, migrate, server_key
from taash.web.fair_play import AS_GUEST, NEEDS_ACCOUNT, FairPlay
from taash.web.games import GameName, games_router
from taash.web.history import add_history
from taash.web.http import (
    COOKIE,
    CROSS_SITE,
    ERRORS,
    FORM_TYPES,
    NAME_RULE,
    SAFE_METHODS,
    ApiError,
    Guest,
    ServerConfig,
    StrictIn,
    cross_site,
    display_name,
    origin_allowed,
)
from taash.web.hub import Connection, Hub, Live, code_matches, is_member
from taash.web.learn import learn_router
from taash.web.matchmaking import Matchmaker
from taash.web.play_now import play_now_socket
from taash.web.sessions import Sessions
from taash.web.stakes import hold_for, hold_per_seat, hold_words
from taash.web.store import Store

log = logging.getLogger("taash.web")
STATIC = Path(__file__).parent / "static"
JSON = Any
#: The largest websocket frame the server reads at all (uvicorn's ``ws_max_size``): a message over
#: ``ServerConfig.max_message`` and up to this size is answered with a ``too_big`` error and the connection
#: stays; a bigger frame closes the connection (1009). It bounds the memory one connection may hold.
MAX_FRAME = 256 * 1024


# -- request and response bodies -------------------------------------------------------------------------------


class GuestIn(StrictIn):
    name: str = Field(min_length=1, max_length=24, description=f"The display name: {NAME_RULE}")

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return display_name(v)


class GuestOut(BaseModel):
    id: str
    name: str


GAMES = {name: adapter(name) for name in game_names()}
ALL_PRESETS = sorted({p for g in GAMES.values() for p in g.presets})
ALL_FORMATS = sorted({f for g in GAMES.values() for f in g.formats})


class TableIn(StrictIn):
    game: GameName
    players: int = Field(4, ge=2, le=6, description="One of the game's player counts (" + "; ".join(
        f"{g.title}: {', '.join(map(str, g.player_counts))}" for g in GAMES.values()) + "; another: 400 ``bad``)")
    rules: str | None = Field(None, description="A preset of the game (" + "; ".join(
        f"{g.title}: {', '.join(g.presets)}" for g in GAMES.values()) + "); null: the game's first; "
                              "another game's: 400 ``bad``", json_schema_extra={"enum": [*ALL_PRESETS, None]})
    baazis: int = Field(1, ge=0, le=20, description="A game without formats: baazis to win the match; 0 plays a "
                                                    "single deal")
    format: str | None = Field(None, description="The match's format, for a game with formats (" + "; ".join(
        f"{g.title}: {', '.join(g.formats)}" for g in GAMES.values() if g.formats) + "); null: the game's first. "
                               "A game without formats takes none (400 ``bad``)",
                               json_schema_extra={"enum": [*ALL_FORMATS, None]})
    level: Literal["easy", "medium", "hard", "expert"] = "medium"
    public: bool = Field(True, description="A public table is listed in the lobby and anyone may watch it; a "
                                           "private one is seen only by its creator and its players (and, until "
                                           "it starts, by whoever holds its invite code)")
    seat: int | None = Field(0, ge=0, le=5, description="The seat its creator takes at once (null: none, he "
                                                        "only manages the table)")
    stake: int = Field(0, ge=0, le=10**9, description="Chips the match is played for (0: none); see README's "
                                                     "'Playing for chips' for each game's rule and hold")
    seed: str | None = Field(None, description="Its creator's own seed for fair dealing, with ``seat``: mixed into "
                                               f"every shuffle ({SEED_RULE}; see docs/web-protocol.md)")

    @model_validator(mode="after")
    def _seat(self) -> TableIn:
        if self.seat is not None and self.seat >= self.players:
            raise ValueError(f"seat must be from 0 to {self.players - 1} at a table of {self.players}")
        return self


class LogOut(BaseModel):
    log: list[str] = Field(description="Every line of the table's log, the first first (line 1)")


class HoldOut(BaseModel):
    hold: int = Field(description="Chips held from each player when the match starts (the most he can lose)")
    said: str = Field(description="What the stake holds, in a player's words")


class TableQuery(TableIn):
    """:class:`TableIn` in a URL's query (``GET /api/stakes/hold``): every value arrives as text, so numbers are
    read from their digits (still whole numbers in their ranges)."""

    model_config = ConfigDict(strict=False)


class SitIn(StrictIn):
    seat: int = Field(ge=0, le=5)
    name: str | None = Field(None, min_length=1, max_length=24,
                             description="The name to sit under at this table (default: your guest name); "
                                         f"names are unique per table: {NAME_RULE}")
    code: str | None = Field(None, max_length=12, description="The table's invite code: needed to sit at a "
                                                              "private table (its creator and players need none)")
    seed: str | None = Field(None, description="Your own seed for fair dealing: mixed into every shuffle of the "
                                               f"match ({SEED_RULE}; see docs/web-protocol.md)")

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        return None if v is None else display_name(v)


class SeatOut(BaseModel):
    seat: int
    name: str | None
    bot: bool
    empty: bool
    account: bool = Field(default=False, description="Whether the person in the seat has an account (false: a "
                                                     "guest, a bot or nobody)")


class TableOut(BaseModel):
    id: str
    code: str | None = Field(description="The invite code; null for a private table's outsiders")
    game: str
    players: int
    rules: str
    baazis: int | None = Field(None, description="Seep: baazis to win (0: a single deal)")
    format: str | None = Field(None, description="Rummy: the match's format")
    level: str
    public: bool
    status: str
    version: int
    seats: list[SeatOut]
    invite: str | None = Field(None, description="The invite link's path; null where the code is not shown")
    stake: int = Field(0, description="Chips the match is played for (0: none)")
    hold: int = Field(0, description="Chips held from each seat when the match starts (the most it can lose)")


HTTP_CODES = {400: "bad", 401: "no_guest", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
              413: "too_big", 415: "unsupported", 422: "invalid"}
HTTP_SENTENCES = {404: "no such page", 405: "that method is not allowed here"}


def validation_sentence(e: RequestValidationError) -> str:
    """The first thing wrong with a request, in one sentence: "body.seat: Input should be ..."."""
    errors = e.errors()
    if not errors:
        return "the request does not fit the schema"
    first = errors[0]
    where = ".".join(str(x) for x in first.get("loc", ()) if x != "body") or "body"
    message = str(first.get("msg", "is not valid")).removeprefix("Value error, ")
    if first.get("type") == "json_invalid":
        return "the body is not valid JSON"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    said = message if first.get("type") == "value_error" else f"{where}: {message}"  # ours name their field
    return " ".join(f"{said}{more}".split())[:300]


class Guard:
    """Plain ASGI middleware: refuses HTTP bodies over ``max_body`` bytes (413, before reading them),
    state-changing requests from another site's pages (403: see :func:`cross_site`) and form bodies on the JSON
    API (415), and adds the security headers to every page (no framing, no sniffing, scripts and connections only
    from this server). No route can forget these."""

    CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
           "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'")

    def __init__(self, app: ASGIApp, max_body: int, allowed_origins: Collection[str] = ()):
        self.app = app
        self.max_body = max_body
        self.allowed_origins = frozenset(allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        too_big = length is not None and (not length.isdigit() or int(length) > self.max_body)
        if too_big:
            await self._refuse(send, 413, "too_big", f"a request body may be at most {self.max_body} bytes")
            return
        refused = self.refusal(scope["method"], scope["path"], headers)
        if refused is not None:
            await self._refuse(send, *refused)
            return
        received = 0
        page = not scope["path"].startswith(("/api/", "/docs", "/redoc", "/openapi.json"))

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise BodyTooBig(self.max_body)
            return message

        async def secured_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin"),
                         (b"x-frame-options", b"DENY")]
                if page:
                    extra.append((b"content-security-policy", self.CSP.encode()))
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        try:
            await self.app(scope, limited_receive, secured_send)
        except BodyTooBig:
            await self._refuse(send, 413, "too_big", f"a request body may be at most {self.max_body} bytes")

    def refusal(self, method: str, path: str, headers: dict[bytes, bytes]) -> tuple[int, str, str] | None:
        """The status, code and sentence that refuse a request before any route sees it, or None: a
        state-changing one from another site's page, or one that posts a form's body to the JSON API."""
        if method in SAFE_METHODS:
            return None

        def header(name: bytes) -> str | None:
            value = headers.get(name)
            return None if value is None else value.decode("latin-1")

        if cross_site(header(b"origin"), header(b"sec-fetch-site"), header(b"host"), self.allowed_origins):
            return 403, "forbidden", CROSS_SITE
        media = (header(b"content-type") or "").split(";")[0].strip().lower()
        if path.startswith("/api/") and media in FORM_TYPES:
            return 415, "unsupported", "the API takes JSON bodies (Content-Type: application/json)"
        return None

    @staticmethod
    async def _refuse(send: Send, status: int, code: str, detail: str) -> None:
        body = json.dumps({"detail": detail, "code": code})
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body.encode()})


class BodyTooBig(StarletteHTTPException):
    """A request body (sent in chunks, with no length given) that grew over the limit while it was read."""

    def __init__(self, limit: int):
        super().__init__(413, f"a request body may be at most {limit} bytes")


class AddressBucket:
    """Something counted per client address, as a token bucket: ``burst`` at once, then ``rate`` a second. Wrong
    invite codes (while a client has none left every lookup is refused, so guessing the codes of private tables
    is slow), and guests and tables created (so one address cannot fill the server)."""

    def __init__(self, rate: float = 1.0, burst: float = 20.0, kept: int = 10_000):
        self.rate, self.burst, self.kept = rate, burst, kept
        self.buckets: dict[str, tuple[float, float]] = {}

    def _tokens(self, who: str, now: float) -> float:
        tokens, then = self.buckets.get(who, (self.burst, now))
        return min(self.burst, tokens + (now - then) * self.rate)

    def allowed(self, who: str) -> bool:
        return self._tokens(who, time.monotonic()) >= 1

    def spend(self, who: str) -> None:
        now = time.monotonic()
        self.buckets[who] = (self._tokens(who, now) - 1, now)
        if len(self.buckets) > self.kept:  # forget the oldest
            del self.buckets[next(iter(self.buckets))]


def table_out(live: Live, shown: bool) -> TableOut:
    """The lobby's view of a table; its invite code only where ``shown`` (see :func:`code_shown`)."""
    summary = {**live.table.summary(), "stake": live.stake,
               "hold": hold_per_seat(live.table, live.stake) if live.stake else 0}
    summary["seats"] = [{**seat, "account": s.guest is not None and s.guest in live.accounts}
                        for seat, s in zip(summary["seats"], live.table.seats, strict=True)]
    if not shown:
        return TableOut(**{**summary, "code": None}, invite=None)
    return TableOut(**summary, invite=f"/join/{live.table.code}")


def code_shown(live: Live, guest: str | None, code: str | None = None) -> bool:
    """Whether ``guest`` may be shown the table's invite code: anyone a public table's, a private table's only its
    members and whoever gave the code himself."""
    return live.table.settings.public or is_member(live, guest) or code_matches(live, code)


# -- the app ---------------------------------------------------------------------------------------------------


def create_app(config: ServerConfig | None = None) -> FastAPI:
    config = config or ServerConfig()
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(config.database_url)
        await asyncio.to_thread(migrate, engine)
        store = Store(engine)
        ledger = Ledger(engine, starting_grant=config.starting_chips, rake_percent=Decimal(str(config.rake)))
        admissions = Admissions(config.max_connections, config.max_connections_per_address,
                                config.max_connections_per_guest, config.reserved_for_players)
        fair = FairPlay(engine, server_key(engine, "address"), config.accounts_per_address, config.related_stakes)
        hub = Hub(store, config.bot_delay, config.away_seconds, config.max_tables, config.max_tables_per_guest,
                  config.turn_seconds, ledger, config.extra_seconds, admissions, fair)
        restored = await asyncio.to_thread(hub.restore)
        signer = URLSafeSerializer(server_key(engine), salt="guest")
        sessions = Sessions(store, signer)
        #: The Play now queue (in memory: its entries hold nothing).
        queue = Matchmaker(hub)
        state.update(store=store, hub=hub, signer=signer, ledger=ledger, sessions=sessions, play_now=queue,
                     fair=fair)
        app.state.signer = signer
        app.state.sessions = sessions
        for live in hub.live.values():
            hub.schedule_bots(live)
        sweeper = (asyncio.create_task(hub.sweep_forever(config.sweep_seconds, config.idle_minutes * 60))
                   if config.sweep_seconds > 0 else None)
        # Latency: what is loaded so far is never garbage, collections run less often, and the threads (the
        # writer thread on PostgreSQL, the chips' work) hand the interpreter back to the event loop sooner.
        gc.collect()
        gc.freeze()
        gc.set_threshold(50_000, 50, 100)
        sys.setswitchinterval(0.001)
        log.info("taash server ready: %d unfinished tables restored", restored)
        yield
        if sweeper is not None:
            sweeper.cancel()
        await queue.close()
        await hub.close()
        await asyncio.sleep(0)
        store.close()

    app = FastAPI(title="taash", version="1", lifespan=lifespan,
                  description="Seep and 13-card Rummy with friends and bots: guests, tables, and a websocket per "
                              "table.")
    app.add_middleware(Guard, max_body=config.max_body, allowed_origins=config.allowed_origins)

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, e: ApiError) -> JSONResponse:
        return JSONResponse({"detail": e.detail, "code": e.code}, status_code=e.status_code)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, e: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": validation_sentence(e), "code": "invalid"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, e: StarletteHTTPException) -> JSONResponse:
        detail = HTTP_SENTENCES.get(e.status_code) or (e.detail if isinstance(e.detail, str) else "")
        headers = dict(getattr(e, "headers", None) or {})
        if e.status_code == 405:  # every method of the path (the router names only its first route's)
            headers["Allow"] = ", ".join(sorted({m for r in app.routes if isinstance(r, Route)
                                                 and r.path_regex.match(request.url.path) for m in r.methods or ()}))
        return JSONResponse({"detail": detail or "the request was refused",
                             "code": HTTP_CODES.get(e.status_code, "http")},
                            status_code=e.status_code, headers=headers or None)

    @app.exception_handler(Exception)
    async def _server_error(_: Request, e: Exception) -> JSONResponse:  # pragma: no cover - a bug of ours
        log.exception("unexpected error")
        return JSONResponse({"detail": "the server failed on that request", "code": "server"}, status_code=500)

    def hub() -> Hub:
        h: Hub = state["hub"]
        return h

    def guest_of(token: str | None) -> str | None:
        found: str | None = state["sessions"].guest(token)
        return found

    def guest_name(guest: str) -> str:
        row = state["store"].guest(guest)
        if row is None:
            raise ApiError("no_guest", "unknown guest: choose a name again")
        name: str = row.name
        return name

    def live_table(table_id: str) -> Live:
        if not re.fullmatch(r"[0-9a-f]{16}", table_id):
            raise ApiError("not_found", "no such table")
        live = hub().get(table_id)
        if live is None:
            raise ApiError("not_found", "no such table")
        return live

    async def act(live: Live, action: dict[str, JSON], guest: str | None) -> None:
        try:
            await hub().act(live, action, guest)
        except TableError as e:
            raise ApiError(e.code, str(e)) from None

    # -- guests -----------------------------------------------------------------------------------------------

    creations = AddressBucket(rate=config.creations / 60, burst=config.creations)

    def may_create(who: str) -> str | None:
        """Count a guest or table made from the address ``who``; a refusal's sentence when it has made too many
        lately."""
        if not creations.allowed(who):
            return f"at most {config.creations:g} guests and tables a minute from one address: wait a little"
        creations.spend(who)
        return None

    def creating(request: Request) -> None:
        """Count a guest or table made from the request's address; refuse when it has made too many lately."""
        refused = may_create(request.client.host if request.client else "?")
        if refused is not None:
            raise ApiError("too_many", refused)

    @app.post("/api/guest", response_model=GuestOut, responses=ERRORS)
    async def new_guest(body: GuestIn, response: Response, request: Request) -> GuestOut:
        """Become a guest with a display name (409 ``name_taken`` for an account's name, or one that looks or
        reads like it); the answer sets the signed guest cookie. A guest's wallet opens empty: free chips come
        with an account."""
        fair: FairPlay = state["fair"]
        refused = fair.name_refusal(body.name, None)
        if refused is not None:
            raise ApiError("name_taken", refused)
        creating(request)
        guest = secrets.token_hex(16)
        await state["store"].add_guest(guest, body.name)
        await state["store"].write(fair.seen(guest, request.client.host if request.client else "?", AS_GUEST))
        await asyncio.to_thread(state["ledger"].open_wallet, guest, False)
        response.set_cookie(COOKIE, await state["sessions"].open(guest), httponly=True, samesite="lax",
                            secure=config.secure_cookies, max_age=60 * 60 * 24 * 365)
        return GuestOut(id=guest, name=body.name)


    app.include_router(chips_router(lambda: state["ledger"], lambda guest: bool(state["fair"].accounts([guest]))))
    app.include_router(accounts_router(config, state))  # /api/me, and claiming a name, login, logout, password
    app.include_router(learn_router(hub))  # /learn/{game}, its lesson's steps, and the coach at a table

    # -- tables -----------------------------------------------------------------------------------------------

    @app.get("/api/tables", response_model=list[TableOut])
    async def public_tables() -> list[TableOut]:
        """Public tables that are waiting or playing (for the lobby and spectators)."""
        h = hub()
        return [table_out(h.live[t["id"]], True) for t in h.public_tables()]

    @app.post("/api/tables", response_model=TableOut, responses=ERRORS)
    async def create_table(body: TableIn, guest: Guest, request: Request) -> TableOut:
        """Create a table, its creator seated in ``seat`` (0 unless told); share its invite link or code."""
        creating(request)
        live = await new_table(body, guest)
        return table_out(live, True)

    def settings_of(body: TableIn) -> Settings:
        """The settings a table asked for (``TableError`` for those no table takes)."""
        game = adapter(body.game)
        length = body.baazis if not game.formats else body.format or game.formats[0]
        if body.format is not None and not game.formats:
            raise TableError(f"{game.title} takes no format (it plays to baazis)")
        settings = game.settings(body.players, body.rules or game.presets[0], length, body.level, body.public)
        hold_for(settings, body.stake)  # a game not played for chips refuses a stake
        return settings

    @app.get("/api/stakes/hold", response_model=HoldOut, responses=ERRORS)
    async def stake_hold(query: Annotated[TableQuery, Query()]) -> HoldOut:
        """What a table of these settings (as ``POST /api/tables`` takes them) played for ``stake`` holds from
        each player when its match starts, before it is created: the chips and the sentence saying why."""
        try:
            settings = settings_of(query)
        except TableError as e:
            raise ApiError(e.code, str(e)) from None
        return HoldOut(hold=hold_for(settings, query.stake),
                       said=hold_words(settings, query.stake) if query.stake else "not played for chips")

    async def new_table(body: TableIn, guest: str) -> Live:
        name = guest_name(guest)
        if body.stake > 0 and not state["fair"].accounts([guest]):
            raise ApiError("account_needed", f"{NEEDS_ACCOUNT}: claim your name (Account) first, or play without "
                                             "stakes")
        try:
            live = await hub().create(settings_of(body), guest, body.stake)
        except TableError as e:
            raise ApiError(e.code, str(e)) from None
        if body.seat is not None:
            await act(live, sit_action(body.seat, name, body.seed), guest)
        return live

    def sit_action(seat: int, name: str, seed: str | None) -> dict[str, JSON]:
        """The table's sit action (with the player's own seed for fair dealing, when he gives one)."""
        action: dict[str, JSON] = {"type": "sit", "seat": seat, "name": name}
        if seed is not None:
            action["seed"] = seed
        return action

    def private_refused(live: Live, guest: str | None, what: str) -> None:
        """Refuse (403) anyone but a private table's creator and players."""
        if not live.table.settings.public and not is_member(live, guest):
            raise ApiError("forbidden", f"a private table: only its players may see {what}")

    @app.get("/api/tables/{table_id}", response_model=TableOut, responses=ERRORS)
    async def get_table(table_id: str, taash_guest: Annotated[str | None, Cookie()] = None) -> TableOut:
        """A table's seats and status; a private table's only for its creator and its players (403)."""
        live = live_table(table_id)
        guest = guest_of(taash_guest)
        private_refused(live, guest, "it")
        return table_out(live, True)

    wrong_codes = AddressBucket()

    def code_opens(live: Live, code: str | None, who: str) -> bool:
        """Whether ``code`` opens the private table ``live`` to someone not one of its own; a wrong code counts
        against the client's address as at ``/api/join`` (none left: 429, even for the right code)."""
        if not code:
            return False
        if not wrong_codes.allowed(who):
            raise ApiError("too_many", "too many wrong codes: wait a little and check the code")
        if code_matches(live, code):
            return True
        wrong_codes.spend(who)
        return False

    @app.get("/api/join/{code}", response_model=TableOut, responses=ERRORS)
    async def find_table(code: str, request: Request, taash_guest: Annotated[str | None, Cookie()] = None) \
            -> TableOut:
        """The table of an invite code (a client that tries many wrong codes is made to wait); a private table
        that has started only for its creator and its players (403)."""
        who = request.client.host if request.client else "?"
        if not wrong_codes.allowed(who):
            raise ApiError("too_many", "too many wrong codes: wait a little and check the code")
        live = hub().by_code(code) if re.fullmatch(r"[A-Za-z0-9]{4,12}", code) else None
        if live is None:
            wrong_codes.spend(who)
            raise ApiError("not_found", "no table has that code")
        if not hub().may_watch(live, guest_of(taash_guest), code):
            raise ApiError("forbidden", "the match at that private table has started: only its players may see it")
        return table_out(live, True)

    @app.post("/api/tables/{table_id}/sit", response_model=TableOut, responses=ERRORS)
    async def sit(table_id: str, body: SitIn, guest: Guest, request: Request) -> TableOut:
        """Take a seat (partners sit opposite: seats 0 and 2, 1 and 3), under your name or another one: names are
        unique per table. A private table needs its invite ``code`` (403 without it)."""
        live = live_table(table_id)
        who = request.client.host if request.client else "?"
        if not code_shown(live, guest) and not code_opens(live, body.code, who):
            raise ApiError("forbidden", "a private table: sitting at it needs its invite code")
        await act(live, sit_action(body.seat, body.name or guest_name(guest), body.seed), guest)
        return table_out(live, True)

    @app.post("/api/tables/{table_id}/leave", response_model=TableOut, responses=ERRORS)
    async def leave(table_id: str, guest: Guest) -> TableOut:
        """Leave your seat before the start (400 ``bad`` when you are not seated here, 409 ``started`` after)."""
        live = live_table(table_id)
        await act(live, {"type": "leave"}, guest)
        return table_out(live, code_shown(live, guest))

    @app.post("/api/tables/{table_id}/bots", response_model=TableOut, responses=ERRORS)
    async def fill_with_bots(table_id: str, guest: Guest) -> TableOut:
        """Put bots in every empty seat (the table's creator or a seated player only: 403)."""
        live = live_table(table_id)
        await act(live, {"type": "bots"}, guest)
        return table_out(live, True)

    @app.post("/api/tables/{table_id}/start", response_model=TableOut, responses=ERRORS)
    async def start(table_id: str, guest: Guest) -> TableOut:
        """Start the match: every seat must be filled (the table's creator or a seated player only: 403)."""
        live = live_table(table_id)
        await act(live, {"type": "start"}, guest)
        return table_out(live, True)

    @app.post("/api/tables/{table_id}/abandon", response_model=TableOut, responses=ERRORS)
    async def abandon(table_id: str, guest: Guest) -> TableOut:
        """Abandon a table that has not finished (its creator only: 403): every stake held is refunded."""
        live = live_table(table_id)
        if guest != live.table.owner:
            raise ApiError("forbidden", "only the table's creator may abandon it")
        idle = time.monotonic() - live.last_active
        if live.table.status == "playing" and live.stake > 0 and idle < config.abandon_minutes * 60:
            raise ApiError("playing", f"a staked match may be abandoned only after {config.abandon_minutes:g} "
                                      "minutes without a move")
        try:
            await hub().abandon(live)
        except TableError as e:
            raise ApiError(e.code, str(e)) from None
        return TableOut(**{**table_out(live, True).model_dump(), "status": "abandoned"})

    @app.post("/api/quick", response_model=TableOut, responses=ERRORS)
    async def play_the_computer(body: TableIn, guest: Guest, request: Request) -> TableOut:
        """One click: a private table with you in seat 0 and bots in the others, started."""
        guest_name(guest)
        creating(request)
        live = await new_table(TableIn(**{**body.model_dump(), "public": False, "seat": 0}), guest)
        await act(live, {"type": "bots"}, guest)
        await act(live, {"type": "start"}, guest)
        return table_out(live, True)

    @app.get("/api/tables/{table_id}/log", response_model=LogOut, responses=ERRORS)
    async def whole_log(table_id: str, taash_guest: Annotated[str | None, Cookie()] = None) -> LogOut:
        """Every line of a table's log so far (the state carries the last few): what everyone at the table was
        told, in words; a private table's only for its creator and its players (403)."""
        live = live_table(table_id)
        private_refused(live, guest_of(taash_guest), "its log")
        return LogOut(log=list(live.table.log))

    @app.get("/api/tables/{table_id}/record", responses=ERRORS)
    async def record(table_id: str, taash_guest: Annotated[str | None, Cookie()] = None) -> JSONResponse:
        """The game record of a finished match (every hand: only once the match is over), with its scores; a
        private table's only for its creator and its players (403)."""
        live = live_table(table_id)
        private_refused(live, guest_of(taash_guest), "its record")
        if live.table.status != "finished":
            raise ApiError("not_finished", "the record is published when the match is over")
        data = live.table.record()
        name = f"{live.table.settings.game}-{table_id}.json"
        return JSONResponse(data, headers={"Content-Disposition": f'inline; filename="{name}"'})

    @app.get("/api/tables/{table_id}/replay", responses=ERRORS)
    async def replay_steps(table_id: str, taash_guest: Annotated[str | None, Cookie()] = None) -> JSONResponse:
        """Every step of a finished match as the engine plays it again (every hand, the floor, what happened in
        words), for the replay page; 409 before the match is over; a private table's only for its creator and
        its players (403)."""
        live = live_table(table_id)
        private_refused(live, guest_of(taash_guest), "its replay")
        if live.table.status != "finished":
            raise ApiError("not_finished", "the replay is published when the match is over")
        return JSONResponse(await asyncio.to_thread(live.table.replay))

    @app.get("/api/tables/{table_id}/verify", responses=ERRORS)
    async def verify(table_id: str, taash_guest: Annotated[str | None, Cookie()] = None) -> JSONResponse:
        """Check a finished match's record against its fair dealing, as ``taash verify`` does: the secret against
        the commitment published from the start, and every deal against the secret. ``{"ok": true, "deals":
        [line per deal], ...}`` or ``{"ok": false, "error": line}``; 409 before the match is over (the secret is
        not yet revealed) or for a table made before tables dealt fairly; a private table's only for its creator
        and its players (403)."""
        live = live_table(table_id)
        private_refused(live, guest_of(taash_guest), "its record")
        fairness = live.table.fairness_state()
        try:
            deals = await asyncio.to_thread(live.table.verify)
        except TableError as e:
            if e.code != "unfair":
                raise ApiError(e.code, str(e)) from None
            return JSONResponse({"ok": False, "error": str(e), "fairness": fairness})
        return JSONResponse({"ok": True, "deals": deals, "fairness": fairness})

    app.include_router(games_router())  # GET /api/games, the games' browser modules, each game's own endpoints

    @app.get("/api/health")
    async def health() -> dict[str, int]:
        h = hub()
        return {"tables": len(h.live), "connections": h.connection_count, "play_now": state["play_now"].waiting()}

    # -- the table websocket ----------------------------------------------------------------------------------

    def origin_ok(ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")  # none: not a browser
        return origin is None or origin_allowed(origin, ws.headers.get("host"), config.allowed_origins)

    async def refuse(ws: WebSocket, code: int, reason: str) -> None:
        """Refuse a connection as the protocol says: accepted, then closed at once with ``code`` and ``reason``
        (a refusal in the handshake reaches a page only as "closed abnormally", with no reason to show)."""
        await ws.accept()
        await ws.close(code=code, reason=reason)

    def admit(ws: WebSocket, guest: str | None, player: bool) -> Admission | str:
        """Count a connection against the server's limits (see :mod:`taash.web.admissions`), or why not."""
        return hub().admissions.admit(ws.client.host if ws.client else "?", guest, player)

    @app.websocket("/ws/play-now")
    async def play_now(ws: WebSocket) -> None:
        """Play now's queue (see :mod:`taash.web.play_now`)."""
        if not origin_ok(ws):
            await refuse(ws, 1008, "this page's origin may not connect to this server")
            return
        guest = guest_of(ws.cookies.get(COOKIE))
        admitted = admit(ws, guest, player=False)
        if isinstance(admitted, str):
            await refuse(ws, 1013, admitted)
            return
        try:
            await ws.accept()

            def name(guest: str) -> str | None:
                row = state["store"].guest(guest)
                return None if row is None else str(row.name)

            await play_now_socket(ws, state["play_now"], guest, name, may_create, send_loop, validation_sentence)
        finally:
            hub().admissions.release(admitted)

    @app.websocket("/ws/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        h = hub()
        if not origin_ok(ws):
            await refuse(ws, 1008, "this page's origin may not connect to this server")
            return
        live = h.get(table_id) if re.fullmatch(r"[0-9a-f]{16}", table_id) else None
        if live is None:
            await refuse(ws, 1008, "no such table")
            return
        if live.gone:
            await refuse(ws, 1008, "the table was abandoned")
            return
        guest = guest_of(ws.cookies.get(COOKIE))
        code = ws.query_params.get("code")
        who = ws.client.host if ws.client else "?"
        try:
            opened = h.may_watch(live, guest) or (live.table.status == "waiting" and code_opens(live, code, who))
        except ApiError as e:
            await refuse(ws, 1008, str(e.detail))
            return
        if not opened:
            await refuse(ws, 1008, "a private table: only its players may watch it")
            return
        player = guest is not None and live.table.seat_of(guest) is not None
        if not player and len(live.connections) >= config.max_table_connections:
            await refuse(ws, 1013, "this table has as many watchers as it can take: try again later")
            return
        admitted = admit(ws, guest, player)
        if isinstance(admitted, str):
            await refuse(ws, 1013, admitted)
            return
        try:
            await table_connection(ws, live, guest, code)
        finally:
            h.admissions.release(admitted)

    async def table_connection(ws: WebSocket, live: Live, guest: str | None, code: str | None) -> None:
        """Serve an admitted connection to a table: accept it, send the snapshot (or what it missed), then read
        its messages until it closes."""
        h = hub()
        # ?since=VERSION: the version the client last saw; anything else is ignored (a snapshot is sent).
        raw_since = ws.query_params.get("since", "")
        since = int(raw_since) if re.fullmatch(r"\d{1,9}", raw_since) else None
        await ws.accept()
        if not h.may_watch(live, guest, code):  # the table started while this connection was being accepted
            await ws.close(code=1008, reason="a private table: only its players may watch it")
            return
        conn = h.join(live, guest, since)
        sender = asyncio.create_task(send_loop(ws, conn))
        try:
            await receive_loop(ws, live, conn)
        finally:
            h.leave(live, conn)
            conn.send(None)
            with contextlib.suppress(Exception):
                await sender

    async def send_loop(ws: WebSocket, conn: Connection) -> None:
        while True:
            message = await conn.queue.get()
            if message is None:
                if ws.client_state is WebSocketState.CONNECTED:
                    with contextlib.suppress(Exception):
                        await ws.close(conn.close_code, conn.close_reason)
                return
            try:
                await ws.send_text(message)
            except Exception:
                return

    async def receive_loop(ws: WebSocket, live: Live, conn: Connection) -> None:
        h = hub()
        tokens, last = 2 * config.rate, time.monotonic()
        strikes = 0
        while True:
            if conn.close_code != 1000:  # the server closed this connection (a private table started)
                return
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                return
            now = time.monotonic()
            tokens = min(2 * config.rate, tokens + (now - last) * config.rate)
            last = now
            message, refusal = read_message(frame.get("text"), frame.get("bytes"), config.max_message)
            mid = message.get("id") if message is not None else None
            if tokens < 1:  # refused, though answered with its id when it has one
                strikes += 1
                conn.send(error(mid, "rate", "too many messages: slow down"))
                if strikes > 10 * config.rate:
                    conn.close_code, conn.close_reason = 1008, "too many messages"
                    return
                continue
            tokens -= 1
            if message is None:
                conn.send(refusal)
                continue
            kind = message.get("type")
            if kind == "ping":
                conn.send(json.dumps({"type": "pong", "version": live.table.version}))
                continue
            if kind == TIMEOUT:  # the server's own action, when a turn's time runs out: nobody may send it
                conn.send(error(mid, "forbidden", TIMEOUT_REFUSED))
                continue
            is_move = live.table.is_move(message)
            if conn.seat is None and (is_move or kind in ("back", "split")):
                conn.send(error(mid, "not_seated", "spectators cannot play"))
                continue
            if kind == "back" and conn.seat is not None:  # "I am here": a bot that took his seat gives it back
                h.back(live, conn.seat)
                conn.send(json.dumps({"type": "ack", "id": mid, "version": live.table.version}))
                continue
            if kind == "split":  # propose, accept or decline a split of the prize (the table decides)
                try:
                    made = await h.act(live, {"type": "split", "answer": message.get("answer")}, conn.guest, mid)
                except TableError as e:
                    conn.send(error(mid, e.code, str(e)))
                    continue
                conn.send(json.dumps({"type": "ack", "id": mid, "version": made}))
                continue
            if not is_move:
                conn.send(error(mid, "malformed", f"unknown message type {str(kind)[:40]!r}"))
                continue
            version = message.get("version")
            if isinstance(version, bool) or not isinstance(version, int):
                conn.send(error(mid, "malformed", "version must be the table version you saw"))
                continue
            # The move as the game reads it (what the table stores): its type and the game's fields of a move; the
            # rest of a message (its id, the version seen, anything else) is the connection's alone, never stored.
            fields = live.table.game.move_fields
            action = {k: v for k, v in message.items() if k == "type" or k in fields}
            try:
                made = await h.act(live, action, conn.guest, mid, version)
            except TableError as e:
                extra = json.loads(h.message_for(live, conn.seat, "snapshot", conn.guest)) if e.code == "stale" \
                    else None
                conn.send(error(mid, e.code, str(e), extra))
                continue
            conn.send(json.dumps({"type": "ack", "id": mid, "version": made}))

    # -- the browser client -----------------------------------------------------------------------------------

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return page("index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @app.get("/join/{code}", include_in_schema=False)
    async def join_page(code: str) -> FileResponse:
        return page("index.html")

    @app.get("/r/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return page("replay.html")

    add_history(app, lambda: state["store"], lambda: state["ledger"], guest_of, lambda why: ApiError("not_found", why),
                ERRORS, lambda people: state["fair"].accounts(people))

    @app.get("/p/{guest_id}", include_in_schema=False)
    async def person_page(guest_id: str) -> FileResponse:
        return page("person.html")

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        return page("leaderboard.html")

    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def read_message(text: str | None, raw: bytes | None, limit: int) -> tuple[dict[str, JSON] | None, str]:
    """A client's frame as a message (a JSON object with a good ``id`` or none), or None and the error that
    answers it."""
    if text is None:
        if len(raw or b"") > limit:
            return None, error(None, "too_big", f"a message may be at most {limit} bytes")
        return None, error(None, "malformed", "messages are JSON text, not binary")
    if len(text) > limit or len(text.encode()) > limit:
        return None, error(None, "too_big", f"a message may be at most {limit} bytes")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return None, error(None, "malformed", "not JSON")
    if not isinstance(message, dict):
        return None, error(None, "malformed", "a message is a JSON object")
    mid = message.get("id")
    if mid is not None and (not isinstance(mid, str) or not 0 < len(mid) <= 64):
        return None, error(None, "malformed", "id must be a string of 1 to 64 characters")
    return message, ""


def error(mid: str | None, code: str, message: str, snapshot: dict[str, JSON] | None = None) -> str:
    out: dict[str, JSON] = {"type": "error", "id": mid, "code": code, "message": message}
    if snapshot is not None:
        out["state"] = snapshot["state"]
        out["version"] = snapshot["version"]
    return json.dumps(out, separators=(",", ":"))


__all__ = ["LEVELS", "MAX_FRAME", "ServerConfig", "create_app"]
