"""Seep's stakes (:mod:`taash.web.stakes`; ``stake`` is the table's, in chips):

- Played to baazis: chips per baazi of the final lead. Each seat of the winning side wins
  ``stake x (its baazis - the other side's)`` and each seat of the losing side loses as much; the hold per seat is
  ``stake x baazis to win`` (the largest lead a match can end with).
- A single deal: chips per point of the final lead, capped by the hold: each seat of the side ahead wins
  ``stake x min(lead, 100)`` and each seat of the other side loses as much; the hold per seat is ``stake x 100``.
"""

from __future__ import annotations

from collections.abc import Sequence

from taash.tables.adapter import SeatResult, Settings

#: The largest lead a single deal of Seep is settled for, in points.
SEEP_DEAL_CAP = 100


def _to_baazis(settings: Settings) -> int:
    """The baazis to win the match; 0 for a single deal."""
    length = settings.length
    return length if isinstance(length, int) and length > 0 else 0


class SeepStakes:
    """Seep's rule for playing for chips."""

    def hold(self, settings: Settings, stake: int) -> int:
        return stake * (_to_baazis(settings) or SEEP_DEAL_CAP)

    def words(self, settings: Settings, stake: int, hold: str) -> str:
        baazis = _to_baazis(settings)
        if baazis:
            return (f"a stake of {stake:,} a baazi in a match to {baazis} baazi{'s' if baazis != 1 else ''} {hold} "
                    f"(the most a match's lead can be)")
        return (f"a stake of {stake:,} a point on a single Seep deal {hold} (a lead of up to {SEEP_DEAL_CAP} points "
                "is paid)")

    def won(self, settings: Settings, stake: int, cap: int, results: Sequence[SeatResult]) -> list[int]:
        if _to_baazis(settings):
            lead = {r.team: r.stats.get("baazis", 0) for r in results}
        else:
            lead = {r.team: r.points for r in results}
        return [max(-cap, min(cap, stake * (lead[r.team] - lead[1 - r.team]))) for r in results]


STAKES = SeepStakes()
