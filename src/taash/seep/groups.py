"""Groups of loose cards that add up to a value: the combinatorial core of capturing and building.

Suits never matter for sums, so every question is answered once for a *canonical floor*, the floor with the
same values where the cards of each value take the first suits (spades, then hearts, ...), and the answer is
carried over to the real cards. Canonical answers are kept for good (there are few canonical floors); answers
for real floors are kept in bounded caches.

A floor whose loose cards all differ in value (nearly every floor in play) is canonically the spades of those
values, and its answers are kept *spread over every suit*: ``loose & answer`` is then the real loose cards, so
one table serves every real floor with those values. That is what the hot path in :mod:`taash.seep.plays`
uses, through :func:`floor_info` and :func:`build_options` (this module: the hot path); the groups of one floor,
canonical and real, are worked out in :mod:`taash.seep.canonical_groups` (named here too).

Sums above 13 are never needed (no capture, house or group is worth more than a king), so subsets are grown
only while their sum stays at most 13.
"""

from __future__ import annotations

from typing import NamedTuple

from taash.seep.canonical_groups import (
    _CACHE_LIMIT,
    _EMPTY,
    _ONLY_EMPTY,
    _SPADES_UP_TO,
    _SPREAD,
    _UP_TO,
    ADD_OPTIONS,
    ESTABLISH_OPTIONS,
    MAXIMAL,
    OPTIONAL,
    Groups,
    _canonical_unions,
    _options,
    _RealFloor,
    _spread,
    canonical,
    maximal_groups,
    optional_groups,
    subsets_adding_up,
    subsets_by_sum,
    subsets_summing,
)
from taash.seep.values import ALL_VALUES, SUMS_TO_13, VALUE, mask_value_sum, suit_rows, values_row

# -- the hot path --------------------------------------------------------------------------------------------


class _DupCaps(dict[int, Groups]):
    """Capture groups of a floor with two loose cards of one value, per value, worked out when first asked
    from the canonical floor's (which every floor with the same values shares)."""

    __slots__ = ("floor",)

    def __init__(self, floor: _RealFloor):
        super().__init__()
        self.floor = floor

    def __missing__(self, value: int) -> Groups:
        f = self.floor
        low = f.canon & _UP_TO[value]  # only cards up to ``value`` can be in a group of it
        # The cards up to ``value`` are most often a value floor (its canonical floor has one row) even when the
        # whole floor is not: then the spread groups serve.
        groups = f.real(_canonical_unions(low, value, True)) if low >> 13 else _spread_caps(low, value)
        self[value] = groups
        return groups


class _FloorOptions(dict[tuple[int, int, int], Groups]):
    """The :func:`build_options` answers of one value floor, keyed by ``(what, v, t)`` as :func:`build_options`
    is asked (``v`` 0 for :data:`MAXIMAL` and :data:`OPTIONAL`), worked out when first asked."""

    __slots__ = ("spades",)

    def __init__(self, spades: int):
        super().__init__()
        self.spades = spades

    def __missing__(self, key: tuple[int, int, int]) -> Groups:
        what, v, t = key
        found = self[key] = _value_floor_options(self.spades & _SPADES_UP_TO[t], what, v, t)
        return found


class _DupFloorOptions(dict[tuple[int, int, int], Groups]):
    """:class:`_FloorOptions` of a floor with two loose cards of one value: the real loose cards, worked out
    from the canonical floor's answers (:func:`_real_floor_options`)."""

    __slots__ = ("floor",)

    def __init__(self, floor: _RealFloor):
        super().__init__()
        self.floor = floor

    def __missing__(self, key: tuple[int, int, int]) -> Groups:
        what, v, t = key
        found = self[key] = _real_floor_options(self.floor, what, v, t)
        return found


_spread_caps_cache: dict[tuple[int, int], Groups] = {}


def _spread_caps(spades: int, value: int) -> Groups:
    """Maximal groups of ``value`` of the value floor ``spades``, spread over every suit."""
    key = (spades, value)
    found = _spread_caps_cache.get(key)
    if found is None:
        found = _spread_caps_cache[key] = tuple([_spread(g) for g in _canonical_unions(spades, value, True)])
    return found


class FloorInfo(NamedTuple):
    """What generating plays needs of a floor of loose cards, worked out once for every floor of the same values
    (for a floor with two cards of one value: of the same repeated cards and the same single values).

    Every answer in ``caps`` and ``options`` is a mask spread over every suit where the floor's cards may lie:
    ``loose & answer`` is the real loose cards.
    """

    #: For a value floor (no two loose cards of one value), its values as a row of one suit (bit ``v - 1`` for
    #: value ``v``); -1 for any other floor.
    values: int
    #: The sums reached: bit ``s`` when some loose cards add up to ``s``. These are also the values whose cards
    #: capture loose cards.
    sums: int
    #: ``builders[T]``, for each set ``T`` of house values (bit ``t - 9`` for value ``t``): the values ``v`` of
    #: cards that, with some loose cards, add up to a value in ``T``.
    builders: tuple[int, ...]
    #: ``caps[v]``: the groups a card of value ``v`` may capture (:func:`maximal_groups`), worked out when first
    #: asked for; ``(0,)`` when it captures nothing.
    caps: dict[int, Groups]
    #: ``options[what, v, t]``: the floor's :func:`build_options` answers, worked out when first asked for.
    options: dict[tuple[int, int, int], Groups]


class _ValueCaps(dict[int, Groups]):
    """The capture groups of a value floor, per value, worked out when first asked for."""

    __slots__ = ("spades",)

    def __init__(self, spades: int):
        super().__init__()
        self.spades = spades

    def __missing__(self, value: int) -> Groups:
        found = self[value] = _spread_caps(self.spades & _SPADES_UP_TO[value], value)
        return found


