"""The exact hand solver of 13-card Indian Rummy: the least points a hand scores (section 5 of
``shared/rummy-rules.md``) with one arrangement reaching them, whether it is a valid declaration (section 4), and
for 14 cards the best discard.

How it works. Jokers (printed jokers and cards of the wild rank) score 0 wherever they lie, so a hand's points are
the points of its natural cards left outside melds, and the only question is which natural cards melds can cover
with the jokers at hand, under the declaration requirement (runs, pure runs, a long run). Two natural cards can sit
in one meld only when they are of one suit and close enough in rank for the jokers a meld may hold to fill the gap
(a run), or of one rank in different suits (a set). The hand therefore falls apart into *clusters* of cards linked
that way; a card linked to nothing never melds and always counts. Each cluster is solved on its own into a small
*table*: for each number of jokers used and each progress towards the requirement (runs, pure runs, a long run,
counted up to what the rules ask), the most it can cover; entries no better than another that uses fewer jokers
for as much progress are dropped. A cluster's table is the best, over every choice of sets among its ranks held
in several suits, of the sets plus each suit's own table for the cards the sets leave; a suit's table comes from a
memoised search over its cards (the lowest card left is unmatched, or in one of the runs that hold it). The
clusters' tables are then folded together within the hand's jokers, and the best entry that meets the requirement
wins; when none does, all 13 cards count. Tables depend only on shapes (ranks per suit, suits relabelled), the
jokers that can be used and the rules, so they are kept across hands: random hands are made of common shapes, and
each discard of a 14-card hand changes only the cluster the card leaves.

A card of the wild rank is a joker; under R2 (``wild_as_natural``) it may also be itself in a run of its suit (it
then keeps the run pure), so it joins the clusters of its suit as a natural card of 0 points that uses up a joker
when it is so placed.

Cards are faces of :mod:`taash.packs` (twins are equal); ``wild`` is the deal's wild rank (0 = ace .. 12 = king).

This module is the pure solver, the reference. When the compiled solver is built (:mod:`taash.rummy.core`), the
questions of value (:func:`hand_value`, :func:`discard_values`, :func:`take_value`, and the choice of
:func:`best_discard`) are answered by it, with the same answers (``pure_*`` name the pure functions,
``compiled_*`` the compiled ones); :func:`solve` and the arrangement :func:`best_discard` shows are always the pure
solver's. :func:`shown_solve` and :func:`shown_best_discard`, for the web server, take the compiled solver's own
arrangement (as good; among equally good groupings maybe another).

>>> from taash.packs import parse_face
>>> from taash.rummy.rules import PRESETS
>>> hand = [parse_face(t) for t in "4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK".split()]
>>> s = solve(hand, PRESETS["octro"], wild=7)
>>> s.valid, s.points, len(s.melds), s.unmatched
(True, 0, 4, ())
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise, product
from typing import TypeVar

from taash.packs import JOKER
from taash.rummy.core import compiled, solver_rules
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
#: How many suits a set of suits (a bit each) holds.
_SUITS_IN = tuple(bin(bits).count("1") for bits in range(16))
#: A slot of a meld filled by a joker from the hand's pool.
_JOKER_SLOT = -1


@dataclass(frozen=True, slots=True)
class Solution:
    """A hand's least points and one arrangement reaching them.

    ``points``: section 5 (unmatched cards when some arrangement meets the declaration requirement, else all 13
    cards; at most ``max_points``). ``valid``: the 13 cards are a valid declaration. Every card of the hand is in
    exactly one of ``melds`` (each ``(kind, cards)``, a run's cards in order with its jokers where they stand),
    ``free`` (jokers in no meld) and ``unmatched``. When no arrangement meets the requirement every card counts,
    and none is shown in a meld.
    """

    points: int
    valid: bool
    melds: tuple[tuple[MeldKind, tuple[int, ...]], ...]
    free: tuple[int, ...]
    unmatched: tuple[int, ...]


# -- the rules the search needs, and progress towards the declaration requirement ----------------------------


@dataclass(frozen=True, slots=True)
class _Run:
    """A run the cards of one suit can make: its cards (a bit per card of the suit), the cards it may not leave
    behind (twins before its own, so that of equal cards the first are used), the jokers it takes from the pool
    (wild cards placed as themselves included), its progress towards the requirement, the weight it covers, and
    how it is shown."""

    mask: int
    forbid: int
    pool: int
    progress: int
    weight: int
    shown: Shown


#: A meld as the search keeps it: its kind (0 pure, 1 impure, 2 set) and its cards in the order shown, a joker's
#: slot as -1. Its suits are the cluster's own (0, 1, ... in the order of its shape), the hand's when shown.
Shown = tuple[int, tuple[int, ...]]
#: A cluster's (or one suit's) table: (jokers used, progress) -> (weight covered, the melds making it).
Table = dict[tuple[int, int], tuple[int, tuple[Shown, ...]]]
#: A cluster's shape: its cards suit by suit, each ``(rank, wild)`` in order, the suits in a canonical order.
Shape = tuple[tuple[tuple[int, bool], ...], ...]


class _Game:
    """What the search needs of one set of rules, and the tables of clusters and suits kept across hands."""

    #: Tables kept (of clusters, and of suits); past this a cache starts afresh (a long simulation meets new
    #: shapes). A table takes about 1.3 kB: the two caches full hold some 250 MB.
    CACHE_LIMIT = 100_000

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
        self.add = [[self.code[(min(a[0] + b[0], self.runs_needed), min(a[1] + b[1], self.pure_needed),
                                 a[2] | b[2])] for b in states] for a in states]
        # Whether progress a is at least progress b in every respect (then a is as good as b, or better).
        self.at_least = [[a[0] >= b[0] and a[1] >= b[1] and a[2] >= b[2] for b in states] for a in states]
        self.met = [r == self.runs_needed and p == self.pure_needed and (g == 1 or not self.long_run)
                    for r, p, g in states]
        self.nothing = self.code[(0, 0, 0)]
        self.tables: dict[tuple[Shape, int], Table] = {}
        self.suit_tables: dict[tuple[tuple[tuple[int, bool], ...], int, int], Table] = {}
        self.rank_sets: dict[tuple[tuple[int, ...], int], list[tuple[list[tuple[int, ...]], int]]] = {}

    def run_progress(self, pure: bool, length: int) -> int:
        return self.code[(min(1, self.runs_needed), min(int(pure), self.pure_needed), int(length >= 4))]

    def points(self, face: int) -> int:
        rank = face % 13
        if rank == 0:
            return self.ace_points
        return 10 if rank >= 9 else rank + 1

    def weight(self, rank: int) -> int:
        return self.points(rank) * _PER_POINT + 1

    def useful_jokers(self, cards: int, wilds: int, jokers: int) -> int:
        """The most of ``jokers`` that melds of ``cards`` cards (``wilds`` of them wild cards, which may be
        themselves) can use: each meld has ``min_naturals`` cards and holds ``meld_jokers`` at most. Tables for
        more jokers are the same table, and are found more often under the smaller number."""
        if self.meld_jokers >= DRAWN:
            return jokers
        return min(jokers, cards // self.min_naturals * self.meld_jokers + wilds)

    def gap(self, jokers: int) -> int:
        """The farthest apart (in rank) two cards of a suit may lie and still share a run, with these jokers."""
        return min(jokers, self.meld_jokers) + 1

    # -- one cluster: its sets chosen rank by rank, its runs suit by suit ---------------------------------------

    def cluster_table(self, shape: Shape, jokers: int) -> Table:
        """The table of a cluster of this shape with ``jokers`` in the hand."""
        key = (shape, jokers)
        table = self.tables.get(key)
        if table is None:
            if len(self.tables) >= self.CACHE_LIMIT:
                self.tables.clear()
            table = self.tables[key] = self._solve_cluster(shape, jokers)
        return table

    def _solve_cluster(self, shape: Shape, jokers: int) -> Table:
        """Every way of making sets of the cluster's cards of one rank in different suits, each with the best
        runs of what every suit has left."""
        if len(shape) == 1:
            return self.suit_table(shape[0], jokers, 0)
        # How many cards of each suit every rank held in two suits or more has (wild cards never go in sets).
        holders: dict[int, list[int]] = {}
        for suit, pattern in enumerate(shape):
            for rank, wild in pattern:
                if not wild:
                    holders.setdefault(rank, [0] * len(shape))[suit] += 1
        set_ranks = [(rank, counts) for rank, counts in sorted(holders.items()) if sum(map(bool, counts)) >= 2]
        result: Table = {}
        add = self.add
        # Each suit's runs, by the ranks the sets take from it (None when nothing is left to make a run).
        runs_of: dict[tuple[int, tuple[int, ...]], Table | None] = {}
        for sets in self._set_choices(set_ranks, 0, jokers):
            used = sum(generic for _, _, generic in sets)
            weight = sum(len(suits) * self.weight(rank) for rank, suits, _ in sets)
            shown = tuple((_SET, (*(s * 13 + rank for s in suits), *(_JOKER_SLOT,) * generic))
                          for rank, suits, generic in sets)
            acc: Table = {(used, self.nothing): (weight, shown)}
            taken: list[list[int]] = [[] for _ in shape]
            for rank, suits, _ in sets:
                for suit in suits:
                    taken[suit].append(rank)
            for suit, pattern in enumerate(shape):
                key = (suit, tuple(taken[suit]))
                if key in runs_of:
                    runs_table = runs_of[key]
                else:
                    for rank in taken[suit]:
                        pattern = _without_one(pattern, (rank, False))
                    runs_table = self.suit_table(pattern, jokers, suit) if len(pattern) >= self.min_naturals else None
                    if runs_table is not None and len(runs_table) == 1 and not runs_table.get((0, self.nothing),
                                                                                             (1,))[0]:
                        runs_table = None  # no run at all
                    runs_of[key] = runs_table
                if runs_table is None:
                    continue
                joined: Table = {}
                for (used, progress), (weight, melds) in acc.items():
                    for (more, gain), (extra, runs) in runs_table.items():
                        if used + more > jokers:
                            continue
                        place = (used + more, add[progress][gain])
                        old = joined.get(place)
                        if old is None or old[0] < weight + extra:
                            joined[place] = (weight + extra, melds + runs)
                acc = joined
            for place, entry in acc.items():
                old = result.get(place)
                if old is None or old[0] < entry[0]:
                    result[place] = entry
        return self._prune(result)

    def _set_choices(self, set_ranks: list[tuple[int, list[int]]], k: int,
                     jokers: int) -> Iterator[list[tuple[int, tuple[int, ...], int]]]:
        """Every choice of sets for the ranks ``set_ranks[k:]`` within ``jokers``: lists of (rank, suits,
        jokers)."""
        if k == len(set_ranks):
            yield []
            return
        rank, counts = set_ranks[k]
        for sets, used in self._rank_sets(counts, jokers):
            for rest in self._set_choices(set_ranks, k + 1, jokers - used):
                yield [(rank, suits, max(0, 3 - len(suits))) for suits in sets] + rest

    def _rank_sets(self, counts: list[int], jokers: int) -> list[tuple[list[tuple[int, ...]], int]]:
        """The ways to make sets of one rank's cards (``counts`` per suit; twins make a second set possible):
        lists of the suits of each set, with the jokers they need."""
        key = (tuple(counts), jokers)
        found = self.rank_sets.get(key)
        if found is None:
            found = self.rank_sets[key] = self._list_rank_sets(counts, jokers)
        return found

    def _list_rank_sets(self, counts: list[int], jokers: int) -> list[tuple[list[tuple[int, ...]], int]]:
        free = min(jokers, self.meld_jokers)
        present = [s for s, c in enumerate(counts) if c]
        candidates = [suits for size in range(max(self.min_naturals, 1), min(len(present), self.max_set) + 1)
                      for suits in combinations(present, size) if 3 - size <= free]
        out: list[tuple[list[tuple[int, ...]], int]] = []

        def choose(start: int, left: list[int], budget: int, chosen: list[tuple[int, ...]], used: int) -> None:
            out.append((list(chosen), used))
            for t in range(start, len(candidates)):
                suits = candidates[t]
                need = max(0, 3 - len(suits))  # more jokers than needed for 3 cards cover nothing more
                if need > budget or any(left[s] == 0 for s in suits):
                    continue
                for s in suits:
                    left[s] -= 1
                chosen.append(suits)
                choose(t, left, budget - need, chosen, used + need)
                chosen.pop()
                for s in suits:
                    left[s] += 1

        choose(0, list(counts), jokers, [], 0)
        return out

    def suit_table(self, pattern: tuple[tuple[int, bool], ...], jokers: int, suit: int) -> Table:
        """The table of the runs of one suit's cards, shown in the cluster's suit ``suit``."""
        jokers = self.useful_jokers(len(pattern), sum(wild for _, wild in pattern), jokers)
        key = (pattern, jokers, suit)
        table = self.suit_tables.get(key)
        if table is None:
            if len(self.suit_tables) >= self.CACHE_LIMIT:
                self.suit_tables.clear()
            if suit == 0:
                pieces = self._stretches(pattern, jokers)
                table = self._solve_suit(pattern, jokers) if len(pieces) == 1 else self._join_stretches(pieces, jokers)
            else:
                table = {key: (weight, _in_suit(runs, suit))
                         for key, (weight, runs) in self.suit_table(pattern, jokers, 0).items()}
            self.suit_tables[key] = table
        return table

    def _stretches(self, pattern: tuple[tuple[int, bool], ...],
                   jokers: int) -> list[tuple[tuple[int, bool], ...]]:
        """A suit's cards cut where no run can cross: between ranks further apart than the jokers a run may
        hold can bridge (the ace also follows the king)."""
        gap = self.gap(jokers)
        pieces: list[list[tuple[int, bool]]] = [[pattern[0]]]
        for previous, card in pairwise(pattern):
            if card[0] - previous[0] > gap:
                pieces.append([card])
            else:
                pieces[-1].append(card)
        if len(pieces) > 1 and pattern[0][0] == 0 and _ACE_HIGH - pattern[-1][0] <= gap:
            pieces[0] = pieces.pop() + pieces[0]  # the ace plays high, after the king
        return [tuple(piece) for piece in pieces]

    def _join_stretches(self, pieces: list[tuple[tuple[int, bool], ...]], jokers: int) -> Table:
        """A suit's table from the tables of its stretches, which share only the jokers."""
        add = self.add
        acc: Table = {(0, self.nothing): (0, ())}
        for piece in pieces:
            if len(piece) < self.min_naturals:
                continue
            joined: Table = {}
            for (used, progress), (weight, melds) in acc.items():
                for (more, gain), (extra, runs) in self.suit_table(tuple(sorted(piece)), jokers, 0).items():
                    if used + more > jokers:
                        continue
                    key = (used + more, add[progress][gain])
                    old = joined.get(key)
                    if old is None or old[0] < weight + extra:
                        joined[key] = (weight + extra, melds + runs)
            acc = self._prune(joined)
        return acc

    def _solve_suit(self, pattern: tuple[tuple[int, bool], ...], jokers: int) -> Table:
        """A memoised search over the suit's cards: the lowest card left is unmatched, or in a run holding it."""
        by_lowest: list[list[_Run]] = [[] for _ in pattern]
        for run in self._runs(pattern, jokers):
            by_lowest[(run.mask & -run.mask).bit_length() - 1].append(run)
        memo: dict[int, Table] = {0: {(0, self.nothing): (0, ())}}
        add = self.add

        def best(left: int) -> Table:
            found = memo.get(left)
            if found is not None:
                return found
            low = left & -left
            table = dict(best(left ^ low))  # the lowest card left stays unmatched
            for run in by_lowest[low.bit_length() - 1]:
                if run.mask & left != run.mask or left & run.forbid:
                    continue
                for (used, progress), (weight, melds) in best(left ^ run.mask).items():
                    used += run.pool
                    if used > jokers:
                        continue
                    key = (used, add[run.progress][progress])
                    weight += run.weight
                    old = table.get(key)
                    if old is None or old[0] < weight:
                        table[key] = (weight, (*melds, run.shown))
            table = self._prune(table)
            memo[left] = table
            return table

        return best((1 << len(pattern)) - 1)

    def _prune(self, table: dict[tuple[int, int], tuple[int, _T]]) -> dict[tuple[int, int], tuple[int, _T]]:
        """Drops entries no better than another in weight that uses no fewer jokers for no more progress."""
        if len(table) <= 1:
            return table
        kept: dict[tuple[int, int], tuple[int, _T]] = {}
        at_least = self.at_least
        for key, value in sorted(table.items(), key=_weight_of, reverse=True):
            used, progress = key
            for other_used, other_progress in kept:
                if other_used <= used and at_least[other_progress][progress]:
                    break
            else:
                kept[key] = value
        return kept

    def _runs(self, pattern: tuple[tuple[int, bool], ...], jokers: int) -> Iterator[_Run]:
        """Every run of one suit's cards worth considering, with up to ``jokers`` from the pool."""
        free_jokers = min(jokers, self.meld_jokers)
        # A joker at either end of a run only helps to reach 3 cards, or 4 for the long run.
        longest_padded = 4 if self.long_run else 3
        at: dict[int, list[int]] = {}
        for i, (rank, _) in enumerate(pattern):
            at.setdefault(rank, []).append(i)
            if rank == 0:
                at.setdefault(_ACE_HIGH, []).append(i)
        for low in range(_ACE_HIGH + 1):
            holes = 0  # positions of the window with no card: jokers must fill them
            for high in range(low, _ACE_HIGH + 1):
                if low == 0 and high == _ACE_HIGH:
                    break  # K-A-2: an ace is low or high, never both
                holes += high not in at
                if holes > free_jokers:
                    break
                if high - low >= 2:
                    yield from self._runs_in(pattern, jokers, [at.get(p) for p in range(low, high + 1)],
                                             free_jokers - holes, longest_padded)

    def _runs_in(self, pattern: tuple[tuple[int, bool], ...], jokers: int, window: list[list[int] | None],
                 spare: int, longest_padded: int) -> Iterator[_Run]:
        """The runs filling a window of positions (the cards at each, or None), holes by jokers, with up to
        ``spare`` more jokers standing in for cards that are there (leaving them to other melds)."""
        length = len(window)
        filled = [p for p, at in enumerate(window) if at]
        for extra in range(spare + 1):
            if len(filled) - extra < self.min_naturals:
                break
            for dropped in combinations(filled, extra):
                kept = [p for p in filled if p not in dropped]
                if length > longest_padded and (kept[0] != 0 or kept[-1] != length - 1):
                    continue  # a joker at an end, not needed to reach the length that counts
                generic = length - len(kept)
                for chosen in product(*(window[p] or () for p in kept)):
                    mask = 0
                    pool = generic
                    weight = 0
                    for i in chosen:
                        mask |= 1 << i
                        rank, wild = pattern[i]
                        if wild:
                            pool += 1  # a wild card as itself uses up a joker of the hand
                        else:
                            weight += self.weight(rank)
                    if pool > jokers:
                        continue
                    # Of twins, the first are used: a run may not leave an earlier twin of its cards behind.
                    forbid = 0
                    for i in chosen:
                        for j in range(i):
                            if pattern[j] == pattern[i] and not mask >> j & 1:
                                forbid |= 1 << j
                    cards = [_JOKER_SLOT] * length
                    for p, i in zip(kept, chosen, strict=True):
                        cards[p] = pattern[i][0]
                    pure = generic == 0
                    yield _Run(mask, forbid, pool, self.run_progress(pure, length), weight,
                               (_PURE if pure else _IMPURE, tuple(cards)))

    # -- one hand -------------------------------------------------------------------------------------------

    def split(self, items: Sequence[int], wild: int, jokers: int) -> tuple[list[list[int]], list[int]]:
        """The clusters of linked cards among ``items`` (natural cards, and wild cards that may be themselves),
        and the natural cards linked to nothing, which never meld and always count.

        Within a suit, cards close enough in rank for a run form a segment (the ace also plays high, after the
        king); segments holding cards of one rank in different suits are joined when a set of that rank can be
        made: of three suits, or of two with a joker (a wild card as itself never is: in a set it would cover
        only jokers).
        """
        gap = self.gap(jokers)
        suits: list[list[int]] = [[], [], [], []]
        suits_of_rank = [0] * 13  # a bit per suit
        for face in sorted(items):
            suit = face // 13
            suits[suit].append(face)
            suits_of_rank[face % 13] |= 1 << suit
        segments: list[list[int]] = []
        for cards in suits:
            if not cards:
                continue
            first = len(segments)
            segment = [cards[0]]
            segments.append(segment)
            previous = cards[0] % 13
            for face in cards[1:]:
                rank = face % 13
                if rank - previous > gap:
                    segment = [face]
                    segments.append(segment)
                else:
                    segment.append(face)
                previous = rank
            if cards[0] % 13 == 0 and len(segments) - first > 1 and _ACE_HIGH - previous <= gap:
                segments[first].extend(segments.pop())  # the ace plays high, after the king
        pairs_make_sets = min(jokers, self.meld_jokers) >= 1 and self.min_naturals <= 2
        fewest_suits = 2 if pairs_make_sets else 3
        parent = list(range(len(segments)))
        first_of_rank: dict[int, tuple[int, int]] = {}  # rank -> (suit, segment) of its first card
        linked = [False] * len(segments)
        for number, segment in enumerate(segments):
            for face in segment:
                rank = face % 13
                if rank == wild or _SUITS_IN[suits_of_rank[rank]] < fewest_suits:
                    continue
                suit, other = first_of_rank.setdefault(rank, (face // 13, number))
                if suit != face // 13:
                    a, b = other, number
                    while parent[a] != a:
                        a = parent[a]
                    while parent[b] != b:
                        b = parent[b]
                    parent[b] = a
                    linked[other] = linked[number] = True
        alone_melds = self.min_naturals == 1 and min(jokers, self.meld_jokers) >= 2
        groups: dict[int, list[int]] = {}
        dead: list[int] = []
        for number, segment in enumerate(segments):
            if not linked[number] and not alone_melds and segment[0] % 13 == segment[-1] % 13:
                # One rank alone (a card, or twins): no run, no set.
                dead.extend(f for f in segment if f % 13 != wild)
                continue
            root = number
            while parent[root] != root:
                root = parent[root]
            groups.setdefault(root, []).extend(segment)
        return list(groups.values()), dead

    def shape(self, cluster: Sequence[int], wild: int) -> tuple[Shape, tuple[int, ...]]:
        """A cluster's shape (cards suit by suit, the suits in a canonical order), and the hand's suit for each
        of the shape's."""
        suits: dict[int, list[tuple[int, bool]]] = {}
        for face in cluster:
            rank = face % 13
            suits.setdefault(face // 13, []).append((rank, rank == wild))
        patterns = sorted((tuple(sorted(ranks)), suit) for suit, ranks in suits.items())
        return tuple(p for p, _ in patterns), tuple(suit for _, suit in patterns)

    def fold(self, tables: Iterable[Table], jokers: int,
             start: dict[tuple[int, int], tuple[int, _Chain]] | None = None) -> dict[tuple[int, int],
                                                                                      tuple[int, _Chain]]:
        """The clusters' tables put together within the hand's jokers: for each jokers used and progress, the
        most weight covered and the chain of cluster entries making it (numbered in ``tables``). ``start``: the
        fold of other tables to go on from (its chains then mean nothing)."""
        add = self.add
        acc: dict[tuple[int, int], tuple[int, _Chain]] = start or {(0, self.nothing): (0, None)}
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


def _weight_of(entry: tuple[tuple[int, int], tuple[int, object]]) -> int:
    return entry[1][0]


#: Cluster entries chosen by :meth:`_Game.fold`: (earlier chain, cluster number, its melds), or None.
_Chain = tuple["_Chain", int, tuple[Shown, ...]] | None


def _without_one(pattern: tuple[tuple[int, bool], ...], card: tuple[int, bool]) -> tuple[tuple[int, bool], ...]:
    i = pattern.index(card)
    return pattern[:i] + pattern[i + 1:]


def _in_suit(melds: tuple[Shown, ...], suit: int) -> tuple[Shown, ...]:
    """Runs found for a suit alone (shown in suit 0) moved to the cluster's suit ``suit``."""
    if suit == 0:
        return melds
    offset = suit * 13
    return tuple((kind, tuple(f + offset if f != _JOKER_SLOT else f for f in cards)) for kind, cards in melds)

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

    __slots__ = ("clusters", "dead", "faces", "game", "jokers", "naturals", "printed", "replaced", "suit_maps",
                 "tables", "total", "wild", "wilds")

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
        #: For a hand made by :meth:`without`: the number of the cluster it re-solved in the hand it came from and
        #: how many tables that gave (at the end of ``tables``); (-1, 0) when every table is the same.
        self.replaced: tuple[int, int] | None = None
        #: Each cluster's cards, the hand's suit for each of its shape's suits, and its table.
        self.clusters: list[Sequence[int]] = []
        self.suit_maps: list[tuple[int, ...]] = []
        self.tables: list[Table] = []
        for cluster in clusters:
            self.add_cluster(cluster)

    def without(self, face: int) -> _Hand:
        """The hand less one card of this face, re-solving only the cluster the card was in."""
        faces = _without(self.faces, [face])
        if face == JOKER or face % 13 == self.wild:  # one joker fewer changes every cluster's table
            return _Hand(self.game, faces, self.wild)
        other = object.__new__(_Hand)
        for name in _Hand.__slots__:
            setattr(other, name, getattr(self, name))
        other.faces = faces
        other.naturals = _without(self.naturals, [face])
        other.total = self.total - self.game.points(face)
        if face in self.dead:
            other.dead = _without(self.dead, [face])
            other.replaced = (-1, 0)
            return other
        number = next(n for n, cluster in enumerate(self.clusters) if face in cluster)
        other.clusters = self.clusters[:number] + self.clusters[number + 1:]
        other.suit_maps = self.suit_maps[:number] + self.suit_maps[number + 1:]
        other.tables = self.tables[:number] + self.tables[number + 1:]
        clusters, dead = self.game.split(_without(self.clusters[number], [face]), self.wild, self.jokers)
        other.dead = self.dead + dead
        for cluster in clusters:
            other.add_cluster(cluster)
        other.replaced = (number, len(clusters))
        return other

    def add_cluster(self, cluster: Sequence[int]) -> None:
        game = self.game
        shape, suits = game.shape(cluster, self.wild)
        jokers = game.useful_jokers(len(cluster), sum(1 for f in cluster if f % 13 == self.wild), self.jokers)
        self.clusters.append(cluster)
        self.suit_maps.append(suits)
        self.tables.append(game.cluster_table(shape, jokers))

    def value(self) -> tuple[int, bool]:
        """The hand's least points and whether it is a valid declaration (no arrangement is built)."""
        return self.evaluate(self.game.fold(self.tables, self.jokers))

    def evaluate(self, folded: dict[tuple[int, int], tuple[int, _Chain]]) -> tuple[int, bool]:
        """The least points and validity from the fold of the hand's tables."""
        game = self.game
        best = game.best_entry(folded)
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
        shown: list[tuple[int, list[int]]] = []  # each meld's kind and cards, jokers' slots as -1
        while chain is not None:
            chain, number, cluster_melds = chain
            suits = self.suit_maps[number]
            for kind, cards in cluster_melds:
                shown.append((kind, [suits[f // 13] * 13 + f % 13 if f != _JOKER_SLOT else f for f in cards]))
        points = min(self.total - weight // _PER_POINT, game.max_points)
        valid = weight % _PER_POINT == len(self.naturals)
        return _shown(game.rules, self.wild, self.printed, self.wilds, self.naturals, shown, points, valid)


def _shown(rules: Rules, wild: int, printed: list[int], wilds: list[int], naturals: list[int],
           shown: Sequence[tuple[int, Sequence[int]]], points: int, valid: bool) -> Solution:
    """The solution showing melds found by a search (each its kind and cards, jokers' slots as -1) of a hand of
    these printed jokers, wild cards and natural cards (each in the hand's order)."""
    held = [f for _, cards in shown for f in cards if f != _JOKER_SLOT]
    # Wild cards placed as themselves leave the pool; the rest of it (printed jokers first) fills the
    # melds' joker slots, and what is left over is free.
    pool = printed + _without(wilds, [f for f in held if f % 13 == wild])
    melds = sorted((_filled(rules, wild, kind, cards, pool) for kind, cards in shown),
                   key=lambda m: (_KINDS.index(m[0]), m[1]))
    unmatched = _without(naturals, [f for f in held if f % 13 != wild])
    return Solution(points, valid, tuple(melds), tuple(pool), tuple(unmatched))


def _filled(rules: Rules, wild: int, kind: int, cards: Sequence[int],
            pool: list[int]) -> tuple[MeldKind, tuple[int, ...]]:
    """A meld's cards as shown, its joker slots filled from the pool."""
    filled = tuple(f if f != _JOKER_SLOT else pool.pop(0) for f in cards)
    name = _KINDS[kind]
    if name == "set" and len(filled) - list(cards).count(_JOKER_SLOT) == 1:
        name = meld_kind(filled, rules, wild) or name  # one card and jokers: a run as well
    elif name == "impure":
        suit = next(f for f in cards if f != _JOKER_SLOT) // 13
        if any(f == _JOKER_SLOT and g != JOKER and g // 13 == suit for f, g in zip(cards, filled, strict=True)):
            # A wild card of the run's own suit in a joker's slot may read as itself: name the run as the
            # rules read it (then it may be pure).
            name = meld_kind(filled, rules, wild) or name
    return name, filled


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


def pure_hand_value(faces: Sequence[int], rules: Rules, wild: int) -> int:
    """The least points of 13 cards alone, without building an arrangement (a little faster than :func:`solve`)."""
    _check(faces, HAND, wild)
    return _Hand(_game(rules), faces, wild).value()[0]


def _discards(faces: Sequence[int], rules: Rules, wild: int, keep: int | None) -> tuple[_Hand, dict[int, _Hand]]:
    """The 14-card hand taken apart once, and the 13-card hand after each distinct discard allowed."""
    _check_drawn(faces, wild, keep)
    whole = _Hand(_game(rules), faces, wild)
    after = {}
    for face in dict.fromkeys(faces):
        if face == keep and faces.count(face) < 2:
            continue  # R3: the card just taken from the discard pile stays (a twin of it may go)
        after[face] = whole.without(face)
    return whole, after


def _check_drawn(faces: Sequence[int], wild: int, keep: int | None) -> None:
    _check(faces, DRAWN, wild)
    if keep is not None and keep not in faces:
        raise BadHandError("the card taken is not in the hand")


def pure_discard_values(faces: Sequence[int], rules: Rules, wild: int, keep: int | None = None) -> dict[int, int]:
    """The least points left after each distinct discard from 14 cards (``keep``: a card that may not be
    discarded, the one just taken from the discard pile under R3). Only the discarded card's cluster is solved
    again for each discard."""
    whole, after = _discards(faces, rules, wild, keep)
    return {face: value[0] for face, value in _values_after(whole, after).items()}


def _values_after(whole: _Hand, after: dict[int, _Hand]) -> dict[int, tuple[int, bool]]:
    """The least points and validity of each hand left by a discard. The tables of the clusters a discard leaves
    alone are folded once for all the discards from one cluster."""
    game = whole.game
    others: dict[int, dict[tuple[int, int], tuple[int, _Chain]]] = {}  # cluster -> fold of every other cluster
    out = {}
    for face, hand in after.items():
        if hand.replaced is None:  # a joker went: every table changed
            out[face] = hand.value()
            continue
        number, fresh = hand.replaced
        if number not in others:
            others[number] = game.fold([t for n, t in enumerate(whole.tables) if n != number], whole.jokers)
        out[face] = hand.evaluate(game.fold(hand.tables[len(hand.tables) - fresh:], hand.jokers, others[number]))
    return out


def _preference(game: _Game, wild: int, face: int, points: int, valid: bool) -> tuple[bool, int, int, int]:
    """How :func:`best_discard` ranks a discard leaving ``points`` (``valid``): least first."""
    own = 0 if face == JOKER or face % 13 == wild else game.points(face)
    return not valid, points, -own, face


def pure_best_discard(faces: Sequence[int], rules: Rules, wild: int,
                      keep: int | None = None) -> tuple[int, Solution]:
    """The best card to discard from 14 and the solution of the 13 left (``keep`` as for :func:`discard_values`).

    The best discard leaves a valid declaration if any does, then the fewest points; among equals it is the card
    of most points (it would cost most if caught in hand), then the lowest face number.
    """
    game = _game(rules)
    whole, after = _discards(faces, rules, wild, keep)
    if not after:
        raise BadHandError("no card may be discarded")
    values = _values_after(whole, after)
    choice = min(values, key=lambda face: _preference(game, wild, face, *values[face]))
    return choice, after[choice].solution()


def pure_take_value(faces: Sequence[int], face: int, rules: Rules, wild: int) -> int:
    """The least points after taking ``face`` into 13 cards and making the best discard allowed (under R3 the
    card taken stays when ``keep_taken_discard``): what taking the open discard is worth."""
    _check(faces, HAND, wild)
    keep = face if rules.keep_taken_discard else None
    return min(pure_discard_values([*faces, face], rules, wild, keep).values())


# -- the same questions answered by the compiled solver (taash.rummy.core), the arrangement by the pure one -------


def _compiled_discards(faces: Sequence[int], rules: Rules, wild: int,
                       keep: int | None) -> tuple[tuple[int, int, bool], ...]:
    assert compiled is not None
    _check_drawn(faces, wild, keep)
    values: tuple[tuple[int, int, bool], ...] = compiled.discard_values(faces, wild, solver_rules(rules),
                                                                        -1 if keep is None else keep)
    return values


def compiled_hand_value(faces: Sequence[int], rules: Rules, wild: int) -> int:
    """:func:`pure_hand_value` by the compiled solver."""
    assert compiled is not None
    _check(faces, HAND, wild)
    points: int = compiled.hand_value(faces, wild, solver_rules(rules))[0]
    return points


def compiled_discard_values(faces: Sequence[int], rules: Rules, wild: int,
                            keep: int | None = None) -> dict[int, int]:
    """:func:`pure_discard_values` by the compiled solver."""
    return {face: points for face, points, _ in _compiled_discards(faces, rules, wild, keep)}


def compiled_best_discard(faces: Sequence[int], rules: Rules, wild: int,
                          keep: int | None = None) -> tuple[int, Solution]:
    """:func:`pure_best_discard`, each discard weighed by the compiled solver; the solution of the 13 cards left
    is the pure solver's, found as :func:`pure_best_discard` finds it (the same arrangement)."""
    values = _compiled_discards(faces, rules, wild, keep)
    if not values:
        raise BadHandError("no card may be discarded")
    game = _game(rules)
    choice = min(values, key=lambda value: _preference(game, wild, *value))[0]
    return choice, _Hand(game, faces, wild).without(choice).solution()


def compiled_take_value(faces: Sequence[int], face: int, rules: Rules, wild: int) -> int:
    """:func:`pure_take_value` by the compiled solver."""
    _check(faces, HAND, wild)
    keep = face if rules.keep_taken_discard else None
    return min(compiled_discard_values([*faces, face], rules, wild, keep).values())


def compiled_solve(faces: Sequence[int], rules: Rules, wild: int) -> Solution:
    """:func:`solve` by the compiled solver: the same points and validity, and a best arrangement, which among
    equally good ones may group the cards otherwise than the pure solver's."""
    assert compiled is not None
    _check(faces, HAND, wild)
    points, valid, shown = compiled.arrange(faces, wild, solver_rules(rules))
    printed = [f for f in faces if f == JOKER]
    wilds = [f for f in faces if f != JOKER and f % 13 == wild]
    naturals = [f for f in faces if f != JOKER and f % 13 != wild]
    if not shown:  # no arrangement meets the requirement: all 13 cards count
        return Solution(points, False, (), (*printed, *wilds), tuple(naturals))
    return _shown(rules, wild, printed, wilds, naturals, shown, points, valid)


def compiled_best_discard_shown(faces: Sequence[int], rules: Rules, wild: int,
                                keep: int | None = None) -> tuple[int, Solution]:
    """:func:`compiled_best_discard` (the same card) with the compiled solver's best arrangement of the 13 left
    (:func:`compiled_solve`)."""
    values = _compiled_discards(faces, rules, wild, keep)
    if not values:
        raise BadHandError("no card may be discarded")
    game = _game(rules)
    choice = min(values, key=lambda value: _preference(game, wild, *value))[0]
    return choice, compiled_solve(_without(faces, [choice]), rules, wild)


#: What a hand shown to a player is arranged by (the web server's): the compiled solver when it is in use (fast; a
#: best arrangement, maybe grouped otherwise than the pure solver's among equally good ones), else the pure one.
#: The engine's scoring, the protocol's hand check, the bots and records keep :func:`solve` and
#: :func:`best_discard`, whose arrangements never depend on the core.
shown_solve = solve if compiled is None else compiled_solve
shown_best_discard = pure_best_discard if compiled is None else compiled_best_discard_shown

#: The questions of value as the core in use answers them (:mod:`taash.rummy.core`; the same answers).
hand_value = pure_hand_value if compiled is None else compiled_hand_value
discard_values = pure_discard_values if compiled is None else compiled_discard_values
best_discard = pure_best_discard if compiled is None else compiled_best_discard
take_value = pure_take_value if compiled is None else compiled_take_value
