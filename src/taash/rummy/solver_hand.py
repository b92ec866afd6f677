"""A Rummy hand taken apart for the solver (:mod:`taash.rummy.solver`): its jokers and natural cards, the clusters of
cards that can share a meld, each with its search table (:mod:`taash.rummy.solver_tables`), and the solution shown
from the search's melds."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from taash.packs import JOKER
from taash.rummy.errors import BadHandError
from taash.rummy.melds import MeldKind, meld_kind
from taash.rummy.rules import Rules
from taash.rummy.solver_tables import _ACE_HIGH, _JOKER_SLOT, _KINDS, _PER_POINT, _SUITS_IN, Shape, Table, _Chain, _Game


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


def _check(faces: Sequence[int], size: int, wild: int) -> None:
    if len(faces) != size:
        raise BadHandError(f"a hand here is {size} cards, not {len(faces)}")
    if not 0 <= wild <= 12:
        raise BadHandError(f"the wild rank is 0 (ace) to 12 (king), not {wild}")
    for face in faces:
        if not 0 <= face <= JOKER:
            raise BadHandError(f"a card face is 0 to {JOKER}, not {face}")


def clusters_of(game: _Game, items: Sequence[int], wild: int, jokers: int) -> tuple[list[list[int]], list[int]]:
    """The clusters of linked cards among ``items`` (natural cards, and wild cards that may be themselves),
    and the natural cards linked to nothing, which never meld and always count.

    Within a suit, cards close enough in rank for a run form a segment (the ace also plays high, after the
    king); segments holding cards of one rank in different suits are joined when a set of that rank can be
    made: of three suits, or of two with a joker (a wild card as itself never is: in a set it would cover
    only jokers).
    """
    gap = game.gap(jokers)
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
    pairs_make_sets = min(jokers, game.meld_jokers) >= 1 and game.min_naturals <= 2
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
    alone_melds = game.min_naturals == 1 and min(jokers, game.meld_jokers) >= 2
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


def shape_of(cluster: Sequence[int], wild: int) -> tuple[Shape, tuple[int, ...]]:
    """A cluster's shape (cards suit by suit, the suits in a canonical order), and the hand's suit for each
    of the shape's."""
    suits: dict[int, list[tuple[int, bool]]] = {}
    for face in cluster:
        rank = face % 13
        suits.setdefault(face // 13, []).append((rank, rank == wild))
    patterns = sorted((tuple(sorted(ranks)), suit) for suit, ranks in suits.items())
    return tuple(p for p, _ in patterns), tuple(suit for _, suit in patterns)


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
        clusters, self.dead = clusters_of(game, items, wild, self.jokers)
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
        clusters, dead = clusters_of(self.game, _without(self.clusters[number], [face]), self.wild, self.jokers)
        other.dead = self.dead + dead
        for cluster in clusters:
            other.add_cluster(cluster)
        other.replaced = (number, len(clusters))
        return other

    def add_cluster(self, cluster: Sequence[int]) -> None:
        game = self.game
        shape, suits = shape_of(cluster, self.wild)
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
