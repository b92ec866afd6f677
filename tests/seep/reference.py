"""A slow, plain enumeration of every legal play, written from the text of ``shared/seep-rules.md`` alone.

It shares nothing with the engine but the numbering of cards (``suit * 13 + rank``, value ``rank + 1``). For every
card in hand it tries every subset of the loose cards against every kind of play and every house value, and keeps
what the rules allow:

* 5.1 capture (the card's house, loose cards splitting into groups of its value, nothing of its value left; R1),
* 5.2 throw (only when the card captures nothing),
* 5.3 establish (ordinary or cemented at once, a card of the value kept, R2 auto-cement),
* 5.4 break an ordinary house the player does not own (one card from hand, R2 for a new house),
* 5.5 add to a house (its value, or loose cards with it, or a broken house merging into it; R3 optional groups),
* 5.6 owners and R4 (after the play every house the player owns has a card of its value in his hand),
* 5.8 the bid play, 7.3 ``max_houses``, 7.4 ``break_with_loose``,
* 7.2 Qasim's restricted cards as the project reads them: before its release a restricted card may only be
  thrown or build a house of its own value, and nobody else may build the first house of the value of a
  restricted card he does not hold.

Subsets are looked up by their sum (a group of value ``t`` can only be among the subsets adding up to a multiple of
``t``), which keeps the enumeration exhaustive and still fast enough for thousands of positions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

HOUSE_VALUES = range(9, 14)

#: A house as the reference keeps it: cards, cemented, owner seats.
RefHouse = tuple[frozenset[int], bool, frozenset[int]]
#: A play: kind name, card, house value (0 for capture and throw), broken house value (0 unless a break),
#: the loose cards used (taken by a capture, put into the house otherwise).
RefPlay = tuple[str, int, int, int, frozenset[int]]
#: An outcome: card played, loose cards after, houses after as (value, cards, cemented, owners), cards captured.
RefOutcome = tuple[int, frozenset[int], frozenset[tuple[int, frozenset[int], bool, frozenset[int]]], frozenset[int]]


def value(c: int) -> int:
    """Capture value: ace 1 .. king 13."""
    return c % 13 + 1


@dataclass(frozen=True)
class Spot:
    """One player to move and everything the rules need to list his plays."""

    hand: frozenset[int]
    seat: int
    players: int
    loose: frozenset[int]
    houses: Mapping[int, RefHouse] = field(default_factory=dict)
    bid: int = 0
    max_houses: int = 0
    break_with_loose: bool = False
    #: Qasim's restricted cards not yet released (7.2), wherever they are.
    restricted: frozenset[int] = frozenset()


class _Loose:
    """The loose cards, with every subset (as a bit mask over ``cards``) filed by its sum."""

    def __init__(self, loose: frozenset[int]):
        self.cards = sorted(loose)
        n = len(self.cards)
        self.full = (1 << n) - 1
        sums = [0] * (1 << n)
        for m in range(1, 1 << n):
            low = m & -m
            sums[m] = sums[m ^ low] + value(self.cards[low.bit_length() - 1])
        self.sums = sums
        self.by_sum: dict[int, list[int]] = defaultdict(list)
        for m in range(1 << n):
            self.by_sum[sums[m]].append(m)
        self.total = sums[self.full]
        self._splits: dict[tuple[int, int], bool] = {}

    def set_of(self, m: int) -> frozenset[int]:
        return frozenset(c for i, c in enumerate(self.cards) if m >> i & 1)

    def subsets_adding_to(self, s: int) -> list[int]:
        return self.by_sum.get(s, [])

    def has_group(self, m: int, t: int) -> bool:
        """Some non-empty subset of ``m`` adds up to ``t``."""
        return any(g and g & m == g for g in self.by_sum.get(t, []))

    def splits(self, m: int, t: int) -> bool:
        """``m`` splits into disjoint groups each adding up to ``t`` (the empty set does, trivially)."""
        if m == 0:
            return True
        if self.sums[m] % t:
            return False
        key = (m, t)
        found = self._splits.get(key)
        if found is None:
            low = m & -m
            found = any(g & low and g & m == g and self.splits(m ^ g, t) for g in self.by_sum.get(t, []))
            self._splits[key] = found
        return found

    def splits_with_card(self, m: int, v: int, t: int) -> bool:
        """``m`` plus one card of value ``v`` splits into groups of ``t`` (the card alone is a group when v == t)."""
        if v > t:
            return False
        if v == t:
            return self.splits(m, t)
        return any(s and s & m == s and self.splits(m ^ s, t) for s in self.by_sum.get(t - v, []))

    def multiples(self, t: int, start: int = 0) -> Iterator[int]:
        """Subsets adding up to ``start``, ``start + t``, ``start + 2t`` ... (candidates for groups of ``t``)."""
        s = start
        while s <= self.total:
            yield from self.by_sum.get(s, [])
            s += t


def reference_plays(spot: Spot) -> dict[RefPlay, RefOutcome]:
    """Every legal play of ``spot`` with its outcome."""
    L = _Loose(spot.loose)
    seat, houses = spot.seat, dict(spot.houses)
    partner = (seat + 2) % 4 if spot.players == 4 else None
    locked = {value(c) for c in spot.restricted if c not in spot.hand}
    out: dict[RefPlay, RefOutcome] = {}

    def holds(cards: frozenset[int], t: int) -> bool:
        return any(value(x) == t for x in cards)

    def new_owners(owners: frozenset[int], hand_after: frozenset[int], w: int) -> frozenset[int] | None:
        """5.6: owners of a house of value ``w`` after this seat adds to it; None when he may not."""
        if seat not in owners and partner is not None and partner in owners:
            return owners  # adds for his partner: no card of w needed, does not become an owner
        if not holds(hand_after, w):
            return None  # becomes (or stays) an owner: must hold a card of w
        return owners | {seat}

    def keep(play: RefPlay, loose_after: frozenset[int], houses_after: dict[int, RefHouse], captured: frozenset[int],
             hand_after: frozenset[int]) -> None:
        for w, (_, _, owners) in houses_after.items():  # R4
            if seat in owners and not holds(hand_after, w):
                return
        if spot.max_houses and len(houses_after) > spot.max_houses:  # 7.3
            return
        outcome = (
            play[1],
            loose_after,
            frozenset((w, cards, cem, owners) for w, (cards, cem, owners) in houses_after.items()),
            captured,
        )
        out[play] = outcome

    for c in sorted(spot.hand):
        v = value(c)
        hand_after = spot.hand - {c}
        restricted = c in spot.restricted
        bid = spot.bid
        # -- 5.1 capture / 5.2 throw (in the bid play only with a card of the bid value) --------------------
        if not bid or v == bid:
            can_capture = v in houses or L.has_group(L.full, v)
            if restricted or not can_capture:
                keep(("throw", c, 0, 0, frozenset()), spot.loose | {c}, houses, frozenset(), hand_after)
            else:
                for m in L.multiples(v):
                    if not L.splits(m, v) or L.has_group(L.full ^ m, v):
                        continue
                    after = dict(houses)
                    captured = L.set_of(m) | {c}
                    if v in after:
                        captured |= after.pop(v)[0]
                    keep(("capture", c, 0, 0, L.set_of(m)), L.set_of(L.full ^ m), after, captured, hand_after)
        # -- 5.3 establish a new house of value t ---------------------------------------------------------------
        for t in HOUSE_VALUES:
            if t in houses or t in locked or (bid and t != bid) or not holds(hand_after, t) or v > t:
                continue
            if restricted and t != v:
                continue  # a restricted card goes into no larger house
            for m in L.multiples(t, start=(t - v) % t):
                if not m or not L.splits_with_card(m, v, t):
                    continue
                if L.has_group(L.full ^ m, t):
                    continue  # R2: every matching loose group goes in at once
                pile = L.set_of(m) | {c}
                after = dict(houses)
                after[t] = (pile, sum(map(value, pile)) != t, frozenset({seat}))
                keep(("establish", c, t, 0, L.set_of(m)), L.set_of(L.full ^ m), after, frozenset(), hand_after)
        if bid or restricted:
            continue
        # -- 5.5 items 1 and 2: add to the house of value w, with optional further groups (R3) --------------
        for w, (cards, _, owners) in houses.items():
            if v > w:
                continue
            owners_after = new_owners(owners, hand_after, w)
            if owners_after is None:
                continue
            for m in L.multiples(w, start=(w - v) % w):
                if (v < w and not m) or not L.splits_with_card(m, v, w):
                    continue
                after = dict(houses)
                after[w] = (cards | L.set_of(m) | {c}, True, owners_after)
                keep(("add", c, w, 0, L.set_of(m)), L.set_of(L.full ^ m), after, frozenset(), hand_after)
        # -- 5.4 break an ordinary house (5.5 item 3 when it merges), and 7.4 break with loose cards ----------
        for h, (cards, cemented, owners) in houses.items():
            if cemented or seat in owners:
                continue
            ways: list[tuple[int, int]] = []  # (new value, loose cards that break it along with the card)
            if h + v <= 13:
                ways.append((h + v, 0))
            if spot.break_with_loose and v > h:
                ways += [(v, s) for s in L.subsets_adding_to(v - h) if s]
            for n, used in ways:
                rest = L.full ^ used
                if n in houses:  # merge into the n-house (5.5 item 3), optional further groups (R3)
                    tcards, _, towners = houses[n]
                    owners_after = new_owners(towners, hand_after, n)
                    if owners_after is None:
                        continue
                    for extra in L.multiples(n):
                        if extra & used or not L.splits(extra, n):
                            continue
                        after = dict(houses)
                        del after[h]
                        after[n] = (tcards | cards | L.set_of(used | extra) | {c}, True, owners_after)
                        keep(("break", c, n, h, L.set_of(used | extra)), L.set_of(rest ^ extra), after, frozenset(),
                             hand_after)
                else:  # a new house of value n: the breaker its sole owner, R2
                    if n in locked or not holds(hand_after, n):
                        continue
                    for extra in L.multiples(n):
                        if extra & used or not L.splits(extra, n) or L.has_group(rest ^ extra, n):
                            continue
                        pile = cards | L.set_of(used | extra) | {c}
                        after = dict(houses)
                        del after[h]
                        after[n] = (pile, sum(map(value, pile)) != n, frozenset({seat}))
                        keep(("break", c, n, h, L.set_of(used | extra)), L.set_of(rest ^ extra), after, frozenset(),
                             hand_after)
    return out


def reference_outcomes(spot: Spot) -> set[RefOutcome]:
    return set(reference_plays(spot).values())
