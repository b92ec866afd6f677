"""The least points a hand scores when another player declares (section 5, ruling R8), found by a plain exact
search; and a valid declaration of 14 cards, when there is one.

A second exact scorer for the tests, beside the fast hand solver (:mod:`taash.rummy.solver`) the engine uses; the
tests check one against the other. The search reads like the rules: take the lowest *plain* card (neither a printed
joker nor a card of the wild rank); it is either left unmatched (its points count) or in one of the melds it can
make with the cards left (every run window through it and every set of its rank, with or without jokers, each group
judged by :func:`taash.rummy.melds.meld_kind`). Jokers and wild-rank cards left over are free and count 0.

Three facts keep it small without losing exactness: (1) a joker beyond what fills a run's gaps to 3 cards, or to
4 (the long run), or a set to 3, changes nothing (jokers count 0 anywhere; more of them only break limits);
(2) a printed joker does whatever a wild-rank card used as a joker does, so printed jokers fill joker places
first; (3) a wild-rank card whose suit has no plain card left can only be a joker, so it is written as one
(unless ``min_natural_cards`` is 1, when it may be the one natural card of a run of jokers). The search remembers
each (cards left, runs so far) it has answered, for every hand of the same rules and wild rank.

>>> from taash.packs import parse_face
>>> from taash.rummy.rules import PRESETS
>>> hand = [parse_face(t) for t in "4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK".split()]
>>> least_points(hand, PRESETS["octro"], wild=7)
0
>>> least_points(hand[:-1] + [parse_face("Kd")], PRESETS["octro"], wild=7)
14
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from taash.packs import JOKER
from taash.rummy.melds import card_points, hand_points, is_joker, meld_kind
from taash.rummy.rules import Rules

#: A group of faces, sorted.
Group = tuple[int, ...]
#: Runs so far (capped at what the declaration needs), pure runs so far (capped), and whether a long run is in.
_State = tuple[int, int, bool]
_NOTHING = 10**9


def least_points(faces: Sequence[int], rules: Rules, wild: int) -> int:
    """The least points these 13 cards score when another player declares: the unmatched cards of the best
    arrangement that meets the declaration's requirement, or every card when none does; at most ``max_points``."""
    everything = hand_points(faces, rules, wild)
    found = _search_for(rules, wild, strict=False).best(faces)
    return everything if found is None else min(everything, found[0])


def valid_arrangement(faces: Sequence[int], rules: Rules, wild: int) -> list[Group] | None:
    """Groups of these 13 cards that make a valid declaration (free jokers each in a group of their own), or None."""
    if isolated(faces, rules, wild):
        return None
    found = _search_for(rules, wild, strict=True).best(faces)
    if found is None:
        return None
    rest = sorted(faces)
    melds = []
    for group in found[1]:  # the jokers in the search's groups stand for any joker of the hand: give them faces
        for face in group:
            if face != JOKER:
                rest.remove(face)
        melds.append(group)
    spare = [f for f in rest if is_joker(f, wild)]
    out: list[Group] = []
    for group in melds:
        real = [f for f in group if f != JOKER]
        for _ in range(len(group) - len(real)):
            real.append(spare.pop())
            rest.remove(real[-1])
        out.append(tuple(sorted(real)))
    return out + [(face,) for face in rest]


def find_declaration(faces: Sequence[int], rules: Rules, wild: int,
                     keep: int | None = None) -> tuple[int, list[Group]] | None:
    """A finish card and groups of the other 13 of these 14 cards that make a valid declaration, or None.
    ``keep``: a face that may not be the finish card."""
    alone = isolated(faces, rules, wild)
    if len(alone) > 1:
        return None  # only one card leaves the hand
    for finish in sorted(set(alone or faces)):
        if finish == keep:
            continue
        rest = list(faces)
        rest.remove(finish)
        groups = valid_arrangement(rest, rules, wild)
        if groups is not None:
            return finish, groups
    return None


