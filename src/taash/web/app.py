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
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import Cookie, Depends, FastAPI, HTTPException, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from itsdangerous import BadSignature, URLSafeSerializer
from pydantic import BaseModel, Field, field_validator
from starlette.websockets import WebSocketState

from taash.bots.base import LEVELS
from taash.seep.errors import BadRulesError
from taash.seep.record import replay, replay_to_json
from taash.seep.rules import PRESETS, rules_from_json
from taash.web.db import make_engine, migrate, server_key
from taash.web.hub import Connection, Hub, Live
from taash.web.store import Store
from taash.web.table import Settings, TableError

log = logging.getLogger("taash.web")
STATIC = Path(__file__).parent / "static"
COOKIE = "taash_guest"
JSON = Any
NAME_RE = re.compile(r"^[\w .'-]{1,24}$", re.UNICODE)


@dataclass(slots=True)
class ServerConfig:
    """How a server runs; every limit has a default fit for one small machine."""

    database_url: str = "sqlite:///taash.db"
    #: Seconds a bot waits before it moves (0 in tests).
    bot_delay: float = 0.8
    #: Seconds a person may be away (no connection) at his turn before a bot plays for him.
    away_seconds: float = 30.0
    max_tables: int = 2000
    max_connections: int = 5000
    #: Largest websocket message accepted, in bytes.
    max_message: int = 4096
    #: Messages a connection may send per second (with bursts of twice as many).
    rate: float = 10.0
    #: Origins allowed on the websocket besides the server's own address.
    allowed_origins: list[str] = field(default_factory=list)
    secure_cookies: bool = False


# -- request and response bodies -------------------------------------------------------------------------------


class GuestIn(BaseModel):
    name: str = Field(min_length=1, max_length=24, description="The display name (letters, digits, space . ' -)")

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        v = " ".join(v.split())
        if not NAME_RE.match(v):
            raise ValueError("a name is 1 to 24 letters, digits, spaces or . ' -")
        return v


class GuestOut(BaseModel):
    id: str
    name: str


class TableIn(BaseModel):
    players: Literal[2, 4] = 4
    rules: str = Field("standard", description=f"A preset: {', '.join(PRESETS)}")
    baazis: int = Field(1, ge=0, le=20, description="Baazis to win the match; 0 plays a single deal")
    level: Literal["easy", "medium", "hard", "expert"] = "medium"
    public: bool = True


class SitIn(BaseModel):
    seat: int = Field(ge=0, le=3)


class SeatOut(BaseModel):
    seat: int
    name: str | None
    bot: bool
    empty: bool


class TableOut(BaseModel):
    id: str
    code: str
    players: int
    rules: str
    baazis: int
    level: str
    public: bool
    status: str
    version: int
    seats: list[SeatOut]
    invite: str = ""


class ErrorOut(BaseModel):
    detail: str
    code: str


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut}, 401: {"model": ErrorOut}, 403: {"model": ErrorOut}, 404: {"model": ErrorOut},
    409: {"model": ErrorOut}, 503: {"model": ErrorOut}}
STATUS = {"not_found": 404, "forbidden": 403, "full": 503, "server": 503, "no_guest": 401}


class ApiError(HTTPException):
    def __init__(self, code: str, message: str):
        super().__init__(STATUS.get(code, 409 if code != "bad" else 400), message)
        self.code = code


def table_out(live: Live) -> TableOut:
    summary = live.table.summary()
    return TableOut(**summary, invite=f"/join/{live.table.code}")


def guest_from_token(signer: URLSafeSerializer, token: str | None) -> str | None:
    if not token:
        return None
    try:
        value = signer.loads(token)
    except BadSignature:
        return None
    return value if isinstance(value, str) else None


def current_guest(request: Request, taash_guest: Annotated[str | None, Cookie()] = None) -> str:
    guest = guest_from_token(request.app.state.signer, taash_guest)
    if guest is None:
        raise ApiError("no_guest", "choose a name first (POST /api/guest)")
    return guest


Guest = Annotated[str, Depends(current_guest)]

# -- the app ---------------------------------------------------------------------------------------------------


