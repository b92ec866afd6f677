"""The groups of loose cards that add up to a value, answered once per *canonical floor* and carried over to the
real cards (:mod:`taash.seep.groups` builds its hot path on these): the plain computations on one floor, the
canonical floors' answers kept for good, and a real floor's answers translated from its canonical floor's.
"""

from __future__ import annotations

from taash.seep.values import VALUE, suit_rows, values_row

Groups = tuple[int, ...]

_MAX = 13
_CACHE_LIMIT = 300_000
_EMPTY: Groups = ()
_ONLY_EMPTY: Groups = (0,)

#: What :func:`build_options` is asked for.
ESTABLISH_OPTIONS = 0
ADD_OPTIONS = 1
MAXIMAL = 2
OPTIONAL = 3


# -- plain computations on one floor (no caching) ----------------------------------------------------------


def _subsets(loose: int) -> tuple[dict[int, Groups], int]:
    pairs: list[tuple[int, int]] = [(0, 0)]
    m = loose
    while m:
        low = m & -m
        m ^= low
        v = VALUE[low.bit_length() - 1]
        pairs += [(sub | low, s + v) for sub, s in pairs if s + v <= _MAX]
    table: dict[int, list[int]] = {}
    for sub, s in pairs:
        if sub:
            table.setdefault(s, []).append(sub)
    bits = 0
    for s in table:
        bits |= 1 << s
    return {s: tuple(subs) for s, subs in table.items()}, bits


def _unions(groups: Groups, maximal_only: bool) -> Groups:
    """Unions of disjoint selections of ``groups``; with ``maximal_only``, those no group is disjoint from."""
    if not groups:
        return _ONLY_EMPTY
    if len(groups) == 1:
        return groups if maximal_only else (0, groups[0])
    out: set[int] = set()
    n = len(groups)

    def grow(start: int, used: int) -> None:
        if not maximal_only or all(map(used.__and__, groups)):
            out.add(used)
        for j in range(start, n):
            g = groups[j]
            if not g & used:
                grow(j + 1, used | g)

    grow(0, 0)
    return tuple(sorted(out))


def _options(floor: int, what: int, v: int, t: int) -> Groups:
    """See :func:`build_options`; ``floor`` is a canonical floor (or the spades of a value floor).

    Built from the groups of smaller floors, which many floors share and which are kept for good: the loose
    cards adding up to ``t - v`` (only cards up to that value count), and for each of them the unions of the
    groups of ``t`` among the rest.
    """
    if what >= MAXIMAL or v == t:
        return _canonical_unions(floor & _UP_TO[t], t, what == MAXIMAL)
    maximal = what == ESTABLISH_OPTIONS
    k = t - v
    subs = _summing(floor & _UP_TO[k], k)
    rest = floor & _UP_TO[t]
    seen: dict[int, None] = {}
    for sub in subs:
        key = (rest & ~sub, t, maximal)
        unions = _canon_unions.get(key)
        if unions is None:  # the groups of the rest are those of the floor that miss ``sub``
            groups = _summing(rest, t)
            unions = _canon_unions[key] = _unions(tuple([g for g in groups if not g & sub]), maximal)
        if len(subs) == 1:  # no two options can be the same
            return tuple([sub | u for u in unions])
        for u in unions:
            seen[sub | u] = None
    return tuple(seen)


# -- canonical floors, cached for good -----------------------------------------------------------------------

#: ``_UP_TO[v]``: the cards of values 1 to ``v``.
_UP_TO: tuple[int, ...] = tuple(sum(1 << (13 * s + r) for s in range(4) for r in range(v)) for v in range(14))
#: ``_SPADES_UP_TO[v]``: the spades of values 1 to ``v`` (the first row of ``_UP_TO[v]``).
_SPADES_UP_TO: tuple[int, ...] = tuple((1 << v) - 1 for v in range(14))
_canon_summing: dict[tuple[int, int], Groups] = {}
_canon_unions: dict[tuple[int, int, bool], Groups] = {}


def _summing(floor: int, total: int) -> Groups:
    """The non-empty subsets of some loose cards ``floor`` adding up to ``total``, in increasing order.

    The same as ``_subsets(floor)[0][total]``, grown only from the cards of values up to ``total`` and only
    while the sum stays at most ``total``.
    """
    key = (floor, total)
    found = _canon_summing.get(key)
    if found is None:
        found = _canon_summing[key] = subsets_adding_up(floor, total)
    return found


def subsets_adding_up(loose: int, total: int) -> Groups:
    """Every non-empty subset of ``loose`` adding up to ``total``, in increasing order (not cached)."""
    pairs: list[tuple[int, int]] = [(0, 0)]
    m = loose & _UP_TO[total] if total < 14 else loose
    while m:
        low = m & -m
        m ^= low
        v = VALUE[low.bit_length() - 1]
        pairs += [(sub | low, s + v) for sub, s in pairs if s + v <= total]
    return tuple([sub for sub, s in pairs if s == total])