def isolated(faces: Sequence[int], rules: Rules, wild: int) -> list[int]:
    """Plain cards of the hand that are in no meld it can make, whatever the arrangement (empty when a meld may
    hold a single natural card): no other card of their rank in another suit, and the nearest card of their suit
    too far for the hand's jokers to fill the gap. A quick way to see that most hands cannot declare."""
    if rules.min_natural_cards < 2:
        return []
    jokers = min(sum(1 for f in faces if is_joker(f, wild)), rules.max_jokers_per_meld or 13)
    present = set(faces)
    out = []
    for face in faces:
        if is_joker(face, wild):
            continue
        suit, rank = divmod(face, 13)
        if any(s * 13 + rank in present for s in range(4) if s != suit):
            continue
        spots = (0, 13) if rank == 0 else (rank,)
        near = min((abs(p - q) for other in present if other != JOKER and other // 13 == suit and other != face
                    for q in ((0, 13) if other % 13 == 0 else (other % 13,)) for p in spots), default=99)
        if near - 1 > jokers:
            out.append(face)
    return out


_searches: dict[tuple[int, int, bool], _Search] = {}
#: Answers kept in all (about 400 bytes each) before every memo starts again.
_MEMO_LIMIT = 500_000


def _search_for(rules: Rules, wild: int, strict: bool) -> _Search:
    """The search (and its memo) for these rules, wild rank and question."""
    key = (id(rules), wild, strict)
    found = _searches.get(key)
    if found is None or found.rules is not rules:
        if len(_searches) >= 64 or sum(len(s.memo) for s in _searches.values()) > _MEMO_LIMIT:
            _searches.clear()
        found = _searches[key] = _Search(rules, wild, strict)
    elif len(found.memo) > _MEMO_LIMIT // 4:
        found.memo.clear()
    return found


