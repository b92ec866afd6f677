"""Which server process owns a table: what the hub's "lease" seam asks (:attr:`taash.web.hub.Hub.lease`).

A lone server (the default, on SQLite or PostgreSQL) owns every table it opens: :class:`SoleLease` says so and
fences nothing, so its path is exactly the one it always was. Servers that share a database (``taash serve
--redis-url``) take each table under a lease, :class:`DatabaseLease`, a row of ``table_leases``: its owner, an
epoch that each new owner moves on, and the second it lapses. The owner renews all its leases every second or so;
when a server dies (``kill -9``) its leases lapse and another server takes the tables (see :meth:`lapsed`). Every
action the owner writes carries its epoch, and the database refuses one whose epoch is no longer the lease's
(:func:`fence`): a conditional UPDATE of the lease row, so that a server that lost its lease (a pause, a network
cut) can no longer write, whatever it believes.

Why an UPDATE and not a read: the writer's UPDATE locks the lease row until its transaction commits, so a server
taking the table waits for it, and then reads the table with that action in it; a takeover that commits first moves
the epoch, and the writer's UPDATE then matches no row and the whole transaction (the action with it) is rolled
back.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Select, Table, and_, bindparam, create_engine, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine

from taash.chips.books import ESCROW, PENDING, AccountRow
from taash.web.db import LeaseRow, TableRow

#: Seconds a lease lasts unless renewed (another server takes the table within this and one scan); ``taash serve
#: --lease-seconds``.
LEASE_SECONDS = 3.0
#: Seconds between two renewals (and two scans for lapsed leases): a third of the lease's.
RENEW_SECONDS = LEASE_SECONDS / 3
#: The shortest and longest lease ``taash serve --lease-seconds`` takes.
LEASE_RANGE = (0.3, 600.0)


def renew_period(lease_seconds: float) -> float:
    """Seconds between two renewals of leases lasting ``lease_seconds``: a third of them, so that two renewals
    in a row may fail (or be late) before a lease lapses."""
    return lease_seconds / 3


def _leases() -> Table:
    leases = LeaseRow.__table__
    assert isinstance(leases, Table)
    return leases


class LeaseLost(Exception):
    """A write fenced by an epoch that is no longer the table's lease's: another server owns the table now."""


@dataclass(frozen=True, slots=True)
class Claim:
    """What asking for a table's lease gave: ``epoch`` when this server owns it now (None: a lone server, which
    fences nothing), else the ``owner`` server that does."""

    owned: bool
    epoch: int | None = None
    owner: str | None = None


class Lease(Protocol):
    """The hub's seam for ownership: who owns a table, and keeping what this server owns."""

    server: str

    def claim(self, table_id: str) -> Claim: ...

    def release(self, table_id: str) -> None: ...

    def renew(self) -> set[str]: ...

    def lapsed(self, limit: int = 50) -> list[str]: ...

    def unheld_among(self, ids: Select[Any], limit: int = 50) -> list[str]: ...

    def owner(self, table_id: str) -> str | None: ...

    def hand_over(self) -> None: ...

    def forget(self, table_id: str) -> None: ...


class SoleLease:
    """A lone server: every table it opens is its own, and nothing is fenced."""

    server = "sole"

    def claim(self, table_id: str) -> Claim:
        return Claim(True)

    def release(self, table_id: str) -> None:
        return None

    def renew(self) -> set[str]:
        return set()

    def lapsed(self, limit: int = 50) -> list[str]:
        return []

    def unheld_among(self, ids: Select[Any], limit: int = 50) -> list[str]:
        return []

    def owner(self, table_id: str) -> str | None:
        return self.server

    def hand_over(self) -> None:
        return None

    def forget(self, table_id: str) -> None:
        return None