def create_app(config: ServerConfig | None = None) -> FastAPI:
    config = config or ServerConfig()
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(config.database_url)
        await asyncio.to_thread(migrate, engine)
        store = Store(engine)
        hub = Hub(store, config.bot_delay, config.away_seconds, config.max_tables)
        restored = await asyncio.to_thread(hub.restore)
        signer = URLSafeSerializer(server_key(engine), salt="guest")
        state.update(store=store, hub=hub, signer=signer)
        app.state.signer = signer
        for live in hub.live.values():
            hub.schedule_bots(live)
        # Latency: what is loaded so far is never garbage, collections run less often, and the writer thread
        # hands the interpreter back to the event loop sooner.
        gc.collect()
        gc.freeze()
        gc.set_threshold(50_000, 50, 100)
        sys.setswitchinterval(0.001)
        log.info("taash server ready: %d unfinished tables restored", restored)
        yield
        await hub.close()
        await asyncio.sleep(0)
        store.close()

    app = FastAPI(title="taash", version="1", lifespan=lifespan,
                  description="Seep with friends and bots: guests, tables, and a websocket per table.")

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, e: ApiError) -> JSONResponse:
        return JSONResponse({"detail": e.detail, "code": e.code}, status_code=e.status_code)

    def hub() -> Hub:
        h: Hub = state["hub"]
        return h

    def guest_of(token: str | None) -> str | None:
        return guest_from_token(state["signer"], token)

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

    @app.post("/api/guest", response_model=GuestOut, responses=ERRORS)
    async def new_guest(body: GuestIn, response: Response) -> GuestOut:
        """Become a guest with a display name; the answer sets the signed guest cookie."""
        guest = secrets.token_hex(16)
        await state["store"].add_guest(guest, body.name)
        response.set_cookie(COOKIE, state["signer"].dumps(guest), httponly=True, samesite="lax",
                            secure=config.secure_cookies, max_age=60 * 60 * 24 * 365)
        return GuestOut(id=guest, name=body.name)

    @app.get("/api/me", response_model=GuestOut, responses=ERRORS)
    async def me(guest: Guest) -> GuestOut:
        return GuestOut(id=guest, name=guest_name(guest))

    # -- tables -----------------------------------------------------------------------------------------------

    @app.get("/api/tables", response_model=list[TableOut])
    async def public_tables() -> list[TableOut]:
        """Public tables that are waiting or playing (for the lobby and spectators)."""
        h = hub()
        return [table_out(h.live[t["id"]]) for t in h.public_tables()]

    @app.post("/api/tables", response_model=TableOut, responses=ERRORS)
    async def create_table(body: TableIn, guest: Guest) -> TableOut:
        """Create a table; share its invite link or code."""
        try:
            rules = rules_from_json(body.rules)
        except BadRulesError as e:
            raise ApiError("bad", str(e)) from None
        try:
            live = await hub().create(Settings(body.players, rules, body.baazis, body.level, body.public), guest)
        except TableError as e:
            raise ApiError(e.code, str(e)) from None
        return table_out(live)

    @app.get("/api/tables/{table_id}", response_model=TableOut, responses=ERRORS)
    async def get_table(table_id: str) -> TableOut:
        return table_out(live_table(table_id))

    @app.get("/api/join/{code}", response_model=TableOut, responses=ERRORS)
    async def find_table(code: str) -> TableOut:
        """The table of an invite code."""
        live = hub().by_code(code) if re.fullmatch(r"[A-Za-z0-9]{4,12}", code) else None
        if live is None:
            raise ApiError("not_found", "no table has that code")
        return table_out(live)

    @app.post("/api/tables/{table_id}/sit", response_model=TableOut, responses=ERRORS)
    async def sit(table_id: str, body: SitIn, guest: Guest) -> TableOut:
        """Take a seat (partners sit opposite: seats 0 and 2, 1 and 3)."""
        live = live_table(table_id)
        await act(live, {"type": "sit", "seat": body.seat, "name": guest_name(guest)}, guest)
        return table_out(live)

    @app.post("/api/tables/{table_id}/leave", response_model=TableOut, responses=ERRORS)
    async def leave(table_id: str, guest: Guest) -> TableOut:
        live = live_table(table_id)
        await act(live, {"type": "leave"}, guest)
        return table_out(live)

    @app.post("/api/tables/{table_id}/bots", response_model=TableOut, responses=ERRORS)
    async def fill_with_bots(table_id: str, guest: Guest) -> TableOut:
        """Put bots in every empty seat."""
        live = live_table(table_id)
        await act(live, {"type": "bots"}, guest)
        return table_out(live)

    @app.post("/api/tables/{table_id}/start", response_model=TableOut, responses=ERRORS)
    async def start(table_id: str, guest: Guest) -> TableOut:
        live = live_table(table_id)
        await act(live, {"type": "start"}, guest)
        return table_out(live)

    @app.post("/api/quick", response_model=TableOut, responses=ERRORS)
    async def play_the_computer(body: TableIn, guest: Guest) -> TableOut:
        """One click: a private table with you in seat 0 and bots in the others, started."""
        live = await create_table(TableIn(**{**body.model_dump(), "public": False}), guest)
        table = live_table(live.id)
        await act(table, {"type": "sit", "seat": 0, "name": guest_name(guest)}, guest)
        await act(table, {"type": "bots"}, guest)
        await act(table, {"type": "start"}, guest)
        return table_out(table)

    @app.get("/api/tables/{table_id}/record", responses=ERRORS)
    async def record(table_id: str) -> JSONResponse:
        """The game record of a finished match (every hand: only once the match is over), with its scores."""
        live = live_table(table_id)
        if live.table.status != "finished":
            raise ApiError("not_finished", "the record is published when the match is over")
        rec = live.table.record()
        assert rec is not None
        data = rec.to_json()
        data["scores"] = replay_to_json(replay(rec))
        return JSONResponse(data, headers={"Content-Disposition": f'inline; filename="seep-{table_id}.json"'})

    @app.get("/api/health")
    async def health() -> dict[str, int]:
        h = hub()
        return {"tables": len(h.live), "connections": h.connection_count}

    # -- the table websocket ----------------------------------------------------------------------------------

    def origin_ok(ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")
        if origin is None:
            return True  # not a browser
        if origin in config.allowed_origins:
            return True
        return urlsplit(origin).netloc == ws.headers.get("host")

    @app.websocket("/ws/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str, since: int | None = None) -> None:
        h = hub()
        if not origin_ok(ws):
            await ws.close(code=1008, reason="origin not allowed")
            return
        if h.connection_count >= config.max_connections:
            await ws.close(code=1013, reason="the server is full")
            return
        live = h.get(table_id) if re.fullmatch(r"[0-9a-f]{16}", table_id) else None
        if live is None:
            await ws.close(code=1008, reason="no such table")
            return
        guest = guest_of(ws.cookies.get(COOKIE))
        table = live.table
        if not table.settings.public and table.status != "waiting" and (
                guest is None or table.seat_of(guest) is None):
            await ws.close(code=1008, reason="a private table: only its players may watch it")
            return
        await ws.accept()
        conn = h.join(live, guest, since)
        sender = asyncio.create_task(send_loop(ws, conn))
        try:
            await receive_loop(ws, live, conn)
        except WebSocketDisconnect:
            pass
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
            text = await ws.receive_text()
            now = time.monotonic()
            tokens = min(2 * config.rate, tokens + (now - last) * config.rate)
            last = now
            if tokens < 1:
                strikes += 1
                conn.send(error(None, "rate", "too many messages: slow down"))
                if strikes > 10 * config.rate:
                    conn.close_code, conn.close_reason = 1008, "too many messages"
                    return
                continue
            tokens -= 1
            if len(text.encode()) > config.max_message:
                conn.send(error(None, "too_big", f"a message may be at most {config.max_message} bytes"))
                continue
            try:
                message = json.loads(text)
            except (ValueError, RecursionError):
                conn.send(error(None, "malformed", "not JSON"))
                continue
            if not isinstance(message, dict):
                conn.send(error(None, "malformed", "a message is a JSON object"))
                continue
            mid = message.get("id")
            if mid is not None and (not isinstance(mid, str) or not 0 < len(mid) <= 64):
                conn.send(error(None, "malformed", "id must be a string of 1 to 64 characters"))
                continue
            kind = message.get("type")
            if kind == "ping":
                conn.send(json.dumps({"type": "pong", "version": live.table.version}))
                continue
            if kind not in ("bid", "play"):
                conn.send(error(mid, "malformed", f"unknown message type {kind!r}"))
                continue
            version = message.get("version")
            if isinstance(version, bool) or not isinstance(version, int):
                conn.send(error(mid, "malformed", "version must be the table version you saw"))
                continue
            if conn.seat is None:
                conn.send(error(mid, "not_seated", "spectators cannot play"))
                continue
            action = {"type": kind, "value": message.get("value")} if kind == "bid" else {
                "type": kind, "play": message.get("play")}
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

    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def error(mid: str | None, code: str, message: str, snapshot: dict[str, JSON] | None = None) -> str:
    out: dict[str, JSON] = {"type": "error", "id": mid, "code": code, "message": message}
    if snapshot is not None:
        out["state"] = snapshot["state"]
        out["version"] = snapshot["version"]
    return json.dumps(out, separators=(",", ":"))


__all__ = ["LEVELS", "ServerConfig", "create_app"]
