"""The websockets: a table's (``/ws/{table_id}``: its snapshot, then every change as it happens, and the moves of
its players) and Play now's queue (``/ws/play-now``), with the server's load at ``/api/health``. The protocol is
described in ``docs/web-protocol.md``.

A connection is let in by its page's origin, the table's access and the server's limits (see
:mod:`taash.web.admissions`); a refusal is an accepted connection closed at once with a code and a reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket
from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocketState

from taash.i18n import DEFAULT, N_, _, said_of, say_in
from taash.tables.adapter import TIMEOUT, TableError
from taash.web.admissions import Admission
from taash.web.chat import TABLE_CHAT, ChatError, answer_chat, send_history
from taash.web.errors import validation_sentence
from taash.web.http import COOKIE, ApiError, origin_allowed
from taash.web.hub import Connection, Hub, Live
from taash.web.languages import socket_language
from taash.web.play_now import play_now_socket
from taash.web.state import AppState, State, app_state

JSON = Any
#: The largest websocket frame the server reads at all (uvicorn's ``ws_max_size``): a message over
#: ``ServerConfig.max_message`` and up to this size is answered with a ``too_big`` error and the connection
#: stays; a bigger frame closes the connection (1009). It bounds the memory one connection may hold.
MAX_FRAME = 256 * 1024

router = APIRouter()


@router.get("/api/health")
async def health(state: State) -> dict[str, int]:
    h = state.hub
    return {"tables": len(h.live), "connections": h.connection_count, "play_now": state.play_now.waiting()}


# -- letting a connection in -----------------------------------------------------------------------------------


def origin_ok(state: AppState, ws: WebSocket) -> bool:
    origin = ws.headers.get("origin")  # none: not a browser
    return origin is None or origin_allowed(origin, ws.headers.get("host"), state.config.allowed_origins)


async def refuse(ws: WebSocket, code: int, reason: str) -> None:
    """Refuse a connection as the protocol says: accepted, then closed at once with ``code`` and ``reason``
    (a refusal in the handshake reaches a page only as "closed abnormally", with no reason to show)."""
    await ws.accept()
    await ws.close(code=code, reason=reason)


def admit(state: AppState, ws: WebSocket, guest: str | None, player: bool) -> Admission | str:
    """Count a connection against the server's limits (see :mod:`taash.web.admissions`), or why not."""
    return state.hub.admissions.admit(ws.client.host if ws.client else "?", guest, player)


async def serve_admitted(state: AppState, ws: WebSocket, guest: str | None, player: bool,
                         serve: Callable[[], Awaitable[None]]) -> None:
    """Serve a connection counted against the server's limits (:func:`admit`) until ``serve`` returns, released
    then whatever happened; or refuse it (1013, with the limit's reason) and serve nothing."""
    admitted = admit(state, ws, guest, player)
    if isinstance(admitted, str):
        await refuse(ws, 1013, admitted)
        return
    try:
        await serve()
    finally:
        state.hub.admissions.release(admitted)


@router.websocket("/ws/play-now")
async def play_now(ws: WebSocket) -> None:
    """Play now's queue (see :mod:`taash.web.play_now`)."""
    state = app_state(ws)
    if not origin_ok(state, ws):
        await refuse(ws, 1008, N_("this page's origin may not connect to this server"))
        return
    guest = await state.guest_of(ws.cookies.get(COOKIE))

    async def name(guest: str) -> str | None:
        row = await asyncio.to_thread(state.store.guest, guest)
        return None if row is None else str(row.name)

    async def serve() -> None:
        await ws.accept()
        await play_now_socket(ws, state.queue, guest, name, state.may_create, send_loop, validation_sentence)

    await serve_admitted(state, ws, guest, False, serve)


