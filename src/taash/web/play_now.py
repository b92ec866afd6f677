"""The Play now websocket, ``/ws/play-now``: the queue of :mod:`taash.web.matchmaking` as a browser meets it.

A websocket rather than an HTTP call, because the queue needs to know who is still there: a person whose page
closes (or whose connection drops) leaves the queue at once, and nobody is seated at a table he will never see;
and the match is told the moment it is made, with no polling. The messages (JSON objects):

- client: ``{"type": "play_now", "game", "players", "rules", "baazis" | "format", "level", "stake", "wait"}``
  (the settings as ``POST /api/tables`` takes them, and ``wait``: one of 0, 15, 30, 60, 120 seconds before bots
  fill the empty seats); pressed again, on this connection or another one of the same guest, it replaces his
  entry. ``{"type": "cancel"}`` leaves the queue; ``{"type": "ping"}`` is answered ``pong``.
- server: ``waiting`` (``waiting``: people in the pool, ``players``, ``bots_at``: when bots fill in, Unix time,
  ``wait``: the first-come's wait), ``cancelled`` (with a ``reason`` when it was not asked for on this
  connection), ``matched`` (``table``, ``seat``, ``url``; the connection then closes), ``error`` (``code`` and a
  one-line ``message``: bad settings, too few chips, ...; nothing changed, and the connection stays open).

Its sentences (refusals, a ``cancelled`` reason) are said in the language the socket asks for with ``?lang=``
(:func:`taash.web.languages.socket_language`); English, as they always were, when it asks for none.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket
from fastapi.exceptions import RequestValidationError
from pydantic import Field, ValidationError, model_validator
from starlette.websockets import WebSocketState

from taash.i18n import DEFAULT, N_, _, in_language, said_of, say_in
from taash.tables.adapter import TableError, adapter
from taash.web.games import GameName, LevelName, level_of
from taash.web.http import StrictIn
from taash.web.hub import Connection
from taash.web.languages import socket_language
from taash.web.matchmaking import WAITS, Entry, Matchmaker, Wanted

if TYPE_CHECKING:
    from typing import TypeAlias

    from taash.web.play_now_shared import SharedQueue

    #: Play now's queue: a lone server's, or the one a cluster's servers share.
    Queue: TypeAlias = Matchmaker | SharedQueue

JSON = Any


class PlayNowIn(StrictIn):
    """Play now's settings; a field left out takes the lobby's default."""

    game: GameName
    players: int = Field(4, ge=2, le=6)
    rules: str | None = Field(None, max_length=40)
    baazis: int = Field(1, ge=0, le=20)
    format: str | None = Field(None, max_length=20)
    level: LevelName = None
    stake: int = Field(0, ge=0, le=10**9)
    wait: int = Field(30, description="Seconds before bots fill the empty seats: one of " + ", ".join(map(str, WAITS)))

    @model_validator(mode="after")
    def _level(self) -> PlayNowIn:
        self.level = level_of(self.game, self.level)
        return self


def wanted_of(body: PlayNowIn) -> Wanted:
    """What the person wants, as the queue pools it (``TableError`` for a format the game does not take)."""
    game = adapter(body.game)
    if body.format is not None and not game.formats:
        raise TableError(_("{game} takes no format (it plays to baazis)", game=game.title))
    length: int | str = body.baazis if not game.formats else body.format or game.formats[0]
    return Wanted(body.game, body.players, body.rules or game.presets[0], length, body.stake)


def error(code: str, message: str, lang: str = DEFAULT) -> str:
    """An error message, its sentence (a message of the catalogue, or a ``Said``) said in ``lang``."""
    said = say_in(lang, message)
    return json.dumps({"type": "error", "code": code, "message": " ".join(said.split())[:300]})


async def play_now_socket(ws: WebSocket, queue: Queue, guest: str | None,
                          name: Callable[[str], Awaitable[str | None]],
                          may_create: Callable[[str], str | None],
                          send_loop: Callable[[WebSocket, Connection], Coroutine[Any, Any, None]],
                          sentence: Callable[[RequestValidationError, str], str]) -> None:
    """Serve one accepted Play now connection of ``guest`` (None: refused, he has no name yet). ``name`` reads a
    guest's display name (None: unknown); ``may_create`` spends one of the address's table creations (a refusal's
    sentence, or None); ``sentence`` says what is wrong with a message in one line, in a language."""
    if guest is None or await name(guest) is None:
        await ws.close(code=1008, reason="choose a name first")
        return
    conn = Connection(guest, None)
    entry: Entry | None = None
    lang = socket_language(ws)

    def tell(message: dict[str, JSON] | None) -> None:
        conn.send(None if message is None else json.dumps(in_language(lang, message)))

    sender = asyncio.create_task(send_loop(ws, conn))
    who = ws.client.host if ws.client else "?"
    try:
        while conn.close_code == 1000 and not sender.done():
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                return
            text = frame.get("text")
            try:
                message = json.loads(text) if isinstance(text, str) and len(text) <= 4096 else None
            except ValueError:
                message = None
            if not isinstance(message, dict):
                conn.send(error("malformed", N_("a message is a JSON object of at most 4096 bytes"), lang))
                continue
            kind = message.pop("type", None)
            if kind == "ping":
                conn.send(json.dumps({"type": "pong"}))
            elif kind == "cancel":
                if entry is not None and queue.cancel(entry):
                    entry = None
                conn.send(json.dumps({"type": "cancelled"}))
            elif kind == "play_now":
                pressed = await press(queue, guest, message, name, who, may_create, sentence, tell, entry, lang)
                if isinstance(pressed, str):
                    conn.send(pressed)
                else:
                    entry = pressed
            else:
                conn.send(error("malformed", _("unknown message type {kind}", kind=repr(str(kind)[:40])), lang))
    finally:
        if entry is not None:
            queue.cancel(entry)
        conn.send(None)
        with contextlib.suppress(Exception):
            await sender
        if ws.client_state is WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def press(queue: Queue, guest: str, message: dict[str, JSON], name: Callable[[str], Awaitable[str | None]],
                who: str, may_create: Callable[[str], str | None],
                sentence: Callable[[RequestValidationError, str], str],
                tell: Callable[[dict[str, JSON] | None], None], previous: Entry | None,
                lang: str = DEFAULT) -> Entry | str:
    """Check a press of Play now and queue it in place of this connection's ``previous`` entry (gone then, even
    from a match being made for it): the new entry, or the error message that answers it in ``lang`` (nothing
    changed)."""
    try:
        body = PlayNowIn.model_validate(message)
    except ValidationError as e:
        return error("invalid", sentence(RequestValidationError(e.errors()), lang), lang)
    try:
        wanted = wanted_of(body)
        hold = queue.check(wanted, level_of(body.game, body.level), body.wait)
    except TableError as e:
        return error(e.code, said_of(e), lang)
    refused = may_create(who)  # before the wallet is read: a flood of presses costs the server nothing more
    if refused is not None:
        return error("too_many", refused, lang)
    fair = queue.hub.fair
    if wanted.stake and fair is not None and not await asyncio.to_thread(fair.accounts, [guest]):
        return error("account_needed", N_("playing for chips needs an account: claim your name (Account) first, or "
                                          "play without stakes"), lang)
    short = await asyncio.to_thread(queue.short_of, guest, hold)
    if short is not None:
        return error("short", short, lang)
    person = await name(guest)
    if person is None:
        return error("no_guest", N_("unknown guest: choose a name again"), lang)
    entry = Entry(guest, person, wanted, level_of(body.game, body.level), body.wait, tell, lang=lang)
    if previous is not None:
        queue.cancel(previous)
    try:
        queue.press(entry)
    except TableError as e:  # a cluster whose queue nobody keeps just now
        return error(e.code, said_of(e), lang)
    return entry
