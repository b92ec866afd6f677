"""How far a Rummy hand has come towards a declaration, and the hand arranged as a player lays it out.

A hand's *measure* (lower is better, 0 for a valid declaration) is its points under the rules when it meets the
declaration requirement; otherwise its points with the requirement lifted (the cards no meld can cover, jokers
covering where they help most) plus a charge for the requirement still to meet, smaller when a pure run is one
card away. Two cards left unmatched that a third would meld (a *draw*: one suit, one or two ranks apart; or one
rank, two suits) take a point or two off. The heuristic bot plays by it; the table shows hands by the same idea.

A hand *arranged* (:func:`arranged`) shows its complete melds first (the solver's, the requirement lifted when
the hand cannot meet it yet, so that a pure run or a set shows before the hand could declare), then its free
jokers, then the draws among the cards left (closest first: two cards in a row of one suit, two of one rank, two
of one suit a rank apart), and the loose cards last.

Cards are faces of :mod:`taash.packs`; ``wild`` is the deal's wild rank (0 = ace .. 12 = king).

>>> from taash.packs import face_name, parse_face
>>> from taash.rummy.rules import PRESETS
>>> hand = [parse_face(t) for t in "3s 3d 3c 5d 6d 7d 9h Th Kc Kd 2s 8c Qh".split()]
>>> a = arranged(hand, PRESETS["octro"], wild=3)
>>> [(kind, " ".join(face_name(f) for f in cards)) for kind, cards in a.melds]
[('pure', '5d 6d 7d'), ('set', '3s 3d 3c')]
>>> [" ".join(face_name(f) for f in pair) for pair in a.draws], [face_name(f) for f in a.loose]
(['9h Th', 'Kd Kc'], ['2s', 'Qh', '8c'])
>>> a.points, a.valid  # no second run yet: every card counts (at most 80)
(80, False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from taash.packs import JOKER
from taash.rummy.melds import MeldKind, card_points, is_joker
from taash.rummy.rules import Rules
from taash.rummy.solver import Solution, discard_values, pure_best_discard, solve

#: The measure's charge when the declaration requirement is not met: with no pure run in sight, with a pure draw
#: (two cards of a pure run), and with a pure run but another run or the long run still missing.
NO_PURE_RUN = 24
PURE_DRAW = 14
RUN_MISSING = 8
#: Points off per draw among the unmatched cards (at most :data:`MOST_DRAWS` of them).
DRAW_BONUS = 1
MOST_DRAWS = 4
#: How the solver is asked (:func:`taash.rummy.solver.solve`, or the compiled solver's arrangement).
Solver = Callable[[Sequence[int], Rules, int], Solution]

_LIFTED: dict[tuple[int, int, int, bool, int], Rules] = {}


def lifted(rules: Rules) -> Rules:
    """The rules with the declaration requirement lifted and no cap on points: the points melds alone leave."""
    key = (rules.min_natural_cards, rules.max_set_size, rules.max_jokers_per_meld, rules.wild_as_natural,
           rules.ace_points)
    found = _LIFTED.get(key)
    if found is None:
        found = replace(rules, runs_required=0, pure_runs_required=0, long_run=False, max_points=1000)
        _LIFTED[key] = found
    return found


def natural(face: int, wild: int) -> bool:
    return not is_joker(face, wild)


def run_ranks(rank: int) -> tuple[int, ...]:
    """Positions of a rank on the run line (an ace is low and high)."""
    return (0, 13) if rank == 0 else (rank,)


def apart(a: int, b: int) -> int | None:
    """How many ranks apart two faces of one suit are on the run line (the nearer way for an ace, low or high);
    None for faces of different suits or equal ones."""
    if a // 13 != b // 13 or a == b:
        return None
    low, high = sorted((a % 13, b % 13))
    gap = high - low
    return min(gap, 13 - gap) if low == 0 else gap


def close(a: int, b: int, within: int) -> bool:
    """Two natural faces of one suit at most ``within`` ranks from each other on the run line (and not equal)."""
    gap = apart(a, b)
    return gap is not None and gap <= within


def draws(cards: Sequence[int], wild: int) -> int:
    """Pairs of natural ``cards`` a third card would make a meld of (one suit within two ranks, or one rank)."""
    naturals = [c for c in cards if natural(c, wild)]
    count = 0
    for i, a in enumerate(naturals):
        for b in naturals[i + 1:]:
            same_rank = a % 13 == b % 13 and a != b
            count += same_rank or close(a, b, 2)
    return count


def pure_draw(hand: Sequence[int], wild: int, rules: Rules) -> bool:
    """Two natural cards of one suit one or two ranks apart (a card of the wild rank counts as itself under R2)."""
    cards = [c for c in set(hand) if c != JOKER and (natural(c, wild) or rules.wild_as_natural)]
    return any(close(a, b, 2) for i, a in enumerate(cards) for b in cards[i + 1:])


def measure(hand: Sequence[int], rules: Rules, wild: int, late: float = 0.0, solver: Solver = solve) -> float:
    """How bad 13 cards are (lower is better; 0 for a valid declaration): see the module's docstring. ``late``
    (0 to 1) weighs the points the hand would pay now against its promise, as the deal goes on. ``solver``: the
    pure solver (what the bots decide by: its arrangements never depend on the core) or the compiled one's."""
    strict = solver(hand, rules, wild)
    if strict.valid:
        return 0.0
    if strict.melds:  # the requirement is met: the points are the real ones
        promise = strict.points - DRAW_BONUS * min(MOST_DRAWS, draws(strict.unmatched, wild))
    else:
        free = solver(hand, lifted(rules), wild)
        has_pure = any(kind == "pure" for kind, _ in free.melds)
        charge = RUN_MISSING if has_pure else PURE_DRAW if pure_draw(hand, wild, rules) else NO_PURE_RUN
        promise = (min(free.points, rules.max_points) + charge
                   - DRAW_BONUS * min(MOST_DRAWS, draws(free.unmatched, wild)))
    return (1 - late) * promise + late * strict.points


