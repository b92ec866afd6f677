"""Groups of loose cards that add up to a value: the combinatorial core of capturing and building.

Suits never matter for sums, so every question is answered once for a *canonical floor*, the floor with the
same values where the cards of each value take the first suits (spades, then hearts, ...), and the answer is
carried over to the real cards. Canonical answers are kept for good (there are few canonical floors); answers
for real floors are kept in bounded caches.

A floor whose loose cards all differ in value (nearly every floor in play) is canonically the spades of those
values, and its answers are kept *spread over every suit*: ``loose & answer`` is then the real loose cards, so
one table serves every real floor with those values. That is what the hot path in :mod:`taash.seep.plays`
uses, through :func:`floor_info` and :func:`build_options`.

Sums above 13 are never needed (no capture, house or group is worth more than a king), so subsets are grown
only while their sum stays at most 13.
"""

from __future__ import annotations

from taash.cards import VALUE

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
        if not maximal_only or all(g & used for g in groups):
            out.add(used)
        for j in range(start, n):
            g = groups[j]
            if not g & used:
                grow(j + 1, used | g)

    grow(0, 0)
    return tuple(sorted(out))


def _options(by_sum: dict[int, Groups], what: int, v: int, t: int) -> Groups:
    """See :func:`build_options`; ``by_sum`` is the floor's :func:`_subsets` table."""
    groups = by_sum.get(t, _EMPTY)
    if what == MAXIMAL:
        return _unions(groups, True)
    if what == OPTIONAL or v == t:
        return _unions(groups, False)
    maximal = what == ESTABLISH_OPTIONS
    seen: dict[int, None] = {}
    for sub in by_sum.get(t - v, _EMPTY):
        for u in _unions(tuple([g for g in groups if not g & sub]), maximal):
            seen[sub | u] = None
    return tuple(seen)


# -- canonical floors, cached for good -----------------------------------------------------------------------

_canon_sums: dict[int, tuple[dict[int, Groups], int]] = {}
_canon_unions: dict[int, Groups] = {}


def _canonical_sums(floor: int) -> tuple[dict[int, Groups], int]:
    found = _canon_sums.get(floor)
    if found is None:
        found = _canon_sums[floor] = _subsets(floor)
    return found


def _canonical_unions(floor: int, value: int, maximal_only: bool) -> Groups:
    key = (floor << 4 | value) << 1 | maximal_only
    found = _canon_unions.get(key)
    if found is None:
        groups = _canonical_sums(floor)[0].get(value, _EMPTY)
        found = _canon_unions[key] = _unions(groups, maximal_only)
    return found


def canonical(loose: int) -> int:
    """The canonical floor of ``loose``: the same values, the cards of each value in the first suits."""
    a = loose & 0x1FFF
    b = loose >> 13 & 0x1FFF
    c = loose >> 26 & 0x1FFF
    d = loose >> 39
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


def _spread(spades: int) -> int:
    return spades | spades << 13 | spades << 26 | spades << 39


# -- real floors ---------------------------------------------------------------------------------------------


class _RealFloor:
    """A floor of loose cards with two of one value: its canonical floor and how to translate from it."""

    __slots__ = ("canon", "loose", "table")

    def __init__(self, loose: int):
        self.loose = loose
        self.canon = canonical(loose)
        self.table = _translation(loose)

    def real(self, groups: Groups) -> Groups:
        table = self.table
        return tuple([_translate(g, table) for g in groups])


_real_floors: dict[int, _RealFloor] = {}


def _real_floor(loose: int) -> _RealFloor:
    found = _real_floors.get(loose)
    if found is None:
        if len(_real_floors) > _CACHE_LIMIT:
            _real_floors.clear()
        found = _real_floors[loose] = _RealFloor(loose)
    return found


def _is_value_floor(loose: int) -> bool:
    return canonical(loose) == (loose | loose >> 13 | loose >> 26 | loose >> 39) & 0x1FFF


def floor_sums(loose: int) -> tuple[dict[int, Groups], int]:
    """Every non-empty subset of ``loose`` adding up to at most 13, keyed by its sum; and the mask of the sums
    reached (bit ``s`` set when some subset adds up to ``s``). Not cached: for checks, not for the hot path."""
    return _subsets(loose)


def subsets_by_sum(loose: int) -> dict[int, Groups]:
    """Every non-empty subset of ``loose`` whose values add up to at most 13, keyed by that sum."""
    return _subsets(loose)[0]


def subsets_summing(loose: int, total: int) -> Groups:
    """Every non-empty subset of ``loose`` adding up to ``total`` (at most 13)."""
    f = _real_floor(loose)
    return f.real(_canonical_sums(f.canon)[0].get(total, _EMPTY))


def maximal_groups(loose: int, value: int) -> Groups:
    """Every set of loose cards that splits into disjoint groups adding up to ``value`` and leaves no such group.

    These are the loose cards a capture with a card of ``value`` may take (rule 5.1) and the auto-cementing
    choices of a new house (R2). ``(0,)`` when no group adds up to ``value``; otherwise 0 is never among them.
    """
    f = _real_floor(loose)
    return f.real(_canonical_unions(f.canon, value, True))


def optional_groups(loose: int, value: int) -> Groups:
    """Every set of loose cards that splits into disjoint groups adding up to ``value``, the empty set included.

    These are the extra groups a player may put onto a house he adds to (R3).
    """
    f = _real_floor(loose)
    return f.real(_canonical_unions(f.canon, value, False))


# -- the hot path --------------------------------------------------------------------------------------------


