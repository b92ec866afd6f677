"""Tournaments over HTTP: the list, making one, a tournament with its live standings and matches, registering and
withdrawing, and a person's tournaments (for his page). The director (:mod:`taash.web.tournaments`) does the
work; these routes check what comes in and say what stands."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field, model_validator

from taash.i18n import N_, said_of
from taash.tables.adapter import adapter
from taash.tournaments.pairing import TournamentError
from taash.web.games import GameName, LevelName, level_of
from taash.web.history import rate
from taash.web.http import ERRORS, ApiError, StrictIn
from taash.web.state import AppState, Guest, State
from taash.web.store import Store
from taash.web.tournament_book import (
    ARENA_MINUTES,
    DEFAULT_PRIZES,
    MOST_ENTRANTS,
    Record,
    TournamentSpec,
    create_tournament,
    entered_by,
    listed,
    read,
)
from taash.web.tournament_rows import BOT_PREFIX, TournamentRow, aware, is_bot
from taash.web.tournaments import Tournaments

router = APIRouter()


class TournamentIn(StrictIn):
    """A new tournament; a field left out takes its default."""

    name: str = Field(min_length=1, max_length=60)
    game: GameName
    kind: Literal["knockout", "swiss", "arena"] = "knockout"
    players: int = Field(2, ge=2, le=6, description="Seats at each table")
    rules: str | None = Field(None, max_length=40)
    baazis: int | None = Field(None, ge=0, le=20, description="A game played to a number (the match length)")
    format: str | None = Field(None, max_length=20, description="A game played in formats (the format's name)")
    level: LevelName = Field(None, description="The bots' level: one of the game's (GET /api/games lists them); "
                                               "null: easy")
    capacity: int = Field(8, ge=2, le=MOST_ENTRANTS)
    rounds: int = Field(0, ge=0, le=12, description="Swiss rounds (0: enough for one winner)")
    minutes: float = Field(0, ge=0, le=ARENA_MINUTES[1],
                           description="An arena's time window in minutes, from its start (an arena only)")
    fee: int = Field(0, ge=0, le=10**9, description="Chips each person pays to enter (0: free)")
    prizes: list[int] = Field(default_factory=lambda: list(DEFAULT_PRIZES), min_length=1, max_length=10,
                              description="Percents of the pool by place, adding up to 100")
    bots: bool = Field(True, description="Whether bots fill the places nobody took at the start")
    starts_in: int | None = Field(None, ge=10, le=7 * 24 * 3600,
                                  description="Seconds until the start (none: as soon as it is full)")

    @model_validator(mode="after")
    def _level(self) -> TournamentIn:
        self.level = "easy" if self.level is None else level_of(self.game, self.level)
        return self


class TournamentSummary(BaseModel):
    id: str
    name: str
    game: str
    kind: str
    status: str
    fee: int
    capacity: int
    entrants: int
    round: int
    starts_at: float | None


class EntrantOut(BaseModel):
    id: str
    name: str
    bot: bool
    seed: int | None


class StandingOut(BaseModel):
    place: int
    id: str
    name: str
    bot: bool
    score: float
    tiebreak: float
    prize: int


class MatchOut(BaseModel):
    round: int
    number: int
    table: str | None
    status: str
    seats: list[str]
    goers: list[str]


class TournamentOut(TournamentSummary):
    players: int
    level: str
    rounds: int
    minutes: float = Field(description="An arena's time window (0 for the others)")
    ends_at: float | None = Field(description="When an arena's window closes, Unix time (once it started)")
    prizes: list[int]
    bots: bool
    pool: int
    mine: bool
    registered: bool
    people: list[EntrantOut]
    standings: list[StandingOut]
    matches: list[MatchOut]


class EnteredOut(BaseModel):
    id: str
    name: str
    game: str
    kind: str
    status: str
    place: int | None
    prize: int


def summary(row: TournamentRow, entrants: int) -> TournamentSummary:
    starts = aware(row.starts_at)
    return TournamentSummary(id=row.id, name=row.name, game=row.game, kind=row.kind, status=row.status, fee=row.fee,
                             capacity=row.capacity, entrants=entrants, round=row.round,
                             starts_at=starts.timestamp() if starts else None)


def tournament_out(record: Record, guest: str | None) -> TournamentOut:
    row = record.row
    names = record.names()
    payout: dict[str, int] = json.loads(row.payout or "{}")
    standings = [StandingOut(place=s.place, id=s.entrant, name=names.get(s.entrant, s.entrant), bot=is_bot(s.entrant),
                             score=s.score, tiebreak=s.tiebreak, prize=payout.get(s.entrant, 0))
                 for s in record.standings()] if row.round else []
    matches = [MatchOut(round=m.round, number=m.number, table=m.table_id, status=m.status,
                        seats=[names.get(e, e) for e in m.entrants()],
                        goers=[names.get(e, e) for e in m.outcome_of().get("goers", [])]) for m in record.matches]
    base = summary(row, len(record.registered)).model_dump()
    ends = aware(row.ends_at)
    return TournamentOut(**base, players=row.players, level=row.level, rounds=row.rounds, minutes=row.window / 60,
                         ends_at=ends.timestamp() if ends else None,
                         prizes=json.loads(row.prizes), bots=row.bots, pool=row.fee * len(record.people),
                         mine=guest is not None and guest == row.creator, registered=guest in record.people,
                         people=[EntrantOut(id=e.entrant, name=e.name, bot=is_bot(e.entrant), seed=e.seed)
                                 for e in record.registered],
                         standings=standings, matches=matches)


def director(state: AppState) -> Tournaments:
    found = state.services.tournaments
    if found is None:
        raise ApiError("server", N_("this server runs no tournaments"))
    return found


async def record_of(state: AppState, tournament_id: str) -> Record:
    found = None
    if re.fullmatch(r"[0-9a-f]{16}", tournament_id):
        found = await asyncio.to_thread(read, state.store.engine, tournament_id)
    if found is None:
        raise ApiError("not_found", N_("no such tournament"))
    return found


def spec_of(body: TournamentIn) -> TournamentSpec:
    game = adapter(body.game)
    if (game.formats and body.baazis is not None) or (not game.formats and body.format is not None):
        raise ApiError("bad", N_("{game} takes a format, not baazis") if game.formats else
                       N_("{game} takes baazis, not a format"), game=game.title)
    length = body.format if game.formats else body.baazis
    starts = datetime.now(UTC) + timedelta(seconds=body.starts_in) if body.starts_in else None
    return TournamentSpec(name=body.name, game=body.game, kind=body.kind, players=body.players, rules=body.rules,
                          length=length, level=body.level or "easy", capacity=body.capacity, rounds=body.rounds,
                          fee=body.fee, prizes=tuple(body.prizes), bots=body.bots, starts_at=starts,
                          minutes=body.minutes)


@router.get("/api/tournaments", response_model=list[TournamentSummary])
async def tournaments(state: State) -> list[TournamentSummary]:
    """Tournaments, the newest first (open, running and the recently finished)."""
    rows = await asyncio.to_thread(listed, state.store.engine)
    counts = await asyncio.gather(*(asyncio.to_thread(read, state.store.engine, r.id) for r in rows))
    return [summary(r, len(c.registered) if c else 0) for r, c in zip(rows, counts, strict=True)]


@router.post("/api/tournaments", response_model=TournamentOut, responses=ERRORS)
async def create(body: TournamentIn, guest: Guest, request: Request, state: State) -> TournamentOut:
    """Make a tournament (open for registration; its creator is not entered by it)."""
    state.creating(request)
    director(state)
    spec = spec_of(body)
    try:
        tournament_id = await asyncio.to_thread(create_tournament, state.store.engine, state.ledger, spec, guest)
    except TournamentError as e:
        raise ApiError("bad", said_of(e)) from None
    return tournament_out(await record_of(state, tournament_id), guest)


@router.get("/api/tournaments/{tournament_id}", response_model=TournamentOut, responses=ERRORS)
async def tournament(tournament_id: str, request: Request, state: State) -> TournamentOut:
    """A tournament: its settings, entrants, live standings (with the prizes once decided) and matches."""
    guest = await state.guest_of(request.cookies.get("taash_guest"))
    return tournament_out(await record_of(state, tournament_id), guest)


@router.post("/api/tournaments/{tournament_id}/register", response_model=TournamentOut, responses=ERRORS)
async def register(tournament_id: str, guest: Guest, state: State) -> TournamentOut:
    """Enter the tournament (its fee taken from your wallet into the pool; a chips tournament needs an account)."""
    record = await record_of(state, tournament_id)
    if record.row.fee and not state.fair.accounts([guest]):
        raise ApiError("account_needed", N_("playing for chips needs an account: claim your name (Account) "
                                            "first, or enter a free tournament"))
    try:
        await director(state).register(tournament_id, guest, await state.guest_name(guest))
    except TournamentError as e:
        raise ApiError("refused", said_of(e)) from None
    return tournament_out(await record_of(state, tournament_id), guest)


@router.post("/api/tournaments/{tournament_id}/withdraw", response_model=TournamentOut, responses=ERRORS)
async def withdraw(tournament_id: str, guest: Guest, state: State) -> TournamentOut:
    """Leave the tournament before its start (the fee returned)."""
    await record_of(state, tournament_id)
    try:
        await director(state).withdraw(tournament_id, guest)
    except TournamentError as e:
        raise ApiError("refused", said_of(e)) from None
    return tournament_out(await record_of(state, tournament_id), guest)


@router.get("/api/people/{guest_id}/tournaments", response_model=list[EnteredOut], responses=ERRORS)
async def entered(guest_id: str, state: State) -> list[EnteredOut]:
    """The tournaments a person entered, the newest first, with his place and prize once over."""
    if guest_id.startswith(BOT_PREFIX) or not re.fullmatch(r"[0-9A-Za-z_-]{1,40}", guest_id):
        raise ApiError("not_found", N_("no such person"))
    out = []
    for row, _ in await asyncio.to_thread(entered_by, state.store.engine, guest_id):
        record = await record_of(state, row.id)
        place = next((s.place for s in record.standings() if s.entrant == guest_id), None) if row.round else None
        out.append(EnteredOut(id=row.id, name=row.name, game=row.game, kind=row.kind, status=row.status,
                              place=place, prize=json.loads(row.payout or "{}").get(guest_id, 0)))
    return out


def ratings_from(store: Store) -> Callable[[str], dict[str, float]]:
    """Each person's rating in a game, from every finished match (the leaderboard's OpenSkill)."""

    def ratings(game: str) -> dict[str, float]:
        rows, levels = store.results_for_game(game)
        return {r.player: r.rating for r in rate(rows, levels) if not r.bot}

    return ratings

