"""The exact hand solver of 13-card Indian Rummy: the least points a hand scores (section 5 of
``shared/rummy-rules.md``) with one arrangement reaching them, whether it is a valid declaration (section 4), and
for 14 cards the best discard.

How it works. Jokers (printed jokers and cards of the wild rank) score 0 wherever they lie, so a hand's points are
the points of its natural cards left outside melds, and the only question is which natural cards melds can cover
with the jokers at hand, under the declaration requirement (runs, pure runs, a long run). Two natural cards can sit
in one meld only when they are of one suit and close enough in rank for the jokers a meld may hold to fill the gap
(a run), or of one rank in different suits (a set). The hand therefore falls apart into *clusters* of cards linked
that way; a card linked to nothing never melds and always counts. Each cluster is solved on its own by a memoised
search over its cards (the lowest card left is either unmatched or in one of the melds that hold it), giving a small
table: for each number of jokers used and each progress towards the requirement (runs, pure runs, long run), the
most it can cover. The clusters' tables are then folded together within the hand's jokers and the best entry that
meets the requirement wins; when none does, all 13 cards count. A cluster's table depends only on its shape (ranks
per suit, suits relabelled), the jokers at hand and the rules, so tables are kept across hands: random hands are
made of a few thousand common shapes, and a bot's discard and take questions change one cluster at a time.

A card of the wild rank is a joker; under R2 (``wild_as_natural``) it may also be itself in a run of its suit (it
then keeps the run pure), so it joins the clusters of its suit as a natural card of 0 points that uses up a joker
when it is so placed.

Cards are faces of :mod:`taash.packs` (twins are equal); ``wild`` is the deal's wild rank (0 = ace .. 12 = king).

>>> from taash.packs import parse_face
>>> from taash.rummy.rules import PRESETS
>>> hand = [parse_face(t) for t in "4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK".split()]
>>> s = solve(hand, PRESETS["octro"], wild=7)
>>> s.valid, s.points, len(s.melds), s.unmatched
(True, 0, 4, ())
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise, product
from typing import TypeVar

from taash.packs import JOKER
from taash.rummy.errors import BadHandError
from taash.rummy.melds import MeldKind, meld_kind
from taash.rummy.rules import Rules

#: Cards in a hand, and in a hand that has just drawn.
HAND = 13
DRAWN = 14

#: A natural card's weight in the search is its points times this, plus one: covering more points always wins, and
#: among equal points covering more cards wins (a hand has fewer cards than this). The weight left uncovered is 0
#: only when every natural card is in a meld: a valid declaration even under rules where an ace scores 0.
_PER_POINT = 16

#: Positions on the run line: ranks 0 (ace) .. 12 (king), and 13 for an ace played high (Q-K-A).
_ACE_HIGH = 13
_KINDS: tuple[MeldKind, ...] = ("pure", "impure", "set")
_PURE, _IMPURE, _SET = 0, 1, 2
_T = TypeVar("_T")
#: A slot of a meld filled by a joker from the hand's pool.
_JOKER_SLOT = -1


@dataclass(frozen=True, slots=True)
class Solution:
    """A hand's least points and one arrangement reaching them.

    ``points``: section 5 (unmatched cards when some arrangement meets the declaration requirement, else all 13
    cards; at most ``max_points``). ``valid``: the 13 cards are a valid declaration. Every card of the hand is in
    exactly one of ``melds`` (each ``(kind, cards)``), ``free`` (jokers in no meld) and ``unmatched``.
    """

    points: int
    valid: bool
    melds: tuple[tuple[MeldKind, tuple[int, ...]], ...]
    free: tuple[int, ...]
    unmatched: tuple[int, ...]


# -- the rules the search needs, and progress towards the declaration requirement ----------------------------


@dataclass(frozen=True, slots=True)
class _Meld:
    """A meld a cluster can make: its cards (a bit per cluster card), the cards it may not leave behind (twins
    before its own, so that of equal cards the first are used), jokers it takes from the pool (wild cards placed
    as themselves included), its progress towards the requirement, the weight it covers, and its slots (cluster
    card indices, or joker slots) in the order it is shown."""

    mask: int
    forbid: int
    pool: int
    progress: int
    weight: int
    kind: int
    slots: tuple[int, ...]


#: A cluster's table: (jokers used, progress) -> (weight covered, the melds making it).
Table = dict[tuple[int, int], tuple[int, tuple[_Meld, ...]]]


class _Game:
    """What the search needs of one set of rules, and the caches of cluster tables kept across hands."""

    #: Clusters whose tables are kept; past this the cache starts afresh (a long simulation meets new shapes).
    CACHE_LIMIT = 300_000

    def __init__(self, rules: Rules) -> None:
        #: The rules these were made from (others with the same parameters for the search share this).
        self.rules = rules
        self.min_naturals = rules.min_natural_cards
        self.max_set = rules.max_set_size
        #: Jokers one meld may hold (no limit: as many as a hand can have).
        self.meld_jokers = rules.max_jokers_per_meld or DRAWN
        self.wild_as_natural = rules.wild_as_natural
        self.ace_points = rules.ace_points
        self.max_points = rules.max_points
        self.long_run = rules.long_run
        # Progress is (runs, pure runs, a run of 4+) counted up to what the requirement asks, as one number.
        self.runs_needed = rules.runs_required
        self.pure_needed = rules.pure_runs_required
        states = [(r, p, g) for r in range(self.runs_needed + 1) for p in range(self.pure_needed + 1)
                  for g in (0, 1)]
        self.code = {s: i for i, s in enumerate(states)}
        self.states = states
        self.add = [[self.code[(min(a[0] + b[0], self.runs_needed), min(a[1] + b[1], self.pure_needed),
                                 a[2] | b[2])] for b in states] for a in states]
        # Whether progress a is at least progress b in every respect (then a is as good as b, or better).
        self.at_least = [[a[0] >= b[0] and a[1] >= b[1] and a[2] >= b[2] for b in states] for a in states]
        self.met = [r == self.runs_needed and p == self.pure_needed and (g == 1 or not self.long_run)
                    for r, p, g in states]
        self.nothing = self.code[(0, 0, 0)]
        self.tables: dict[tuple[object, ...], Table] = {}

    def run_progress(self, pure: bool, length: int) -> int:
        return self.code[(min(1, self.runs_needed), min(int(pure), self.pure_needed), int(length >= 4))]

    def points(self, face: int) -> int:
        rank = face % 13
        if rank == 0:
            return self.ace_points
        return 10 if rank >= 9 else rank + 1

    def gap(self, jokers: int) -> int:
        """The farthest apart (in rank) two cards of a suit may lie and still share a run, with these jokers."""
        return min(jokers, self.meld_jokers) + 1

    # -- one cluster ----------------------------------------------------------------------------------------

    def cluster_table(self, shape: tuple[tuple[tuple[int, bool], ...], ...], jokers: int) -> Table:
        """The table of a cluster: ``shape`` is its cards, suit by suit (suits relabelled 0, 1, ...), each
        ``(rank, wild)``, with ``jokers`` in the hand."""
        key = (shape, jokers)
        table = self.tables.get(key)
        if table is None:
            if len(self.tables) >= self.CACHE_LIMIT:
                self.tables.clear()
            table = self.tables[key] = self._solve_cluster(shape, jokers)
        return table

    def _solve_cluster(self, shape: tuple[tuple[tuple[int, bool], ...], ...], jokers: int) -> Table:
        cards = [(suit, rank, wild) for suit, ranks in enumerate(shape) for rank, wild in ranks]
        by_lowest: list[list[_Meld]] = [[] for _ in cards]
        for meld in self._melds(cards, jokers):
            by_lowest[(meld.mask & -meld.mask).bit_length() - 1].append(meld)
        empty: Table = {(0, self.nothing): (0, ())}
        memo: dict[int, Table] = {0: empty}
        add = self.add

        def best(left: int) -> Table:
            found = memo.get(left)
            if found is not None:
                return found
            low = left & -left
            table = dict(best(left ^ low))  # the lowest card left stays unmatched
            for meld in by_lowest[low.bit_length() - 1]:
                if meld.mask & left != meld.mask or left & meld.forbid:
                    continue
                for (used, progress), (weight, melds) in best(left ^ meld.mask).items():
                    used += meld.pool
                    if used > jokers:
                        continue
                    key = (used, add[meld.progress][progress])
                    weight += meld.weight
                    old = table.get(key)
                    if old is None or old[0] < weight:
                        table[key] = (weight, (*melds, meld))
            table = self._prune(table)
            memo[left] = table
            return table

        return best((1 << len(cards)) - 1)

    def _prune(self, table: dict[tuple[int, int], tuple[int, _T]]) -> dict[tuple[int, int], tuple[int, _T]]:
        """Drops entries no better than another in weight that uses no fewer jokers for no more progress."""
        if len(table) <= 1:
            return table
        kept: dict[tuple[int, int], tuple[int, _T]] = {}
        at_least = self.at_least
        for key, value in sorted(table.items(), key=lambda item: -item[1][0]):
            used, progress = key
            if not any(u <= used and at_least[p][progress] for u, p in kept):
                kept[key] = value
        return kept

    def _melds(self, cards: Sequence[tuple[int, int, bool]], jokers: int) -> Iterator[_Meld]:
        """Every meld of these cluster cards worth considering, with up to ``jokers`` from the pool."""
        twins_before = [sum(1 << j for j in range(i) if cards[j] == cards[i]) for i in range(len(cards))]

        def forbid(mask: int) -> int:
            out = 0
            for i in range(len(cards)):
                if mask >> i & 1:
                    out |= twins_before[i] & ~mask
            return out

        yield from self._runs(cards, jokers, forbid)
        yield from self._sets(cards, jokers, forbid)

    def _runs(self, cards: Sequence[tuple[int, int, bool]], jokers: int,
              forbid: Callable[[int], int]) -> Iterator[_Meld]:
        free_jokers = min(jokers, self.meld_jokers)
        # A joker at either end of a run only helps to reach 3 cards, or 4 for the long run.
        longest_padded = 4 if self.long_run else 3
        for suit in {c[0] for c in cards}:
            at: dict[int, list[int]] = {}
            for i, (s, rank, _) in enumerate(cards):
                if s == suit:
                    at.setdefault(rank, []).append(i)
                    if rank == 0:
                        at.setdefault(_ACE_HIGH, []).append(i)
            in_suit = sum(1 for c in cards if c[0] == suit)
            for low in range(_ACE_HIGH + 1):
                for high in range(low + 2, min(_ACE_HIGH, low + in_suit + free_jokers - 1) + 1):
                    if low == 0 and high == _ACE_HIGH:
                        break  # K-A-2: an ace is low or high, never both
                    length = high - low + 1
                    choices = [[_JOKER_SLOT, *at.get(p, ())] for p in range(low, high + 1)]
                    for slots in product(*choices):
                        generic = slots.count(_JOKER_SLOT)
                        naturals = length - generic
                        if generic > free_jokers or naturals < self.min_naturals:
                            continue
                        if length > longest_padded and _JOKER_SLOT in (slots[0], slots[-1]):
                            continue
                        mask = 0
                        pool = generic
                        weight = 0
                        for i in slots:
                            if i != _JOKER_SLOT:
                                mask |= 1 << i
                                _, rank, wild = cards[i]
                                if wild:
                                    pool += 1
                                else:
                                    weight += self.weight(rank)
                        if pool > jokers:
                            continue
                        pure = generic == 0
                        yield _Meld(mask, forbid(mask), pool, self.run_progress(pure, length), weight,
                                    _PURE if pure else _IMPURE, slots)

    def _sets(self, cards: Sequence[tuple[int, int, bool]], jokers: int,
              forbid: Callable[[int], int]) -> Iterator[_Meld]:
        free_jokers = min(jokers, self.meld_jokers)
        ranks = {c[1] for c in cards if not c[2]}  # a wild card as itself in a set would cover only jokers
        for rank in ranks:
            by_suit: dict[int, list[int]] = {}
            for i, (suit, r, wild) in enumerate(cards):
                if r == rank and not wild:
                    by_suit.setdefault(suit, []).append(i)
            for size in range(max(self.min_naturals, 1), min(len(by_suit), self.max_set) + 1):
                generic = max(0, 3 - size)  # more jokers than needed for 3 cards cover nothing more
                if generic > free_jokers:
                    continue
                for suits in combinations(sorted(by_suit), size):
                    for chosen in product(*(by_suit[s] for s in suits)):
                        mask = sum(1 << i for i in chosen)
                        weight = size * self.weight(rank)
                        yield _Meld(mask, forbid(mask), generic, self.nothing, weight, _SET,
                                    (*chosen, *([_JOKER_SLOT] * generic)))

    def weight(self, rank: int) -> int:
        return self.points(rank) * _PER_POINT + 1

    # -- one hand -------------------------------------------------------------------------------------------

    def split(self, items: Sequence[int], wild: int, jokers: int) -> tuple[list[list[int]], list[int]]:
        """The clusters of linked cards among ``items`` (natural cards, and wild cards that may be themselves),
        and the natural cards linked to nothing, which never meld and always count."""
        parent = list(range(len(items)))

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        def link(group: list[int], other: list[int]) -> None:
            top = root(other[0])
            for i in group:
                parent[root(i)] = top

        gap = self.gap(jokers)
        by_suit: dict[int, dict[int, list[int]]] = {}
        by_rank: dict[int, dict[int, list[int]]] = {}
        for i, face in enumerate(items):
            suit, rank = divmod(face, 13)
            by_suit.setdefault(suit, {}).setdefault(rank, []).append(i)
            if rank != wild:  # a wild card as itself in a set would cover only jokers
                by_rank.setdefault(rank, {}).setdefault(suit, []).append(i)
        for ranks in by_suit.values():
            line = sorted(ranks)
            if line[0] == 0:
                line.append(_ACE_HIGH)
            for a, b in pairwise(line):
                if b - a <= gap:
                    group, other = ranks[a], ranks[b % 13]
                    link(group, other)
                    link(other, group)
        for suits in by_rank.values():
            if len(suits) >= 2:
                cards = [i for group in suits.values() for i in group]
                link(cards, cards)
        groups: dict[int, list[int]] = {}
        for i, face in enumerate(items):
            groups.setdefault(root(i), []).append(face)
        alone_melds = self.min_naturals == 1 and min(jokers, self.meld_jokers) >= 2
        clusters: list[list[int]] = []
        dead: list[int] = []
        for group in groups.values():
            if len(group) > 1 or alone_melds:
                clusters.append(group)
            elif group[0] % 13 != wild:
                dead.append(group[0])
        return clusters, dead

    def shape(self, cluster: Sequence[int], wild: int) -> tuple[tuple[tuple[tuple[int, bool], ...], ...],
                                                                list[int]]:
        """A cluster's shape (cards suit by suit, suits in a canonical order) and its faces in the shape's order."""
        suits: dict[int, list[tuple[int, bool]]] = {}
        for face in cluster:
            rank = face % 13
            suits.setdefault(face // 13, []).append((rank, rank == wild))
        patterns = sorted((tuple(sorted(ranks)), suit) for suit, ranks in suits.items())
        return (tuple(p for p, _ in patterns), [suit * 13 + rank for p, suit in patterns for rank, _ in p])

    def fold(self, tables: Iterable[Table], jokers: int) -> dict[tuple[int, int], tuple[int, _Chain]]:
        """The clusters' tables put together within the hand's jokers: for each jokers used and progress, the
        most weight covered and the chain of cluster entries making it."""
        add = self.add
        acc: dict[tuple[int, int], tuple[int, _Chain]] = {(0, self.nothing): (0, None)}
        for number, table in enumerate(tables):
            if len(table) == 1 and (0, self.nothing) in table and not table[(0, self.nothing)][0]:
                continue  # a cluster that can make no meld at all
            new: dict[tuple[int, int], tuple[int, _Chain]] = {}
            for (used, progress), (weight, chain) in acc.items():
                for (more, gain), (extra, melds) in table.items():
                    total = used + more
                    if total > jokers:
                        continue
                    key = (total, add[progress][gain])
                    old = new.get(key)
                    if old is None or old[0] < weight + extra:
                        new[key] = (weight + extra, (chain, number, melds) if melds else chain)
            acc = self._prune(new)
        return acc

    def best_entry(self, acc: dict[tuple[int, int], tuple[int, _Chain]]) -> tuple[int, _Chain] | None:
        """The entry covering the most among those meeting the requirement, or None when none does."""
        best: tuple[int, _Chain] | None = None
        met = self.met
        for (_, progress), entry in acc.items():
            if met[progress] and (best is None or entry[0] > best[0]):
                best = entry
        return best


#: Cluster entries chosen by :meth:`_Game.fold`: (earlier chain, cluster number, its melds), or None.
_Chain = tuple["_Chain", int, tuple[_Meld, ...]] | None

_GAMES: dict[tuple[object, ...], _Game] = {}


def _game(rules: Rules) -> _Game:
    key = (rules.min_natural_cards, rules.max_set_size, rules.max_jokers_per_meld, rules.wild_as_natural,
           rules.ace_points, rules.max_points, rules.long_run, rules.runs_required, rules.pure_runs_required)
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = _Game(rules)
    return game


def _check(faces: Sequence[int], size: int, wild: int) -> None:
    if len(faces) != size:
        raise BadHandError(f"a hand here is {size} cards, not {len(faces)}")
    if not 0 <= wild <= 12:
        raise BadHandError(f"the wild rank is 0 (ace) to 12 (king), not {wild}")
    for face in faces:
        if not 0 <= face <= JOKER:
            raise BadHandError(f"a card face is 0 to {JOKER}, not {face}")


class _Hand:
    """A hand taken apart: its jokers, its natural cards, their clusters with tables, and the cards that always
    count."""

    __slots__ = ("clusters", "dead", "faces", "game", "jokers", "naturals", "printed", "tables", "total", "wild",
                 "wilds")

    def __init__(self, game: _Game, faces: Sequence[int], wild: int) -> None:
        self.game = game
        self.faces = faces
        self.wild = wild
        self.printed = [f for f in faces if f == JOKER]
        self.wilds = [f for f in faces if f != JOKER and f % 13 == wild]
        self.naturals = [f for f in faces if f != JOKER and f % 13 != wild]
        self.jokers = len(self.printed) + len(self.wilds)
        self.total = sum(game.points(f) for f in self.naturals)
        items = self.naturals + self.wilds if game.wild_as_natural else self.naturals
        clusters, self.dead = game.split(items, wild, self.jokers)
        self.clusters: list[list[int]] = []
        self.tables: list[Table] = []
        for cluster in clusters:
            self.add_cluster(cluster)

    def without(self, face: int) -> _Hand:
        """The hand less one card of this face, re-solving only the cluster the card was in."""
        faces = _without(self.faces, [face])
        if face == JOKER or face % 13 == self.wild:  # one joker fewer changes every cluster's table
            return _Hand(self.game, faces, self.wild)
        other = copy.copy(self)
        other.faces = faces
        other.naturals = _without(self.naturals, [face])
        other.total = self.total - self.game.points(face)
        if face in self.dead:
            other.dead = _without(self.dead, [face])
            return other
        number = next(n for n, cluster in enumerate(self.clusters) if face in cluster)
        other.clusters = self.clusters[:number] + self.clusters[number + 1:]
        other.tables = self.tables[:number] + self.tables[number + 1:]
        clusters, dead = self.game.split(_without(self.clusters[number], [face]), self.wild, self.jokers)
        other.dead = self.dead + dead
        for cluster in clusters:
            other.add_cluster(cluster)
        return other

    def add_cluster(self, cluster: Sequence[int]) -> None:
        shape, faces = self.game.shape(cluster, self.wild)
        self.clusters.append(faces)
        self.tables.append(self.game.cluster_table(shape, self.jokers))

    def value(self) -> tuple[int, bool]:
        """The hand's least points and whether it is a valid declaration (no arrangement is built)."""
        game = self.game
        best = game.best_entry(game.fold(self.tables, self.jokers))
        if best is None:
            return min(self.total, game.max_points), False
        weight = best[0]
        return min(self.total - weight // _PER_POINT, game.max_points), weight % _PER_POINT == len(self.naturals)

    def solution(self) -> Solution:
        game = self.game
        best = game.best_entry(game.fold(self.tables, self.jokers))
        if best is None:  # no arrangement meets the requirement: all 13 cards count
            return Solution(min(self.total, game.max_points), False, (), (*self.printed, *self.wilds),
                            tuple(self.naturals))
        weight, chain = best
        chosen: list[tuple[list[int], _Meld]] = []
        while chain is not None:
            chain, number, cluster_melds = chain
            chosen.extend((self.clusters[number], meld) for meld in cluster_melds)
        held = [faces[i] for faces, meld in chosen for i in meld.slots if i != _JOKER_SLOT]
        # Wild cards placed as themselves leave the pool; the rest of it (printed jokers first) fills the
        # melds' joker slots, and what is left over is free.
        pool = self.printed + _without(self.wilds, [f for f in held if f % 13 == self.wild])
        melds = sorted((self._shown(faces, meld, pool) for faces, meld in chosen),
                       key=lambda m: (_KINDS.index(m[0]), m[1]))
        unmatched = _without(self.naturals, [f for f in held if f % 13 != self.wild])
        points = min(self.total - weight // _PER_POINT, game.max_points)
        valid = weight % _PER_POINT == len(self.naturals)
        return Solution(points, valid, tuple(melds), tuple(pool), tuple(unmatched))

    def _shown(self, faces: list[int], meld: _Meld, pool: list[int]) -> tuple[MeldKind, tuple[int, ...]]:
        """A meld's cards as shown, its joker slots filled from the pool."""
        shown = tuple(faces[i] if i != _JOKER_SLOT else pool.pop(0) for i in meld.slots)
        kind = _KINDS[meld.kind]
        if kind == "impure":
            suit = next(faces[i] for i in meld.slots if i != _JOKER_SLOT) // 13
            if any(i == _JOKER_SLOT and f != JOKER and f // 13 == suit
                   for i, f in zip(meld.slots, shown, strict=True)):
                # A wild card of the run's own suit in a joker's slot may read as itself: name the run as the
                # rules read it (then it may be pure).
                kind = meld_kind(shown, self.game.rules, self.wild) or kind
        return kind, shown


def _without(cards: Sequence[int], removed: Iterable[int]) -> list[int]:
    """``cards`` less one copy of each of ``removed`` (which it holds), in order."""
    out = list(cards)
    for face in removed:
        out.remove(face)
    return out


# -- the public questions --------------------------------------------------------------------------------------


def solve(faces: Sequence[int], rules: Rules, wild: int) -> Solution:
    """The least points of 13 cards (section 5), whether they are a valid declaration, and one arrangement."""
    _check(faces, HAND, wild)
    return _Hand(_game(rules), faces, wild).solution()


def hand_value(faces: Sequence[int], rules: Rules, wild: int) -> int:
    """The least points of 13 cards alone, without building an arrangement (a little faster than :func:`solve`)."""
    _check(faces, HAND, wild)
    return _Hand(_game(rules), faces, wild).value()[0]


def _discards(faces: Sequence[int], rules: Rules, wild: int, keep: int | None) -> tuple[_Hand, dict[int, _Hand]]:
    """The 14-card hand taken apart once, and the 13-card hand after each distinct discard allowed."""
    _check(faces, DRAWN, wild)
    if keep is not None and keep not in faces:
        raise BadHandError("the card taken is not in the hand")
    whole = _Hand(_game(rules), faces, wild)
    after = {}
    for face in dict.fromkeys(faces):
        if face == keep and faces.count(face) < 2:
            continue  # R3: the card just taken from the discard pile stays (a twin of it may go)
        after[face] = whole.without(face)
    return whole, after


def discard_values(faces: Sequence[int], rules: Rules, wild: int, keep: int | None = None) -> dict[int, int]:
    """The least points left after each distinct discard from 14 cards (``keep``: a card that may not be
    discarded, the one just taken from the discard pile under R3). Only the discarded card's cluster is solved
    again for each discard."""
    return {face: hand.value()[0] for face, hand in _discards(faces, rules, wild, keep)[1].items()}


def best_discard(faces: Sequence[int], rules: Rules, wild: int, keep: int | None = None) -> tuple[int, Solution]:
    """The best card to discard from 14 and the solution of the 13 left (``keep`` as for :func:`discard_values`).

    The best discard leaves a valid declaration if any does, then the fewest points; among equals it is the card
    of most points (it would cost most if caught in hand), then the lowest face number.
    """
    game = _game(rules)
    values = {face: hand.value() for face, hand in _discards(faces, rules, wild, keep)[1].items()}
    if not values:
        raise BadHandError("no card may be discarded")
    choice = min(values, key=lambda f: (not values[f][1], values[f][0], -game.points(f) if f != JOKER and
                                        f % 13 != wild else 0, f))
    return choice, _Hand(game, _without(faces, [choice]), wild).solution()


def take_value(faces: Sequence[int], face: int, rules: Rules, wild: int) -> int:
    """The least points after taking ``face`` into 13 cards and making the best discard allowed (under R3 the
    card taken stays when ``keep_taken_discard``): what taking the open discard is worth."""
    _check(faces, HAND, wild)
    keep = face if rules.keep_taken_discard else None
    return min(discard_values([*faces, face], rules, wild, keep).values())