class _DupCaps(dict[int, Groups]):
    """Capture groups of a floor with two loose cards of one value, per value, worked out when first asked."""

    __slots__ = ("loose",)

    def __init__(self, loose: int):
        super().__init__()
        self.loose = loose

    def __missing__(self, value: int) -> Groups:
        groups = self[value] = maximal_groups(self.loose, value)
        return groups


#: What the hot path needs of a non-empty floor:
#:
#: * whether it is a value floor (no two loose cards of one value);
#: * the mask of sums reached (bit ``s`` when some loose cards add up to ``s``);
#: * for each set ``T`` of house values (bit ``t - 9`` for value ``t``), the values ``v`` of cards that, with
#:   some loose cards, add up to a value in ``T``;
#: * the mask of values for which some loose cards add up to the value (a card of it captures loose cards);
#: * the capture groups of each value, such that ``loose & group`` is the real loose cards taken.
FloorInfo = tuple[bool, int, tuple[int, ...], int, "list[Groups] | _DupCaps"]
_value_info: dict[int, FloorInfo] = {}
_dup_info: dict[int, FloorInfo] = {}


_reaches: dict[int, tuple[int, tuple[int, ...], int]] = {}


def _reach(floor: int) -> tuple[int, tuple[int, ...], int]:
    """Of a canonical floor: the sums reached, the builder values per target set, the capturing values."""
    found = _reaches.get(floor)
    if found is not None:
        return found
    bits = _canonical_sums(floor)[1]
    per_target = []  # for t = 9..13: values v with t - v a sum reached
    for t in range(9, 14):
        vals = 0
        for sm in range(1, t):
            if bits >> sm & 1:
                vals |= 1 << (t - sm)
        per_target.append(vals)
    builders = [0] * 32
    for targets in range(1, 32):
        low = targets & -targets
        builders[targets] = builders[targets ^ low] | per_target[low.bit_length() - 1]
    found = _reaches[floor] = (bits, tuple(builders), bits & 0x3FFE)
    return found


def floor_info(loose: int) -> FloorInfo:
    """The :data:`FloorInfo` of a non-empty floor; value floors are keyed by their spades."""
    fold = (loose | loose >> 13 | loose >> 26 | loose >> 39) & 0x1FFF
    if fold.bit_count() == loose.bit_count():
        found = _value_info.get(fold)
        if found is None:
            caps = [_ONLY_EMPTY] + [
                tuple([_spread(g) for g in _canonical_unions(fold, v, True)]) for v in range(1, 14)
            ]
            found = _value_info[fold] = (True, *_reach(fold), caps)
        return found
    found = _dup_info.get(loose)
    if found is None:
        if len(_dup_info) > _CACHE_LIMIT:
            _dup_info.clear()
        found = _dup_info[loose] = (False, *_reach(canonical(loose)), _DupCaps(loose))
    return found


def option_key(floor: int, what: int, v: int, t: int) -> int:
    """The cache key of :func:`build_options`."""
    return ((floor << 2 | what) << 4 | v) << 4 | t


_value_options: dict[int, Groups] = {}
_canon_options: dict[int, Groups] = {}
_dup_options: dict[int, Groups] = {}


def build_options(floor: int, what: int, v: int, t: int, by_value: bool) -> Groups:
    """Loose cards that may go into a house of value ``t`` along with a card of value ``v``.

    ``what`` is :data:`ESTABLISH_OPTIONS` (loose cards adding up to ``t - v`` with the card, then every
    maximal choice of further groups of ``t``: R2), :data:`ADD_OPTIONS` (the same with optional further groups:
    R3; ``v == t`` for the card alone), or :data:`MAXIMAL` / :data:`OPTIONAL` (groups of ``t`` alone, ``v``
    ignored). With ``by_value``, ``floor`` is the spades of a value floor and the answers are spread over every
    suit; else ``floor`` is the real loose cards. Either way ``loose & answer`` is the real cards.
    """
    key = option_key(floor, what, v, t)
    if by_value:
        found = _value_options.get(key)
        if found is None:
            plain = _options(_canonical_sums(floor)[0], what, v, t)
            found = _value_options[key] = tuple([_spread(g) for g in plain])
        return found
    found = _dup_options.get(key)
    if found is None:
        f = _real_floor(floor)
        ckey = option_key(f.canon, what, v, t)
        canon_found = _canon_options.get(ckey)
        if canon_found is None:
            canon_found = _canon_options[ckey] = _options(_canonical_sums(f.canon)[0], what, v, t)
        found = f.real(canon_found)
        if len(_dup_options) > _CACHE_LIMIT:
            _dup_options.clear()
        _dup_options[key] = found
    return found


def splits_into(cards: int, value: int) -> bool:
    """Whether ``cards`` split wholly into two or more disjoint groups each adding up to ``value``."""
    groups = subsets_by_sum(cards).get(value, _EMPTY)

    def cover(rest: int) -> bool:
        if not rest:
            return True
        low = rest & -rest
        return any(g & low and g & rest == g and cover(rest ^ g) for g in groups)

    return cards not in groups and cover(cards)


__all__ = [
    "ADD_OPTIONS",
    "ESTABLISH_OPTIONS",
    "MAXIMAL",
    "OPTIONAL",
    "FloorInfo",
    "Groups",
    "build_options",
    "canonical",
    "floor_info",
    "floor_sums",
    "maximal_groups",
    "optional_groups",
    "splits_into",
    "subsets_by_sum",
    "subsets_summing",
]