# -- the hand as a player lays it out --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Arranged:
    """13 cards laid out as a player would: ``points`` and ``valid`` as the solver scores them; every card is in
    exactly one of ``melds`` (each ``(kind, cards)``: complete melds, found with the requirement lifted when the
    hand does not meet it), ``free`` (jokers in no meld), ``draws`` (pairs a third card would meld, closest
    first) and ``loose``."""

    points: int
    valid: bool
    melds: tuple[tuple[MeldKind, tuple[int, ...]], ...]
    free: tuple[int, ...]
    draws: tuple[tuple[int, int], ...]
    loose: tuple[int, ...]


def _closeness(a: int, b: int) -> int | None:
    """How close two natural cards are to a meld: 0 in a row of one suit, 1 of one rank, 2 a rank apart in one
    suit; None when a third card cannot meld them."""
    rank_a, rank_b = a % 13, b % 13
    if rank_a == rank_b:
        return 1 if a != b else None
    if a // 13 != b // 13:
        return None
    gap = abs(rank_a - rank_b)
    if 0 in (rank_a, rank_b):  # an ace is next to the two and to the king
        gap = min(gap, 13 - gap)
    return 0 if gap == 1 else 2 if gap == 2 else None


#: A pair of cards in a draw as :func:`draws_of` chooses them: its closeness, and its two cards.
_Pair = tuple[int, int, int]


def draws_of(cards: Sequence[int], rules: Rules, wild: int) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """The most pairs of natural ``cards`` a third card would meld, each card in one pair at most (of as many, the
    closest; then those of most points), closest first; and the cards left alone in face order. Cards that could
    pair with no other are set aside first; the rest are paired by an exact search over each group of linked
    cards (a few cards at most)."""
    naturals = sorted(c for c in cards if natural(c, wild))
    linked: dict[int, list[int]] = {c: [] for c in naturals}
    for i, c in enumerate(naturals):
        for d in naturals[i + 1:]:
            if _closeness(c, d) is not None:
                linked[c].append(d)
                linked[d].append(c)
    chosen: list[_Pair] = []
    seen: set[int] = set()
    for start in naturals:
        if start in seen or not linked[start]:
            continue
        group, todo = {start}, [start]  # the cards linked to it, directly or not
        seen.add(start)
        while todo:
            for d in linked[todo.pop()]:
                if d not in seen:
                    seen.add(d)
                    group.add(d)
                    todo.append(d)
        members = tuple(c for c in naturals if c in group)  # twins both
        chosen += _best_pairs(members, rules, wild, {})[3]
    chosen.sort()
    loose = list(cards)
    for _, first, other in chosen:
        loose.remove(first)
        loose.remove(other)
    return tuple((first, other) for _, first, other in chosen), tuple(sorted(loose))


