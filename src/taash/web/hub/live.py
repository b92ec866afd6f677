"""What the hub keeps of each live table: the table itself, its lock, its connections and their queues, and the
bookkeeping beside it (the turn's clock, the seats' extra time, who is away, what each connection missed)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from taash.i18n import DEFAULT
from taash.tables.table import Table

JSON = Any
#: Actions kept in memory per table for reconnecting clients (older ones get a snapshot instead).
MISSED_KEPT = 200
#: Client message ids remembered per table, to apply a repeated message once.
SEEN_KEPT = 2000


@dataclass(eq=False)
class Connection:
    """One websocket: who it is, where it sits (None: spectator), and its outgoing queue."""

    guest: str | None
    seat: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(maxsize=256))
    #: The last version this connection was sent.
    version: int = 0
    close_code: int = 1000
    close_reason: str = ""
    #: The language its reader asked for (``?lang=``): the sentences of the table are said to it in that language.
    lang: str = DEFAULT

    def send(self, message: str | None) -> None:
        """Queue a message; None closes the connection once what is queued before it is sent."""
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:  # a reader this far behind is dropped; it reconnects and resumes
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)


@dataclass(eq=False)
class Live:
    """A table in memory with what the hub keeps beside it."""

    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    #: (version, said) of recent actions, for reconnecting clients.
    missed: list[tuple[int, str]] = field(default_factory=list)
    #: (guest, client message id) -> the version its action made, and the action (as :func:`fingerprint`).
    seen: OrderedDict[tuple[str | None, str], tuple[int, str]] = field(default_factory=OrderedDict)
    #: seat -> monotonic time since which its person has had no open connection.
    away_since: dict[int, float] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    #: The table version the bot task was started for, and when (monotonic) it wakes.
    bot_version: int = -1
    bot_due: float = 0.0
    #: Monotonic time (the hub's clock) of the last action or connection (to tell an abandoned waiting table).
    last_active: float = 0.0
    #: How many of the table's deals the database holds.
    deals_stored: int = 0
    #: When the seat to move began its turn: monotonic (for the timer) and wall-clock (the deadline told).
    turn_since: float = 0.0
    turn_since_wall: float = 0.0
    #: seat -> seconds left of its extra time for the match when its turn in progress (or its next) began (absent:
    #: all of it), spent once a turn's own run out. Each action stores what the seat to move had spent by then, and
    #: a restart takes it from there (see :func:`rebuild`).
    bank: dict[int, float] = field(default_factory=dict)
    #: seat -> turns in a row its person let run out and a bot played (a game with no timeout move: Seep).
    timeouts: dict[int, int] = field(default_factory=dict)
    #: Seats a bot plays at once, their person having let IDLE_AFTER turns in a row run out, until he acts again.
    idle: set[int] = field(default_factory=set)
    #: Chips the match is played for (0: no stakes).
    stake: int = 0
    #: Abandoned: the table takes no more actions (one that waited for the lock is refused).
    gone: bool = False
    #: The seated people who have an account (their seats are marked as accounts' where names show).
    accounts: set[str] = field(default_factory=set)
    #: The table's public state (:meth:`Table.public_state`) whose parts :attr:`encoded` holds, and those parts.
    encoded_from: object = None
    encoded: Encoded | None = None
    #: The epoch of this server's lease on the table, which fences its writes (None: a lone server's table).
    epoch: int | None = None
    #: Another server owns the table (its id): this is only a view read from the database, whose actions and
    #: connections go to the owner through the relay (:mod:`taash.web.relay`). None: the table is this server's.
    owner: str | None = None

    def seat_connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)


@dataclass(slots=True)
class Encoded:
    """The lists and objects of a table's public state, each encoded once for all its messages at a version: at
    the top of the state, and in its deal."""

    top: dict[str, orjson.Fragment]
    deal: dict[str, orjson.Fragment]


def encoded_parts(public: Mapping[str, JSON]) -> Encoded:
    def parts(state: Mapping[str, JSON], leave: str = "") -> dict[str, orjson.Fragment]:
        return {key: orjson.Fragment(orjson.dumps(value)) for key, value in state.items()
                if key != leave and isinstance(value, (list, dict))}

    deal = public.get("deal")
    return Encoded(parts(public, "deal"), parts(deal) if isinstance(deal, dict) else {})


def fingerprint(action: dict[str, JSON]) -> str:
    """An action as canonical JSON, to tell a message sent again from another one under the same id."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def is_member(live: Live, guest: str | None) -> bool:
    """Whether ``guest`` is one of the table's own: its creator or a person seated at it."""
    table = live.table
    return guest is not None and (guest == table.owner or table.seat_of(guest) is not None)


def code_matches(live: Live, code: str | None) -> bool:
    """Whether ``code`` is the table's invite code (in any case), compared in constant time."""
    return code is not None and len(code) <= 12 and secrets.compare_digest(code.upper().encode(),
                                                                             live.table.code.encode())