class _EmptyFloorOptions(dict[tuple[int, int, int], Groups]):
    """The build options of an empty floor: only the card alone, whatever is asked."""

    def __missing__(self, key: tuple[int, int, int]) -> Groups:
        return _ONLY_EMPTY


_EMPTY_FLOOR = FloorInfo(0, 0, (0,) * 32, _ValueCaps(0), _EmptyFloorOptions())


#: The FloorInfo of each value floor seen, by its values (the empty floor's from the start).
_value_info: dict[int, FloorInfo] = {0: _EMPTY_FLOOR}
_dup_info: dict[tuple[int, int], FloorInfo] = {}


def _sums_reached(loose: int) -> int:
    """The mask of sums from 1 to 13 that some non-empty set of ``loose`` adds up to."""
    reached = 1
    m = loose
    while m:
        low = m & -m
        m ^= low
        reached |= reached << VALUE[low.bit_length() - 1] & SUMS_TO_13
    return reached & ALL_VALUES


def _builders(bits: int) -> tuple[int, ...]:
    """For the sums reached ``bits``: the builder values per set of target house values (see FloorInfo)."""
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
    return tuple(builders)


def floor_info(loose: int) -> FloorInfo:
    """The :data:`FloorInfo` of a floor; value floors are keyed by their values, so that every floor of the
    same values shares one (a deal reads ``_value_info`` itself after a throw)."""
    fold = values_row(loose)
    if fold.bit_count() == loose.bit_count():
        found = _value_info.get(fold)
        if found is None:
            sums = _sums_reached(fold)
            found = _value_info[fold] = FloorInfo(fold, sums, _builders(sums), _ValueCaps(fold), _FloorOptions(fold))
        return found
    # A floor with two loose cards of one value: its facts are shared by every floor with the same cards of the
    # values it holds more than once and the same values it holds once, whatever their suits (their answers are
    # spread over every suit, as a value floor's are, and ``loose & answer`` picks the one real card).
    a, b, c, d = suit_rows(loose)
    once = fold & ~(a & b | (a | b) & (c | d) | c & d)  # the values of one loose card
    key = (loose & ~_spread(once), once)
    found = _dup_info.get(key)
    if found is None:
        if len(_dup_info) > _CACHE_LIMIT:
            _dup_info.clear()
        f = _RealFloor(loose)
        first, second, third, fourth = f.copies
        f.copies = (first | once * _SPREAD, second, third, fourth)  # a single value's card: spread over the suits
        sums = _sums_reached(f.canon)
        found = _dup_info[key] = FloorInfo(-1, sums, _builders(sums), _DupCaps(f), _DupFloorOptions(f))
    return found


#: :func:`build_options`' answers by ``(floor, what, v, t)`` (``floor`` cut down to the cards of values up to ``t``).
_value_options: dict[tuple[int, int, int, int], Groups] = {}
_canon_options: dict[tuple[int, int, int, int], Groups] = {}


def build_options(floor: int, what: int, v: int, t: int, by_value: bool) -> Groups:
    """Loose cards that may go into a house of value ``t`` along with a card of value ``v``.

    ``what`` is :data:`ESTABLISH_OPTIONS` (loose cards adding up to ``t - v`` with the card, then every
    maximal choice of further groups of ``t``: R2), :data:`ADD_OPTIONS` (the same with optional further groups:
    R3; ``v == t`` for the card alone), or :data:`MAXIMAL` / :data:`OPTIONAL` (groups of ``t`` alone, ``v``
    ignored). With ``by_value``, ``floor`` is the spades of a value floor and the answers are spread over every
    suit; else ``floor`` is the real loose cards. Either way ``loose & answer`` is the real cards.

    Only loose cards of values up to ``t`` can be in any answer, so the answers are worked out and kept for
    the floor of those alone (which has fewer cards, is shared by more floors, and is often a value floor when
    the whole floor is not); the order of the answers does not change.
    """
    if by_value:
        return _value_floor_options(floor & _SPADES_UP_TO[t], what, v, t)
    return _real_floor_options(_RealFloor(floor), what, v, t)


def _real_floor_options(f: _RealFloor, what: int, v: int, t: int) -> Groups:
    """:func:`build_options` of the real floor ``f``, from the answers of its canonical floor cut down to the cards
    of values up to ``t`` (cutting down and making canonical commute: both go rank by rank)."""
    low = f.canon & _UP_TO[t]
    if not low >> 13:  # the cards up to t are a value floor (most often so): the spread answers serve
        return _value_floor_options(low, what, v, t)
    key = (low, what, v, t)
    found = _canon_options.get(key)
    if found is None:
        found = _canon_options[key] = _options(low, what, v, t)
    return f.real(found)


def _value_floor_options(spades: int, what: int, v: int, t: int) -> Groups:
    """:func:`build_options` of the value floor ``spades`` (of values up to ``t`` only), spread."""
    key = (spades, what, v, t)
    found = _value_options.get(key)
    if found is None:
        found = _value_options[key] = tuple([g * _SPREAD for g in _options(spades, what, v, t)])
    return found


def sweep_values(loose: int) -> int:
    """The values whose card, capturing, would take every one of these loose cards: bit ``v`` for value ``v``.

    With no house on the floor, a card of such a value sweeps it.
    """
    if not loose:
        return 0
    total = mask_value_sum(loose)
    found = 0
    for v in range(values_row(loose).bit_length(), 14):
        if total % v == 0 and loose in maximal_groups(loose, v):
            found |= 1 << v
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
    "maximal_groups",
    "optional_groups",
    "splits_into",
    "subsets_adding_up",
    "subsets_by_sum",
    "subsets_summing",
    "sweep_values",
]
