"""Chat rooms: a room is a key (a table's is ``table:<id>``; a tournament's can be another key) with channels that
do not hear each other (players, watchers). :class:`Chat` checks what a person says (its length, his rate on an
injected clock, the word filter), keeps it in the database and in the room's recent lines, and says who may hear
whom through one predicate, :meth:`Chat.may_hear`. Who listens in which channel is the caller's (a table's
connections: :mod:`taash.web.chat.table`)."""

from __future__ import annotations

import asyncio
import re
import secrets
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from taash.i18n import N_, _
from taash.web.chat.phrases import EMOTES, PHRASES
from taash.web.chat.rows import ChatLineRow, ChatReportRow, ChatRoomRow
from taash.web.chat.words import censor
from taash.web.hub.clock import Clock, RealClock
from taash.web.store import Store

JSON = Any
PLAYERS, WATCHERS = "players", "watchers"
#: The longest text line, in characters.
MAX_TEXT = 200
#: Lines a person may say in a room in :data:`RATE_SECONDS` seconds.
RATE_COUNT, RATE_SECONDS = 5, 10.0
#: Recent lines a room keeps in memory, sent to whoever joins.
HISTORY_KEPT = 50
#: What a chat message carries: exactly one of these.
KINDS = ("text", "phrase", "emote")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u2028\u2029]")

#: ``(listener, speaker) -> True`` when the listener has blocked the speaker (guest ids).
Blocked = Callable[[str, str], bool]


class ChatError(ValueError):
    """A chat message refused, with its code and one sentence; nothing was said."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Said:
    """What a message says: a text, a quick phrase's id or an emote's id."""

    kind: str
    body: str


@dataclass(frozen=True, slots=True)
class Speaker:
    guest: str | None  # None: a bot
    name: str
    seat: int | None  # None: a watcher


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A line said in a room, as every listener of its channel is told it."""

    id: str
    room: str
    channel: str
    speaker: Speaker
    said: Said
    at: float  # wall-clock seconds

    def message(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"type": "chat", "line": self.id, "channel": self.channel,
                                "from": self.speaker.guest, "name": self.speaker.name, "seat": self.speaker.seat,
                                self.said.kind: self.said.body, "at": round(self.at, 3)}
        if self.speaker.guest is None:
            out["bot"] = True
        return out

    @classmethod
    def of_row(cls, row: ChatLineRow) -> ChatLine:
        at = row.said_at if row.said_at.tzinfo else row.said_at.replace(tzinfo=UTC)
        return cls(row.id, row.room, row.channel, Speaker(row.speaker, row.name, row.seat), Said(row.kind, row.body),
                   at.timestamp())

    def row(self) -> ChatLineRow:
        return ChatLineRow(id=self.id, room=self.room, channel=self.channel, speaker=self.speaker.guest,
                           name=self.speaker.name, seat=self.speaker.seat, kind=self.said.kind, body=self.said.body,
                           said_at=datetime.fromtimestamp(self.at, UTC))


def read_said(message: Mapping[str, JSON]) -> Said:
    """What a client's chat message says, checked (a :class:`ChatError` says what is wrong)."""
    given = [kind for kind in KINDS if kind in message]
    if len(given) != 1:
        raise ChatError("malformed", N_("a chat message has one of text, phrase or emote"))
    kind = given[0]
    value = message[kind]
    if not isinstance(value, str):
        raise ChatError("malformed", f"{kind} must be a string")
    if kind == "phrase" and value not in PHRASES:
        raise ChatError("malformed", f"no quick phrase {value[:40]!r}")
    if kind == "emote" and value not in EMOTES:
        raise ChatError("malformed", f"no emote {value[:40]!r}")
    if kind != "text":
        return Said(kind, value)
    text = " ".join(_CONTROL.sub(" ", value).split())
    if not text:
        raise ChatError("chat_empty", N_("say something: the message is empty"))
    if len(text) > MAX_TEXT:
        raise ChatError("chat_too_long", _("a chat message may be at most {n} characters", n=MAX_TEXT))
    return Said("text", text)


class RateLimit:
    """At most ``count`` lines in any ``seconds`` per person (a sliding window on the clock given)."""

    def __init__(self, clock: Callable[[], float], count: int = RATE_COUNT, seconds: float = RATE_SECONDS,
                 kept: int = 10_000):
        self.clock, self.count, self.seconds, self.kept = clock, count, seconds, kept
        self.said: dict[str, deque[float]] = {}

    def spend(self, who: str) -> None:
        """Count a line of ``who``'s, or refuse it (:class:`ChatError`, nothing counted)."""
        now = self.clock()
        times = self.said.pop(who, None) or deque()
        while times and times[0] <= now - self.seconds:
            times.popleft()
        self.said[who] = times  # the most recent speaker last: the oldest are forgotten first
        if len(times) >= self.count:
            raise ChatError("chat_rate", _("at most {count} chat messages in {seconds} seconds: wait a little",
                                           count=self.count, seconds=f"{self.seconds:g}"))
        times.append(now)
        if len(self.said) > self.kept:
            del self.said[next(iter(self.said))]


