"""A tournament page's websocket, ``/ws/tournaments/{id}``: the tournament as ``GET /api/tournaments/{id}`` gives
it, sent at once and again whenever its standings, rounds, matches or entrants change (the director says when;
a look every :data:`FALLBACK_SECONDS` catches a change made by another process, such as ``taash tournaments
cancel``), and the tournament's chat room: the entrants talk in one channel and the watchers in another, apart,
as at a table (:mod:`taash.web.chat`: the same limits, word filter, blocks and reports). The messages are in
``docs/web-protocol.md``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from typing import Any

from fastapi import APIRouter, WebSocket
from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocketState

from taash.i18n import N_, said_of, say_in
from taash.web.chat import PLAYERS, WATCHERS, ChatError, ChatLine, Speaker
from taash.web.chat.room import read_said
from taash.web.http import COOKIE
from taash.web.languages import socket_language
from taash.web.sockets import Throttle, error, origin_ok, read_message, refuse, serve_admitted
from taash.web.state import AppState, app_state
from taash.web.tournament_book import Record, read
from taash.web.tournament_routes import tournament_out
from taash.web.tournament_watch import Watcher
from taash.web.tournaments import Tournaments

JSON = Any
#: Seconds between two looks at a tournament when nothing told of a change.
FALLBACK_SECONDS = 10.0

router = APIRouter()


def room_of(tournament_id: str) -> str:
    return f"tournament:{tournament_id}"


def channel_of(record: Record, guest: str | None) -> str:
    """The chat channel of a page: the entrants' (a person registered), or the watchers'."""
    return PLAYERS if guest is not None and guest in record.people else WATCHERS


def may_hear_line(record: Record, guest: str, channel: str) -> bool:
    """Whether ``guest`` could hear a line of the tournament's ``channel`` (for a report)."""
    return channel == WATCHERS or guest in record.people


@router.websocket("/ws/tournaments/{tournament_id}")
async def tournament_socket(ws: WebSocket, tournament_id: str) -> None:
    state = app_state(ws)
    director = state.services.tournaments
    if not origin_ok(state, ws):
        await refuse(ws, 1008, N_("this page's origin may not connect to this server"))
        return
    record = None
    if director is not None and re.fullmatch(r"[0-9a-f]{16}", tournament_id):
        record = await asyncio.to_thread(read, state.store.engine, tournament_id)
    if director is None or record is None:
        await refuse(ws, 1008, N_("no such tournament"))
        return
    guest = await state.guest_of(ws.cookies.get(COOKIE))

    async def serve() -> None:
        await ws.accept()
        await watch(state, director, ws, record, guest)

    await serve_admitted(state, ws, guest, False, serve)


async def watch(state: AppState, director: Tournaments, ws: WebSocket, record: Record, guest: str | None) -> None:
    """Serve an accepted connection: the pushes, the chat's recent lines, then its messages until it closes."""
    tournament_id = record.row.id
    watcher = Watcher(guest, channel_of(record, guest))
    director.watch.add(tournament_id, watcher)
    sender = asyncio.create_task(send_loop(ws, watcher))
    pusher = asyncio.create_task(push(state, director, tournament_id, watcher))
    try:
        with contextlib.suppress(SQLAlchemyError):
            await send_history(state, tournament_id, watcher)
        await receive_loop(state, director, ws, tournament_id, watcher)
    finally:
        director.watch.remove(tournament_id, watcher)
        pusher.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pusher
        watcher.send(None)
        with contextlib.suppress(Exception):
            await sender


async def push(state: AppState, director: Tournaments, tournament_id: str, watcher: Watcher) -> None:
    """Send the tournament whenever it changed (and is not the same as last sent)."""
    last = None
    while True:
        change = director.watch.change_of(tournament_id)
        with contextlib.suppress(SQLAlchemyError):  # the database is back at the next look
            record = await asyncio.to_thread(read, state.store.engine, tournament_id)
            if record is not None:
                watcher.channel = channel_of(record, watcher.guest)
                text = json.dumps({"type": "tournament", "tournament": tournament_out(record, watcher.guest)
                                   .model_dump()}, separators=(",", ":"), ensure_ascii=False)
                if text != last:
                    watcher.send(text)
                    last = text
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(change.wait(), FALLBACK_SECONDS)


async def send_loop(ws: WebSocket, watcher: Watcher) -> None:
    while (text := await watcher.queue.get()) is not None:
        try:
            await ws.send_text(text)
        except Exception:
            return
    if ws.client_state is WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await ws.close(1000)


async def send_history(state: AppState, tournament_id: str, watcher: Watcher) -> None:
    """The recent lines of the page's channel (none said yet: nothing is sent)."""
    chat = state.chat
    room = await chat.room(room_of(tournament_id))
    lines = [line.message() for line in room.recent
             if line.channel == watcher.channel and chat.may_hear(watcher.guest, line.speaker.guest)]
    if lines:
        watcher.send(json.dumps({"type": "chat_history", "lines": lines, "filter": room.filter_on},
                                separators=(",", ":"), ensure_ascii=False))


async def receive_loop(state: AppState, director: Tournaments, ws: WebSocket, tournament_id: str,
                       watcher: Watcher) -> None:
    """Read the page's messages (``chat``, ``ping``) and answer each until it closes (or sends far too many)."""
    throttle = Throttle(state.config.rate)
    lang = socket_language(ws)
    while True:
        frame = await ws.receive()
        if frame["type"] == "websocket.disconnect":
            return
        allowed = throttle.take()
        message, refusal = read_message(frame.get("text"), frame.get("bytes"), state.config.max_message, lang)
        mid = message.get("id") if message is not None else None
        if not allowed:
            watcher.send(error(mid, "rate", say_in(lang, N_("too many messages: slow down"))))
            if throttle.strikes > 10 * state.config.rate:
                return
            continue
        if message is None:
            watcher.send(refusal)
        elif message.get("type") == "ping":
            watcher.send(json.dumps({"type": "pong", "id": mid}))
        elif message.get("type") == "chat":
            await chat(state, director, tournament_id, watcher, message, mid, lang)
        else:
            watcher.send(error(mid, "malformed", f"unknown message type {str(message.get('type'))[:40]!r}"))


async def chat(state: AppState, director: Tournaments, tournament_id: str, watcher: Watcher,
               message: dict[str, JSON], mid: str | None, lang: str) -> None:
    """A line said in the page's channel, delivered to everyone of that channel who may hear its speaker; or a
    refusal in one line, and nothing said."""
    try:
        said = read_said(message)
        row = state.store.guest(watcher.guest) if watcher.guest is not None else None
        if watcher.guest is None or row is None:
            raise ChatError("no_guest", N_("choose a name first to chat"))
        line = await state.chat.say(room_of(tournament_id), watcher.channel, Speaker(watcher.guest, str(row.name),
                                                                                     None), said)
    except ChatError as e:
        watcher.send(error(mid, e.code, say_in(lang, said_of(e))))
        return
    except SQLAlchemyError:
        watcher.send(error(mid, "server", say_in(lang, N_("the chat line could not be kept: try again"))))
        return
    deliver(state, director, tournament_id, line)
    watcher.send(json.dumps({"type": "ack", "id": mid}))


def deliver(state: AppState, director: Tournaments, tournament_id: str, line: ChatLine) -> None:
    text = json.dumps(line.message(), separators=(",", ":"), ensure_ascii=False)
    for other in list(director.watch.pages.get(tournament_id, ())):
        if other.channel == line.channel and state.chat.may_hear(other.guest, line.speaker.guest):
            other.send(text)