class _Search:
    """The search for one rules value, wild rank and question (strict: a valid declaration; else least points)."""

    def __init__(self, rules: Rules, wild: int, strict: bool):
        self.rules = rules
        self.wild = wild
        #: Strict: every plain card must be in a meld (a valid declaration); else plain cards may stay unmatched.
        self.strict = strict
        #: Most jokers in one meld.
        self.limit = rules.max_jokers_per_meld or 13
        self.memo: dict[tuple[Group, _State], tuple[int, tuple[Group, ...]] | None] = {}

    def best(self, faces: Sequence[int]) -> tuple[int, tuple[Group, ...]] | None:
        start: _State = (0, 0, not self.rules.long_run)
        return self._search(self._canonical(list(faces)), start)

    def _canonical(self, cards: list[int]) -> Group:
        """The cards with every wild-rank card that can only be a joker written as a printed joker (fact 3)."""
        if self.rules.min_natural_cards >= 2:
            suits = {f // 13 for f in cards if not is_joker(f, self.wild)}
            cards = [JOKER if f != JOKER and f % 13 == self.wild and f // 13 not in suits else f for f in cards]
        return tuple(sorted(cards))

    def _met(self, state: _State) -> bool:
        runs, pure, long_run = state
        return runs >= self.rules.runs_required and pure >= self.rules.pure_runs_required and long_run

    def _met_with_jokers(self, state: _State, cards: Group) -> bool:
        """Whether jokers and wild-rank cards alone can add the runs still missing: only when a run may hold one
        natural card (a wild-rank card as itself) and two or more jokers."""
        if self._met(state):
            return True
        if self.rules.min_natural_cards > 1 or self.limit < 2:
            return False
        runs, pure, long_run = state
        if pure < self.rules.pure_runs_required:
            return False  # a run of one natural card and jokers is never pure
        naturals = sum(1 for f in cards if f != JOKER)
        needed = self.rules.runs_required - runs
        extra = 0 if long_run else 1
        if not long_run and self.limit < 3:
            return False
        return needed <= naturals and 3 * max(needed, 1 - long_run) + extra <= len(cards)

    def _after(self, state: _State, group: Group) -> _State | None:
        """The state after melding ``group``, or None when it is no meld."""
        kind = meld_kind(group, self.rules, self.wild)
        if kind is None:
            return None
        if kind == "set":
            return state
        runs, pure, long_run = state
        return (min(runs + 1, self.rules.runs_required), min(pure + (kind == "pure"), self.rules.pure_runs_required),
                long_run or len(group) >= 4)

    def _search(self, cards: Group, state: _State) -> tuple[int, tuple[Group, ...]] | None:
        """The least unmatched points of ``cards`` with the requirement met in the end, and the melds reaching it."""
        key = (cards, state)
        if key in self.memo:
            return self.memo[key]
        plain = next((f for f in cards if not is_joker(f, self.wild)), None)
        best: tuple[int, tuple[Group, ...]] | None = None
        if plain is None:
            best = (0, ()) if self._met_with_jokers(state, cards) else None
        else:
            rest = list(cards)
            rest.remove(plain)
            if not self.strict:
                found = self._search(self._canonical(rest), state)
                if found is not None:
                    best = (found[0] + card_points(plain, self.rules, self.wild), found[1])
            for group in self._melds_with(plain, rest):
                after = self._after(state, group)
                if after is None:
                    continue
                left = list(cards)
                for face in group:
                    left.remove(face)
                found = self._search(self._canonical(left), after)
                if found is not None and (best is None or found[0] < best[0]):
                    best = (found[0], (group, *found[1]))
                    if best[0] == 0:
                        break
        self.memo[key] = best
        return best

    def _melds_with(self, card: int, others: list[int]) -> Iterator[Group]:
        """Every distinct group of ``card``, natural cards of ``others`` and the jokers that may make a meld of
        them (judged later by ``meld_kind``)."""
        jokers = [f for f in others if is_joker(f, self.wild)]
        seen: set[Group] = set()
        for naturals, count in self._shapes(card, others, min(len(jokers), self.limit)):
            pool = list(jokers)
            for face in naturals:
                if face in pool:
                    pool.remove(face)
            printed = pool.count(JOKER)
            if count > len(pool):
                continue
            if count <= printed:  # fact 2: printed jokers first
                choices: Iterator[tuple[int, ...]] | set[tuple[int, ...]] = iter([(JOKER,) * count])
            else:
                wilds = sorted(f for f in pool if f != JOKER)
                choices = {(JOKER,) * printed + c for c in combinations(wilds, count - printed)}
            for chosen in choices:
                group = tuple(sorted((card, *naturals, *chosen)))
                if group not in seen:
                    seen.add(group)
                    yield group

    def _shapes(self, card: int, others: list[int], jokers: int) -> Iterator[tuple[tuple[int, ...], int]]:
        """(natural cards beside ``card``, jokers) for every set and run through ``card`` worth trying (fact 1)."""
        rules = self.rules
        suit, rank = divmod(card, 13)
        present = set(others)
        same_rank = [s * 13 + rank for s in range(4) if s != suit and s * 13 + rank in present]
        for n in range(len(same_rank) + 1):
            if n + 1 <= rules.max_set_size and 3 - (n + 1) <= jokers:
                for naturals in combinations(same_rank, n):
                    yield naturals, max(0, 3 - (n + 1))
        # Runs: the card's suit; the naturals chosen span a window whose gaps jokers fill (to 3 or 4 cards).
        faces = sorted({f for f in present if f // 13 == suit})
        for ace_high in ((False, True) if any(f % 13 == 0 for f in (card, *faces)) else (False,)):
            def position(face: int, high: bool = ace_high) -> int:
                return 13 if high and face % 13 == 0 else face % 13
            at = position(card)
            spots = sorted((position(f), f) for f in faces)
            for lo in [p for p in spots if p[0] < at] + [(at, card)]:
                for hi in [(at, card)] + [p for p in spots if p[0] > at]:
                    span = hi[0] - lo[0] + 1
                    if span > 13:
                        continue
                    inner = [f for p, f in spots if lo[0] < p < hi[0] and p != at]
                    ends = tuple(f for f in {lo[1], hi[1]} if f != card)
                    gaps = span - 1 - len(ends) - len(inner)
                    if gaps > jokers:
                        continue
                    for out in range(min(jokers - gaps, len(inner)) + 1):
                        for left_out in combinations(inner, out):
                            naturals = ends + tuple(f for f in inner if f not in left_out)
                            size = len(naturals) + 1
                            base = max(span, 3) - size
                            for count in sorted({base, max(span, 4) - size}):
                                if count <= jokers:
                                    yield naturals, count
