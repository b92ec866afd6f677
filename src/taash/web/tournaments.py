"""The tournament director: registration (the fee into the tournament's pool in the books, and back on a
withdrawal), the start (bots filling the empty places when the creator allows, the entrants seeded by rating), each
round's matches at real hub tables, the next round when the last match of one ends (a hook at every match's end,
and a pass over every tournament each tick), and the prizes paid out of the pool once.

Every step reads the tournament from the database, does one thing, and writes what it did before the next
(:mod:`taash.web.tournament_rows` says the order), so a server killed at any moment carries on at its restart
from where the database says: a table made but not started is started, a match that ended while the server was
down is counted, and a payout half made is finished. The ledger's transfer ids (one per fee, return and prize)
make a step done again happen once: nothing is lost and nothing paid twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session

from taash.chips.errors import ChipsError, InsufficientChips
from taash.chips.ledger import Ledger, wallet_of
from taash.i18n import N_, _, said_of
from taash.tables.adapter import TableError
from taash.tournaments.arena import arena_score, arena_tables
from taash.tournaments.pairing import (
    ARENA,
    KNOCKOUT,
    SeatOutcome,
    TournamentError,
    goers,
    is_final,
    knockout_tables,
    points,
    prizes,
    seeded,
    swiss_tables,
)
from taash.web.hub import Hub, Live
from taash.web.matchmaking import unique_name
from taash.web.tournament_book import (
    Record,
    arena_results,
    bot_entrants,
    enter,
    entrant_of,
    last_opponents,
    leave,
    locked,
    met_so_far,
    read,
    return_fee,
    set_entrant,
    settle_cancel,
    table_settings,
    with_steps_left,
)
from taash.web.tournament_rows import (
    CANCELLED,
    CANCELLING,
    DONE,
    ENTERING,
    FINISHED,
    OPEN,
    PAYING,
    PENDING,
    PLAYING,
    REGISTERED,
    RUNNING,
    WITHDRAWING,
    WITHDRAWN,
    EntrantRow,
    MatchRow,
    TournamentRow,
    aware,
    fee_id,
    is_bot,
    pool_person,
    prize_id,
)
from taash.web.tournament_watch import Watchers

log = logging.getLogger("taash.web")
#: Seconds an entry may take to pay its fee before the director settles it as one a crash left half made (a fee is
#: paid in milliseconds; before, the director of one server settled an entry another server was paying for at that
#: moment as unpaid, and its person was asked to try again).
ENTERING_SECONDS = 30.0


class Tournaments:
    """Every tournament of a server, run at its hub's tables. ``ratings(game)`` gives each person's rating in a
    game (for the seeds); ``now`` is the wall clock (injected in tests)."""

    def __init__(self, engine: Engine, hub: Hub, ledger: Ledger | None,
                 ratings: Callable[[str], dict[str, float]] | None = None,
                 now: Callable[[], datetime] = lambda: datetime.now(UTC),
                 directs: Callable[[str], Awaitable[bool]] | None = None):
        self.engine = engine
        #: Whether this server directs a tournament now (one server among several: it holds the tournament's
        #: lease, :func:`taash.web.shared.director_lease`); a lone server directs every one.
        self.directs = directs
        self.hub = hub
        self.ledger = ledger
        self.ratings = ratings or (lambda game: {})
        self.now = now
        #: One step at a time, of any tournament (steps are short: the matches are played by the hub).
        self.lock = asyncio.Lock()
        #: table id -> its tournament, for the hook at a match's end.
        self.tables: dict[str, str] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.closing = False
        #: The pages watching each tournament, told at every change.
        self.watch = Watchers()

    # -- registration ---------------------------------------------------------------------------------------------

    async def register(self, tournament_id: str, person: str, name: str) -> None:
        """Enter ``person`` (his fee taken into the pool); a TournamentError says why not, and nothing changes. A
        tournament with no start time starts as soon as it is full."""
        async with self.lock:
            row, entry = await asyncio.to_thread(enter, self.engine, tournament_id, person, name, self.now())
            if row.fee:
                try:
                    await asyncio.to_thread(self._pay_fee, row, person, entry)
                except ChipsError as e:
                    await asyncio.to_thread(self._set_entrant, row.id, person, WITHDRAWN, entry)
                    short = isinstance(e, InsufficientChips)
                    fee = f"{row.fee:,}"
                    raise TournamentError(
                        _("the entry fee of {fee} chips could not be paid: your wallet has fewer chips", fee=fee)
                        if short else _("the entry fee of {fee} chips could not be paid: {why}", fee=fee,
                                        why=said_of(e))) from None
            await asyncio.to_thread(self._registered, row, person, entry)
        self.watch.changed(tournament_id)
        await self.step(tournament_id)

    def _registered(self, row: TournamentRow, person: str, entry: int) -> None:
        """Mark the entry paid for as registered, unless the director (of another server) settled it meanwhile:
        taken as paid (he is registered), or as not paid before the fee was taken (the fee is returned, and a
        TournamentError asks him to try again)."""
        if set_entrant(self.engine, row.id, person, REGISTERED, entering=entry):
            return
        found = entrant_of(self.engine, row.id, person)
        if found is not None and found.state == REGISTERED and found.entries == entry:
            return
        if found is not None and found.entries == entry:
            return_fee(self.engine, self.ledger, row, found)
        raise TournamentError(N_("your registration could not be made: please try again"))

    async def withdraw(self, tournament_id: str, person: str) -> None:
        """Take ``person`` out before the start, his fee returned."""
        async with self.lock:
            row, entrant = await asyncio.to_thread(leave, self.engine, tournament_id, person)
            await asyncio.to_thread(return_fee, self.engine, self.ledger, row, entrant)
        self.watch.changed(tournament_id)

    def _pay_fee(self, row: TournamentRow, person: str, entry: int) -> None:
        assert self.ledger is not None
        self.ledger.transfer(fee_id(row.id, person, entry), wallet_of(person), wallet_of(pool_person(row.id)), row.fee)

    def _set_entrant(self, tournament_id: str, entrant: str, state: str, entering: int | None = None) -> None:
        set_entrant(self.engine, tournament_id, entrant, state, entering)

    def _settle_entries(self, record: Record) -> bool:
        """Entries a crash left half made: a fee taken is an entry, one not taken is none; a return begun is
        made. Whether any was. Among several servers, an entry still within :data:`ENTERING_SECONDS` may be being
        paid for now on another one, and is left to its registration (a lone server's own registrations never
        meet its steps: they take turns under :attr:`lock`)."""
        changed = False
        oldest = self.now() - timedelta(seconds=ENTERING_SECONDS)
        for e in record.entrants:
            entered = aware(e.registered_at)
            if e.state == ENTERING and self.directs is not None and entered is not None and entered > oldest:
                continue
            if e.state == ENTERING:
                paid = not record.row.fee or (self.ledger is not None and self.ledger.transfer_by_id(
                    fee_id(record.row.id, e.entrant, e.entries)) is not None)
                self._set_entrant(record.row.id, e.entrant, REGISTERED if paid else WITHDRAWN, e.entries)
                changed = True
            elif e.state == WITHDRAWING:
                return_fee(self.engine, self.ledger, record.row, e)
                changed = True
        return changed

    # -- the steps ------------------------------------------------------------------------------------------------

    async def step(self, tournament_id: str) -> None:
        """Take the tournament as far as it can go now (each part written before the next), if this server
        directs it (else its director does, at its next tick)."""
        if self.directs is not None and not await self.directs(tournament_id):
            return
        async with self.lock:
            for _ in range(1000):
                record = await self._read(tournament_id)
                if self.closing or not await self._advance(record):
                    return
                self.watch.changed(tournament_id)

    async def _read(self, tournament_id: str) -> Record:
        record = await asyncio.to_thread(read, self.engine, tournament_id)
        if record is None:
            raise TournamentError(N_("no such tournament"))
        return record

    async def _advance(self, record: Record) -> bool:
        """One step of the tournament; whether it changed anything."""
        status = record.row.status
        if any(e.state in (ENTERING, WITHDRAWING) for e in record.entrants):
            return await asyncio.to_thread(self._settle_entries, record)
        if status == OPEN:
            return await self._maybe_start(record)
        if status == RUNNING:
            return await (self._play_arena(record) if record.row.kind == ARENA else self._play(record))
        if status == PAYING:
            await asyncio.to_thread(self._pay, record)
            return True
        if status == CANCELLING:
            await asyncio.to_thread(self._cancel, record)
            return True
        if status == CANCELLED:
            return await self._end_cancelled(record)
        return False

    async def _maybe_start(self, record: Record) -> bool:
        row = record.row
        starts_at = aware(row.starts_at)
        due = (starts_at is not None and starts_at <= self.now()) or (
            starts_at is None and len(record.registered) >= row.capacity)
        if not due:
            return False
        ratings = await asyncio.to_thread(self.ratings, row.game)
        await asyncio.to_thread(self._start, record, ratings)
        return True

    def _start(self, record: Record, ratings: dict[str, float]) -> None:
        """Seed the entrants (bots filling the empty places when allowed) and write the first round, in one
        transaction holding the tournament's row (:func:`locked`: the entrants read there are all there are, whatever
        another server registered meanwhile; an entry still being paid for waits for the next step); too few
        entrants cancel it."""
        row = record.row
        with locked(self.engine, row.id) as (s, fresh):
            entrants = list(s.scalars(select(EntrantRow).where(EntrantRow.tournament_id == row.id)
                                      .order_by(EntrantRow.registered_at, EntrantRow.entrant)))
            if fresh is None or fresh.status != OPEN or any(e.state == ENTERING for e in entrants):
                return  # cancelled meanwhile, or a fee being taken
            people = [e.entrant for e in entrants if e.state == REGISTERED]
            bots = bot_entrants(row.capacity - len(people)) if row.bots else []
            if len(people) + len(bots) < 2 or not people:
                fresh.status = CANCELLING
                return
            seeds = seeded(ratings, people) + [b for b, _ in bots]
            fresh.status, fresh.round = RUNNING, 1
            fresh.ends_at = self.now() + timedelta(seconds=row.window) if row.kind == ARENA else None
            for bot, name in bots:
                s.add(EntrantRow(tournament_id=row.id, entrant=bot, name=name, state=REGISTERED, entries=1,
                                 rating=0.0, registered_at=self.now()))
            s.flush()
            for i, entrant in enumerate(seeds):
                s.execute(update(EntrantRow).where(EntrantRow.tournament_id == row.id, EntrantRow.entrant == entrant)
                          .values(seed=i, rating=ratings.get(entrant, 0.0)))
            tables = (knockout_tables(seeds, row.players) if row.kind == KNOCKOUT
                      else arena_tables(seeds, {}, seeds, {}, row.players) if row.kind == ARENA
                      else swiss_tables({}, seeds, {}, row.players))
            self._write_round(s, row.id, 1, tables)
        log.info("tournament %s started with %d entrants (%d bots)", row.id, len(seeds), len(bots))

    @staticmethod
    def _write_round(s: Session, tournament_id: str, number: int, tables: list[list[str]], first: int = 0) -> None:
        for i, seats in enumerate(tables, start=first):
            s.add(MatchRow(tournament_id=tournament_id, round=number, number=i, seats=json.dumps(seats),
                           status=PENDING))

    def _set_status(self, tournament_id: str, status: str, expected: tuple[str, ...] | None = None,
                    **values: object) -> None:
        """Write the tournament's status (only while it is one of ``expected`` when given: a tournament the
        operator cancelled meanwhile stays cancelled)."""
        with Session(self.engine) as s, s.begin():
            where = [TournamentRow.id == tournament_id]
            if expected is not None:
                where.append(TournamentRow.status.in_(expected))
            s.execute(update(TournamentRow).where(*where).values(status=status, **values))

    # -- the matches ----------------------------------------------------------------------------------------------

    async def _play(self, record: Record) -> bool:
        """Open the round's matches not yet playing, count those that ended; the next round (or the end) once
        every one has."""
        changed = False
        matches = record.round_matches()
        for m in matches:
            if m.status == PENDING:
                await self._open(record, m)
                changed = True
            elif m.status == PLAYING and m.table_id is not None:
                self.tables[m.table_id] = record.row.id
                changed |= await self._count(record, m)
        if not changed and all(m.status == DONE for m in matches):
            await asyncio.to_thread(self._next_round, record)
            return True
        return changed

    async def _play_arena(self, record: Record) -> bool:
        """An arena: open the matches made, count those that ended; while the window is open, pair whoever is
        waiting at once; once it has closed and the last match is counted, the end."""
        changed = False
        for m in record.matches:
            if m.status == PENDING:
                await self._open(record, m)
                changed = True
            elif m.status == PLAYING and m.table_id is not None:
                self.tables[m.table_id] = record.row.id
                changed |= await self._count(record, m)
        if changed:
            return True
        busy = {e for m in record.matches if m.status != DONE for e in m.entrants()}
        ends = aware(record.row.ends_at)
        if ends is None or self.now() >= ends:
            if busy:
                return False  # the matches being played finish first
            await asyncio.to_thread(self._decide_prizes, record)
            return True
        done = [m for m in record.matches if m.status == DONE]
        scores = {e: float(arena_score(r)) for e, r in arena_results(done).items()}
        waiting = [e for e in record.seeds if e not in busy]
        tables = arena_tables(waiting, scores, record.seeds, last_opponents(record.matches), record.row.players)
        if not tables:
            return False
        await asyncio.to_thread(self._write_arena_matches, record, tables)
        return True

    def _write_arena_matches(self, record: Record, tables: list[list[str]]) -> None:
        with Session(self.engine) as s, s.begin():
            self._write_round(s, record.row.id, 1, tables, first=len(record.matches))

    async def _open(self, record: Record, m: MatchRow) -> None:
        """Make the match's table (once), seat its people, fill the other seats with bots and start it."""
        live = self.hub.get(m.table_id) if m.table_id is not None else None
        if live is None or live.gone:
            live = await self._new_table(record.row, len(m.entrants()))
            await asyncio.to_thread(self._set_match, m, table_id=live.table.id)
        self.tables[live.table.id] = record.row.id
        table = live.table
        if table.status == "waiting":
            names = record.names()
            taken = {s.name.casefold() for s in table.seats if not s.empty}
            for seat, entrant in enumerate(m.entrants()):
                if is_bot(entrant) or not table.seats[seat].empty:
                    continue
                name = unique_name(names.get(entrant, "Player"), taken)
                taken.add(name.casefold())
                await self.hub.act(live, {"type": "sit", "seat": seat, "name": name}, entrant)
            if any(s.empty for s in table.seats):
                await self.hub.act(live, {"type": "bots"}, None)
            await self.hub.act(live, {"type": "start"}, None)
        await asyncio.to_thread(self._set_match, m, status=PLAYING)

    async def _new_table(self, row: TournamentRow, seats: int) -> Live:
        """A public table for ``seats`` entrants; a count the game does not seat (a game of partners) gets a table
        of the tournament's size, its other seats filled by bots who are no entrants."""
        try:
            settings = table_settings(row, seats)
        except (TableError, ValueError):
            settings = table_settings(row)
        return await self.hub.create(settings, None)

    def _set_match(self, m: MatchRow, **values: object) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(update(MatchRow).where(MatchRow.tournament_id == m.tournament_id, MatchRow.round == m.round,
                                             MatchRow.number == m.number).values(**values))

    async def _count(self, record: Record, m: MatchRow) -> bool:
        """Count a match whose table finished (or was abandoned: a draw); whether it had."""
        assert m.table_id is not None
        live = self.hub.get(m.table_id)
        if live is None:
            return False
        table = live.table
        seats = m.entrants()
        if table.status == "finished":
            outcome = [SeatOutcome(seats[i] if i < len(seats) else None, r.team, r.won, r.result)
                       for i, _, r in table.results()]
        elif live.gone:
            outcome = [SeatOutcome(e, i, False, 0.0) for i, e in enumerate(seats)]
        else:
            return False
        kept = {"goers": goers(outcome, record.seeds), "points": points(outcome),
                "seats": [[o.entrant, o.team, o.won, o.result] for o in outcome]}
        await asyncio.to_thread(self._set_match, m, status=DONE, outcome=json.dumps(kept))
        return True

    def _next_round(self, record: Record) -> None:
        """The next round's tables, or the end: the standings, and the prizes decided (written before any is
        paid)."""
        row = record.row
        matches = record.round_matches()
        seeds = record.seeds
        if row.kind == KNOCKOUT:
            on = {g for m in matches for g in m.outcome_of().get("goers", [])}
            going = [e for e in seeds if e in on]
            final = is_final(sum(len(m.entrants()) for m in matches), row.players) or len(going) <= 1
            tables = [] if final else knockout_tables(going, row.players)
        else:
            done = [m for m in record.matches if m.status == DONE]
            scores: dict[str, float] = {}
            for m in done:
                for e, p in m.outcome_of().get("points", {}).items():
                    scores[e] = scores.get(e, 0.0) + p
            tables = [] if row.round >= row.rounds else swiss_tables(scores, seeds, met_so_far(done), row.players)
        if tables:
            with Session(self.engine) as s, s.begin():
                self._write_round(s, row.id, row.round + 1, tables)
                s.execute(update(TournamentRow).where(TournamentRow.id == row.id).values(round=row.round + 1))
            return
        self._decide_prizes(record)

    def _decide_prizes(self, record: Record) -> None:
        """The end: the standings final, and the prizes decided (written before any is paid)."""
        row = record.row
        record.row.status = PAYING
        standings = record.standings()
        pool = row.fee * len(record.people)
        paid = prizes(pool, json.loads(row.prizes), standings, paid=record.people) if pool else {}
        self._set_status(row.id, PAYING, (RUNNING,), payout=json.dumps(paid), finished_at=self.now())
        log.info("tournament %s is over: %s", row.id, ", ".join(f"{s.place}. {s.entrant}" for s in standings[:3]))

    # -- the chips ------------------------------------------------------------------------------------------------

    def _pay(self, record: Record) -> None:
        """Pay the prizes decided (each under its own transfer id: again after a crash, once), then finish."""
        row = record.row
        if row.fee and self.ledger is not None:
            for entrant, amount in json.loads(row.payout or "{}").items():
                self.ledger.transfer(prize_id(row.id, entrant), wallet_of(pool_person(row.id)), wallet_of(entrant),
                                     amount)
        self._set_status(row.id, FINISHED)

    def _cancel(self, record: Record) -> None:
        """Return every fee of a tournament that could not start (or that the operator cancels), then mark it
        cancelled."""
        settle_cancel(self.engine, self.ledger, record, self.now())

    async def _end_cancelled(self, record: Record) -> bool:
        """A cancelled tournament's leftovers: an entry made meanwhile is returned, and its matches not done are
        ended (their tables abandoned); whether there were any."""
        if any(e.state != WITHDRAWN for e in record.entrants):
            await asyncio.to_thread(self._cancel, record)
            return True
        left = [m for m in record.matches if m.status != DONE]
        for m in left:
            live = self.hub.get(m.table_id) if m.table_id is not None else None
            if live is not None and not live.gone and live.table.status != "finished":
                with contextlib.suppress(TableError):
                    await self.hub.abandon(live, reason="the tournament was cancelled")
            await asyncio.to_thread(self._set_match, m, status=DONE, outcome=json.dumps({"cancelled": True}))
        return bool(left)

    # -- running --------------------------------------------------------------------------------------------------

    def match_ended(self, live: Live) -> None:
        """The hub's hook at a match's end: the table's tournament (if any) takes its next step."""
        tournament_id = self.tables.get(live.table.id)
        if tournament_id is not None and not self.closing:
            task = asyncio.get_running_loop().create_task(self._step_logged(tournament_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _step_logged(self, tournament_id: str) -> None:
        try:
            await self.step(tournament_id)
        except Exception:  # the next tick tries again
            log.exception("tournament %s could not take its next step", tournament_id)

    def active(self) -> list[str]:
        """The tournaments with a step to take (:func:`with_steps_left`)."""
        return with_steps_left(self.engine)

    async def tick(self) -> None:
        """Every active tournament takes what steps it can (after a restart: from where the database says)."""
        for tournament_id in await asyncio.to_thread(self.active):
            await self._step_logged(tournament_id)

    async def run_forever(self, every: float) -> None:
        """A tick every ``every`` seconds until the server closes (a database that fails one is tried again)."""
        while not self.closing:
            try:
                await self.tick()
            except Exception:
                log.exception("the tournaments' tick failed")
            await asyncio.sleep(every)

    async def close(self) -> None:
        self.closing = True
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
