"""Tournaments in the database (migration ``0017_tourney_tournaments``): a tournament's settings and where it
stands, its entrants with what they paid, and its matches by round. Everything the director
(:mod:`taash.web.tournaments`) knows is here, so that a server killed mid-tournament carries on from it.

The statuses, in order: ``open`` (registration), ``running`` (its rounds), ``paying`` (the prizes decided and
written in ``payout``, being paid), ``finished``; or ``cancelling`` (too few entrants at its start, or the
operator's ``taash tournaments cancel``: the fees being returned), ``cancelled`` (its tables still playing are then
ended by the server). An entrant is ``paying`` (his fee being taken), ``registered``, ``withdrawing`` (his fee
being returned) or ``withdrawn``; each step is written before the ledger is asked and after it answers, and the
ledger's transfer ids make a step done twice happen once.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import BigInteger, Boolean, DateTime, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from taash.web.db import Base, now

JSON = Any

OPEN, RUNNING, PAYING, FINISHED, CANCELLING, CANCELLED = (
    "open", "running", "paying", "finished", "cancelling", "cancelled")
#: An entrant's states.
ENTERING, REGISTERED, WITHDRAWING, WITHDRAWN = "paying", "registered", "withdrawing", "withdrawn"
#: A match's states: its seats chosen, its table playing, its outcome kept.
PENDING, PLAYING, DONE = "pending", "playing", "done"
#: Entrant ids of bots (``bot:1``, ...): they pay nothing and win nothing.
BOT_PREFIX = "bot:"


class TournamentRow(Base):
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    game: Mapped[str] = mapped_column(String(16))
    #: ``knockout``, ``swiss`` or ``arena`` (:mod:`taash.tournaments.pairing`).
    kind: Mapped[str] = mapped_column(String(16))
    #: Seats at each table (the game's players).
    players: Mapped[int] = mapped_column(Integer)
    rules: Mapped[str] = mapped_column(Text)  # JSON: the rules preset's name (or a changed preset)
    length: Mapped[str] = mapped_column(String(32))  # JSON: the game's match length (a number or a format)
    level: Mapped[str] = mapped_column(String(16))
    #: Entrants at most (bots fill up to it when ``bots``).
    capacity: Mapped[int] = mapped_column(Integer)
    #: Swiss rounds (0 for a knockout: its rounds go on until its final).
    rounds: Mapped[int] = mapped_column(Integer)
    #: Chips each person pays to enter (0: a free tournament, which moves no chips).
    fee: Mapped[int] = mapped_column(BigInteger)
    prizes: Mapped[str] = mapped_column(String(120))  # JSON: percents of the pool by place
    bots: Mapped[bool] = mapped_column(Boolean)
    creator: Mapped[str | None] = mapped_column(String(32), nullable=True)  # None: the operator
    #: When it starts (None: as soon as it is full).
    starts_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    #: The round being played (0 before the start).
    round: Mapped[int] = mapped_column(Integer, default=0)
    #: An arena's time window in seconds (0 for the others; migration ``0020_tourney2``), and when it closes
    #: (set at its start).
    window: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    ends_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    payout: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON: entrant -> chips, once decided
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class EntrantRow(Base):
    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[str] = mapped_column(String(32), ForeignKey("tournaments.id"), primary_key=True)
    #: A person's id, or ``bot:N``.
    entrant: Mapped[str] = mapped_column(String(40), primary_key=True, index=True)
    name: Mapped[str] = mapped_column(String(40))
    state: Mapped[str] = mapped_column(String(16))
    #: How many times he registered (each time's fee and its return have their own transfer id).
    entries: Mapped[int] = mapped_column(Integer)
    #: His seed once the tournament started (0 the strongest).
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rating: Mapped[float] = mapped_column(Float, default=0.0)
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class MatchRow(Base):
    __tablename__ = "tournament_matches"

    tournament_id: Mapped[str] = mapped_column(String(32), ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seats: Mapped[str] = mapped_column(Text)  # JSON: the entrants in seat order
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    status: Mapped[str] = mapped_column(String(16))
    #: JSON once done: {"goers": [...], "points": {entrant: p}, "seats": [[entrant|null, team, won, result]...]}
    outcome: Mapped[str | None] = mapped_column(Text, nullable=True)

    def entrants(self) -> list[str]:
        seats: list[str] = json.loads(self.seats)
        return seats

    def outcome_of(self) -> dict[str, JSON]:
        found: dict[str, JSON] = json.loads(self.outcome) if self.outcome else {}
        return found


def is_bot(entrant: str) -> bool:
    return entrant.startswith(BOT_PREFIX)


def aware(moment: datetime | None) -> datetime | None:
    """A time read back from the database, in UTC (SQLite returns it without its zone)."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def pool_person(tournament_id: str) -> str:
    """The person id of a tournament's prize pool: a wallet of the books that holds the fees paid until the prizes
    (or the returns) empty it."""
    return f"tournament-{tournament_id}"


def fee_id(tournament_id: str, entrant: str, entry: int) -> str:
    return f"tournament:{tournament_id}:fee:{entrant}:{entry}"


def return_id(tournament_id: str, entrant: str, entry: int) -> str:
    return f"tournament:{tournament_id}:return:{entrant}:{entry}"


def prize_id(tournament_id: str, entrant: str) -> str:
    return f"tournament:{tournament_id}:prize:{entrant}"
