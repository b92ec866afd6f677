"""The reported chat lines, for the operator (``taash admin reports``): newest report first, each with its room
(a table's id), who said it, what it said and who reported it."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, aliased

from taash.web.chat.phrases import EMOTES, PHRASES
from taash.web.chat.rows import ChatLineRow, ChatReportRow
from taash.web.db import GuestRow


@dataclass(frozen=True, slots=True)
class Report:
    reported_at: datetime
    room: str
    channel: str
    speaker: str | None  # None: a bot
    speaker_name: str
    text: str
    reporter: str
    reporter_name: str | None
    line: str

    @property
    def table(self) -> str:
        """The table's id for a table's room, else the room's key."""
        kind, _, rest = self.room.partition(":")
        return rest if kind == "table" else self.room

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "reported_at": self.reported_at.isoformat(), "table": self.table}


def shown(kind: str, body: str) -> str:
    """A line as words (English): its text, a quick phrase's sentence or an emote's symbol and words."""
    if kind == "phrase":
        return f"[phrase] {PHRASES.get(body, body)}"
    if kind == "emote":
        emote = EMOTES.get(body)
        return f"[emote] {emote.symbol} {emote.words}" if emote else f"[emote] {body}"
    return body


def reports(engine: Engine, limit: int = 100) -> list[Report]:
    """The latest ``limit`` reports, newest first."""
    reporter = aliased(GuestRow)
    query = (select(ChatReportRow, ChatLineRow, reporter.name)
             .join(ChatLineRow, ChatLineRow.id == ChatReportRow.line_id)
             .outerjoin(reporter, reporter.id == ChatReportRow.reporter)
             .order_by(ChatReportRow.reported_at.desc(), ChatReportRow.id.desc()).limit(limit))
    with Session(engine) as s:
        return [Report(at if (at := r.reported_at).tzinfo else at.replace(tzinfo=UTC), line.room, line.channel,
                       line.speaker, line.name, shown(line.kind, line.body), r.reporter, name, line.id)
                for r, line, name in s.execute(query)]
