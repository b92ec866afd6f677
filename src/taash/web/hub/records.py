"""Tables from the database: a table rebuilt from its stored actions, each seat's results as the database keeps
them, and after a crash, the unfinished tables restored and every held match closed as its table says."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping

from taash.chips.errors import ChipsError
from taash.chips.ledger import Ledger
from taash.tables.adapter import TableError, adapter
from taash.tables.table import Table
from taash.web.db import FINISHED_BY_BOTS, ResultRow, now
from taash.web.hub.live import Live
from taash.web.stakes import chips_won, match_id
from taash.web.store import Store, StoredTable

log = logging.getLogger("taash.web")


class Restore:
    """A restart's work: the unfinished tables back in memory, and the stakes of every match closed."""

    def __init__(self, store: Store, ledger: Ledger | None,
                 add: Callable[[Table, StoredTable, Mapping[int, float]], Live]):
        self.store = store
        self.ledger = ledger
        #: Keeps a restored table in memory (the registry's).
        self.add = add

    def restore(self) -> int:
        """Load every unfinished table from the database (after a restart); returns how many. Every staked
        match still held is closed as its table says: settled once finished, refunded once abandoned."""
        restored = 0
        for stored in self.store.tables(unfinished_only=True):
            if stored.row.status == "abandoned":
                continue
            spent: dict[int, float] = {}
            table = rebuild_or_log(stored, spent)
            if table is None:
                continue
            if table.status == "waiting" and stored.row.stake > 0 and self.ledger is not None:
                self._start_held(table)
            if table.status != stored.row.status:  # the status is written after the action that changed it
                self.store.set_status_now(table.id, table.status, result_rows(table))
            if table.status != "finished":
                self.add(table, stored, spent)
                restored += 1
        if self.ledger is not None:
            self.close_held_matches()
        return restored

    def _start_held(self, table: Table) -> None:
        """A crash between holding the stakes and writing the start: the start is written now (the hold and the
        start happen both, never one alone); its seats are the hold's, as nothing can change between the two."""
        assert self.ledger is not None
        held = self.ledger.match(match_id(table.id))
        if held is None or held.state != "pending":
            return
        start = {"type": "start"}
        try:
            step = table.prepare(start, table.owner)
        except TableError:
            log.exception("table %s holds stakes but cannot start", table.id)
            return
        self.store.add_action_now(table.id, table.version + 1, table.owner, start)
        table.commit(step)
        log.info("table %s: its held stakes' start is written after a restart", table.id)

    def close_held_matches(self) -> int:
        """Settle the held match of every finished table and refund that of every abandoned one (after a crash
        between a match's end and its settlement); the ledger's ids make a repeat harmless. Returns how many."""
        assert self.ledger is not None
        closed = 0
        for table_id, status in self.store.held_tables():
            try:
                if status == "abandoned":
                    self.ledger.refund(match_id(table_id))
                elif status == "finished":
                    stored = self.store.table(table_id)
                    table = None if stored is None else rebuild_or_log(stored)
                    if table is None or stored is None:
                        continue
                    self.ledger.settle(match_id(table_id), chips_won(table, stored.row.stake))
                else:
                    continue
                closed += 1
            except ChipsError:
                log.exception("the match of table %s could not be closed", table_id)
        return closed

    def settle(self, live: Live) -> None:
        """Pay out a finished staked match (a worker thread's call: the ledger writes synchronously)."""
        if self.ledger is not None and live.stake > 0:
            self.ledger.settle(match_id(live.table.id), chips_won(live.table, live.stake))


def result_rows(table: Table, finished_by_bots: bool = False) -> list[ResultRow]:
    """Each seat's result of a finished match as the database keeps it (none before the end); ``finished_by_bots``:
    bots finished it for people who had all left (marked in its stats: it is not rated)."""
    finished = now()
    mark = {FINISHED_BY_BOTS: 1} if finished_by_bots else {}
    return [ResultRow(table_id=table.id, seat=i, game=table.settings.game, guest=seat.guest, name=seat.name,
                      team=r.team, won=r.won, result=r.result, points=r.points,
                      stats=json.dumps({**r.stats, **mark}), finished_at=finished)
            for i, seat, r in table.results()]


def rebuild_or_log(stored: StoredTable, spent: dict[int, float] | None = None) -> Table | None:
    """:func:`rebuild`, or None (and the reason in the log) for a table whose actions no longer replay: one such
    table must not keep the server from starting, nor the others from going on."""
    try:
        return rebuild(stored, spent)
    except Exception:
        log.exception("table %s cannot be rebuilt from its %d actions; it is left out", stored.row.id,
                      len(stored.actions))
        return None


def rebuild(stored: StoredTable, spent: dict[int, float] | None = None) -> Table:
    """A table from its row and its actions, as it was after the last committed one; ``spent`` (if given) is
    filled with seat -> the extra seconds it had spent by the last action made while it was to move."""
    row = stored.row
    game = adapter(row.game)  # a game this taash does not seat: TableError, and the table waits for one that does
    length = row.format if row.format is not None else row.baazis
    settings = game.settings(row.players, json.loads(row.rules), length, row.level, row.public)
    secret = bytes.fromhex(row.fair_secret) if row.fair_secret else None
    table = Table(row.id, row.code, settings, row.seed, row.owner, stored.deals, secret)
    for action in stored.actions:
        body = json.loads(action.body)
        mover = table.to_move()
        if spent is not None and mover is not None and action.extra_spent is not None:
            spent[mover] = action.extra_spent
        table.apply(body, action.guest)
        if table.version != action.version:  # pragma: no cover - versions are written in order
            raise RuntimeError(f"table {row.id}: action {action.version} out of order")
    return table
