"""The live tables of a server: one lock per table, its connections, its bots, and the order of every change.

:class:`Hub` is a thin front over parts with one job each:

- :mod:`~taash.web.hub.registry`: the tables in memory, by id and invite code (made, read back, let go);
- :mod:`~taash.web.hub.pipeline`: the path of one action, checked once, written, made, then sent to everyone;
- :mod:`~taash.web.hub.messages`: what each connection is sent (its own view, encoded once per seat);
- :mod:`~taash.web.hub.turns`: presence, the turn timer and each seat's extra time, on an injected clock
  (:mod:`~taash.web.hub.clock`: the real one, or a fake one tests move on);
- :mod:`~taash.web.hub.connections`: connections coming and going, who may watch;
- :mod:`~taash.web.hub.bots`: a task per table that moves for bots and for people away or out of time;
- :mod:`~taash.web.hub.records`: tables rebuilt from the database, restored after a restart, stakes settled;
- :mod:`~taash.web.hub.ending`: abandoning a table, and the sweep of idle ones;
- :mod:`~taash.web.hub.ownership`: the two seams of servers that share tables, the lease (who owns a table,
  :mod:`taash.web.lease`) and the relay (how a table another server owns is reached, :mod:`taash.web.relay`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from taash.chips.ledger import Ledger
from taash.i18n import DEFAULT
from taash.tables.adapter import Settings, TableError
from taash.tables.table import Table
from taash.web.admissions import Admissions
from taash.web.fair_play import FairPlay
from taash.web.hub.bots import Bots
from taash.web.hub.clock import Clock, FakeClock, RealClock
from taash.web.hub.connections import Connections
from taash.web.hub.ending import IDLE_TABLE_MINUTES, SWEEP_SECONDS, Endings
from taash.web.hub.live import (
    MISSED_KEPT,
    SEEN_KEPT,
    Connection,
    Encoded,
    Live,
    code_matches,
    encoded_parts,
    fingerprint,
    is_member,
)
from taash.web.hub.messages import Messages
from taash.web.hub.ownership import NoRelay, Ownership, Relay
from taash.web.hub.pipeline import MOVED, Pipeline
from taash.web.hub.records import Restore, rebuild, rebuild_or_log, result_rows
from taash.web.hub.registry import ABANDONED_AFTER, CODE_LETTERS, Registry
from taash.web.hub.turns import IDLE_AFTER, Turns
from taash.web.lease import Lease, SoleLease
from taash.web.store import Store, StoredTable

JSON = Any
log = logging.getLogger("taash.web")


class Hub:
    """Every live table of the server (the same calls as ever; each part does its own job)."""

    def __init__(self, store: Store, bot_delay: float = 0.8, away_seconds: float = 30.0, max_tables: int = 2000,
                 max_tables_per_guest: int = 10, turn_seconds: float = 30.0, ledger: Ledger | None = None,
                 extra_seconds: float = 60.0, admissions: Admissions | None = None, fair: FairPlay | None = None,
                 clock: Clock | None = None, lease: Lease | None = None, relay: Relay | None = None):
        self.store = store
        #: Who owns each table (a lone server: this one) and how the tables of others are reached (a lone server:
        #: never).
        self.lease: Lease = lease or SoleLease()
        self.relay: Relay = relay or NoRelay()
        #: Who may sit and start at a table (:mod:`taash.web.fair_play`; None: anyone, as the tables alone say).
        self.fair = fair
        self.clock: Clock = clock or RealClock()
        #: The server's websockets, counted and held to their limits (per address, per guest, players' room).
        self.admissions = admissions or Admissions()
        #: Closing: no bot moves any more, and the sweep stops.
        self.closing = False
        self.turns = Turns(self.clock, bot_delay, away_seconds, turn_seconds, extra_seconds)
        self.messages = Messages(self.turns)
        self.registry = Registry(store, self.turns, ledger, fair, max_tables, max_tables_per_guest, self.lease)
        self.bots = Bots(self.turns, self.act, lambda: self.closing)
        self.connections = Connections(self.turns, self.messages, self.schedule_bots, self.forget_if_idle)
        self.pipeline = Pipeline(store, ledger, fair, self.turns, self.messages, self.reseat, self.close_watchers,
                                 lambda live: self.settle(live), self.schedule_bots)
        self.records = Restore(store, ledger, self.registry.add)
        self.endings = Endings(store, ledger, self.clock, lambda: list(self.live.values()), self.registry.drop,
                               Bots.stop, lambda: self.closing)
        self.ownership = Ownership(self.lease, self.registry, self.schedule_bots, lambda: self.closing,
                                   self.finish_taken)

    # -- settings, as they always were read ---------------------------------------------------------------------

    @property
    def ledger(self) -> Ledger | None:
        """The books of the server's chips (None: no table may have stakes); set here, every part uses it."""
        return self.pipeline.ledger

    @ledger.setter
    def ledger(self, ledger: Ledger | None) -> None:
        self.pipeline.ledger = self.registry.ledger = self.records.ledger = self.endings.ledger = ledger

    @property
    def bot_delay(self) -> float:
        return self.turns.bot_delay

    @property
    def away_seconds(self) -> float:
        return self.turns.away_seconds

    @property
    def turn_seconds(self) -> float:
        return self.turns.turn_seconds

    @property
    def extra_seconds(self) -> float:
        return self.turns.extra_seconds

    @property
    def max_tables(self) -> int:
        return self.registry.max_tables

    @property
    def max_tables_per_guest(self) -> int:
        return self.registry.max_tables_per_guest

    @property
    def live(self) -> dict[str, Live]:
        return self.registry.live

    @property
    def codes(self) -> dict[str, str]:
        return self.registry.codes

    @property
    def connection_count(self) -> int:
        """Websockets open (or being opened) on this server: tables' and the Play now queue's."""
        return self.admissions.open

    # -- tables: the registry, restore and settlement, ending ---------------------------------------------------

    def restore(self) -> int:
        """Load every unfinished table from the database (after a restart); returns how many tables are in
        memory. Every staked match still held is closed as its table says. A server among several restores
        nothing: it takes the tables whose owner died as their leases lapse (:class:`Ownership`)."""
        if isinstance(self.lease, SoleLease):
            self.records.restore()
        return len(self.live)

    async def finish_taken(self, live: Live) -> None:
        """Write the end of a finished match whose owner died before writing it (its status, results and
        settlement), under the table's lease so that one server does it; the ledger settles a match once."""
        table_id = live.table.id
        claim = await asyncio.to_thread(self.lease.claim, table_id)
        if not claim.owned:
            return
        try:
            live.epoch = claim.epoch
            log.info("table %s: its match had ended on a server that died; its end is written here", table_id)
            await self.pipeline.store_status(live, None)
        finally:
            await asyncio.to_thread(self.lease.release, table_id)

    def close_held_matches(self) -> int:
        return self.records.close_held_matches()

    def settle(self, live: Live) -> None:
        """Pay out a finished staked match (a worker thread's call)."""
        self.records.settle(live)

    async def abandon(self, live: Live, still: Callable[[Live], bool] | None = None,
                      reason: str = "the table was abandoned", guest: str | None = None, quiet: float = 0.0) -> bool:
        """Abandon ``live`` (:meth:`Endings.abandon`). At a table another server owns, its creator ``guest``'s
        abandon is sent to the owner, which checks it again (:func:`~taash.web.hub.ending.abandon_refusal`, a staked
        match in play ``quiet`` seconds without a move); a ``still`` cannot be sent: refused as moved."""
        if live.owner is not None:
            if still is not None:
                raise TableError(MOVED, "moved")
            return await self.relay.abandon(live, guest, quiet)
        return await self.endings.abandon(live, still, reason)

    def idle(self, live: Live, idle_seconds: float, now: float | None = None) -> bool:
        return self.endings.idle(live, idle_seconds, now)

    async def sweep(self, idle_seconds: float, now: float | None = None) -> int:
        return await self.endings.sweep(idle_seconds, now)

    async def sweep_forever(self, every: float, idle_seconds: float) -> None:
        await self.endings.sweep_forever(every, idle_seconds)

    def _add(self, table: Table, stored: StoredTable | None = None, spent: dict[int, float] | None = None) -> Live:
        return self.registry.add(table, stored, spent)

    def account_claimed(self, guest: str) -> None:
        self.registry.account_claimed(guest)

    def get(self, table_id: str) -> Live | None:
        return self.registry.get(table_id)

    async def find(self, table_id: str) -> Live | None:
        return await self.registry.find(table_id)

    async def find_by_code(self, code: str) -> Live | None:
        return await self.registry.find_by_code(code)

    def forget_if_idle(self, live: Live) -> None:
        self.registry.forget_if_idle(live)

    def forget_abandoned(self, idle_seconds: float = ABANDONED_AFTER) -> int:
        return self.registry.forget_abandoned(idle_seconds)

    async def create(self, settings: Settings, owner: str | None, stake: int = 0) -> Live:
        return await self.registry.create(settings, owner, stake)

    def public_tables(self) -> list[dict[str, JSON]]:
        return self.registry.public_tables()

    # -- actions and messages -----------------------------------------------------------------------------------

    async def act(self, live: Live, action: dict[str, JSON], guest: str | None, client_id: str | None = None,
                  version: int | None = None, lapsed: int | None = None, away: bool = False) -> int:
        """One action through :class:`~taash.web.hub.pipeline.Pipeline` (at a table another server owns, through
        the relay to it); returns the version it made."""
        if live.owner is not None:
            return await self.relay.act(live, action, guest, client_id, version)
        try:
            return await self.pipeline.act(live, action, guest, client_id, version, lapsed, away)
        except TableError as e:
            if e.code == "moved" and live.epoch is not None:  # fenced: another server took the table
                self.ownership.fenced(live.table.id)
            raise

    async def store_deals(self, live: Live) -> None:
        await self.pipeline.store_deals(live)

    def message_for(self, live: Live, seat: int | None, kind: str, guest: str | None = None, lang: str = DEFAULT,
                    **extra: JSON) -> str:
        return self.messages.message_for(live, seat, kind, guest, lang, **extra)

    def broadcast(self, live: Live, said: str) -> None:
        self.messages.broadcast(live, said)

    def send_presence(self, live: Live) -> None:
        self.messages.send_presence(live)

    # -- presence and the turn's time ---------------------------------------------------------------------------

    def presence(self, live: Live) -> list[dict[str, bool]]:
        return self.turns.presence(live)

    def timer(self, live: Live) -> dict[str, JSON] | None:
        return self.turns.timer(live)

    def end_turn(self, live: Live, seat: int | None, bank: float | None) -> None:
        self.turns.end_turn(live, seat, bank)

    def bank_left(self, live: Live, seat: int) -> float:
        return self.turns.bank_left(live, seat)

    def bank_at(self, live: Live, seat: int | None, moment: float, away: bool = False) -> float | None:
        return self.turns.bank_at(live, seat, moment, away)

    def left_to_bots(self, live: Live, guest: str | None) -> bool:
        return self.turns.left_to_bots(live, guest)

    def acted(self, live: Live, seat: int | None) -> bool:
        return self.turns.acted(live, seat)

    # -- connections --------------------------------------------------------------------------------------------

    def may_watch(self, live: Live, guest: str | None, code: str | None = None) -> bool:
        return self.connections.may_watch(live, guest, code)

    def close_watchers(self, live: Live, reason: str) -> None:
        self.connections.close_watchers(live, reason)

    def join(self, live: Live, guest: str | None, since: int | None, lang: str = DEFAULT) -> Connection:
        return self.connections.join(live, guest, since, lang)

    def leave(self, live: Live, conn: Connection) -> None:
        self.connections.leave(live, conn)

    def back(self, live: Live, seat: int) -> None:
        self.connections.back(live, seat)

    def reseat(self, live: Live) -> None:
        """After a sit or a leave: each connection's seat follows its guest, and the away seats (the pipeline marks
        the accounts)."""
        self.turns.reseat(live)

    # -- bots ---------------------------------------------------------------------------------------------------

    def schedule_bots(self, live: Live) -> None:
        self.bots.schedule(live)

    def on_match_end(self, told: Callable[[Live], None]) -> None:
        """Tell ``told`` of every match that ends at a table of this hub (its results written; a call on the
        event loop, under the table's lock: it must not wait)."""
        self.pipeline.ended.append(told)

    async def close(self) -> None:
        self.closing = True
        for live in self.live.values():
            Bots.stop(live)
            for conn in list(live.connections):
                conn.send(None)


__all__ = [
    "ABANDONED_AFTER", "CODE_LETTERS", "IDLE_AFTER", "IDLE_TABLE_MINUTES", "MISSED_KEPT", "SEEN_KEPT",
    "SWEEP_SECONDS", "Clock", "Connection", "Encoded", "FakeClock", "Hub", "Live", "NoRelay", "RealClock", "Relay",
    "code_matches", "encoded_parts", "fingerprint", "is_member", "rebuild", "rebuild_or_log", "result_rows",
]
