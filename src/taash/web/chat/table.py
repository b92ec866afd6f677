"""The chat at a table, over the table's websocket: the players' channel and the watchers' (who do not hear each
other; a private table's watchers get nothing and cannot speak), the lines sent to whoever joins, the word filter a
private table's creator may switch off, and the bots, who answer an emote now and then and never chat otherwise."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from taash.i18n import N_
from taash.web.chat.phrases import BOT_ANSWERS
from taash.web.chat.room import PLAYERS, WATCHERS, Chat, ChatError, ChatLine, Said, Speaker, read_said
from taash.web.hub.live import Connection, Live

JSON = Any
#: The messages of the table's websocket that are the chat's.
TABLE_CHAT = ("chat", "chat_filter")
#: A table's bots answer at most one emote in this many seconds, and then only some of them.
BOT_QUIET_SECONDS = 20.0
BOT_ANSWER_CHANCE = 0.5


def table_room(live: Live) -> str:
    return f"table:{live.table.id}"


def channel_of(live: Live, conn: Connection) -> str | None:
    """The channel a connection talks and listens in: a seated player's, a public table's watchers', or none (a
    private table's watchers)."""
    if conn.seat is not None:
        return PLAYERS
    return WATCHERS if live.table.settings.public else None


def deliver(chat: Chat, live: Live, line: ChatLine) -> None:
    """Send a line to every open connection of its channel that :meth:`Chat.may_hear` its speaker."""
    message = json.dumps(line.message(), separators=(",", ":"), ensure_ascii=False)
    for conn in list(live.connections):
        if conn.close_code == 1000 and channel_of(live, conn) == line.channel \
                and chat.may_hear(conn.guest, line.speaker.guest):
            conn.send(message)


async def send_history(chat: Chat, live: Live, conn: Connection) -> None:
    """Tell a new connection its channel's recent lines and the word filter, when there is anything to tell (a
    table nobody has chatted at, with its filter on, sends nothing)."""
    channel = channel_of(live, conn)
    if channel is None:
        return
    room = await chat.room(table_room(live))
    lines = [line.message() for line in room.recent
             if line.channel == channel and chat.may_hear(conn.guest, line.speaker.guest)]
    if lines or not room.filter_on:
        conn.send(json.dumps({"type": "chat_history", "lines": lines, "filter": room.filter_on},
                             separators=(",", ":"), ensure_ascii=False))


@dataclass(slots=True)
class BotAnswers:
    """When a table's bots answer an emote: at most one answer every :data:`BOT_QUIET_SECONDS`, and then with
    :data:`BOT_ANSWER_CHANCE`, by a bot chosen at random; the random numbers come from the room's key (the same
    table answers the same way every time), or from ``seeded`` (tests)."""

    clock: Callable[[], float]
    seeded: Callable[[str], random.Random] = lambda key: random.Random(f"chat {key}")
    rngs: dict[str, random.Random] = field(default_factory=dict)
    last: dict[str, float] = field(default_factory=dict)

    def answer(self, live: Live, line: ChatLine) -> tuple[Speaker, Said] | None:
        """A bot's answer to ``line``, or None: only to a person's emote in the players' channel."""
        bots = [i for i, seat in enumerate(live.table.seats) if seat.bot]
        if line.said.kind != "emote" or line.channel != PLAYERS or line.speaker.guest is None or not bots:
            return None
        now = self.clock()
        if now - self.last.get(line.room, float("-inf")) < BOT_QUIET_SECONDS:
            return None
        rng = self.rngs.setdefault(line.room, self.seeded(line.room))
        for kept in (self.rngs, self.last):  # the tables talked at lately, not every table ever
            if len(kept) > 5000:
                del kept[next(iter(kept))]
        if rng.random() >= BOT_ANSWER_CHANCE:
            return None
        self.last[line.room] = now
        seat = rng.choice(bots)
        return Speaker(None, live.table.seats[seat].name, seat), Said("emote", BOT_ANSWERS[line.said.body])


def speaker_at(live: Live, conn: Connection, name_of: Callable[[str], str | None]) -> Speaker:
    """Who speaks on a connection: a seated player by his seat's name; a watcher by his guest's name."""
    if conn.guest is None:
        raise ChatError("no_guest", N_("choose a name first to chat"))
    if conn.seat is not None:
        return Speaker(conn.guest, live.table.seats[conn.seat].name, conn.seat)
    name = name_of(conn.guest)
    if name is None:
        raise ChatError("no_guest", N_("choose a name first to chat"))
    return Speaker(conn.guest, name, None)


async def answer_chat(chat: Chat, bots: BotAnswers, live: Live, conn: Connection, message: dict[str, JSON],
                      name_of: Callable[[str], str | None]) -> None:
    """A chat message of a table's connection: a line said (delivered, and perhaps a bot's answer) or the word
    filter switched; a :class:`ChatError` says why not, and nothing changed."""
    if message.get("type") == "chat_filter":
        await switch_filter(chat, live, conn, message.get("on"))
        return
    channel = channel_of(live, conn)
    if channel is None:
        raise ChatError("forbidden", N_("a private table: its watchers cannot chat"))
    said = read_said(message)
    line = await chat.say(table_room(live), channel, speaker_at(live, conn, name_of), said)
    deliver(chat, live, line)
    answer = bots.answer(live, line)
    if answer is not None:
        deliver(chat, live, await chat.say(line.room, PLAYERS, *answer))


async def switch_filter(chat: Chat, live: Live, conn: Connection, on: object) -> None:
    """The word filter on or off: only a private table's creator may, and the players are told."""
    if not isinstance(on, bool):
        raise ChatError("malformed", N_("on must be true or false"))
    if live.table.settings.public or conn.guest is None or conn.guest != live.table.owner:
        raise ChatError("forbidden", N_("only a private table's creator may switch its word filter"))
    await chat.set_filter(table_room(live), on)
    told = json.dumps({"type": "chat_filter", "on": on})
    for other in list(live.connections):
        if other.close_code == 1000 and channel_of(live, other) is not None:
            other.send(told)