@router.websocket("/ws/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    state = app_state(ws)
    h = state.hub
    if not origin_ok(state, ws):
        await refuse(ws, 1008, N_("this page's origin may not connect to this server"))
        return
    live = await h.find(table_id) if re.fullmatch(r"[0-9a-f]{16}", table_id) else None
    if live is None:
        await refuse(ws, 1008, N_("no such table"))
        return
    if live.gone:
        await refuse(ws, 1008, N_("the table was abandoned"))
        return
    guest = await state.guest_of(ws.cookies.get(COOKIE))
    code = ws.query_params.get("code")
    who = ws.client.host if ws.client else "?"
    try:
        opened = h.may_watch(live, guest) or (live.table.status == "waiting" and state.code_opens(live, code, who))
    except ApiError as e:
        await refuse(ws, 1008, str(e.detail))
        return
    if not opened:
        await refuse(ws, 1008, N_("a private table: only its players may watch it"))
        return
    player = guest is not None and live.table.seat_of(guest) is not None
    if not player and len(live.connections) >= state.config.max_table_connections:
        await refuse(ws, 1013, N_("this table has as many watchers as it can take: try again later"))
        return

    async def serve() -> None:
        if live.owner is not None and state.relay is not None:  # another server owns it: through that one
            raw_since = ws.query_params.get("since", "")
            since = int(raw_since) if re.fullmatch(r"\d{1,9}", raw_since) else None
            await state.relay.bridge(ws, live, guest, since, code)
        else:
            await table_connection(state, ws, live, guest, code)

    await serve_admitted(state, ws, guest, player, serve)


# -- a table's connection --------------------------------------------------------------------------------------


async def table_connection(state: AppState, ws: WebSocket, live: Live, guest: str | None, code: str | None) -> None:
    """Serve an admitted connection to a table: accept it, send the snapshot (or what it missed), then read
    its messages until it closes."""
    h = state.hub
    # ?since=VERSION: the version the client last saw; anything else is ignored (a snapshot is sent).
    raw_since = ws.query_params.get("since", "")
    since = int(raw_since) if re.fullmatch(r"\d{1,9}", raw_since) else None
    await ws.accept()
    if not h.may_watch(live, guest, code):  # the table started while this connection was being accepted
        await ws.close(code=1008, reason=N_("a private table: only its players may watch it"))
        return
    lang = socket_language(ws)
    conn = h.join(live, guest, since, lang)
    sender = asyncio.create_task(send_loop(ws, conn))
    try:
        await welcome(state, live, conn)
        await receive_loop(state, ws, live, conn, lang)
    finally:
        h.leave(live, conn)
        await farewell(state, live, conn)
        conn.send(None)
        with contextlib.suppress(Exception):
            await sender


async def welcome(state: AppState, live: Live, conn: Connection) -> None:
    """What a connection just joined is told after the table's state, on a websocket of this server or bridged
    from another: a rematch on offer (taken up here first when its holder died and nobody has yet), and the chat's
    recent lines."""
    with contextlib.suppress(SQLAlchemyError):  # not taken up here: the next scan does
        await state.rematches.take_up_here(live)
    state.rematches.greet(live, conn)
    with contextlib.suppress(SQLAlchemyError):  # the recent lines unread: the table is played as ever
        await send_history(state.chat, live, conn)


async def farewell(state: AppState, live: Live, conn: Connection) -> None:
    """A connection left the table (the hub already forgot it): its seat's part in a rematch offer ends."""
    await state.rematches.left(live, conn)


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


class Throttle:
    """The messages a connection may send: ``rate`` a second, with bursts of twice as many; every message over
    counts a strike. ``clock`` reads seconds (tests give a fake one)."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic):
        self.rate, self.clock = rate, clock
        self.tokens, self.last = 2 * rate, clock()
        self.strikes = 0

    def take(self) -> bool:
        """Spend one message, or count a strike (False) when none is left."""
        now = self.clock()
        self.tokens = min(2 * self.rate, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            self.strikes += 1
            return False
        self.tokens -= 1
        return True


async def receive_loop(state: AppState, ws: WebSocket, live: Live, conn: Connection, lang: str = DEFAULT) -> None:
    """Read a connection's messages and answer each, until it closes (or sends far too many); its refusals in
    ``lang``."""
    throttle = Throttle(state.config.rate)
    while True:
        if conn.close_code != 1000:  # the server closed this connection (a private table started)
            return
        frame = await ws.receive()
        if frame["type"] == "websocket.disconnect":
            return
        if not await on_frame(state, live, conn, throttle, frame.get("text"), frame.get("bytes"), lang):
            return


async def on_frame(state: AppState, live: Live, conn: Connection, throttle: Throttle, text: str | None,
                   raw: bytes | None, lang: str = DEFAULT) -> bool:
    """Answer one frame of a connection (its own websocket's, or one another server relays); False when the
    connection is to be closed (it sent far too many). Its refusals in ``lang``."""
    config = state.config
    allowed = throttle.take()
    message, refusal = read_message(text, raw, config.max_message, lang)
    mid = message.get("id") if message is not None else None
    if not allowed:  # refused, though answered with its id when it has one
        conn.send(error(mid, "rate", say_in(lang, N_("too many messages: slow down"))))
        if throttle.strikes > 10 * config.rate:
            conn.close_code, conn.close_reason = 1008, "too many messages"
            return False
        return True
    if message is None:
        conn.send(refusal)
        return True
    if message.get("type") == "rematch":
        await rematch(state, live, conn, message, mid, lang)
    elif message.get("type") in TABLE_CHAT:
        await chat(state, live, conn, message, mid, lang)
    else:
        await answer(state.hub, live, conn, message, mid, lang)
    return conn.close_code == 1000


async def chat(state: AppState, live: Live, conn: Connection, message: dict[str, JSON], mid: str | None,
               lang: str = DEFAULT) -> None:
    """A chat message (:mod:`taash.web.chat.table`): acknowledged, or refused in one line with nothing said."""
    def name_of(guest: str) -> str | None:
        row = state.store.guest(guest)
        return None if row is None else str(row.name)

    try:
        await answer_chat(state.chat, state.services.bot_answers, live, conn, message, name_of)
    except ChatError as e:
        conn.send(error(mid, e.code, say_in(lang, said_of(e))))
        return
    except SQLAlchemyError:  # the database refused the line: nobody was told it
        conn.send(error(mid, "server", say_in(lang, N_("the chat line could not be kept: try again"))))
        return
    conn.send(ack(mid, live.table.version))


async def answer(h: Hub, live: Live, conn: Connection, message: dict[str, JSON], mid: str | None,
                 lang: str = DEFAULT) -> None:
    """Answer one message of a connection: a ping, "I am back", a split of the prize, or a move."""
    kind = message.get("type")
    if kind == "ping":
        conn.send(json.dumps({"type": "pong", "version": live.table.version}))
        return
    if kind == TIMEOUT:  # the server's own action, when a turn's time runs out: the table refuses a person's
        await move(h, live, conn, {**message, "version": live.table.version}, mid, lang)
        return
    is_move = live.table.is_move(message)
    if conn.seat is None and (is_move or kind in ("back", "split")):
        conn.send(error(mid, "not_seated", say_in(lang, N_("spectators cannot play"))))
        return
    if kind == "back" and conn.seat is not None:  # "I am here": a bot that took his seat gives it back
        h.back(live, conn.seat)
        conn.send(ack(mid, live.table.version))
        return
    if kind == "split":  # propose, accept or decline a split of the prize (the table decides)
        try:
            made = await h.act(live, {"type": "split", "answer": message.get("answer")}, conn.guest, mid)
        except TableError as e:
            conn.send(error(mid, e.code, say_in(lang, said_of(e))))
            return
        conn.send(ack(mid, made))
        return
    if not is_move:
        conn.send(error(mid, "malformed", say_in(lang, _("unknown message type {kind}", kind=repr(str(kind)[:40])))))
        return
    await move(h, live, conn, message, mid, lang)


async def rematch(state: AppState, live: Live, conn: Connection, message: dict[str, JSON], mid: str | None,
                  lang: str = DEFAULT) -> None:
    """Propose, accept or decline a rematch of the finished match (see :mod:`taash.web.rematch`)."""
    try:
        await state.rematches.answer(live, conn.seat, message.get("answer"))
    except TableError as e:
        conn.send(error(mid, e.code, say_in(lang, said_of(e))))
        if e.code == "rematch_started":
            state.rematches.greet(live, conn)
        return
    conn.send(ack(mid, live.table.version))


async def move(h: Hub, live: Live, conn: Connection, message: dict[str, JSON], mid: str | None,
               lang: str = DEFAULT) -> None:
    """Play a move's message at the table, made at the version it says it saw; a stale one is answered with
    the snapshot."""
    version = message.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        conn.send(error(mid, "malformed", say_in(lang, N_("version must be the table version you saw"))))
        return
    # The move as the game reads it (what the table stores): its type and the game's fields of a move; the rest of a
    # message (its id, the version seen, anything else) is the connection's alone, never stored.
    fields = live.table.game.move_fields
    action = {k: v for k, v in message.items() if k == "type" or k in fields}
    try:
        made = await h.act(live, action, conn.guest, mid, version)
    except TableError as e:
        extra = (json.loads(h.message_for(live, conn.seat, "snapshot", conn.guest, conn.lang)) if e.code == "stale"
                 else None)
        conn.send(error(mid, e.code, say_in(lang, said_of(e)), extra))
        return
    conn.send(ack(mid, made))


# -- messages --------------------------------------------------------------------------------------------------


def read_message(text: str | None, raw: bytes | None, limit: int,
                 lang: str = DEFAULT) -> tuple[dict[str, JSON] | None, str]:
    """A client's frame as a message (a JSON object with a good ``id`` or none), or None and the error that
    answers it (in ``lang``)."""
    if text is None:
        if len(raw or b"") > limit:
            return None, too_big(limit, lang)
        return None, error(None, "malformed", say_in(lang, N_("messages are JSON text, not binary")))
    if len(text) > limit or len(text.encode()) > limit:
        return None, too_big(limit, lang)
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return None, error(None, "malformed", say_in(lang, N_("not JSON")))
    if not isinstance(message, dict):
        return None, error(None, "malformed", say_in(lang, N_("a message is a JSON object")))
    mid = message.get("id")
    if mid is not None and (not isinstance(mid, str) or not 0 < len(mid) <= 64):
        return None, error(None, "malformed", say_in(lang, N_("id must be a string of 1 to 64 characters")))
    return message, ""


def too_big(limit: int, lang: str) -> str:
    return error(None, "too_big", say_in(lang, _("a message may be at most {limit} bytes", limit=limit)))


def error(mid: str | None, code: str, message: str, snapshot: dict[str, JSON] | None = None) -> str:
    out: dict[str, JSON] = {"type": "error", "id": mid, "code": code, "message": message}
    if snapshot is not None:
        out["state"] = snapshot["state"]
        out["version"] = snapshot["version"]
    return json.dumps(out, separators=(",", ":"))


def ack(mid: str | None, version: int) -> str:
    """A message done: its id, and the table's version after it."""
    return json.dumps({"type": "ack", "id": mid, "version": version})
