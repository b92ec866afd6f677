"""A slow, plain hand scorer for 13-card Rummy, written from the text of ``shared/rummy-rules.md`` alone.

It shares nothing with the engine (neither the solver nor ``taash.rummy.melds``) but the numbering of faces
(``suit * 13 + rank``, ``52`` a printed joker) and the rule parameters it is given. It lists every group of the
hand's cards that is a meld (sections 3), then tries every way of laying disjoint melds (section 4), keeping for
each progress towards the declaration requirement the fewest points left (section 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product

PRINTED_JOKER = 52


@dataclass(frozen=True)
class RefRules:
    """The rule parameters a hand's score depends on."""

    wild_as_natural: bool = True
    max_jokers_per_meld: int = 1  # 0: any number
    min_natural_cards: int = 2
    max_set_size: int = 4
    runs_required: int = 2
    pure_runs_required: int = 1
    long_run: bool = True
    ace_points: int = 1
    max_points: int = 80


OCTRO = RefRules()
CLASSIC = RefRules(max_jokers_per_meld=0, long_run=False, ace_points=10)


def value(face: int, rules: RefRules, wild: int) -> int:
    """Section 5: jokers 0, ace ``ace_points``, ten to king 10, two to nine their rank."""
    if face == PRINTED_JOKER or face % 13 == wild:
        return 0
    rank = face % 13
    if rank == 0:
        return rules.ace_points
    return 10 if rank >= 9 else rank + 1


def is_run(naturals: Sequence[int], length: int) -> bool:
    """Natural cards of one suit that jokers can complete into ``length`` consecutive cards, the ace low (A-2-3)
    or high (Q-K-A), never both."""
    if len({f // 13 for f in naturals}) != 1:
        return False
    for ace_high in (False, True):
        places = [13 if ace_high and f % 13 == 0 else f % 13 for f in naturals]
        if len(set(places)) != len(places):
            continue
        lowest, highest = (1, 13) if ace_high else (0, 12)
        for start in range(lowest, highest - length + 2):
            if all(start <= p < start + length for p in places):
                return True
    return False


def is_set(naturals: Sequence[int], size: int, rules: RefRules) -> bool:
    """Natural cards of one rank in different suits (twins never together), 3 to ``max_set_size`` cards."""
    return (3 <= size <= rules.max_set_size and len({f % 13 for f in naturals}) == 1
            and len({f // 13 for f in naturals}) == len(naturals))


def meld_reading(group: Sequence[int], rules: RefRules, wild: int) -> str | None:
    """The best reading of a group: 'pure' run, 'impure' run, 'set', or None. A card of the wild rank may be read
    as a joker, or (``wild_as_natural``) as itself; a printed joker is always a joker."""
    flexible = [f for f in group if f != PRINTED_JOKER and f % 13 == wild]
    fixed = [f for f in group if f != PRINTED_JOKER and f % 13 != wild]
    printed = len(group) - len(flexible) - len(fixed)
    found = set()
    for as_self in product((False, True) if rules.wild_as_natural else (False,), repeat=len(flexible)):
        naturals = fixed + [f for f, s in zip(flexible, as_self, strict=True) if s]
        jokers = printed + sum(1 for s in as_self if not s)
        if len(naturals) < rules.min_natural_cards:
            continue
        if rules.max_jokers_per_meld and jokers > rules.max_jokers_per_meld:
            continue
        if is_run(naturals, len(group)):
            found.add("pure" if jokers == 0 else "impure")
        if is_set(naturals, len(group), rules):
            found.add("set")
    for kind in ("pure", "impure", "set"):
        if kind in found:
            return kind
    return None


def all_melds(hand: Sequence[int], rules: RefRules, wild: int) -> dict[int, tuple[str, int]]:
    """Every group of the hand (a bit per card) that is a meld, with its kind and length. Groups are the
    subsets whose cards that are never jokers share a suit or a rank, each with any of the hand's jokers."""
    n = len(hand)
    jokers = [i for i in range(n) if hand[i] == PRINTED_JOKER or hand[i] % 13 == wild]
    plain = [i for i in range(n) if i not in jokers]
    families = [[i for i in plain if hand[i] // 13 == s] for s in range(4)]
    families += [[i for i in plain if hand[i] % 13 == r] for r in range(13)]
    candidates = set()
    for family in families:
        for k in range(len(family) + 1):
            for part in combinations(family, k):
                for j in range(len(jokers) + 1):
                    for extra in combinations(jokers, j):
                        if k + j >= 3:
                            candidates.add(sum(1 << i for i in (*part, *extra)))
    out = {}
    for mask in candidates:
        group = [hand[i] for i in range(n) if mask >> i & 1]
        kind = meld_reading(group, rules, wild)
        if kind is not None:
            out[mask] = (kind, len(group))
    return out


def reference_score(hand: Sequence[int], rules: RefRules, wild: int) -> tuple[int, bool]:
    """The least points of a hand (section 5) and whether it is a valid declaration (section 4)."""
    n = len(hand)
    melds = all_melds(hand, rules, wild)
    by_lowest: dict[int, list[tuple[int, str, int]]] = {}
    for mask, (kind, length) in melds.items():
        by_lowest.setdefault((mask & -mask).bit_length() - 1, []).append((mask, kind, length))

    def progress_of(kind: str, length: int) -> tuple[int, int, int]:
        if kind == "set":
            return 0, 0, 0
        return 1, int(kind == "pure"), int(length >= 4)

    def joined(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, int, int]:
        return (min(a[0] + b[0], rules.runs_required), min(a[1] + b[1], rules.pure_runs_required),
                max(a[2], b[2]))

    @cache
    def best(left: int) -> dict[tuple[int, int, int], tuple[int, int]]:
        """For the cards in ``left``: progress -> fewest (points, natural cards) left outside melds."""
        if left == 0:
            return {(0, 0, 0): (0, 0)}
        i = (left & -left).bit_length() - 1
        face = hand[i]
        cost = value(face, rules, wild), int(face != PRINTED_JOKER and face % 13 != wild)
        out: dict[tuple[int, int, int], tuple[int, int]] = {}
        for progress, (points, count) in best(left & ~(1 << i)).items():
            option = (points + cost[0], count + cost[1])
            if progress not in out or option < out[progress]:
                out[progress] = option
        for mask, kind, length in by_lowest.get(i, ()):
            if mask & left != mask:
                continue
            for progress, option in best(left & ~mask).items():
                p = joined(progress, progress_of(kind, length))
                if p not in out or option < out[p]:
                    out[p] = option
        return out

    ends = best((1 << n) - 1)
    met = [option for (runs, pure, long), option in ends.items()
           if runs >= rules.runs_required and pure >= rules.pure_runs_required and (long or not rules.long_run)]
    if not met:
        return min(rules.max_points, sum(value(f, rules, wild) for f in hand)), False
    points, count = min(met)
    return min(rules.max_points, points), count == 0


def reference_discard(hand: Sequence[int], rules: RefRules, wild: int) -> tuple[int, bool]:
    """For 14 cards: the least points over every card discarded, and whether some discard leaves a valid
    declaration."""
    results = [reference_score([*hand[:i], *hand[i + 1:]], rules, wild) for i in range(len(hand))]
    return min(p for p, _ in results), any(v for _, v in results)
