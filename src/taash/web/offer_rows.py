"""The offers a restart must not forget (migration ``0020_tourney2``): rematch offers at finished tables, with
each seat's answer and when it runs out (and, once it started, the new table, so that a late connection of the old
table is sent on), and invitations to tables, with when they were made (they are good for
:data:`taash.web.friend_store.INVITE_SECONDS`). Written by :mod:`taash.web.rematch` and
:mod:`taash.web.friend_store` as the offers change, read back at the server's start."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from taash.web.db import Base


class RematchOfferRow(Base):
    __tablename__ = "rematch_offers"

    #: The finished table the rematch is proposed at.
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The seat that proposed it.
    by: Mapped[int] = mapped_column(Integer)
    answers: Mapped[str] = mapped_column(Text)  # JSON: each seat's answer (waiting, accepted, declined, left, bot)
    #: When the seats still waiting count as having declined.
    until: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: The new table once the rematch started (None: still open).
    started: Mapped[str | None] = mapped_column(String(32), nullable=True)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class InviteRow(Base):
    __tablename__ = "table_invites"

    #: The person invited.
    guest: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    by: Mapped[str] = mapped_column(String(32))
    by_name: Mapped[str] = mapped_column(String(40))
    game: Mapped[str] = mapped_column(String(16))
    #: A private table's invite code (None: a public table).
    code: Mapped[str | None] = mapped_column(String(32), nullable=True)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


def wall(seconds: float) -> datetime:
    """A clock's wall time (Unix seconds) as the database keeps it."""
    return datetime.fromtimestamp(seconds, UTC)


def seconds_of(moment: datetime) -> float:
    """A time read back from the database as Unix seconds (SQLite returns it without its zone)."""
    return (moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)).timestamp()
