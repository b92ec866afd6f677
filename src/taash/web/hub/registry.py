"""The tables a server holds in memory, by id and by invite code: made, read back from the database when asked
for, and let go when nobody needs them there."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from taash.chips.ledger import Ledger
from taash.fairness import SECRET_BYTES
from taash.i18n import N_, _
from taash.tables.adapter import Settings, TableError
from taash.tables.table import Table, check_settings
from taash.web.db import TableRow
from taash.web.fair_play import FairPlay
from taash.web.hub.live import SEEN_KEPT, Live, fingerprint
from taash.web.hub.records import rebuild_or_log
from taash.web.hub.turns import Turns
from taash.web.lease import Lease, SoleLease
from taash.web.store import Store, StoredTable

JSON = Any
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: Seconds after which a table still waiting for players, that nobody touches or watches, may leave memory when
#: the server is full (so that abandoned tables cannot keep everyone else from starting one).
ABANDONED_AFTER = 600.0


@dataclass(frozen=True, slots=True)
class Found:
    """A table read from the database (:meth:`Registry._read`): this server's (``owned``, its lease's ``epoch``),
    or another's (``owner``; None: nobody's, a finished table), or ``gone`` (abandoned); ``accounts``: which of its
    seated people have an account."""

    table: Table
    stored: StoredTable
    spent: dict[int, float]
    accounts: set[str]
    owned: bool = False
    epoch: int | None = None
    owner: str | None = None
    gone: bool = False


class Registry:
    """Every table in memory (:attr:`live`, by id; :attr:`codes`, invite code -> id), within the server's limits."""

    def __init__(self, store: Store, turns: Turns, ledger: Ledger | None, fair: FairPlay | None,
                 max_tables: int, max_tables_per_guest: int, lease: Lease | None = None):
        self.store = store
        #: Who owns each table (a lone server: this one, always).
        self.lease: Lease = lease or SoleLease()
        self.turns = turns
        self.ledger = ledger
        self.fair = fair
        self.max_tables = max_tables
        self.max_tables_per_guest = max_tables_per_guest
        self.live: dict[str, Live] = {}
        self.codes: dict[str, str] = {}
        #: Tables being read from the database for :meth:`find` (on a worker thread), by id.
        self.reading: dict[str, asyncio.Future[Found | None]] = {}
        #: Finished tables waiting for their end to be written before they leave memory (kept until then).
        self.forgetting: set[asyncio.Task[None]] = set()

    def add(self, table: Table, stored: StoredTable | None = None, spent: Mapping[int, float] | None = None,
            epoch: int | None = None, accounts: set[str] | None = None) -> Live:
        """Keep ``table`` in memory; ``spent``: seat -> the extra seconds it had spent by its last stored action
        (from :func:`rebuild`), the rest of which is its bank (a turn in progress starts again from its beginning,
        as the server was away meanwhile); ``accounts``: which of its seated people have one (None: asked now)."""
        live = Live(table, deals_stored=len(stored.deals) if stored else 0, stake=stored.row.stake if stored else 0,
                    epoch=epoch)
        self.turns.start_clock(live)
        for seat, seconds in (spent or {}).items():
            live.bank[seat] = max(0.0, self.turns.extra_seconds - seconds)
        for action in stored.actions if stored else []:
            if action.client_id is not None:
                live.seen[(action.guest, action.client_id)] = (action.version, fingerprint(json.loads(action.body)))
        while len(live.seen) > SEEN_KEPT:
            live.seen.popitem(last=False)
        self.live[table.id] = live
        self.codes[table.code] = table.id
        self.turns.reseat(live)
        if accounts is None:
            self.mark_accounts(live)
        else:
            live.accounts = accounts
        return live

    def keep(self, live: Live) -> Live:
        """Keep ``live``, a table read from the database whose lease this server holds (if it has one), in memory;
        returns the one kept (one kept meanwhile stays)."""
        kept = self.live.setdefault(live.table.id, live)
        self.codes[kept.table.code] = kept.table.id
        return kept

    def drop(self, live: Live) -> None:
        """Let ``live`` go from memory (it stays in the database), and its lease with it."""
        self.live.pop(live.table.id, None)
        self.codes.pop(live.table.code, None)
        if live.owner is None:
            self.lease.release(live.table.id)

    def lost(self, table_id: str) -> Live | None:
        """Forget a table whose lease another server has taken (it is that server's now); returns it."""
        live = self.live.pop(table_id, None)
        if live is not None:
            self.codes.pop(live.table.code, None)
        return live

    def mark_accounts(self, live: Live) -> None:
        """Which of the table's seated people have an account."""
        live.accounts = self._accounts(live.table)

    def account_claimed(self, guest: str) -> None:
        """``guest`` has claimed an account: his seats are marked as an account's from the next message on."""
        for live in self.live.values():
            if live.table.seat_of(guest) is not None:
                live.accounts.add(guest)

    def get(self, table_id: str) -> Live | None:
        """A table in memory, or read from the database; a finished one read again stays out of memory (it can
        no longer change, so its watchers need not share one), and is a view of it when another server still holds
        it (its rematch offer is there). Reads the database on the caller's thread: :meth:`find` is the event
        loop's way."""
        live = self.live.get(table_id)
        return live if live is not None else self._admit(self._read(table_id))

    async def find(self, table_id: str) -> Live | None:
        """:meth:`get` for the event loop: a table not in memory is read from the database on a worker thread, once
        however many ask for it meanwhile (so that one server never claims a table's lease twice at once)."""
        live = self.live.get(table_id)
        if live is not None:
            return live
        reading = self.reading.get(table_id)
        if reading is None:
            reading = asyncio.ensure_future(asyncio.to_thread(self._read, table_id))
            self.reading[table_id] = reading
            reading.add_done_callback(lambda _: self.reading.pop(table_id, None))
        found = await asyncio.shield(reading)
        live = self.live.get(table_id)  # taken into memory meanwhile (by another reader of the same table)
        return live if live is not None else self._admit(found)

    def _read(self, table_id: str) -> Found | None:
        """What the database says of a table not in memory (None: no such table, or one that cannot be rebuilt):
        its lease claimed when it is unfinished and free. Touches nothing in memory: any thread may call it."""
        stored = self.store.table(table_id)
        spent: dict[int, float] = {}
        table = None if stored is None else rebuild_or_log(stored, spent)
        if stored is None or table is None:
            return None
        if table.status == "finished" or stored.row.status == "abandoned":
            abandoned = stored.row.status == "abandoned"
            owner = None if abandoned else self.holder_elsewhere(table_id)
            return Found(table, stored, spent, self._accounts(table), gone=abandoned, owner=owner)
        claim = self.lease.claim(table_id)
        if not claim.owned:
            return Found(table, stored, spent, self._accounts(table), owner=claim.owner or "")
        if claim.epoch is not None:  # read again now that it is this server's: with every write of its last owner
            again = self.store.table(table_id)
            spent.clear()
            rebuilt = None if again is None else rebuild_or_log(again, spent)
            if again is None or rebuilt is None:
                self.lease.release(table_id)
                return None
            table, stored = rebuilt, again
        return Found(table, stored, spent, self._accounts(table), epoch=claim.epoch, owned=True)

    def _admit(self, found: Found | None) -> Live | None:
        """The table :meth:`_read` found, on the event loop: kept in memory when it is this server's (one kept
        meanwhile stays), else a view of it."""
        if found is None:
            return None
        if found.owned:
            kept = self.live.get(found.table.id)
            return kept if kept is not None else self.add(found.table, found.stored, found.spent, found.epoch,
                                                           found.accounts)
        view = Live(found.table, stake=found.stored.row.stake, gone=found.gone, owner=found.owner)
        view.accounts = found.accounts
        return view

    def _accounts(self, table: Table) -> set[str]:
        """Which of the table's seated people have an account."""
        return set() if self.fair is None else self.fair.seated_accounts(table)

    def holder_elsewhere(self, table_id: str) -> str | None:
        """The other server that holds a finished table's lease (it keeps the table in memory: its rematch offer is
        there), to which its connections go; None: nobody (the table can no longer change, any server serves it)."""
        holder = self.lease.owner(table_id)
        return None if holder is None or holder == self.lease.server else holder

    async def find_by_code(self, code: str) -> Live | None:
        """The table of an invite code (:meth:`find`)."""
        table_id = self.codes.get(code.upper())
        if table_id is None:  # a finished table no longer in memory
            table_id = await asyncio.to_thread(self.store.table_id_of_code, code.upper())
        return None if table_id is None else await self.find(table_id)

    def forget_if_idle(self, live: Live) -> None:
        """Drop a finished table nobody watches from memory (it is read again from the database if asked for).
        Not while its last action holds its lock: the match's end and settlement are written under it, and until
        they are, the table keeps its lease (a server dying meanwhile leaves it to lapse, and the taker writes them);
        it is dropped once they are."""
        if live.table.status != "finished" or live.connections or self.live.get(live.table.id) is not live:
            return
        if live.lock.locked():
            task = asyncio.get_running_loop().create_task(self._forget_once_written(live))
            self.forgetting.add(task)
            task.add_done_callback(self.forgetting.discard)
            return
        self.drop(live)

    async def _forget_once_written(self, live: Live) -> None:
        async with live.lock:
            pass
        self.forget_if_idle(live)

    def forget_abandoned(self, idle_seconds: float = ABANDONED_AFTER) -> int:
        """Drop from memory the tables still waiting for players that nobody has touched or looked at for
        ``idle_seconds`` (they stay in the database, and come back if someone opens one); returns how many."""
        now = self.turns.clock.monotonic()
        gone = [lv for lv in self.live.values() if lv.table.status == "waiting" and not lv.connections
                and now - lv.last_active >= idle_seconds]
        for lv in gone:
            self.drop(lv)
        return len(gone)

    def public_tables(self) -> list[dict[str, JSON]]:
        return [lv.table.summary() for lv in self.live.values()
                if lv.table.settings.public and lv.table.status != "finished"]

    async def create(self, settings: Settings, owner: str | None, stake: int = 0) -> Live:
        """A new table, written to the database, within the server's limits (a full server first lets go of the
        waiting tables nobody touched for long)."""
        unfinished = [lv for lv in self.live.values() if lv.table.status != "finished"]
        if len(unfinished) >= self.max_tables and self.forget_abandoned():
            unfinished = [lv for lv in self.live.values() if lv.table.status != "finished"]
        if len(unfinished) >= self.max_tables:
            raise TableError(N_("the server has as many tables as it can take; try again later"), "full")
        if owner is not None and sum(1 for lv in unfinished if lv.table.owner == owner) >= self.max_tables_per_guest:
            raise TableError(_("you have {n} unfinished tables already: finish or use those first",
                               n=self.max_tables_per_guest), "too_many")
        check_settings(settings)
        if stake and self.ledger is None:
            raise TableError(N_("this server keeps no chips: its tables have no stakes"), "bad")
        table = self._new_table(settings, owner)
        await self.store.add_table(row_of(table, stake))
        live = self.add(table, epoch=self.lease.claim(table.id).epoch)
        live.stake = stake
        return live

    def _new_table(self, settings: Settings, owner: str | None) -> Table:
        """A table with a new id, an invite code no table in memory has, its seed and its fair-dealing secret."""
        table_id = secrets.token_hex(8)
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
        while code in self.codes:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
        seed = secrets.randbits(62)
        secret = secrets.token_bytes(SECRET_BYTES)
        return Table(table_id, code, settings, seed, owner, secret=secret)


def row_of(table: Table, stake: int) -> TableRow:
    """A new table's row in the database."""
    settings = table.settings
    length = settings.length
    return TableRow(
        id=table.id, game=settings.game, code=table.code, owner=table.owner, players=settings.players,
        rules=json.dumps(table.game.rules_json(settings)), baazis=length if isinstance(length, int) else 0,
        format=length if isinstance(length, str) else None, level=settings.level, public=settings.public,
        seed=table.seed, fair_secret=None if table.secret is None else table.secret.hex(), status="waiting",
        version=0, stake=stake)
