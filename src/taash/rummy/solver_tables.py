"""The search tables of the Rummy hand solver (:mod:`taash.rummy.solver` tells how the search works): for one set
of rules, the table of each cluster's shape and each suit's pattern (jokers used and progress towards the
declaration requirement -> the most weight covered and the melds covering it), kept across hands, and the fold of a
hand's clusters' tables within its jokers."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations, pairwise, product
from typing import TypeVar

from taash.rummy.melds import MeldKind
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