@dataclass(slots=True)
class Room:
    key: str
    filter_on: bool = True
    recent: deque[ChatLine] = field(default_factory=lambda: deque(maxlen=HISTORY_KEPT))


class Chat:
    """Every chat room of a server, over its database."""

    def __init__(self, store: Store, clock: Clock | None = None, blocked: Blocked | None = None,
                 rate_count: int = RATE_COUNT, rate_seconds: float = RATE_SECONDS, max_rooms: int = 5000):
        self.store = store
        self.clock: Clock = clock or RealClock()
        #: The block list (the social part's): a listener never hears a person he blocked.
        self.blocked = blocked
        self.limits = RateLimit(self.clock.monotonic, rate_count, rate_seconds)
        self.rooms: dict[str, Room] = {}
        self.max_rooms = max_rooms

    def may_hear(self, listener: str | None, speaker: str | None) -> bool:
        """Whether ``listener`` is told what ``speaker`` says (guest ids; None: a bot, or a listener with no
        name). Every line reaches every listener through this one predicate: a person always hears himself, and
        nobody hears a person he blocked."""
        if listener is None or speaker is None or listener == speaker:
            return True
        return self.blocked is None or not self.blocked(listener, speaker)

    async def room(self, key: str) -> Room:
        """The room of ``key``, its settings and recent lines read from the database the first time."""
        found = self.rooms.get(key)
        if found is None:
            found = await asyncio.to_thread(self._load, key)
            found = self.rooms.setdefault(key, found)
            while len(self.rooms) > self.max_rooms:
                del self.rooms[next(iter(self.rooms))]
        return found

    def _load(self, key: str) -> Room:
        with Session(self.store.engine) as s:
            settings = s.get(ChatRoomRow, key)
            rows = s.scalars(select(ChatLineRow).where(ChatLineRow.room == key)
                             .order_by(ChatLineRow.said_at.desc(), ChatLineRow.id).limit(HISTORY_KEPT)).all()
        room = Room(key, True if settings is None else settings.filter_on)
        room.recent.extend(ChatLine.of_row(row) for row in reversed(rows))
        return room

    async def say(self, key: str, channel: str, speaker: Speaker, said: Said) -> ChatLine:
        """Say ``said`` in a room's channel: counted against the speaker's rate (a bot's is not: bots answer
        sparingly on their own), filtered, kept; returns the line to deliver."""
        room = await self.room(key)
        if speaker.guest is not None:
            self.limits.spend(f"{key} {speaker.guest}")
        if said.kind == "text" and room.filter_on:
            said = Said("text", censor(said.body))
        line = ChatLine(secrets.token_hex(8), key, channel, speaker, said, self.clock.time())
        row = line.row()
        await self.store.write(lambda s: s.add(row))
        room.recent.append(line)
        return line

    async def set_filter(self, key: str, on: bool) -> None:
        room = await self.room(key)

        def keep(s: Session) -> None:
            s.merge(ChatRoomRow(room=key, filter_on=on))

        await self.store.write(keep)
        room.filter_on = on

    def lines(self, key: str, channel: str) -> list[ChatLine]:
        """Every line of a room's channel, oldest first (from the database: for replays)."""
        with Session(self.store.engine) as s:
            rows = s.scalars(select(ChatLineRow).where(ChatLineRow.room == key, ChatLineRow.channel == channel)
                             .order_by(ChatLineRow.said_at, ChatLineRow.id)).all()
            return [ChatLine.of_row(row) for row in rows]

    def line(self, line_id: str) -> ChatLine | None:
        if not re.fullmatch(r"[0-9a-f]{16}", line_id):
            return None
        with Session(self.store.engine) as s:
            row = s.get(ChatLineRow, line_id)
            return None if row is None else ChatLine.of_row(row)

    async def report(self, line: ChatLine, reporter: str) -> bool:
        """Keep ``reporter``'s report of ``line`` for the operator; False when he had reported it already."""
        def exists() -> bool:
            with Session(self.store.engine) as s:
                return s.scalar(select(ChatReportRow.id).where(ChatReportRow.line_id == line.id,
                                                               ChatReportRow.reporter == reporter)) is not None

        if await asyncio.to_thread(exists):
            return False
        at = datetime.fromtimestamp(self.clock.time(), UTC)
        try:
            await self.store.write(lambda s: s.add(ChatReportRow(line_id=line.id, reporter=reporter, reported_at=at)))
        except IntegrityError:  # the same report at the same moment, twice
            return False
        return True
