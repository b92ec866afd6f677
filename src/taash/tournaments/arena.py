"""Arena tournaments without I/O, after lichess's arena: for a time window, whoever finishes a match waits, and
the waiting are paired again at once, by score; when the window closes the matches being played finish, and the
standings are final.

The points (lichess's): a match won is 2 points, a draw (nobody won) 1, a loss 0; and a streak: an entrant who won
his last two matches is *on fire*, and his next match counts double (a win 4, a draw 2) until he fails to win.
Ranked by points, then by matches won (more first), then seed; equals in both share a place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from taash.tournaments.pairing import Standing

#: An arena's points for a match won, drawn and lost (before a streak doubles them).
WIN, DRAW, LOSS = 2, 1, 0
#: Wins in a row after which the next match counts double.
STREAK = 2


def match_points(result: float) -> int:
    """The points of one match from its Swiss-style result (1 won, ½ drawn, 0 lost), before any streak.

    >>> match_points(1.0), match_points(0.5), match_points(0.0)
    (2, 1, 0)
    """
    return WIN if result >= 1.0 else DRAW if result > 0.0 else LOSS


def on_fire(results: Sequence[float]) -> bool:
    """Whether an entrant whose matches went ``results`` (oldest first) plays his next match for double: his
    last :data:`STREAK` matches all won.

    >>> on_fire([1.0, 1.0]), on_fire([1.0, 0.5, 1.0]), on_fire([1.0])
    (True, False, False)
    """
    return len(results) >= STREAK and all(r >= 1.0 for r in results[-STREAK:])


def arena_score(results: Sequence[float]) -> int:
    """An entrant's arena points from his matches' results, oldest first: each match's points, doubled when he
    played it on fire.

    >>> arena_score([1.0, 1.0, 1.0, 0.5, 1.0])  # 2 + 2 + 4 (on fire) + 2 (a draw on fire) + 2
    12
    """
    return sum(match_points(r) * (2 if on_fire(results[:i]) else 1) for i, r in enumerate(results))


def arena_tables(waiting: Sequence[str], scores: Mapping[str, float], seeds: Sequence[str],
                 last: Mapping[str, set[str]], size: int) -> list[list[str]]:
    """The tables made now of the entrants ``waiting``: as many full tables of ``size`` as they fill (the rest
    wait for the next to finish), the highest scores together (then by seed), each table taking the next waiting
    entrant who did not just play any of those already at it (``last``: each entrant's last opponents), or the
    next at all when every one did.

    >>> arena_tables(["d", "a", "c", "b", "e"], {"a": 4, "b": 2, "c": 2}, ["a", "b", "c", "d", "e"], {}, 2)
    [['a', 'b'], ['c', 'd']]
    """
    rank = {e: i for i, e in enumerate(seeds)}
    queue = sorted(waiting, key=lambda e: (-scores.get(e, 0.0), rank.get(e, len(rank)), e))
    tables: list[list[str]] = []
    while len(queue) >= size >= 2:
        table = [queue.pop(0)]
        while len(table) < size:
            fresh = next((e for e in queue if not any(e in last.get(t, set()) or t in last.get(e, set())
                                                    for t in table)), queue[0])
            queue.remove(fresh)
            table.append(fresh)
        tables.append(table)
    return tables


def arena_standings(results: Mapping[str, Sequence[float]], seeds: Sequence[str]) -> list[Standing]:
    """The standings: by arena points, then matches won, then seed; ``score`` the points and ``tiebreak`` the
    matches won. Entrants with the same points and wins share a place."""
    rank = {e: i for i, e in enumerate(seeds)}
    score = {e: float(arena_score(results.get(e, ()))) for e in seeds}
    wins = {e: float(sum(1 for r in results.get(e, ()) if r >= 1.0)) for e in seeds}
    order = sorted(seeds, key=lambda e: (-score[e], -wins[e], rank[e]))
    out: list[Standing] = []
    for i, e in enumerate(order):
        same = out and (out[-1].score, out[-1].tiebreak) == (score[e], wins[e])
        out.append(Standing(out[-1].place if same else i + 1, e, score[e], wins[e]))
    return out