def _best_pairs(rest: tuple[int, ...], rules: Rules, wild: int,
                known: dict[tuple[int, ...], tuple[int, int, int, tuple[_Pair, ...]]]
                ) -> tuple[int, int, int, tuple[_Pair, ...]]:
    """(-pairs, closeness, -points, the pairs) at best for these linked cards."""
    if len(rest) < 2:
        return 0, 0, 0, ()
    if rest in known:
        return known[rest]
    first, others = rest[0], rest[1:]
    found = _best_pairs(others, rules, wild, known)  # the first card alone
    for k, other in enumerate(others):
        closeness = _closeness(first, other)
        if closeness is None:
            continue
        pairs, near, points, chosen = _best_pairs(others[:k] + others[k + 1:], rules, wild, known)
        points -= card_points(first, rules, wild) + card_points(other, rules, wild)
        found = min(found, (pairs - 1, near + closeness, points, ((closeness, first, other), *chosen)))
    known[rest] = found
    return found


def arranged(hand: Sequence[int], rules: Rules, wild: int, solver: Solver = solve,
             strict: Solution | None = None) -> Arranged:
    """13 cards laid out as a player would (the module's docstring): the solver's melds even before the hand
    meets the declaration requirement, then the draws, then the loose cards. ``strict``: the solver's solution of
    the hand, when it is known already."""
    if strict is None:
        strict = solver(hand, rules, wild)
    shown = strict if strict.melds else solver(hand, lifted(rules), wild)
    pairs, loose = draws_of(shown.unmatched, rules, wild)
    return Arranged(strict.points, strict.valid, shown.melds, shown.free, pairs, loose)


#: How the best discard of 14 cards is asked (:func:`taash.rummy.solver.best_discard` or the compiled solver's).
Discarder = Callable[[Sequence[int], Rules, int, int | None], tuple[int, Solution]]


def arranged_after_discard(faces: Sequence[int], rules: Rules, wild: int, keep: int | None = None,
                           solver: Solver = solve,
                           discarder: Discarder = pure_best_discard) -> tuple[int, Arranged]:
    """The card a player would lay off from 14 (never ``keep`` alone, as :func:`~taash.rummy.solver.best_discard`)
    and the 13 left, arranged: the solver's best discard when the hand it leaves meets the declaration requirement;
    otherwise, the points telling little yet (every card counts), :func:`most_promising_discard`."""
    choice, left = discarder(faces, rules, wild, keep)
    if left.melds:
        return choice, arranged(_without(faces, choice), rules, wild, solver, left)
    choice = most_promising_discard(faces, rules, wild, keep)
    return choice, arranged(_without(faces, choice), rules, wild, solver)


def most_promising_discard(faces: Sequence[int], rules: Rules, wild: int, keep: int | None = None) -> int:
    """The discard from 14 cards that the melds alone miss least: the least points left with the declaration
    requirement lifted (every discard's at once, by the solver's questions of value), so that no meld is broken
    while a loose card is left; among those, the card in fewest draws with the others (keeping the cards a third
    would meld), then the card of most points, then the lowest face (a joker last of all)."""
    free = discard_values(faces, lifted(rules), wild, keep)
    least = min(free.values())
    tied = [face for face, points in free.items() if points == least]
    return min(tied, key=lambda face: (is_joker(face, wild), draws_with(face, faces, wild),
                                       -card_points(face, rules, wild), face))


def draws_with(face: int, cards: Sequence[int], wild: int) -> int:
    """How many of the other natural ``cards`` make a draw with ``face`` (one rank, or one suit within two ranks)."""
    if not natural(face, wild):
        return 0
    return sum(1 for c in cards if natural(c, wild) and _closeness(face, c) is not None)


def _without(faces: Sequence[int], face: int) -> list[int]:
    rest = list(faces)
    rest.remove(face)
    return rest