def _canonical_unions(floor: int, value: int, maximal_only: bool) -> Groups:
    """:func:`_unions` of the groups of ``floor`` (any loose cards, most often a canonical floor) adding up to
    ``value``."""
    key = (floor, value, maximal_only)
    found = _canon_unions.get(key)
    if found is None:
        found = _canon_unions[key] = _unions(_summing(floor, value), maximal_only)
    return found


def canonical(loose: int) -> int:
    """The canonical floor of ``loose``: the same values, the cards of each value in the first suits."""
    a, b, c, d = suit_rows(loose)
    once = a | b | c | d
    twice = a & b | a & c | a & d | b & c | b & d | c & d
    thrice = a & b & c | a & b & d | a & c & d | b & c & d
    return once | twice << 13 | thrice << 26 | (a & b & c & d) << 39


def _translation(loose: int) -> dict[int, int]:
    """Card bit of the canonical floor -> card bit of ``loose``."""
    out: dict[int, int] = {}
    seen = [0] * 13
    m = loose
    while m:
        low = m & -m
        m ^= low
        rank = (low.bit_length() - 1) % 13
        out[1 << (13 * seen[rank] + rank)] = low
        seen[rank] += 1
    return out


def _translate(mask: int, table: dict[int, int]) -> int:
    real = 0
    while mask:
        low = mask & -mask
        mask ^= low
        real |= table[low]
    return real


#: ``row * _SPREAD`` is a row of one suit (13 bits) copied into every suit: ``row | row << 13 | ...``, in one step.
_SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39


def _spread(spades: int) -> int:
    return spades * _SPREAD


# -- real floors ---------------------------------------------------------------------------------------------


class _RealFloor:
    """A floor of loose cards with two of one value: its canonical floor and how to translate from it.

    The card of row ``k`` and rank ``r`` of the canonical floor is the ``k``-th card of rank ``r`` of the real
    floor (in suit order), so ``copies[k]``, the real floor's ``k``-th cards of every rank, translates a whole
    row at once (what :func:`_translation` and :func:`_translate` do a card at a time). The one kept in a
    floor's facts (:func:`floor_info`) has every suit of the values held once in ``copies[0]``: its answers then
    serve every floor that differs only in the suits of those, through ``loose & answer``.
    """

    __slots__ = ("canon", "copies", "loose")

    def __init__(self, loose: int):
        self.loose = loose
        self.canon = canonical(loose)
        a, b, c, d = suit_rows(loose)
        ab = a | b
        abc = ab | c
        two = a & b | ab & c  # ranks with at least two cards in the first three suits
        three = a & b & c
        self.copies = (
            a | (b & ~a) << 13 | (c & ~ab) << 26 | (d & ~abc) << 39,
            (a & b) << 13 | (c & (a ^ b)) << 26 | (d & abc & ~two) << 39,
            (a & b & c) << 26 | (d & two & ~three) << 39,
            (d & three) << 39,
        )

    def real(self, groups: Groups) -> Groups:
        first, second, third, fourth = self.copies
        out = []
        for g in groups:
            row1, row2, row3, row4 = suit_rows(g)
            out.append(first & _spread(row1) | second & _spread(row2) | third & _spread(row3)
                       | fourth & _spread(row4))
        return tuple(out)


def subsets_by_sum(loose: int) -> dict[int, Groups]:
    """Every non-empty subset of ``loose`` whose values add up to at most 13, keyed by that sum."""
    return _subsets(loose)[0]


def subsets_summing(loose: int, total: int) -> Groups:
    """Every non-empty subset of ``loose`` adding up to ``total`` (at most 13)."""
    f = _RealFloor(loose)
    return f.real(_summing(f.canon, total))


def maximal_groups(loose: int, value: int) -> Groups:
    """Every set of loose cards that splits into disjoint groups adding up to ``value`` and leaves no such group.

    These are the loose cards a capture with a card of ``value`` may take (rule 5.1) and the auto-cementing
    choices of a new house (R2). ``(0,)`` when no group adds up to ``value``; otherwise 0 is never among them.
    """
    fold = values_row(loose)
    if fold.bit_count() == loose.bit_count():  # a value floor: its canonical floor is its spades
        return tuple([loose & g * _SPREAD
                      for g in _canonical_unions(fold & ((1 << value) - 1), value, True)])
    f = _RealFloor(loose)
    return f.real(_canonical_unions(f.canon, value, True))


def optional_groups(loose: int, value: int) -> Groups:
    """Every set of loose cards that splits into disjoint groups adding up to ``value``, the empty set included.

    These are the extra groups a player may put onto a house he adds to (R3).
    """
    f = _RealFloor(loose)
    return f.real(_canonical_unions(f.canon, value, False))
