"""13-card Rummy's stakes (:mod:`taash.web.stakes`; ``stake`` is the table's, in chips):

- Points: chips per point: each loser pays ``stake x min(his points, 80)`` to the winner; the hold per seat is
  ``stake x 80`` (the most points a deal costs).
- Pool and deals: an entry fee of ``stake`` from every seat into a prize pool paid to the winner; the hold per seat
  is the fee.
"""

from __future__ import annotations

from collections.abc import Sequence

from taash.tables.adapter import SeatResult, Settings

#: The most points a loser pays in Rummy points.
RUMMY_POINTS_CAP = 80


def _format_words(length: object) -> str:
    """A Rummy format as players say it: "pool101" -> "pool 101", "deals3" -> "3 deals"."""
    name = str(length)
    number = name.lstrip("abcdefghijklmnopqrstuvwxyz")
    kind = name[:len(name) - len(number)]
    if not number:
        return name
    return f"{kind} {number}" if kind == "pool" else f"{number} {kind}"


class RummyStakes:
    """Rummy's rule for playing for chips."""

    def hold(self, settings: Settings, stake: int) -> int:
        return stake * RUMMY_POINTS_CAP if settings.length == "points" else stake

    def words(self, settings: Settings, stake: int, hold: str) -> str:
        if settings.length == "points":
            return (f"a stake of {stake:,} a point on a Rummy points deal {hold} (a loser pays for up to "
                    f"{RUMMY_POINTS_CAP} points)")
        return (f"an entry fee of {stake:,} to a Rummy {_format_words(settings.length)} match {hold} (the winner "
                "takes the pool)")

    def won(self, settings: Settings, stake: int, cap: int, results: Sequence[SeatResult]) -> list[int]:
        won = [0] * len(results)
        winners = [k for k, r in enumerate(results) if r.won]
        if len(winners) != 1:
            return won  # nobody won alone: everyone keeps his stake
        for k, r in enumerate(results):
            if k != winners[0]:
                won[k] = -(min(cap, stake * max(0, r.points)) if settings.length == "points" else stake)
        won[winners[0]] = -sum(won)
        return won


STAKES = RummyStakes()
