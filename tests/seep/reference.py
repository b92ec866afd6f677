"""A plain brute-force enumeration of legal plays, written from seep-rules.md alone (sections 5 and 7.3-7.4).

Slow on purpose: every subset of the loose cards is tried for every card and target, then filtered by the text
of the rules. It shares nothing with the engine but the card numbering.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

Outcome = tuple[int, frozenset[int], frozenset[tuple[int, frozenset[int], bool, frozenset[int]]], frozenset[int]]


def value(c: int) -> int:
    return c % 13 + 1


def total(cards: Iterable[int]) -> int:
    return sum(value(c) for c in cards)


def subsets(cards: frozenset[int]) -> list[frozenset[int]]:
    items = sorted(cards)
    return [frozenset(combo) for k in range(len(items) + 1) for combo in combinations(items, k)]


def has_group(cards: frozenset[int], t: int) -> bool:
    return any(s and total(s) == t for s in subsets(cards))


def splits(cards: frozenset[int], t: int) -> bool:
    """The cards split into disjoint groups each adding up to t (the empty set trivially)."""
    if not cards:
        return True
    first = min(cards)
    rest = cards - {first}
    for s in subsets(rest):
        group = s | {first}
        if total(group) == t and splits(cards - group, t):
            return True
    return False


def holds(hand: frozenset[int], t: int) -> bool:
    return any(value(c) == t for c in hand)


def reference_outcomes(hand: frozenset[int], seat: int, players: int, loose: frozenset[int],
                       houses: dict[int, tuple[frozenset[int], bool, frozenset[int]]], bid: int = 0,
                       max_houses: int = 0, break_with_loose: bool = False) -> set[Outcome]:
    partner = (seat + 2) % 4 if players == 4 else None
    out: set[Outcome] = set()

    def add_outcome(c: int, new_loose: frozenset[int], new_houses: dict, captured: frozenset[int],
                    hand_after: frozenset[int]) -> None:
        for v, (_, _, owners) in new_houses.items():  # R4
            if seat in owners and not holds(hand_after, v):
                return
        if max_houses and len(new_houses) > max_houses:
            return
        hs = frozenset((v, cards, cem, owners) for v, (cards, cem, owners) in new_houses.items())
        out.add((c, new_loose, hs, captured))

    def owners_after(owners: frozenset[int], hand_after: frozenset[int], w: int) -> frozenset[int] | None:
        """5.6: the owners after this seat adds to a house of value w (None: not allowed)."""
        if partner is not None and partner in owners and seat not in owners:
            return owners
        if not holds(hand_after, w):
            return None
        return owners | {seat}

    all_loose = subsets(loose)
    for c in sorted(hand):
        v = value(c)
        hand_after = hand - {c}
        # 5.1 / 5.2 capture or throw
        if not bid or v == bid:
            can_capture = v in houses or has_group(loose, v)
            if can_capture:
                for taken in all_loose:
                    if not splits(taken, v) or has_group(loose - taken, v):
                        continue
                    new_houses = dict(houses)
                    captured = taken | {c}
                    if v in new_houses:
                        captured |= new_houses.pop(v)[0]
                    add_outcome(c, loose - taken, new_houses, frozenset(captured), hand_after)
            else:
                add_outcome(c, loose | {c}, dict(houses), frozenset(), hand_after)
        # 5.3 establish
        for t in range(9, 14):
            if t in houses or (bid and t != bid) or not holds(hand_after, t):
                continue
            for pile in all_loose:
                if v == t:
                    if not pile or not splits(pile, t) or has_group(loose - pile, t):
                        continue
                    cards = pile | {c}
                    new_houses = dict(houses)
                    new_houses[t] = (frozenset(cards), True, frozenset({seat}))
                    add_outcome(c, loose - pile, new_houses, frozenset(), hand_after)
                    continue
                if not pile or v + total(pile) != t:
                    continue
                rest = loose - pile
                for extra in subsets(rest):
                    if not splits(extra, t) or has_group(rest - extra, t):
                        continue
                    new_houses = dict(houses)
                    new_houses[t] = (frozenset(pile | extra | {c}), bool(extra), frozenset({seat}))
                    add_outcome(c, rest - extra, new_houses, frozenset(), hand_after)
        if bid:
            continue
        # 5.5 add (items 1 and 2) with optional extra groups (R3)
        for w, (hcards, _, howners) in houses.items():
            if v > w:
                continue
            owners = owners_after(howners, hand_after, w)
            if owners is None:
                continue
            for pile in all_loose:
                if (v == w and pile) or (v < w and (not pile or v + total(pile) != w)):
                    continue
                rest = loose - pile
                for extra in subsets(rest):
                    if not splits(extra, w):
                        continue
                    new_houses = dict(houses)
                    new_houses[w] = (frozenset(hcards | pile | extra | {c}), True, owners)
                    add_outcome(c, rest - extra, new_houses, frozenset(), hand_after)
        # 5.4 break (and 5.5 item 3 merge); 7.4 break with loose cards
        for h, (hcards, cemented, howners) in houses.items():
            if cemented or seat in howners:
                continue
            ways = []  # (new value, loose cards used in the break)
            if h + v <= 13:
                ways.append((h + v, frozenset()))
            if break_with_loose and v > h:
                ways += [(v, pile) for pile in all_loose if pile and h + total(pile) == v]
            for n, used in ways:
                rest = loose - used
                if n in houses:
                    tcards, _, towners = houses[n]
                    owners = owners_after(towners, hand_after, n)
                    if owners is None:
                        continue
                    for extra in subsets(rest):
                        if not splits(extra, n):
                            continue
                        new_houses = dict(houses)
                        del new_houses[h]
                        new_houses[n] = (frozenset(tcards | hcards | used | extra | {c}), True, owners)
                        add_outcome(c, rest - extra, new_houses, frozenset(), hand_after)
                else:
                    if not holds(hand_after, n):
                        continue
                    for extra in subsets(rest):
                        if not splits(extra, n) or has_group(rest - extra, n):
                            continue
                        new_houses = dict(houses)
                        del new_houses[h]
                        cards = hcards | used | extra | {c}
                        new_houses[n] = (frozenset(cards), total(cards) != n, frozenset({seat}))
                        add_outcome(c, rest - extra, new_houses, frozenset(), hand_after)
    return out
