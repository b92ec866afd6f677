"""A person's finished matches and statistics, each game's leaderboard by rating, and the board of chips (HTTP
routes).

Results are written when a match ends (:func:`taash.web.hub.result_rows`, with the table's finished status). The
ratings are OpenSkill (Plackett-Luce) over every finished match of a game, oldest first; partners share their
team's rank. Bots are rated too, one player per level (``bot:hard``), and marked as bots on the board, so a
person who plays only against bots still gets a rating measured against them. A match that bots finished for
people who had all left (:data:`taash.web.db.FINISHED_BY_BOTS`) is not rated: it stays in each person's list as
abandoned, and moves no rating.

Chips come from the ledger: each match row shows what the match moved for its person (after the rake; none for a
match without stakes), and the board of chips ranks accounts' wallets by balance (guests play without stakes, and
bots with the house's chips: neither is on it). Wherever a person's name shows, ``account`` says whether he has
an account, so that a guest cannot pass for one.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from typing import Annotated

from fastapi import APIRouter, Cookie, Query
from pydantic import BaseModel, Field
from sqlalchemy import select

from taash.chips.errors import UnknownAccount
from taash.chips.ledger import Ledger, wallet_of
from taash.chips.reports import chips_by_match, wallet_board
from taash.games.registry import plugin
from taash.tables.adapter import game_names
from taash.web.account_store import AccountRow
from taash.web.db import FINISHED_BY_BOTS, ResultRow
from taash.web.http import ERRORS, ApiError
from taash.web.stakes import match_id
from taash.web.state import State


def summed_stats(game: str) -> tuple[str, ...]:
    """Which stats of a game a person's page sums (its plugin's ``stats``; the rest are per match): none for a
    game no longer registered."""
    try:
        return plugin(game).stats
    except ValueError:
        return ()

#: How many players a leaderboard shows (the board of chips: by default, and at most in one page).
BOARD_SIZE = 50
CHIPS_PAGE_MOST = 100


class SeatOut(BaseModel):
    seat: int
    name: str
    bot: bool
    account: bool = Field(default=False, description="Whether the seat's person has an account (false: a guest or a "
                                                     "bot)")
    team: int
    won: bool
    points: int


class MatchOut(BaseModel):
    table_id: str
    game: str
    finished_at: str
    seat: int
    won: bool
    result: float = Field(description="The match's result for the seat: +1 or -1 for a match won or lost (a share "
                                      "of it in a pool), or the points won or lost in a game of points")
    points: int
    stats: dict[str, int]
    seats: list[SeatOut]
    replay: str
    rated: bool = Field(default=True, description="Whether the match counts for the ratings: false for one that "
                                                  "bots finished for people who had all left (abandoned)")
    counts_as: str = Field(default="", description="What the match counts as for the person, in words: won, lost, "
                                                   "or abandoned (not rated)")
    chips: int | None = Field(default=None, description="The chips the match moved for the person: won (positive) "
                                                        "or lost (negative), after the house's rake; 0 when it was "
                                                        "refunded; null when it had no stakes (or is not settled "
                                                        "yet)")


class GameStatsOut(BaseModel):
    matches: int
    wins: int
    average_points: float
    totals: dict[str, int] = Field(description="Seep: sweeps and baazis; Rummy: valid declarations, drops and "
                                               "wrong declarations")


class PersonOut(BaseModel):
    id: str
    name: str
    stats: dict[str, GameStatsOut]
    matches: list[MatchOut]
    balance: int | None = Field(default=None, description="The chips in the person's wallet now (null: he has "
                                                          "none yet)")
    account: bool = Field(default=False, description="Whether the person has an account (false: a guest)")


class RatedOut(BaseModel):
    rank: int
    player: str = Field(description="A guest id, or ``bot:LEVEL`` for the bots of a level")
    name: str
    bot: bool
    account: bool = Field(default=False, description="Whether the player has an account (false: a guest or bots)")
    rating: float = Field(description="mu - 3 sigma: a rating the player is very likely to be above")
    mu: float
    sigma: float
    matches: int
    wins: int


class BoardOut(BaseModel):
    game: str
    players: list[RatedOut]


class WalletOut(BaseModel):
    rank: int
    player: str = Field(description="A guest id (accounts only: guests play without stakes, bots with the "
                                    "house's chips)")
    name: str
    account: bool = Field(default=True, description="Always true: only accounts are ranked by chips")
    balance: int = Field(description="The chips in his wallet now")
    won: int = Field(description="His chips won (or, negative, lost) at tables, after the house's rake")
    matches: int = Field(description="The staked matches he played to the end")


class ChipsBoardOut(BaseModel):
    total: int = Field(description="How many accounts have a wallet")
    offset: int
    limit: int
    players: list[WalletOut]


def finished_by_bots(row: ResultRow) -> bool:
    """Whether bots finished the match for people who had all left (then it is not rated)."""
    return FINISHED_BY_BOTS in row.stats and bool(json.loads(row.stats).get(FINISHED_BY_BOTS))


#: What a match abandoned by its people counts as, on their pages.
ABANDONED = "abandoned: bots finished it after everyone left (not rated)"


def player_of(row: ResultRow, level: str) -> str:
    return row.guest if row.guest is not None else f"bot:{level}"


def rate(rows: list[ResultRow], levels: dict[str, str]) -> list[RatedOut]:
    """The leaderboard of one game's results (oldest first): OpenSkill over every match."""
    from openskill.models import PlackettLuce, PlackettLuceRating

    model = PlackettLuce()
    ratings: dict[str, PlackettLuceRating] = {}
    names: dict[str, str] = {}
    played: dict[str, int] = defaultdict(int)
    won: dict[str, int] = defaultdict(int)
    matches: dict[str, list[ResultRow]] = {}
    for row in rows:
        matches.setdefault(row.table_id, []).append(row)
    for table_id, seats in matches.items():
        if any(finished_by_bots(row) for row in seats):
            continue  # abandoned by its people: bots finished it, and it is not rated
        teams: dict[int, list[str]] = {}
        results: dict[int, float] = {}
        for row in seats:
            who = player_of(row, levels.get(table_id, "medium"))
            if who in teams.get(row.team, []):
                continue  # two bots of one level on one team: rated once
            teams.setdefault(row.team, []).append(who)
            results[row.team] = row.result
            ratings.setdefault(who, model.rating(name=who))
            names[who] = f"{who[4:]} bots" if row.guest is None else row.name
            played[who] += 1
            won[who] += row.won
        if len(teams) < 2 or len({tuple(t) for t in teams.values()}) < len(teams):
            continue  # one player on every side (bots of one level against each other): nothing to learn
        order = sorted(teams)
        ranks = [-results[t] for t in order]
        rated = model.rate([[ratings[p] for p in teams[t]] for t in order], ranks=ranks)
        for t, team in zip(order, rated, strict=True):
            for p, r in zip(teams[t], team, strict=True):
                ratings[p] = r
    board = sorted(ratings, key=lambda p: -(ratings[p].mu - 3 * ratings[p].sigma))
    return [RatedOut(rank=i + 1, player=p, name=names[p], bot=p.startswith("bot:"),
                     rating=round(ratings[p].mu - 3 * ratings[p].sigma, 2), mu=round(ratings[p].mu, 2),
                     sigma=round(ratings[p].sigma, 2), matches=played[p], wins=won[p])
            for i, p in enumerate(board[:BOARD_SIZE])]