class DatabaseLease:
    """Leases kept in the shared database, one row per table (``table_leases``), for the server ``server``.

    ``clock`` reads wall-clock seconds (tests give a fake one); servers on several machines need their clocks set
    (NTP): a skewed clock only takes a table early or late, never lets two servers write (the epoch fences).
    :meth:`renew` runs on a thread of its own (:class:`taash.web.hub.ownership.Renewer`), the rest on the event
    loop or worker threads: what this server holds is kept under a lock."""

    def __init__(self, engine: Engine, server: str, seconds: float = LEASE_SECONDS,
                 clock: Callable[[], float] = time.time):
        self.engine = engine
        #: On PostgreSQL, renewals have a connection of their own: under load the server's requests can hold every
        #: connection of the shared pool for longer than a lease lasts, and a renewal waiting for one let leases
        #: lapse (a server then loses tables it is serving). Made at the first renewal.
        self._renewals: Engine | None = None
        self.server = server
        self.seconds = seconds
        self.clock = clock
        #: table id -> the epoch of the lease this server holds.
        self.held: dict[str, int] = {}
        self._lock = threading.Lock()

    def claim(self, table_id: str) -> Claim:
        """Take the table's lease if nobody holds it (a new table, one let go, or one whose owner stopped renewing);
        else who holds it."""
        with self._lock:
            epoch = self.held.get(table_id)
        if epoch is not None:
            return Claim(True, epoch)
        now = self.clock()
        leases = _leases()
        with self.engine.begin() as c:
            epoch = self._take(c, table_id, now)
            if epoch is None:
                row = c.execute(select(leases.c.server, leases.c.until).where(leases.c.table_id == table_id)).first()
                if row is None:  # inserted and taken by another server meanwhile, and gone: ask again later
                    return Claim(False, owner=None)
                if row.server == self.server:  # claimed by another thread of this server meanwhile
                    with self._lock:
                        epoch = self.held.get(table_id)
                    if epoch is not None:
                        return Claim(True, epoch)
                return Claim(False, owner=row.server)
        with self._lock:
            self.held[table_id] = epoch
        return Claim(True, epoch)

    def _take(self, c: Connection, table_id: str, now: float) -> int | None:
        leases = _leases()
        until = now + self.seconds
        taken = c.execute(update(leases).where(leases.c.table_id == table_id, leases.c.until < now)
                          .values(server=self.server, epoch=leases.c.epoch + 1, until=until)
                          .returning(leases.c.epoch)).first()
        if taken is not None:
            return int(taken.epoch)
        new = {"table_id": table_id, "server": self.server, "epoch": 1, "until": until}
        dialect = pg_insert if c.dialect.name == "postgresql" else sqlite_insert
        inserted = c.execute(dialect(leases).values(**new).on_conflict_do_nothing().returning(leases.c.epoch)).first()
        return None if inserted is None else 1  # None: another server holds it (or took it meanwhile)

    def release(self, table_id: str) -> None:
        """Let a table go (it left this server's memory): any server may take it at once."""
        with self._lock:
            epoch = self.held.pop(table_id, None)
        if epoch is None:
            return
        leases = _leases()
        with self.engine.begin() as c:
            c.execute(update(leases).where(leases.c.table_id == table_id, leases.c.epoch == epoch)
                      .values(server=None, until=0.0))

    def renew(self) -> set[str]:
        """Renew every lease this server holds; returns the tables whose lease it has lost (another server took
        them after this one failed to renew in time), which it must let go of at once. A table claimed or let go
        meanwhile (on the event loop) is left as it is."""
        with self._lock:
            held = dict(self.held)
        if not held:
            return set()
        leases = _leases()
        until = self.clock() + self.seconds
        with self._renewing().begin() as c:
            # The rows locked in the tables' order, as fence() locks them: a renewal and a batch of writes never
            # wait for each other in a cycle (PostgreSQL found such deadlocks; SQLite locks the whole database).
            c.execute(select(leases.c.table_id).where(leases.c.server == self.server,
                                                       leases.c.table_id.in_(bindparam("ids", expanding=True)))
                      .order_by(leases.c.table_id).with_for_update(), {"ids": list(held)})
            kept = {row.table_id for row in c.execute(
                update(leases).where(leases.c.server == self.server,
                                     leases.c.table_id.in_(bindparam("ids", expanding=True)))
                .values(until=until).returning(leases.c.table_id, leases.c.epoch), {"ids": list(held)})
                if held.get(row.table_id) == row.epoch}
        with self._lock:
            lost = {t for t, epoch in held.items() if t not in kept and self.held.get(t) == epoch}
            for table_id in lost:
                del self.held[table_id]
        return lost

    def _renewing(self) -> Engine:
        """The engine renewals use (see ``_renewals``); SQLite's one file is shared by every connection anyway."""
        if self.engine.dialect.name != "postgresql":
            return self.engine
        if self._renewals is None:
            self._renewals = create_engine(self.engine.url, pool_size=1, max_overflow=0, pool_pre_ping=True)
        return self._renewals

    def lapsed(self, limit: int = 50) -> list[str]:
        """Tables whose owner stopped renewing (a server that died): the ones to take over. Unfinished ones, and
        finished ones whose stakes are still held (the owner died between writing the match's end and settling
        it: the taker settles it)."""
        leases, tables, accounts = _leases(), TableRow.__table__, AccountRow.__table__
        held = select(accounts.c.table_id).where(accounts.c.kind == ESCROW, accounts.c.state == PENDING)
        with self.engine.connect() as c:
            rows = c.execute(select(leases.c.table_id).join(tables, tables.c.id == leases.c.table_id)
                             .where(leases.c.server.is_not(None), leases.c.until < self.clock(),
                                    or_(tables.c.status.in_(("waiting", "playing")),
                                        and_(tables.c.status == "finished", tables.c.id.in_(held))))
                             .order_by(leases.c.until).limit(limit))
            return [row.table_id for row in rows]

    def unheld_among(self, ids: Select[Any], limit: int = 50) -> list[str]:
        """Finished tables among ``ids`` (a select of table ids: those with an open rematch offer) that no server
        holds now (their owner died, stopped, or let them go) and whose stakes are settled (a match's end is
        written first, by :meth:`lapsed`'s taker): the ones whose offer a live server takes up."""
        leases, tables, accounts = _leases(), TableRow.__table__, AccountRow.__table__
        held = select(accounts.c.table_id).where(accounts.c.kind == ESCROW, accounts.c.state == PENDING)
        with self.engine.connect() as c:
            rows = c.execute(select(leases.c.table_id).join(tables, tables.c.id == leases.c.table_id)
                             .where(or_(leases.c.server.is_(None), leases.c.until < self.clock()),
                                    tables.c.status == "finished", leases.c.table_id.in_(ids),
                                    tables.c.id.not_in(held))
                             .order_by(leases.c.until).limit(limit))
            return [row.table_id for row in rows]

    def owner(self, table_id: str) -> str | None:
        """The server that holds the table's lease now (None: nobody, or it lapsed)."""
        with self._lock:
            if table_id in self.held:
                return self.server
        leases = _leases()
        with self.engine.connect() as c:
            row = c.execute(select(leases.c.server, leases.c.until).where(leases.c.table_id == table_id)).first()
        if row is None or row.server is None or row.until < self.clock():
            return None
        return str(row.server)

    def hand_over(self) -> None:
        """A server stopping: its leases lapse now, so that other servers take its live tables at their next scan
        rather than after the lease's time."""
        if self._renewals is not None:
            self._renewals.dispose()
        with self._lock:
            if not self.held:
                return
            self.held.clear()
        leases = _leases()
        with self.engine.begin() as c:
            c.execute(update(leases).where(leases.c.server == self.server).values(until=0.0))

    def forget(self, table_id: str) -> None:
        """Stop holding a table whose write was fenced (another server took it): no renewal, no release."""
        with self._lock:
            self.held.pop(table_id, None)


def fence(c: Connection, fenced: list[tuple[str, int]]) -> None:
    """Refuse (:class:`LeaseLost`) a write of these (table id, epoch) unless each epoch is still its table's
    lease's; locks the lease rows, in the tables' order, until the transaction ends."""
    leases = _leases()
    for table_id, epoch in sorted(fenced):
        kept = c.execute(update(leases).where(leases.c.table_id == table_id, leases.c.epoch == epoch)
                         .values(epoch=epoch).returning(leases.c.epoch)).first()
        if kept is None:
            raise LeaseLost(f"table {table_id}: epoch {epoch} is no longer its lease's")
