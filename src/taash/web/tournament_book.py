"""A tournament's record, read and written synchronously (the director calls it in a worker thread, ``taash
tournaments`` directly): its creation checked, its entrants, its matches, and its standings as they stand.

Nothing here names a game: the settings are checked by the game's table adapter, the results read as the tables
layer gives them (:class:`taash.tables.adapter.SeatResult`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, exists, or_, select, update
from sqlalchemy.orm import Session

from taash.chips.ledger import Ledger, wallet_of
from taash.i18n import N_, _, said_of
from taash.tables.adapter import Settings, TableError, adapter
from taash.tables.table import check_settings
from taash.tournaments.arena import arena_standings
from taash.tournaments.pairing import (
    ARENA,
    KINDS,
    KNOCKOUT,
    SWISS,
    Standing,
    TournamentError,
    knockout_standings,
    swiss_rounds,
    swiss_standings,
)
from taash.web.tournament_rows import (
    BOT_PREFIX,
    CANCELLED,
    CANCELLING,
    DONE,
    ENTERING,
    FINISHED,
    OPEN,
    PAYING,
    REGISTERED,
    RUNNING,
    WITHDRAWING,
    WITHDRAWN,
    EntrantRow,
    MatchRow,
    TournamentRow,
    fee_id,
    is_bot,
    pool_person,
    return_id,
)

JSON = Any
#: The most entrants a tournament takes.
MOST_ENTRANTS = 64
#: The most chips a tournament's fee may be.
MOST_FEE = 10**9
#: Prizes by default: the winner takes 70% of the pool, the second 30%.
DEFAULT_PRIZES = (70, 30)
#: An arena's time window, in minutes: at least and at most.
ARENA_MINUTES = (0.25, 24 * 60.0)


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """What a tournament's creator (a person, or the operator) chose. ``rules`` and ``length`` as a table takes
    them (None: the game's first preset and its default length); ``rounds`` of a Swiss (0: enough for one winner);
    ``starts_at``: None starts it as soon as it is full; ``minutes``: an arena's time window (from its start)."""

    name: str
    game: str
    kind: str = KNOCKOUT
    players: int = 2
    rules: str | None = None
    length: int | str | None = None
    level: str = "easy"
    capacity: int = 8
    rounds: int = 0
    fee: int = 0
    prizes: tuple[int, ...] = DEFAULT_PRIZES
    bots: bool = True
    starts_at: datetime | None = None
    minutes: float = 0.0


def table_settings(row: TournamentRow, players: int | None = None) -> Settings:
    """The settings of one of the tournament's tables (``players`` seats: its own size unless told)."""
    game = adapter(row.game)
    settings = game.settings(players or row.players, json.loads(row.rules), json.loads(row.length), row.level, True)
    check_settings(settings)
    return settings


def _checked(spec: TournamentSpec, now: datetime) -> tuple[str, JSON, JSON]:
    """The rules and length as stored; a one-sentence TournamentError for anything wrong."""
    if not 1 <= len(spec.name.strip()) <= 60:
        raise TournamentError(N_("a tournament's name is 1 to 60 characters"))
    if spec.kind not in KINDS:
        raise TournamentError(_("a tournament is one of {kinds}, not {kind}", kinds=", ".join(KINDS),
                                kind=repr(spec.kind)))
    if not 2 <= spec.capacity <= MOST_ENTRANTS:
        raise TournamentError(_("a tournament takes 2 to {most} entrants, not {capacity}", most=MOST_ENTRANTS,
                                capacity=spec.capacity))
    if not 0 <= spec.fee <= MOST_FEE:
        raise TournamentError(_("an entry fee is 0 to {most} chips, not {fee}", most=f"{MOST_FEE:,}", fee=spec.fee))
    if (spec.kind == ARENA) != (spec.minutes > 0) or (
            spec.kind == ARENA and not ARENA_MINUTES[0] <= spec.minutes <= ARENA_MINUTES[1]):
        raise TournamentError(_("an arena (and only an arena) lasts {least} to {most} minutes, not {minutes}",
                                least=f"{ARENA_MINUTES[0]:g}", most=f"{ARENA_MINUTES[1]:g}",
                                minutes=f"{spec.minutes:g}"))
    if not 0 <= spec.rounds <= 12:
        raise TournamentError(_("a Swiss tournament plays 1 to 12 rounds (0: as many as it needs), not {rounds}",
                                rounds=spec.rounds))
    if not spec.prizes or len(spec.prizes) > 10 or any(p < 0 for p in spec.prizes) or sum(spec.prizes) != 100:
        raise TournamentError(_("prizes are up to 10 percents of the pool, by place, adding up to 100, not {prizes}",
                                prizes=str(list(spec.prizes))))
    if spec.starts_at is not None and spec.starts_at.astimezone(UTC) < now:
        raise TournamentError(N_("a tournament starts in the future (or as soon as it is full)"))
    try:
        game = adapter(spec.game)
    except (TableError, ValueError) as e:
        raise TournamentError(said_of(e)) from None
    rules = spec.rules or game.presets[0]
    length: JSON = spec.length
    if length is None:
        length = game.formats[0] if game.formats else 1
    try:
        check_settings(game.settings(spec.players, rules, length, spec.level, True))
    except (TableError, ValueError) as e:
        raise TournamentError(_("its tables cannot be played: {why}", why=said_of(e))) from None
    return spec.name.strip(), rules, length


def create_tournament(engine: Engine, ledger: Ledger | None, spec: TournamentSpec, creator: str | None,
                      now: datetime | None = None) -> str:
    """Write a new tournament (open for registration); its id. A tournament with a fee opens its prize pool in
    the books first."""
    moment = now or datetime.now(UTC)
    name, rules, length = _checked(spec, moment)
    if spec.fee and ledger is None:
        raise TournamentError(N_("this server keeps no chips: its tournaments are free"))
    tournament_id = secrets.token_hex(8)
    if spec.fee and ledger is not None:
        ledger.open_wallet(pool_person(tournament_id), grant=False)
    rounds = (spec.rounds or swiss_rounds(spec.capacity)) if spec.kind == SWISS else 0
    with Session(engine) as s, s.begin():
        s.add(TournamentRow(id=tournament_id, name=name, game=spec.game, kind=spec.kind, players=spec.players,
                            rules=json.dumps(rules), length=json.dumps(length), level=spec.level,
                            capacity=spec.capacity, rounds=rounds, fee=spec.fee, prizes=json.dumps(list(spec.prizes)),
                            bots=spec.bots, creator=creator, starts_at=spec.starts_at, status=OPEN, round=0,
                            window=round(spec.minutes * 60), created_at=moment))
    return tournament_id


@dataclass(slots=True)
class Record:
    """A tournament as the database has it: the row, its entrants (in registration order) and its matches."""

    row: TournamentRow
    entrants: list[EntrantRow]
    matches: list[MatchRow]

    @property
    def registered(self) -> list[EntrantRow]:
        return [e for e in self.entrants if e.state == REGISTERED]

    @property
    def people(self) -> list[str]:
        return [e.entrant for e in self.registered if not is_bot(e.entrant)]

    @property
    def seeds(self) -> list[str]:
        seeded = [e for e in self.registered if e.seed is not None]
        return [e.entrant for e in sorted(seeded, key=lambda e: e.seed or 0)]

    def round_matches(self, number: int | None = None) -> list[MatchRow]:
        wanted = self.row.round if number is None else number
        return [m for m in self.matches if m.round == wanted]

    def names(self) -> dict[str, str]:
        return {e.entrant: e.name for e in self.entrants}

    def standings(self) -> list[Standing]:
        """Where everyone stands now (final once the tournament is over)."""
        seeds = self.seeds or [e.entrant for e in self.registered]
        done = [m for m in self.matches if m.status == DONE]
        if self.row.kind == KNOCKOUT:
            reached = {e: m.round for m in sorted(self.matches, key=lambda m: m.round) for e in m.entrants()}
            last = self.round_matches()
            over = self.row.status not in (OPEN, "running") and last and all(m.status == DONE for m in last)
            champions = [g for m in last for g in m.outcome_of().get("goers", [])] if over else []
            return knockout_standings(reached, champions, seeds)
        if self.row.kind == ARENA:
            return arena_standings(arena_results(done), seeds)
        scores: dict[str, float] = {}
        for m in done:
            for e, p in m.outcome_of().get("points", {}).items():
                scores[e] = scores.get(e, 0.0) + p
        return swiss_standings(scores, met_so_far(done), seeds)


def met_so_far(matches: Sequence[MatchRow]) -> dict[str, set[str]]:
    """Who has met whom at the tournament's tables so far."""
    met: dict[str, set[str]] = {}
    for m in matches:
        seats = m.entrants()
        for e in seats:
            met.setdefault(e, set()).update(o for o in seats if o != e)
    return met


def arena_results(done: Sequence[MatchRow]) -> dict[str, list[float]]:
    """Each entrant's results in an arena's matches done, in the order they were made (an entrant plays one match
    at a time: the order he played them)."""
    results: dict[str, list[float]] = {}
    for m in sorted(done, key=lambda m: (m.round, m.number)):
        for e, p in m.outcome_of().get("points", {}).items():
            results.setdefault(e, []).append(p)
    return results


def last_opponents(matches: Sequence[MatchRow]) -> dict[str, set[str]]:
    """Whom each entrant met in his latest match (an arena does not pair them again at once when it can help it)."""
    last: dict[str, set[str]] = {}
    for m in sorted(matches, key=lambda m: (m.round, m.number)):
        seats = m.entrants()
        for e in seats:
            last[e] = {o for o in seats if o != e}
    return last


def read(engine: Engine, tournament_id: str) -> Record | None:
    with Session(engine, expire_on_commit=False) as s:
        row = s.get(TournamentRow, tournament_id)
        if row is None:
            return None
        entrants = list(s.scalars(select(EntrantRow).where(EntrantRow.tournament_id == tournament_id)
                                  .order_by(EntrantRow.registered_at, EntrantRow.entrant)))
        matches = list(s.scalars(select(MatchRow).where(MatchRow.tournament_id == tournament_id)
                                 .order_by(MatchRow.round, MatchRow.number)))
        s.expunge_all()
        return Record(row, entrants, matches)


def listed(engine: Engine, statuses: Sequence[str] | None = None, limit: int = 100) -> list[TournamentRow]:
    """Tournaments, the newest first (only those of ``statuses`` when given)."""
    with Session(engine, expire_on_commit=False) as s:
        query = select(TournamentRow).order_by(TournamentRow.created_at.desc()).limit(limit)
        if statuses is not None:
            query = query.where(TournamentRow.status.in_(statuses))
        rows = list(s.scalars(query))
        s.expunge_all()
        return rows


def entered_by(engine: Engine, entrant: str, limit: int = 50) -> list[tuple[TournamentRow, EntrantRow]]:
    """The tournaments a person registered for (not withdrawn), the newest first."""
    with Session(engine, expire_on_commit=False) as s:
        rows = list(s.execute(select(TournamentRow, EntrantRow).join(
            EntrantRow, EntrantRow.tournament_id == TournamentRow.id)
            .where(EntrantRow.entrant == entrant, EntrantRow.state == REGISTERED,
                   TournamentRow.status != CANCELLED)
            .order_by(TournamentRow.created_at.desc()).limit(limit)).tuples())
        s.expunge_all()
        return rows


def bot_entrants(count: int, first: int = 1) -> list[tuple[str, str]]:
    """``count`` bot entrants: their ids and names."""
    return [(f"{BOT_PREFIX}{n}", f"Bot {n}") for n in range(first, first + count)]


def is_finished(row: TournamentRow) -> bool:
    return row.status in (FINISHED, CANCELLED)


# -- registration -------------------------------------------------------------------------------------------------


@contextmanager
def locked(engine: Engine, tournament_id: str) -> Iterator[tuple[Session, TournamentRow | None]]:
    """A write transaction holding the tournament's row (None: no such tournament), committed at the end: the
    registrations and the start of one tournament, through any server of a cluster, one at a time (SQLite: one
    writer at all, ``BEGIN IMMEDIATE``; PostgreSQL: ``SELECT ... FOR UPDATE``, and what is read after it sees
    every transaction that held the row before)."""
    with Session(engine, expire_on_commit=False) as s:
        if engine.dialect.name == "sqlite":
            s.connection().exec_driver_sql("BEGIN IMMEDIATE")
        yield s, s.get(TournamentRow, tournament_id, with_for_update=True)
        s.commit()


#: The states that hold a place: registered, or paying the fee now (on this server or another).
HOLDING = (ENTERING, REGISTERED)


def enter(engine: Engine, tournament_id: str, person: str, name: str, now: datetime) -> tuple[TournamentRow, int]:
    """Write ``person``'s entry as being paid for, if the tournament is open, he holds no place yet and a place is
    left (counting the entries being paid for), all checked under the tournament's lock (:func:`locked`): two
    servers registering at the same moment seat no more than the tournament's size and take nobody's fee twice.
    The tournament and the number of this entry (its fee's transfer id); a TournamentError says why not, and
    nothing changes."""
    with locked(engine, tournament_id) as (s, row):
        if row is None:
            raise TournamentError(N_("no such tournament"))
        if row.status != OPEN:
            raise TournamentError(N_("registration is closed: the tournament has started"))
        entrants = list(s.scalars(select(EntrantRow).where(EntrantRow.tournament_id == tournament_id)))
        found = next((e for e in entrants if e.entrant == person), None)
        if found is not None and found.state in HOLDING:
            raise TournamentError(N_("you are registered already"))
        if sum(e.state in HOLDING for e in entrants) >= row.capacity:
            raise TournamentError(_("the tournament is full ({n} entrants)", n=row.capacity))
        if found is None:
            found = EntrantRow(tournament_id=tournament_id, entrant=person, name=name, state=ENTERING, entries=1,
                               rating=0.0, registered_at=now)
            s.add(found)
        else:
            found.state, found.name, found.entries, found.registered_at = ENTERING, name, found.entries + 1, now
        return row, found.entries


def leave(engine: Engine, tournament_id: str, person: str) -> tuple[TournamentRow, EntrantRow]:
    """Mark ``person``'s entry as being withdrawn (his fee to be returned: :func:`return_fee`), if the tournament
    has not started, checked under its lock (:func:`locked`); the tournament and his entry. A TournamentError says
    why not, and nothing changes."""
    with locked(engine, tournament_id) as (s, row):
        if row is None:
            raise TournamentError(N_("no such tournament"))
        if row.status != OPEN:
            raise TournamentError(N_("the tournament has started: nobody can withdraw now"))
        found = s.get(EntrantRow, (tournament_id, person))
        if found is None or found.state != REGISTERED or is_bot(person):
            raise TournamentError(N_("you are not registered"))
        found.state = WITHDRAWING
        return row, found


def set_entrant(engine: Engine, tournament_id: str, entrant: str, state: str,
                entering: int | None = None) -> bool:
    """Write an entrant's state (with ``entering``: only if his entry of that number is still being paid for, so
    that the server taking the fee and a director settling entries a crash left do not both decide it); whether
    it was written."""
    with Session(engine) as s, s.begin():
        where = [EntrantRow.tournament_id == tournament_id, EntrantRow.entrant == entrant]
        if entering is not None:
            where += [EntrantRow.state == ENTERING, EntrantRow.entries == entering]
        return bool(getattr(s.execute(update(EntrantRow).where(*where).values(state=state)), "rowcount", 0))


def entrant_of(engine: Engine, tournament_id: str, entrant: str) -> EntrantRow | None:
    with Session(engine, expire_on_commit=False) as s:
        found = s.get(EntrantRow, (tournament_id, entrant))
        if found is not None:
            s.expunge(found)
        return found


# -- cancelling ---------------------------------------------------------------------------------------------------


def return_fee(engine: Engine, ledger: Ledger | None, row: TournamentRow, entrant: EntrantRow) -> int:
    """Give an entrant's fee back (once, whatever the crashes: the return's transfer id is his entry's) and mark him
    withdrawn; the chips returned (0: he paid none)."""
    returned = 0
    if row.fee and ledger is not None and not is_bot(entrant.entrant) and ledger.transfer_by_id(
            fee_id(row.id, entrant.entrant, entrant.entries)) is not None:
        ledger.transfer(return_id(row.id, entrant.entrant, entrant.entries), wallet_of(pool_person(row.id)),
                        wallet_of(entrant.entrant), row.fee)
        returned = row.fee
    set_entrant(engine, row.id, entrant.entrant, WITHDRAWN)
    return returned


def settle_cancel(engine: Engine, ledger: Ledger | None, record: Record, now: datetime) -> int:
    """Finish cancelling: every entrant not yet withdrawn gets his fee back and is withdrawn, then the tournament is
    ``cancelled``. Done again after a crash it returns nothing twice. The chips returned by this call."""
    returned = sum(return_fee(engine, ledger, record.row, e) for e in record.entrants if e.state != WITHDRAWN)
    with Session(engine) as s, s.begin():
        s.execute(update(TournamentRow).where(TournamentRow.id == record.row.id,
                                              TournamentRow.status.in_((CANCELLING, CANCELLED)))
                  .values(status=CANCELLED, finished_at=record.row.finished_at or now))
    return returned


def cancel_tournament(engine: Engine, ledger: Ledger | None, tournament_id: str,
                      now: datetime | None = None) -> tuple[Record, int]:
    """The operator's cancel: a tournament not finished is marked ``cancelling`` (written first), every entry fee
    is returned, and it is ``cancelled``; the server running it ends its tables. A TournamentError for a tournament
    unknown, over, or paying its prizes (nothing changes). Again after a crash, it finishes what was begun. The
    record as it was, and the chips returned."""
    record = read(engine, tournament_id)
    if record is None:
        raise TournamentError(_("no tournament {id}", id=repr(tournament_id)))
    status = record.row.status
    if status in (FINISHED, PAYING):
        raise TournamentError(_("tournament {id} is over (its prizes are paid): it cannot be cancelled",
                                id=tournament_id))
    if status == CANCELLED:
        raise TournamentError(_("tournament {id} is cancelled already", id=tournament_id))
    with Session(engine) as s, s.begin():
        marked = s.execute(update(TournamentRow).where(TournamentRow.id == tournament_id,
                                                       TournamentRow.status.in_((OPEN, RUNNING, CANCELLING)))
                           .values(status=CANCELLING))
    if not getattr(marked, "rowcount", 0):  # it ended (or was cancelled) meanwhile: say how it stands now
        return cancel_tournament(engine, ledger, tournament_id, now)
    fresh = read(engine, tournament_id)
    assert fresh is not None
    return record, settle_cancel(engine, ledger, fresh, now or datetime.now(UTC))


#: The statuses a tick looks at.
ACTIVE = (OPEN, RUNNING, PAYING, CANCELLING)


def with_steps_left(engine: Engine) -> list[str]:
    """The tournaments with a step to take: those under way, and those cancelled with a match or an entry still to
    end."""
    leftover = or_(
        exists().where(MatchRow.tournament_id == TournamentRow.id, MatchRow.status != DONE),
        exists().where(EntrantRow.tournament_id == TournamentRow.id, EntrantRow.state != WITHDRAWN))
    with Session(engine) as s:
        return list(s.scalars(select(TournamentRow.id).where(
            or_(TournamentRow.status.in_(ACTIVE), (TournamentRow.status == CANCELLED) & leftover))))