router = APIRouter()


def not_found(why: str) -> ApiError:
    return ApiError("not_found", why)


def match_out(mine: ResultRow, seats: list[ResultRow]) -> MatchOut:
    """One finished match as its person's page lists it."""
    game_stats = json.loads(mine.stats)
    rated = not game_stats.pop(FINISHED_BY_BOTS, 0)
    return MatchOut(
        table_id=mine.table_id, game=mine.game, finished_at=mine.finished_at.isoformat(), seat=mine.seat,
        won=mine.won, result=mine.result, points=mine.points, stats=game_stats, rated=rated,
        counts_as=("won" if mine.won else "lost") if rated else ABANDONED,
        seats=[SeatOut(seat=s.seat, name=s.name, bot=s.guest is None, team=s.team, won=s.won,
                       points=s.points) for s in seats],
        replay=f"/r/{mine.table_id}")


def stats_of(found: list[tuple[ResultRow, list[ResultRow]]]) -> dict[str, GameStatsOut]:
    """A person's statistics per game, summed over his finished matches."""
    stats: dict[str, GameStatsOut] = {}
    points: dict[str, int] = defaultdict(int)
    for mine, _ in found:
        game_stats = json.loads(mine.stats)
        g = stats.setdefault(mine.game, GameStatsOut(matches=0, wins=0, average_points=0.0,
                                                     totals=dict.fromkeys(summed_stats(mine.game), 0)))
        g.matches += 1
        g.wins += mine.won
        points[mine.game] += mine.points
        for key in g.totals:
            g.totals[key] += int(game_stats.get(key, 0))
    for game, g in stats.items():
        g.average_points = round(points[game] / g.matches, 2)
    return stats


