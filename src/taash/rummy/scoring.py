"""What the engine asks of a hand's arrangement, answered by the exact hand solver (:mod:`taash.rummy.solver`):
the least points of 13 cards when another player declares (section 5, ruling R8), a valid arrangement of 13 cards,
and a valid declaration of 14 cards (a finish card and the groups of the other 13) when there is one.

>>> from taash.packs import parse_face
>>> from taash.rummy.rules import PRESETS
>>> hand = [parse_face(t) for t in "4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK".split()]
>>> least_points(hand, PRESETS["octro"], wild=7)
0
>>> least_points(hand[:-1] + [parse_face("Kd")], PRESETS["octro"], wild=7)
14
"""

from __future__ import annotations

from collections.abc import Sequence

from taash.rummy.rules import Rules
from taash.rummy.solver import Solution, best_discard, solve

#: A group of faces, sorted.
Group = tuple[int, ...]


def least_points(faces: Sequence[int], rules: Rules, wild: int) -> int:
    """The least points these 13 cards score when another player declares: the unmatched cards of the best
    arrangement that meets the declaration's requirement, or every card when none does; at most ``max_points``."""
    return solve(faces, rules, wild).points


def _groups(solution: Solution) -> list[Group]:
    """A valid solution's melds, then each free joker in a group of its own."""
    return [tuple(sorted(cards)) for _, cards in solution.melds] + [(face,) for face in solution.free]


def valid_arrangement(faces: Sequence[int], rules: Rules, wild: int) -> list[Group] | None:
    """Groups of these 13 cards that make a valid declaration (free jokers each in a group of their own), or None."""
    solution = solve(faces, rules, wild)
    return _groups(solution) if solution.valid else None


def find_declaration(faces: Sequence[int], rules: Rules, wild: int,
                     keep: int | None = None) -> tuple[int, list[Group]] | None:
    """A finish card and groups of the other 13 of these 14 cards that make a valid declaration, or None.
    ``keep``: a face that may not be the finish card (unless the hand holds its twin)."""
    finish, solution = best_discard(faces, rules, wild, keep)
    return (finish, _groups(solution)) if solution.valid else None
