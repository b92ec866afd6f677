"""Writing to the database from the server's event loop: group commits, awaited.

Every write is awaited until its transaction has committed, so the server tells nobody of an action the
database does not hold. Writes that arrive together share one commit, which is what lets one SQLite file take
hundreds of plays a second with a small latency. On SQLite the commits run on the event loop itself, once per turn
of the loop for everything written during it: a commit there takes a fraction of a millisecond, and a writer
thread would only add two hand-overs and a contest for the interpreter's lock to each write (under load, most of
an action's latency). A database across a network (PostgreSQL) is written by one writer thread instead, so that
the loop never waits on a round trip.
"""

from __future__ import annotations

import asyncio
import json
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, bindparam, insert, select, text, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from taash.chips.books import ESCROW, PENDING
from taash.tables.adapter import Dealt
from taash.web.db import ActionRow, DealRow, GuestRow, ResultRow, TableRow, now
from taash.web.lease import fence

Write = Callable[[Session], None]
MAX_BATCH = 512


@dataclass(slots=True)
class NewAction:
    """An action row to insert, with the table's version after it (the common write, batched)."""

    table_id: str
    version: int
    guest: str | None
    client_id: str | None
    body: str
    #: The extra seconds the seat to move had spent by this action (:attr:`ActionRow.extra_spent`).
    extra_spent: float | None = None
    #: The epoch of the table's lease its writer holds (:mod:`taash.web.lease`; None: a lone server, unfenced).
    epoch: int | None = None

    def __call__(self, session: Session) -> None:
        _write_actions(session, [self])


def _write_actions(session: Session, actions: list[NewAction]) -> None:
    """Insert many actions and move their tables' versions on, in two statements (after their leases' epochs are
    checked, for a server among several: :func:`taash.web.lease.fence`)."""
    created = now()
    connection = session.connection()
    fenced = {a.table_id: a.epoch for a in actions if a.epoch is not None}
    if fenced:
        fence(connection, list(fenced.items()))
    actions_table = ActionRow.__table__
    assert isinstance(actions_table, Table)
    connection.execute(insert(actions_table), [
        {"table_id": a.table_id, "version": a.version, "guest": a.guest, "client_id": a.client_id, "body": a.body,
         "extra_spent": a.extra_spent, "created_at": created} for a in actions])
    latest: dict[str, NewAction] = {}
    for a in actions:
        latest[a.table_id] = a
    tables = TableRow.__table__
    assert isinstance(tables, Table)
    connection.execute(
        update(tables).where(tables.c.id == bindparam("tid")),
        [{"tid": a.table_id, "version": a.version} for a in latest.values()])


@dataclass(slots=True)
class StoredTable:
    row: TableRow
    actions: list[ActionRow]
    #: How its deals were dealt, in order (empty for a table stored before deals were kept).
    deals: list[Dealt]


def deal_row(table_id: str, number: int, dealt: Dealt) -> DealRow:
    return DealRow(table_id=table_id, number=number, dealer=dealt.dealer, deck=dealt.pack, redeals=dealt.notes)


def dealt_of(row: DealRow) -> Dealt:
    return Dealt(row.dealer, row.deck, row.redeals)