def chips_moved(books: Ledger, guest_id: str, out: list[MatchOut]) -> int | None:
    """Mark each match with the chips it moved for ``guest_id``; his balance now (None: no wallet yet)."""
    moved = chips_by_match(books.engine, guest_id, [match_id(m.table_id) for m in out])
    for m in out:
        m.chips = moved.get(match_id(m.table_id))
    try:
        return books.balance(wallet_of(guest_id))
    except UnknownAccount:
        return None


@router.get("/api/people/{guest_id}", response_model=PersonOut, responses=ERRORS)
async def person(guest_id: str, state: State, taash_guest: Annotated[str | None, Cookie()] = None) -> PersonOut:
    """A person's finished matches (newest first: a private table's only to the person himself) and his
    statistics per game."""
    if not re.fullmatch(r"[0-9a-f]{1,32}", guest_id):
        raise not_found("no such person")
    row = state.store.guest(guest_id)
    if row is None:
        raise not_found("no such person")
    own = await state.guest_of(taash_guest) == guest_id
    found = state.store.results_of(guest_id, include_private=own)
    stats = stats_of(found)
    out = [match_out(mine, seats) for mine, seats in found]
    marked = state.fair.accounts([guest_id, *(s.guest for _, seats in found for s in seats if s.guest is not None)])
    for m, (_, seats) in zip(out, found, strict=True):
        for seat, s in zip(m.seats, seats, strict=True):
            seat.account = s.guest is not None and s.guest in marked
    balance = chips_moved(state.ledger, guest_id, out)
    return PersonOut(id=guest_id, name=row.name, stats=stats, matches=out, balance=balance,
                     account=guest_id in marked)


@router.get("/api/leaderboard/chips", response_model=ChipsBoardOut, responses=ERRORS)
async def chips_board(state: State, limit: Annotated[int, Query(ge=1, le=CHIPS_PAGE_MOST)] = BOARD_SIZE,
                      offset: Annotated[int, Query(ge=0, le=10**9)] = 0) -> ChipsBoardOut:
    """Accounts by the chips in their wallets (the most first), with their chips won or lost at tables;
    ``limit`` of them (1 to 100) from ``offset``. Guests, bots and the house are not on it."""
    total, lines = wallet_board(state.ledger.engine, limit, offset, select(AccountRow.guest_id))
    names = state.store.guest_names([line.person for line in lines])
    return ChipsBoardOut(total=total, offset=offset, limit=limit, players=[
        WalletOut(rank=offset + i + 1, player=line.person, name=names.get(line.person, line.person),
                  balance=line.balance, won=line.won, matches=line.matches)
        for i, line in enumerate(lines)])


@router.get("/api/leaderboard/{game}", response_model=BoardOut, responses=ERRORS)
async def leaderboard(game: str, state: State) -> BoardOut:
    """A game's players by rating (OpenSkill over every finished match; bots rated by level, and marked).
    ``/api/leaderboard/chips`` is the board of chips."""
    if game not in game_names():
        raise not_found(f"no such game (games: {', '.join(game_names())})")
    rows, levels = state.store.results_for_game(game)
    players = rate(rows, levels)
    marked = state.fair.accounts(p.player for p in players if not p.bot)
    for p in players:
        p.account = p.player in marked
    return BoardOut(game=game, players=players)
