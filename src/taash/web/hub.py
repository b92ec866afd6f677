"""The live tables of a server: one lock per table, its connections, its bots, and the order of every change.

Every action, from a person or a bot, goes through :meth:`Hub.act`: under the table's lock it is checked by the
table (the engine), written to the database and committed, and only then applied to the table in memory,
acknowledged and sent to each connection as that connection's own view. So whatever anyone reads of a table
(a snapshot on connecting, a stale error's fresh state, the lobby's summary) is committed, and an action the
database refuses changes nothing. Sending goes through a queue per connection, so a slow reader never holds a
table up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from taash.chips.errors import ChipsError, InsufficientChips, UnknownAccount
from taash.chips.ledger import Ledger
from taash.fairness import SECRET_BYTES
from taash.tables.adapter import Settings, TableError, adapter
from taash.tables.table import Table, check_settings
from taash.web.admissions import Admissions
from taash.web.db import FINISHED_BY_BOTS, ResultRow, TableRow, now
from taash.web.fair_play import FairPlay
from taash.web.stakes import chips_won, match_id, short_words, stakes_of
from taash.web.store import Store, StoredTable

log = logging.getLogger("taash.web")
JSON = Any
#: Actions kept in memory per table for reconnecting clients (older ones get a snapshot instead).
MISSED_KEPT = 200
#: Client message ids remembered per table, to apply a repeated message once.
SEEN_KEPT = 2000
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: Seconds after which a table still waiting for players, that nobody touches or watches, may leave memory when
#: the server is full (so that abandoned tables cannot keep everyone else from starting one).
ABANDONED_AFTER = 600.0
#: Minutes without a move, with no seated person connected, after which the sweep abandons an unfinished table.
IDLE_TABLE_MINUTES = 30.0
#: Seconds between two sweeps.
SWEEP_SECONDS = 60.0
#: Turns in a row a person may let run out before a bot takes his seat (until he acts again), in a game with no
#: move of its own for a turn out of time (Seep; at Rummy the rule book's timeout is made instead).
IDLE_AFTER = 3


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
    #: Monotonic time of the last action or connection (to tell an abandoned waiting table).
    last_active: float = field(default_factory=time.monotonic)
    #: How many of the table's deals the database holds.
    deals_stored: int = 0
    #: When the seat to move began its turn: monotonic (for the timer) and wall-clock (the deadline told).
    turn_since: float = field(default_factory=time.monotonic)
    turn_since_wall: float = field(default_factory=time.time)
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


class Hub:
    """Every live table of the server."""

    def __init__(self, store: Store, bot_delay: float = 0.8, away_seconds: float = 30.0, max_tables: int = 2000,
                 max_tables_per_guest: int = 10, turn_seconds: float = 30.0, ledger: Ledger | None = None,
                 extra_seconds: float = 60.0, admissions: Admissions | None = None, fair: FairPlay | None = None):
        self.store = store
        #: Who may sit and start at a table (:mod:`taash.web.fair_play`; None: anyone, as the tables alone say).
        self.fair = fair
        #: The books of the server's chips (None: no table may have stakes).
        self.ledger = ledger
        self.bot_delay = bot_delay
        self.away_seconds = away_seconds
        #: Seconds a person has for a turn (0: no limit), and besides, for the whole match, ``extra_seconds``
        #: spent only once a turn's own have run out; then the game's timeout move is made for him (Rummy), or a
        #: bot plays his turn (Seep).
        self.turn_seconds = turn_seconds
        self.extra_seconds = extra_seconds
        self.max_tables = max_tables
        self.max_tables_per_guest = max_tables_per_guest
        self.live: dict[str, Live] = {}
        self.codes: dict[str, str] = {}
        #: The server's websockets, counted and held to their limits (per address, per guest, players' room).
        self.admissions = admissions or Admissions()
        self.closing = False

    @property
    def connection_count(self) -> int:
        """Websockets open (or being opened) on this server: tables' and the Play now queue's."""
        return self.admissions.open

    # -- tables -------------------------------------------------------------------------------------------------

    def restore(self) -> int:
        """Load every unfinished table from the database (after a restart); returns how many. Every staked
        match still held is closed as its table says: settled once finished, refunded once abandoned."""
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
                self._add(table, stored, spent)
        if self.ledger is not None:
            self.close_held_matches()
        return len(self.live)

    def _start_held(self, table: Table) -> None:
        """A crash between holding the stakes and writing the start: the start is written now (the hold and the
        start happen both, never one alone); its seats are the hold's, as nothing can change between the two."""
        assert self.ledger is not None
        held = self.ledger.match(match_id(table.id))
        if held is None or held.state != "pending":
            return
        start = {"type": "start"}
        try:
            table.check(start, table.owner)
        except TableError:
            log.exception("table %s holds stakes but cannot start", table.id)
            return
        self.store.add_action_now(table.id, table.version + 1, table.owner, start)
        table.apply(start, table.owner)
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

    async def abandon(self, live: Live, still: Callable[[Live], bool] | None = None,
                      reason: str = "the table was abandoned") -> bool:
        """Abandon a table that has not finished: its status becomes ``abandoned`` (it leaves memory and is not
        restored) and its staked match, if one was held, is refunded to every payer; returns whether it was.
        ``still`` is asked again under the table's lock (False: something happened meanwhile, nothing changes).
        The status is written before the refund, so a crash between the two is refunded on the restart."""
        async with live.lock:
            if live.gone:
                return False
            if still is not None and not still(live):
                return False
            if live.table.status == "finished":
                raise TableError("the match has finished: it cannot be abandoned", "finished")
            await self.store.set_status(live.table.id, "abandoned")
            live.gone = True
            if live.stake > 0 and self.ledger is not None:
                with contextlib.suppress(UnknownAccount):  # no stakes were held: nothing to refund
                    await asyncio.to_thread(self.ledger.refund, match_id(live.table.id))
            if live.bot_task is not None:
                live.bot_task.cancel()
            told = json.dumps({"type": "abandoned", "version": live.table.version, "reason": reason})
            for conn in list(live.connections):
                if conn.close_code == 1000:
                    conn.send(told)
                conn.close_code, conn.close_reason = 1001, reason
                conn.send(None)
            self.live.pop(live.table.id, None)
            self.codes.pop(live.table.code, None)
            return True

    def idle(self, live: Live, idle_seconds: float, now: float | None = None) -> bool:
        """Whether the sweep may abandon ``live``: unfinished, no seated person connected (watchers do not
        count), and no action nor connection for ``idle_seconds`` (a waiting table: none since it was made or
        loaded). Not the turn's clock: a take at Rummy is an action but does not end the turn."""
        moment = time.monotonic() if now is None else now
        return (not live.gone and live.table.status != "finished"
                and not any(c.seat is not None for c in live.connections)
                and moment - live.last_active >= idle_seconds)

    async def sweep(self, idle_seconds: float, now: float | None = None) -> int:
        """Abandon every idle table (:meth:`idle`), its stakes refunded; returns how many. Each is checked again
        under its lock, so a move that arrives first keeps its table, and one that arrives after is refused."""
        swept = 0
        for live in [lv for lv in self.live.values() if self.idle(lv, idle_seconds, now)]:
            try:
                if await self.abandon(live, lambda lv: self.idle(lv, idle_seconds, now),
                                      f"the table was abandoned after {idle_seconds / 60:g} minutes without a move"):
                    swept += 1
                    log.info("table %s abandoned by the sweep", live.table.id)
            except Exception:  # one table's fault must not stop the sweep (a restart refunds what is left)
                log.exception("the sweep could not abandon table %s", live.table.id)
        return swept

    async def sweep_forever(self, every: float, idle_seconds: float) -> None:
        """Sweep every ``every`` seconds until the server closes."""
        while not self.closing:
            await asyncio.sleep(every)
            await self.sweep(idle_seconds)

    def _add(self, table: Table, stored: StoredTable | None = None, spent: Mapping[int, float] | None = None) -> Live:
        """Keep ``table`` in memory; ``spent``: seat -> the extra seconds it had spent by its last stored action
        (from :func:`rebuild`), the rest of which is its bank (a turn in progress starts again from its beginning,
        as the server was away meanwhile)."""
        live = Live(table, deals_stored=len(stored.deals) if stored else 0, stake=stored.row.stake if stored else 0)
        for seat, seconds in (spent or {}).items():
            live.bank[seat] = max(0.0, self.extra_seconds - seconds)
        for action in stored.actions if stored else []:
            if action.client_id is not None:
                live.seen[(action.guest, action.client_id)] = (action.version, fingerprint(json.loads(action.body)))
        while len(live.seen) > SEEN_KEPT:
            live.seen.popitem(last=False)
        self.live[table.id] = live
        self.codes[table.code] = table.id
        self.reseat(live)
        self.mark_accounts(live)
        return live

    def mark_accounts(self, live: Live) -> None:
        """Which of the table's seated people have an account (asked after each sit and leave)."""
        if self.fair is not None:
            live.accounts = self.fair.accounts(s.guest for s in live.table.seats if s.guest is not None)

    def account_claimed(self, guest: str) -> None:
        """``guest`` has claimed an account: his seats are marked as an account's from the next message on."""
        for live in self.live.values():
            if live.table.seat_of(guest) is not None:
                live.accounts.add(guest)

    def get(self, table_id: str) -> Live | None:
        """A table in memory, or read from the database; a finished one read again stays out of memory (it can
        no longer change, so its watchers need not share one)."""
        live = self.live.get(table_id)
        if live is None:
            stored = self.store.table(table_id)
            spent: dict[int, float] = {}
            table = None if stored is None else rebuild_or_log(stored, spent)
            if stored is None or table is None:
                return None
            if table.status == "finished" or stored.row.status == "abandoned":
                gone = Live(table, stake=stored.row.stake, gone=stored.row.status == "abandoned")
                self.mark_accounts(gone)
                return gone
            live = self._add(table, stored, spent)
        return live

    def by_code(self, code: str) -> Live | None:
        table_id = self.codes.get(code.upper())
        if table_id is None:  # a finished table no longer in memory
            table_id = self.store.table_id_of_code(code.upper())
        return None if table_id is None else self.get(table_id)

    def forget_if_idle(self, live: Live) -> None:
        """Drop a finished table nobody watches from memory (it is read again from the database if asked for)."""
        if live.table.status == "finished" and not live.connections and self.live.get(live.table.id) is live:
            del self.live[live.table.id]
            self.codes.pop(live.table.code, None)

    def forget_abandoned(self, idle_seconds: float = ABANDONED_AFTER) -> int:
        """Drop from memory the tables still waiting for players that nobody has touched or looked at for
        ``idle_seconds`` (they stay in the database, and come back if someone opens one); returns how many."""
        now = time.monotonic()
        gone = [lv for lv in self.live.values() if lv.table.status == "waiting" and not lv.connections
                and now - lv.last_active >= idle_seconds]
        for lv in gone:
            del self.live[lv.table.id]
            self.codes.pop(lv.table.code, None)
        return len(gone)

    async def create(self, settings: Settings, owner: str | None, stake: int = 0) -> Live:
        unfinished = [lv for lv in self.live.values() if lv.table.status != "finished"]
        if len(unfinished) >= self.max_tables and self.forget_abandoned():
            unfinished = [lv for lv in self.live.values() if lv.table.status != "finished"]
        if len(unfinished) >= self.max_tables:
            raise TableError("the server has as many tables as it can take; try again later", "full")
        if owner is not None and sum(1 for lv in unfinished if lv.table.owner == owner) >= self.max_tables_per_guest:
            raise TableError(f"you have {self.max_tables_per_guest} unfinished tables already: finish or use those "
                             "first", "too_many")
        check_settings(settings)
        if stake and self.ledger is None:
            raise TableError("this server keeps no chips: its tables have no stakes", "bad")
        table_id = secrets.token_hex(8)
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
        while code in self.codes:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
        seed = secrets.randbits(62)
        secret = secrets.token_bytes(SECRET_BYTES)
        table = Table(table_id, code, settings, seed, owner, secret=secret)
        rules = table.game.rules_json(settings)
        length = settings.length
        await self.store.add_table(TableRow(
            id=table_id, game=settings.game, code=code, owner=owner, players=settings.players,
            rules=json.dumps(rules), baazis=length if isinstance(length, int) else 0,
            format=length if isinstance(length, str) else None, level=settings.level, public=settings.public,
            seed=seed, fair_secret=secret.hex(), status="waiting", version=0, stake=stake))
        live = self._add(table)
        live.stake = stake
        return live

    def public_tables(self) -> list[dict[str, JSON]]:
        return [lv.table.summary() for lv in self.live.values()
                if lv.table.settings.public and lv.table.status != "finished"]

    # -- actions ------------------------------------------------------------------------------------------------

    async def act(self, live: Live, action: dict[str, JSON], guest: str | None, client_id: str | None = None,
                  version: int | None = None, lapsed: int | None = None, away: bool = False) -> int:
        """Check, store, apply and announce one action; returns the version it made.

        ``version`` is the table version the sender saw (None: not checked); ``lapsed``, the seat whose person
        let his turn run out (a bot's action for him); ``away``: a bot's action for the seat to move, whose person
        is away (the time since he left is not taken from his extra time). Raises TableError. The work runs to its
        end even if the caller is cancelled (a closing connection, a bot's task at shutdown): an action whose write
        may have committed is always applied in memory too.
        """
        return await asyncio.shield(self._act(live, action, guest, client_id, version, lapsed, away))

    async def _act(self, live: Live, action: dict[str, JSON], guest: str | None, client_id: str | None,
                   version: int | None, lapsed: int | None, away: bool) -> int:
        async with live.lock:
            if live.gone:
                raise TableError("the table was abandoned", "abandoned")
            table = live.table
            key = (guest, client_id) if client_id is not None else None
            if key is not None and key in live.seen:
                made, what = live.seen[key]
                if what != fingerprint(action):
                    raise TableError(f"the id {client_id} was used for another message (which made version {made}):"
                                     " give each message a new id", "id_reused")
                return made  # the same message again: applied once already
            if version is not None and version != table.version:
                raise TableError(f"stale version {version}: the table is at version {table.version}", "stale")
            table.check(action, guest)
            if self.fair is not None:
                self.fair.check(table, live.stake, action, guest)
            new_version = table.version + 1
            status_before = table.status
            if action.get("type") == "start" and live.stake > 0 and self.ledger is not None:
                await self._hold(live, guest)
            mover = table.to_move()
            bank = self.bank_at(live, mover, time.monotonic(), away)
            spent = None if bank is None else self.extra_seconds - bank
            try:
                await self.store.add_action(table.id, new_version, guest, client_id, action, spent)
            except Exception:
                log.exception("could not store an action of table %s", table.id)
                raise TableError("the server could not store that; please try again", "server") from None
            # Committed: now the table in memory may change and everyone may be told.
            said = table.apply(action, guest)
            await self.store_deals(live)
            live.last_active = time.monotonic()
            if table.ends_turn(action):
                self.end_turn(live, mover, bank)
            if guest is not None and table.is_move(action):
                self.acted(live, table.seat_of(guest))
            if lapsed is not None:
                live.timeouts[lapsed] = live.timeouts.get(lapsed, 0) + 1
                if live.timeouts[lapsed] >= IDLE_AFTER:
                    live.idle.add(lapsed)
            if key is not None:
                live.seen[key] = (new_version, fingerprint(action))
                while len(live.seen) > SEEN_KEPT:
                    live.seen.popitem(last=False)
            live.missed.append((new_version, said))
            del live.missed[:-MISSED_KEPT]
            if action.get("type") in ("sit", "leave"):
                self.reseat(live)
                self.mark_accounts(live)
            if status_before != table.status and table.status == "playing" and not table.settings.public:
                # Its watchers are closed before the start is announced: they see nothing of the match.
                self.close_watchers(live, "a private table: only its players may watch it")
            self.broadcast(live, said)
            if status_before != table.status:
                log.info("table %s is %s", table.id, table.status)
                try:
                    left = table.status == "finished" and self.left_to_bots(live, guest)
                    await self.store.set_status(table.id, table.status, result_rows(table, finished_by_bots=left))
                    if table.status == "finished":
                        await asyncio.to_thread(self.settle, live)
                except Exception:  # derived from the actions, and put right on the next restart
                    log.exception("could not store the status (or settle the stakes) of table %s", table.id)
        self.schedule_bots(live)
        return new_version

    async def _hold(self, live: Live, asking: str | None) -> None:
        """Hold every seat's stake before the start is written (a short wallet refuses the start, in a player's
        words, and nothing changes). Should the start's write then fail, the hold stays and a start again finds
        it."""
        assert self.ledger is not None
        try:
            await asyncio.to_thread(self.ledger.hold, match_id(live.table.id), stakes_of(live.table, live.stake),
                                    live.table.id)
        except InsufficientChips as e:
            if e.seat is None or e.balance is None:
                raise TableError(f"not enough chips to start: {e}", "short") from None
            raise TableError(short_words(live.table, live.stake, e.seat, e.balance, asking), "short") from None
        except ChipsError as e:
            raise TableError(f"the stakes could not be held: {e}", "stakes") from None

    async def store_deals(self, live: Live) -> None:
        """Write the deals dealt since the last write, before anyone sees them. Should that fail, the table's
        seed still deals them again the same way on a restart by the same version of taash."""
        dealt = live.table.dealt_so_far()
        if len(dealt) <= live.deals_stored:
            return
        try:
            await self.store.add_deals(live.table.id, live.deals_stored, dealt[live.deals_stored:])
            live.deals_stored = len(dealt)
        except Exception:
            log.exception("could not store a deal of table %s", live.table.id)

    # -- sending ------------------------------------------------------------------------------------------------

    def message_for(self, live: Live, seat: int | None, kind: str, guest: str | None = None, **extra: JSON) -> str:
        """The table as ``seat`` (None: a spectator) of ``guest`` may see it, in a message of ``kind``."""
        return self._message(live, seat, kind, guest, self.presence(live), self.timer(live), extra)

    def _message(self, live: Live, seat: int | None, kind: str, guest: str | None, presence: list[dict[str, bool]],
                 timer: dict[str, JSON] | None, extra: dict[str, JSON]) -> str:
        state = self._encoded_state(live, seat)
        state["seats_present"] = presence
        state["seats_account"] = [s.guest is not None and s.guest in live.accounts for s in live.table.seats]
        state["timer"] = timer
        state["can_manage"] = seat is not None or (guest is not None and guest == live.table.owner)
        return orjson.dumps({"type": kind, "version": live.table.version, **extra, "state": state}).decode()

    def _encoded_state(self, live: Live, seat: int | None) -> dict[str, JSON]:
        """:meth:`Table.state_for`, with every list and object it shares with the table's public state replaced
        by that part already encoded (each encoded once a version, however many seats are told): the same bytes
        once the message is encoded."""
        table = live.table
        public = table.public_state()
        if live.encoded is None or live.encoded_from is not public:
            live.encoded, live.encoded_from = encoded_parts(public), public
        encoded = live.encoded
        state = table.state_for(seat)
        for key, part in encoded.top.items():
            if state.get(key) is public[key]:
                state[key] = part
        deal, public_deal = state.get("deal"), public.get("deal")
        if encoded.deal and isinstance(deal, dict) and isinstance(public_deal, Mapping):
            for key, part in encoded.deal.items():
                if deal.get(key) is public_deal[key]:
                    deal[key] = part
        return state

    def broadcast(self, live: Live, said: str) -> None:
        """Send each connection the version just made: one message per seat (and for the spectators, the owner's
        apart), the presence and timer found once for all."""
        cache: dict[tuple[int | None, bool], str] = {}
        owner = live.table.owner
        presence, timer = self.presence(live), self.timer(live)
        for conn in list(live.connections):
            if conn.close_code != 1000:  # being closed: told nothing more
                continue
            key = (conn.seat, conn.guest == owner)
            if key not in cache:
                cache[key] = self._message(live, conn.seat, "update", conn.guest, presence, timer, {"said": said})
            conn.version = live.table.version
            conn.send(cache[key])

    def presence(self, live: Live) -> list[dict[str, bool]]:
        """Per seat: whether its person has a connection open, whether he has been gone long enough that a bot
        plays for him at his turn, and whether a bot plays for him because he let his turns run out."""
        present = {c.seat for c in live.connections}
        now = time.monotonic()
        return [{"connected": seat in present,
                 "away": seat in live.away_since and now - live.away_since[seat] >= self.away_seconds,
                 "idle": seat in live.idle}
                for seat in range(len(live.table.seats))]

    def end_turn(self, live: Live, seat: int | None, bank: float | None) -> None:
        """The turn of ``seat`` (None: nobody's) is over, with ``bank`` extra seconds left to him as he acted
        (:meth:`bank_at`; None: not timed), and the next turn's clock starts."""
        if seat is not None and bank is not None:
            live.bank[seat] = bank
        live.turn_since = time.monotonic()
        live.turn_since_wall = time.time()

    def bank_left(self, live: Live, seat: int) -> float:
        """The extra seconds ``seat`` had left when the turn in progress began."""
        return live.bank.get(seat, self.extra_seconds)

    def left_to_bots(self, live: Live, guest: str | None) -> bool:
        """Whether the move just made (by ``guest``; None: a bot's or the server's) was a bot's for people who
        have all left: every seat of a person has been away long enough for a bot to play for him. Such a match
        is recorded as finished by bots, and not rated."""
        now = time.monotonic()
        people = [seat for seat, s in enumerate(live.table.seats) if s.guest is not None]
        return guest is None and bool(people) and all(
            seat in live.away_since and now - live.away_since[seat] >= self.away_seconds for seat in people)

    def bank_at(self, live: Live, seat: int | None, moment: float, away: bool = False) -> float | None:
        """The extra seconds ``seat`` has left at ``moment`` (monotonic) of the turn in progress: what the turn took
        beyond its own seconds comes out of them, except the time since its person went away when ``away`` (a bot
        plays for him: time away is not his). None when the seat's turns are not timed (no limit, or a bot's)."""
        if seat is None or self.turn_seconds <= 0 or live.table.seats[seat].bot:
            return None
        until = moment
        if away and seat in live.away_since:
            until = min(moment, live.away_since[seat])
        over = until - live.turn_since - self.turn_seconds
        return max(0.0, self.bank_left(live, seat) - max(0.0, over))

    def timer(self, live: Live) -> dict[str, JSON] | None:
        """The turn timer of the person to move: his seat, the seconds a turn has and those left of it, his extra
        seconds for the match and those left of them (spent once the turn's own are), the deadline when both are
        gone (Unix time), and what happens then (``timeout``: the game's move for a turn out of time; ``bot``: a
        bot plays the turn); None when no person is to move, a bot plays the seat, or turns are not timed."""
        table = live.table
        seat = table.to_move()
        if self.turn_seconds <= 0 or seat is None or table.seats[seat].bot or seat in live.idle:
            return None
        elapsed = time.monotonic() - live.turn_since
        bank = self.bank_left(live, seat)
        left = max(0.0, self.turn_seconds - elapsed)
        bank_now = max(0.0, bank - max(0.0, elapsed - self.turn_seconds))
        return {"seat": seat, "seconds": self.turn_seconds, "left": round(left, 1), "extra": self.extra_seconds,
                "bank": round(bank_now, 1), "deadline": round(live.turn_since_wall + self.turn_seconds + bank, 3),
                "then": "timeout" if table.timeout_action() is not None else "bot"}

    def acted(self, live: Live, seat: int | None) -> bool:
        """The person of ``seat`` acted (a bid, a play, or said he is back): his run of lapsed turns is over, and
        a bot that took his seat gives it back; returns whether it had."""
        if seat is None:
            return False
        live.timeouts.pop(seat, None)
        if seat not in live.idle:
            return False
        live.idle.discard(seat)
        return True

    def back(self, live: Live, seat: int) -> None:
        """The person of ``seat`` says he is back: he plays his seat himself again (at his turn, with what is left
        of it)."""
        if self.acted(live, seat):
            self.send_presence(live)
        self.schedule_bots(live)

    def send_presence(self, live: Live) -> None:
        message = json.dumps({"type": "presence", "seats": self.presence(live), "timer": self.timer(live)})
        for conn in list(live.connections):
            if conn.close_code == 1000:
                conn.send(message)

    def may_watch(self, live: Live, guest: str | None, code: str | None = None) -> bool:
        """Whether ``guest`` (who gave the invite ``code``, or None) may see the table: anyone a public table; a
        private one its creator and its players, and while it waits for players whoever holds its code."""
        if live.table.settings.public or is_member(live, guest):
            return True
        return live.table.status == "waiting" and code_matches(live, code)

    def close_watchers(self, live: Live, reason: str) -> None:
        """Close the connections of everyone who may no longer watch (a private table has started), before
        anything else is sent to them: what is queued after the close is never sent."""
        for conn in list(live.connections):
            if conn.seat is None and not self.may_watch(live, conn.guest):
                conn.close_code, conn.close_reason = 1008, reason
                conn.send(None)

    def join(self, live: Live, guest: str | None, since: int | None) -> Connection:
        """A new connection: its seat (if its guest sits here), and a snapshot or the actions it missed."""
        seat = None if guest is None else live.table.seat_of(guest)
        conn = Connection(guest, seat)
        live.connections.add(conn)
        live.last_active = time.monotonic()
        if seat is not None:
            live.away_since.pop(seat, None)
        table = live.table
        if since is not None and 0 <= since <= table.version and (
                since == table.version or (live.missed and live.missed[0][0] <= since + 1)):
            missed = [{"version": v, "said": said} for v, said in live.missed if v > since]
            conn.send(self.message_for(live, seat, "resume", guest, since=since, missed=missed))
        else:
            conn.send(self.message_for(live, seat, "snapshot", guest))
        conn.version = table.version
        if seat is not None:
            self.send_presence(live)
        return conn

    def leave(self, live: Live, conn: Connection) -> None:
        if conn not in live.connections:
            return
        live.connections.discard(conn)
        if conn.seat is not None and not live.seat_connected(conn.seat):
            live.away_since[conn.seat] = time.monotonic()
            self.send_presence(live)
            self.schedule_bots(live)
        self.forget_if_idle(live)

    def reseat(self, live: Live) -> None:
        """After sitting down or leaving: each connection's seat follows its guest, and a person seated with no
        connection open counts as away from now (so that a bot plays for him if he never comes)."""
        for conn in live.connections:
            conn.seat = None if conn.guest is None else live.table.seat_of(conn.guest)
        now = time.monotonic()
        for seat, s in enumerate(live.table.seats):
            if s.guest is None:
                live.away_since.pop(seat, None)
            elif not live.seat_connected(seat):
                live.away_since.setdefault(seat, now)
            else:
                live.away_since.pop(seat, None)

    # -- bots ---------------------------------------------------------------------------------------------------

    def schedule_bots(self, live: Live) -> None:
        """If a bot (or a bot for a person away, idle, or out of time) is to move at the table's version, let it
        move when due. A task waiting for an earlier version, or to wake later than now needed, is cancelled."""
        table = live.table
        if self.closing or live.gone:
            return
        due = self._bot_due(live)
        waiting = live.bot_task if live.bot_task is not None and not live.bot_task.done() else None
        if waiting is not None and live.bot_version == table.version and (due is None or live.bot_due <= due):
            return  # one will wake in time (and see then whether it is still wanted)
        if waiting is not None and waiting is not asyncio.current_task():
            waiting.cancel()
        live.bot_task = None
        if due is None:
            return
        live.bot_version, live.bot_due = table.version, due
        live.bot_task = asyncio.get_running_loop().create_task(
            self._bot_move(live, max(0.0, due - time.monotonic()), table.version))
        live.bot_task.add_done_callback(_log_failure)

    def _bot_due(self, live: Live) -> float | None:
        """When (monotonic) a bot may move for the seat to move: a bot's or an idle person's after the bots'
        pause; an away person's once away long enough; anyone's once his turn's time is up; None: never."""
        table = live.table
        seat = table.to_move()
        if seat is None:
            return None
        now = time.monotonic()
        if table.seats[seat].bot or seat in live.idle:
            return now + self.bot_delay
        due = []
        if seat in live.away_since:
            due.append(live.away_since[seat] + self.away_seconds)
        if self.turn_seconds > 0:
            due.append(live.turn_since + self.turn_seconds + self.bank_left(live, seat))
        return max(now + self.bot_delay, min(due)) if due else None

    def _bot_reason(self, live: Live, seat: int) -> str | None:
        """Why a bot may move for ``seat`` now: ``bot`` (a bot's seat), ``idle`` (his person let his turns run
        out), ``away`` (gone long enough), ``lapsed`` (his turn's time and his extra time are up); None: it may
        not."""
        if live.table.seats[seat].bot:
            return "bot"
        if seat in live.idle:
            return "idle"
        now = time.monotonic()
        since = live.away_since.get(seat)
        if since is not None and now - since >= self.away_seconds:
            return "away"
        if self.turn_seconds > 0 and now - live.turn_since >= self.turn_seconds + self.bank_left(live, seat):
            return "lapsed"
        return None

    async def _bot_move(self, live: Live, wait: float, version: int) -> None:
        await asyncio.sleep(wait)
        me = asyncio.current_task()
        table = live.table
        seat = table.to_move()
        if live.bot_task is not me or table.version != version or seat is None:
            return
        reason = self._bot_reason(live, seat)
        if reason is None:
            live.bot_task = None
            self.schedule_bots(live)  # not away long enough yet (he left again), or back: wait again or not at all
            return
        timeout = table.timeout_action() if reason == "lapsed" else None
        if timeout is not None:  # the rule book's move for a turn out of time (Rummy), made by the server
            live.bot_task = None
            try:
                await self.act(live, timeout, None, version=version)
            except TableError as e:
                if e.code == "stale" or live.bot_task is not None:
                    self.schedule_bots(live)
                    return
                log.error("a timeout was refused at table %s (%s); a bot plays the turn", table.id, e)
                live.bot_task = me
            else:
                self.schedule_bots(live)
                return
        # The bot thinks in a worker thread on its own copy of the seat's view: a slow bot never stalls the
        # other tables. Its action is made only if nothing happened meanwhile (say, the person came back).
        try:
            action = await asyncio.to_thread(table.bot_turn().action)
        except Exception:  # a bot's bug must not stop the table: the engine's first legal move instead
            log.exception("a bot failed at table %s; the engine's first legal move is made for it", table.id)
            action = table.first_legal_action()
        if live.bot_task is not me:
            return
        live.bot_task = None
        reason = self._bot_reason(live, seat)
        if reason is None:
            self.schedule_bots(live)
            return
        try:
            await self.act(live, action, None, version=version, lapsed=seat if reason == "lapsed" else None,
                           away=reason == "away")
        except TableError as e:
            if e.code != "stale":  # a bot's bug: the table must go on all the same
                log.error("a bot's action was refused at table %s (%s); the engine's first legal move is made for "
                          "it", table.id, e)
                with contextlib.suppress(TableError):
                    await self.act(live, table.first_legal_action(), None, version=version)
        self.schedule_bots(live)

    async def close(self) -> None:
        self.closing = True
        for live in self.live.values():
            if live.bot_task is not None:
                live.bot_task.cancel()
            for conn in list(live.connections):
                conn.send(None)


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


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a bot task failed", exc_info=task.exception())


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
