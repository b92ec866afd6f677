"""The chat's rows in the database (the schema comes from the migration ``0016_chat_chat_lines``): every line said in
a room, the rooms' settings, and the lines people reported, kept for the operator (``taash admin reports``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from taash.web.db import Base, now


class ChatLineRow(Base):
    """One line said in a room (a table's is ``table:<id>``), in one of its channels (players, watchers)."""

    __tablename__ = "chat_lines"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    room: Mapped[str] = mapped_column(String(64), index=True)
    channel: Mapped[str] = mapped_column(String(16))
    #: The speaker's guest id (None: a bot), his name then and his seat (None: a watcher).
    speaker: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: text, phrase or emote; the body is the text as shown (filtered) or the phrase's or emote's id.
    kind: Mapped[str] = mapped_column(String(8))
    body: Mapped[str] = mapped_column(Text)
    said_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)


class ChatRoomRow(Base):
    """A room's settings, when they differ from the defaults (the word filter is on unless a row says off)."""

    __tablename__ = "chat_rooms"

    room: Mapped[str] = mapped_column(String(64), primary_key=True)
    filter_on: Mapped[bool] = mapped_column(Boolean)


class ChatReportRow(Base):
    """A line reported by a listener, for the operator; one report per line and reporter."""

    __tablename__ = "chat_reports"
    __table_args__ = (UniqueConstraint("line_id", "reporter", name="uq_chat_reports_line_reporter"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    line_id: Mapped[str] = mapped_column(String(16), ForeignKey("chat_lines.id"), index=True)
    reporter: Mapped[str] = mapped_column(String(32))
    reported_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