class Store:
    """The database, for the server: awaited group-committed writes, and plain reads."""

    def __init__(self, engine: Engine, on_loop: bool | None = None):
        self.engine = engine
        #: Commit on the event loop (SQLite's default) rather than in the writer thread.
        self.on_loop = engine.dialect.name == "sqlite" if on_loop is None else on_loop
        self._queue: queue.SimpleQueue[tuple[Write, asyncio.Future[None], asyncio.AbstractEventLoop] | None] = (
            queue.SimpleQueue())
        #: On the loop: the writes waiting for this turn of the loop's commit, per loop.
        self._pending: dict[asyncio.AbstractEventLoop, list[tuple[Write, asyncio.Future[None],
                                                                   asyncio.AbstractEventLoop]]] = {}
        self._thread: threading.Thread | None = None
        if not self.on_loop:
            self._thread = threading.Thread(target=self._run, name="taash-db-writer", daemon=True)
            self._thread.start()

    # -- writing ------------------------------------------------------------------------------------------------

    async def write(self, work: Write) -> None:
        """Run ``work`` in a transaction; returns once it has committed (raises what the database raised)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        if self.on_loop:
            pending = self._pending.get(loop)
            if pending is None:  # the first write of this turn of the loop: its commit comes after the turn
                pending = self._pending[loop] = []
                loop.call_soon(self._commit_pending, loop)
            pending.append((work, done, loop))
        else:
            self._queue.put((work, done, loop))
        await done

    def _commit_pending(self, loop: asyncio.AbstractEventLoop) -> None:
        batch = self._pending.pop(loop, [])
        for start in range(0, len(batch), MAX_BATCH):
            self._commit(batch[start:start + MAX_BATCH])

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                batch.append(more)
            self._commit(batch)

    def _commit(self, batch: list[tuple[Write, asyncio.Future[None], asyncio.AbstractEventLoop]]) -> None:
        try:
            with Session(self.engine) as session, session.begin():
                actions = [work for work, _, _ in batch if isinstance(work, NewAction)]
                if actions:
                    _write_actions(session, actions)
                for work, _, _ in batch:
                    if not isinstance(work, NewAction):
                        work(session)
        except Exception:
            # One bad write must not fail the others: do them one by one to find it.
            if len(batch) > 1:
                for one in batch:
                    self._commit([one])
                return
            import sys

            error = sys.exc_info()[1]
            _, done, loop = batch[0]
            self._on(loop, _settle, done, error)
            return
        by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
        for _, done, loop in batch:
            by_loop.setdefault(loop, []).append(done)
        for loop, futures in by_loop.items():  # one wake-up of each loop for the whole batch
            self._on(loop, _settle_all, futures)

    def _on(self, loop: asyncio.AbstractEventLoop, settle: Callable[..., None], *args: Any) -> None:
        """Settle awaited writes: at once when committed on their own loop, else by waking that loop."""
        if self.on_loop:
            settle(*args)
        else:
            loop.call_soon_threadsafe(settle, *args)

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=10)
        self.engine.dispose()

    # -- the writes the server makes ----------------------------------------------------------------------------

    async def add_guest(self, guest_id: str, name: str) -> None:
        await self.write(lambda s: s.add(GuestRow(id=guest_id, name=name)))

    async def add_table(self, row: TableRow) -> None:
        await self.write(lambda s: s.add(row))

    async def add_action(self, table_id: str, version: int, guest: str | None, client_id: str | None,
                         body: dict[str, Any], extra_spent: float | None = None, epoch: int | None = None) -> None:
        """An action, with the extra seconds the seat to move had spent by then (None: not timed), in the
        transaction that moves the table's version on; refused (:class:`taash.web.lease.LeaseLost`) when
        ``epoch`` is no longer the table's lease's."""
        await self.write(NewAction(table_id, version, guest, client_id, json.dumps(body, separators=(",", ":")),
                                   extra_spent, epoch))

    def add_action_now(self, table_id: str, version: int, guest: str | None, body: dict[str, Any]) -> None:
        """An action written at once (on a restart, before the server runs)."""
        with Session(self.engine) as s, s.begin():
            NewAction(table_id, version, guest, None, json.dumps(body, separators=(",", ":")))(s)

    async def add_deals(self, table_id: str, first: int, dealt: list[Dealt]) -> None:
        """Deals ``first``, ``first + 1``, ... of a table, as they were dealt."""
        await self.write(lambda s: s.add_all(deal_row(table_id, first + i, d) for i, d in enumerate(dealt)))

    async def set_status(self, table_id: str, status: str, results: Sequence[ResultRow] = ()) -> None:
        """A table's status (waiting, playing, finished): derived from its actions, kept to find the unfinished
        tables on a restart; a finished table's results are written in the same transaction."""
        await self.write(lambda s: _set_status(s, table_id, status, results))

    def set_status_now(self, table_id: str, status: str, results: Sequence[ResultRow] = ()) -> None:
        with Session(self.engine) as s, s.begin():
            _set_status(s, table_id, status, results)

    def results_of(self, guest: str, include_private: bool = False,
                   limit: int = 100) -> list[tuple[ResultRow, list[ResultRow]]]:
        """A person's finished matches, newest first, each with every seat's result (a private table's only when
        ``include_private``)."""
        with Session(self.engine) as s:
            query = select(ResultRow).where(ResultRow.guest == guest)
            if not include_private:
                query = query.join(TableRow, TableRow.id == ResultRow.table_id).where(TableRow.public.is_(True))
            mine = s.scalars(query.order_by(ResultRow.finished_at.desc(), ResultRow.table_id).limit(limit)).all()
            ids = [r.table_id for r in mine]
            seats: dict[str, list[ResultRow]] = {}
            for row in s.scalars(select(ResultRow).where(ResultRow.table_id.in_(ids))
                                 .order_by(ResultRow.table_id, ResultRow.seat)):
                seats.setdefault(row.table_id, []).append(row)
            return [(r, seats[r.table_id]) for r in mine]

    def results_for_game(self, game: str) -> tuple[list[ResultRow], dict[str, str]]:
        """Every result of a game, oldest first, and each of their tables' bot level (for the ratings)."""
        with Session(self.engine) as s:
            rows = list(s.scalars(select(ResultRow).where(ResultRow.game == game)
                                  .order_by(ResultRow.finished_at, ResultRow.table_id, ResultRow.seat)))
            levels = dict(s.execute(select(TableRow.id, TableRow.level).join(
                ResultRow, ResultRow.table_id == TableRow.id).where(ResultRow.game == game)).tuples().all())
            return rows, levels

    # -- reading ------------------------------------------------------------------------------------------------

    def guest(self, guest_id: str) -> GuestRow | None:
        with Session(self.engine) as s:
            return s.get(GuestRow, guest_id)

    def guest_names(self, guest_ids: Sequence[str]) -> dict[str, str]:
        """The names of those of ``guest_ids`` that are guests."""
        with Session(self.engine) as s:
            return dict(s.execute(select(GuestRow.id, GuestRow.name).where(GuestRow.id.in_(list(guest_ids))))
                        .tuples().all())

    def tables(self, unfinished_only: bool = True) -> list[StoredTable]:
        """Every table with its actions in order (for a restart)."""
        with Session(self.engine, expire_on_commit=False) as s:
            query = select(TableRow)
            if unfinished_only:
                query = query.where(TableRow.status != "finished")
            rows = list(s.scalars(query))
            return [StoredTable(row, self._actions(s, row.id), self._deals(s, row.id)) for row in rows]

    def table(self, table_id: str) -> StoredTable | None:
        with Session(self.engine, expire_on_commit=False) as s:
            row = s.get(TableRow, table_id)
            return None if row is None else StoredTable(row, self._actions(s, table_id), self._deals(s, table_id))

    def held_tables(self) -> list[tuple[str, str]]:
        """(table id, status) of every table whose staked match the ledger still holds (pending)."""
        with self.engine.connect() as c:
            rows = c.execute(text(
                "SELECT t.id, t.status FROM chips_accounts a JOIN tables t ON t.id = a.table_id "
                "WHERE a.kind = :escrow AND a.state = :pending ORDER BY t.id"), {"escrow": ESCROW, "pending": PENDING})
            return [(row[0], row[1]) for row in rows]

    def table_id_of_code(self, code: str) -> str | None:
        with Session(self.engine) as s:
            return s.scalar(select(TableRow.id).where(TableRow.code == code))

    @staticmethod
    def _deals(s: Session, table_id: str) -> list[Dealt]:
        rows = s.scalars(select(DealRow).where(DealRow.table_id == table_id).order_by(DealRow.number))
        return [dealt_of(row) for row in rows]

    @staticmethod
    def _actions(s: Session, table_id: str) -> list[ActionRow]:
        return list(s.scalars(select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.version)))


def _set_status(session: Session, table_id: str, status: str, results: Sequence[ResultRow]) -> None:
    tables = TableRow.__table__
    assert isinstance(tables, Table)
    session.execute(update(tables).where(tables.c.id == table_id).values(status=status))
    for row in results:  # written once: a restart that finds the status unwritten writes them again
        if session.get(ResultRow, (row.table_id, row.seat)) is None:
            session.add(row)


def _settle_all(futures: list[asyncio.Future[None]]) -> None:
    for done in futures:
        if not done.done():
            done.set_result(None)


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    if done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)
