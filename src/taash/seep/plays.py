"""Plays and their generation: every legal play of one player on one floor (rules section 5).

A play is a plain tuple ``(kind, card, house, broken, loose)``, cheap to make, hash and compare, that together
with the position fixes the outcome exactly (protocol section "Play"):

* ``kind``: :data:`CAPTURE`, :data:`THROW`, :data:`ESTABLISH`, :data:`ADD` or :data:`BREAK`;
* ``card``: the card played from hand;
* ``house``: the value of the house played into (0 for a capture or throw);
* ``broken``: the value of the ordinary house broken (0 unless ``kind`` is :data:`BREAK`);
* ``loose``: the mask of loose cards taken (capture) or put into the house (every other kind but throw).

A house on the floor is a tuple ``(cards, cemented, owners)``: a card mask, a flag, and a mask of owner seats.
"""

from __future__ import annotations

from typing import Final, TypeVar

from taash.cards import cards_of
from taash.seep.core import compiled
from taash.seep.groups import (
    ADD_OPTIONS,
    ESTABLISH_OPTIONS,
    MAXIMAL,
    OPTIONAL,
    FloorInfo,
    _sums_reached,
    floor_info,
    maximal_groups,
    optional_groups,
    subsets_adding_up,
    subsets_summing,
)
from taash.seep.values import (
    ALL_VALUES,
    HOUSE_VALUE_BITS,
    SUMS_TO_13,
    VALUE,
    VALUE_MASK,
    mask_value_sum,
    suit_rows,
)

CAPTURE: Final = 0
THROW: Final = 1
ESTABLISH: Final = 2
ADD: Final = 3
BREAK: Final = 4
KIND_NAMES: Final = ("capture", "throw", "establish", "add", "break")

Play = tuple[int, int, int, int, int]
T = TypeVar("T")
House = tuple[int, bool, int]

_ONLY_EMPTY: Final[tuple[int, ...]] = (0,)
#: ``_TARGET[t]``: the set of house values (bit ``t - 9``) holding only ``t``, an index of a floor's builders.
_TARGET: Final[tuple[int, ...]] = (0,) * 9 + (1, 2, 4, 8, 16)


def _subsets_table(items: tuple[T, ...]) -> tuple[tuple[T, ...], ...]:
    """``table[m]``: the items at the bits set in ``m``, in order, for every ``m`` below ``2 ** len(items)``."""
    table: list[tuple[T, ...]] = [()]
    for item in items:
        table += [(*t, item) for t in table]
    return tuple(table)


#: ``_BITS_OF[m]``: the bits set in ``m`` (below ``2**14``: a set of values), in increasing order.
_BITS_OF: Final[tuple[tuple[int, ...], ...]] = _subsets_table(tuple(range(14)))
#: ``_CARDS_IN[m]``: the cards of ``m``, a mask of cards of one value, in order.
_CARDS_IN: Final[dict[int, tuple[int, ...]]] = {
    sum(1 << c for c in cs): cs
    for v in range(13)
    for cs in (tuple(13 * s + v for s in range(4) if q >> s & 1) for q in range(16))
}


def team_mask(seat: int, players: int) -> int:
    """Mask of the seats of ``seat``'s team (the seat alone in the 2-player game)."""
    return (1 << seat) | (1 << ((seat + 2) % 4)) if players == 4 else 1 << seat


def pure_legal_plays(
    hand: int,
    seat: int,
    players: int,
    loose: int,
    houses: dict[int, House],
    bid: int = 0,
    max_houses: int = 0,
    break_with_loose: bool = False,
    restricted: int = 0,
) -> list[Play]:
    """Every legal play of ``seat`` holding ``hand``, each once.

    ``bid`` is the bid value when this is the bidder's bid play (rule 5.8). ``restricted`` is the mask of
    Qasim's restricted cards not yet released (rule 7.2): such a card in ``hand`` may only be thrown or build a
    house of its own value, and while another player holds one, this player may not build the first house of
    its value. ``players`` (2 or 4) only documents the call: the houses' owners are all the plays need to know
    of the other seats (the 2-player game has no seats 2 and 3, so no partner ever owns a house there).
    """
    if bid:
        return _bid_plays(hand, loose, bid, restricted)
    house_bits, uncemented, owned_by = house_summary(houses)
    return plays_of(hand, seat, loose, floor_info(loose), house_bits, uncemented, owned_by, max_houses,
                    break_with_loose, restricted)


#: :func:`pure_legal_plays` as the core in use answers it: the compiled core's (the same plays in the same order)
#: when it is built, else the pure function itself (see :mod:`taash.seep.core`).
legal_plays = pure_legal_plays if compiled is None else compiled.legal_plays


def house_summary(houses: dict[int, House]) -> tuple[int, int, list[int]]:
    """What :func:`plays_of` needs of the houses: the mask of their values, the mask of the values of those not
    cemented, and for each seat the mask of the values of the houses it owns."""
    house_bits = uncemented = 0
    owned_by = [0, 0, 0, 0]
    for w, (_, cemented, owners) in houses.items():
        bit = 1 << w
        house_bits |= bit
        if not cemented:
            uncemented |= bit
        for s in _BITS_OF[owners]:
            owned_by[s] |= bit
    return house_bits, uncemented, owned_by


def plays_of(
    hand: int,
    seat: int,
    loose: int,
    floor_facts: FloorInfo,
    house_bits: int,
    uncemented: int,
    owned_by: list[int],
    max_houses: int,
    break_with_loose: bool,
    restricted: int,
) -> list[Play]:
    """:func:`legal_plays` after the bid play, with the floor's facts (``floor_info(loose)``) and the houses given
    by their :func:`house_summary`: :class:`taash.seep.deal.Deal` keeps both up to date play by play.

    This is the engine's hot path. Sets of values are bit masks (bit ``v`` for value ``v``), so the values that
    can build anything at all are found with a few integer operations before any loop, and a card that can
    only capture or be thrown costs one table look-up.
    """
    # Bit v of ``present``: a card of value v is in hand; of ``twice``: two or more are.
    spades, hearts, diamonds, clubs = suit_rows(hand)
    present = (spades | hearts | diamonds | clubs) << 1
    twice = (spades & hearts | (spades | hearts) & (diamonds | clubs) | diamonds & clubs) << 1
    _, reach, builders, caps_of, options_of = floor_facts  # FloorInfo: values, sums, builders, caps, options
    free = hand & ~restricted if restricted else hand
    if house_bits:
        owned = owned_by[seat]  # values of the houses this seat owns
        not_owned = ~owned
        # ...that the partner owns and he does not (seats 2 and 3 own nothing in the 2-player game)
        partners = owned_by[seat ^ 2] & not_owned
        breakable = uncemented & not_owned  # values of the ordinary houses this seat may break
        # A new house of this value may be made (unless another player must build the first: rule 7.2).
        new_ok = present & (HOUSE_VALUE_BITS ^ house_bits)
        if restricted:
            new_ok &= ~_locked(restricted & ~hand)
        est_ok = new_ok if not max_houses or house_bits.bit_count() < max_houses else 0
        add_ok = house_bits & (partners | present)  # a card of another value may go into this house
        add_same_ok = house_bits & (partners | twice)  # a card of this value may go into this house
        build_vals = builders[(est_ok | add_ok) >> 9] | est_ok & twice | add_same_ok
        merge_or_new = add_ok | new_ok
        if breakable:
            for h in _BITS_OF[breakable]:
                build_vals |= merge_or_new >> h
                if break_with_loose:
                    build_vals |= SUMS_TO_13 << (h + 1) & HOUSE_VALUE_BITS
        build_vals &= present & (not_owned | twice)  # R4: an owner keeps a card of his house
    elif reach:
        add_ok = add_same_ok = breakable = 0
        new_ok = est_ok = present & HOUSE_VALUE_BITS
        if restricted:
            new_ok = est_ok = new_ok & ~_locked(restricted & ~hand)
        build_vals = (builders[est_ok >> 9] | est_ok & twice) & present
    else:
        build_vals = est_ok = 0
    out: list[Play] = []
    # Capture, else throw (5.1, 5.2): every card has one or the other.
    takers = reach | house_bits  # the values whose cards capture: every other card is thrown
    for v in _BITS_OF[present & takers]:
        caps = caps_of[v]
        for c in _CARDS_IN[free & VALUE_MASK[v]]:
            for u in caps:
                out.append((CAPTURE, c, 0, 0, loose & u))
    # The throws, a suit at a time, from a table of the throws of each set of cards of one suit.
    thrown = (~takers & ALL_VALUES) >> 1  # the values that take nothing, as a row of one suit
    if restricted:
        spades, hearts, diamonds, clubs = suit_rows(free)
    out += _SPADE_THROWS[spades & thrown]
    out += _HEART_THROWS[hearts & thrown]
    out += _DIAMOND_THROWS[diamonds & thrown]
    out += _CLUB_THROWS[clubs & thrown]
    if restricted and hand & restricted:
        for c in cards_of(hand & restricted):
            v = VALUE[c]
            caps = maximal_groups(loose, v) if loose else _ONLY_EMPTY
            out.extend(_restricted_plays(c, v, 0, caps, bool(twice >> v & 1), bool(est_ok >> v & 1)))
    if not build_vals:
        return out
    # The four loops below repeat one shape (each card of a value, each option) on purpose: a helper function
    # would cost a call per option on the engine's hottest path.
    # Establish a new house of value t: a card plus loose cards adding up to t, then auto-cement (R2).
    for t in _BITS_OF[est_ok]:
        for v in _BITS_OF[builders[_TARGET[t]] & build_vals]:
            options = options_of[ESTABLISH_OPTIONS, v, t]
            for c in _CARDS_IN[free & VALUE_MASK[v]]:
                for m in options:
                    out.append((ESTABLISH, c, t, 0, loose & m))
    # A house cemented at once: a card onto loose groups of its own value, holding another.
    if est_ok & twice and loose:
        for v in _BITS_OF[est_ok & twice & build_vals]:
            caps = caps_of[v]
            if not caps[0]:
                continue
            for c in _CARDS_IN[free & VALUE_MASK[v]]:
                for u in caps:
                    out.append((ESTABLISH, c, v, 0, loose & u))
    if not house_bits:
        return out
    # Add to the house of value w (5.5 items 1 and 2), with optional extra groups (R3).
    for w in _BITS_OF[add_ok]:  # add_same_ok is part of add_ok (who holds two of a value holds one)
        vals = builders[_TARGET[w]] | add_same_ok & 1 << w
        for v in _BITS_OF[vals & build_vals]:
            options = options_of[ADD_OPTIONS, v, w]
            for c in _CARDS_IN[free & VALUE_MASK[v]]:
                for m in options:
                    out.append((ADD, c, w, 0, loose & m))
    # Break the ordinary house of value h into h + v (5.4): a new house (R2), or a merge (5.5 item 3, R3).
    if not breakable:
        return out
    for h in _BITS_OF[breakable]:
        for v in _BITS_OF[merge_or_new >> h & build_vals]:
            n = h + v
            what = OPTIONAL if house_bits >> n & 1 else MAXIMAL
            options = options_of[what, 0, n]
            for c in _CARDS_IN[free & VALUE_MASK[v]]:
                for m in options:
                    out.append((BREAK, c, n, h, loose & m))
        if break_with_loose:
            for v in _BITS_OF[present & build_vals & (SUMS_TO_13 << (h + 1)) & HOUSE_VALUE_BITS]:
                for c in _CARDS_IN[free & VALUE_MASK[v]]:
                    out.extend(_break_with_loose(c, v, h, loose, house_bits, add_same_ok, new_ok, twice))
    return out


#: ``_SPADE_THROWS[row]`` (and the others): the throws of the cards ``row`` (a 13-bit mask) of one suit, in order.
_SPADE_THROWS, _HEART_THROWS, _DIAMOND_THROWS, _CLUB_THROWS = (
    _subsets_table(tuple((THROW, 13 * suit + rank, 0, 0, 0) for rank in range(13))) for suit in range(4))


def _locked(others: int) -> int:
    """Values whose first house another player must build: those of restricted cards in ``others`` (7.2)."""
    locked = 0
    for c in cards_of(others):
        locked |= 1 << VALUE[c]
    return locked


def _break_with_loose(
    c: int, v: int, h: int, loose: int, house_bits: int, add_same_ok: int,
    new_ok: int, twice: int,
) -> list[Play]:
    """Variant 7.4: loose cards break the ordinary h-house into v, cemented by the card c of value v."""
    if house_bits >> v & 1:
        if not add_same_ok >> v & 1:
            return []
        extras = optional_groups
    elif new_ok >> v & 1 and twice >> v & 1:
        extras = maximal_groups
    else:
        return []
    plays: list[Play] = []
    seen: set[int] = set()
    for s in subsets_summing(loose, v - h):
        for u in extras(loose ^ s, v):
            if s | u not in seen:
                seen.add(s | u)
                plays.append((BREAK, c, v, h, s | u))
    return plays


def _bid_plays(hand: int, loose: int, bid: int, restricted: int) -> list[Play]:
    """The bid play (5.8): establish a house of the bid value, or capture or throw a card of that value.

    The floor's groups come from its :data:`FloorInfo`, as for every other play; with Qasim's restricted cards
    in the game, :func:`_restricted_bid_plays` answers.
    """
    if restricted or not loose:
        return _restricted_bid_plays(hand, loose, bid, restricted)
    facts = floor_info(loose)
    reach, caps_of, options_of = facts.sums, facts.caps, facts.options
    caps = caps_of[bid]
    holds_two = (hand & VALUE_MASK[bid]).bit_count() > 1
    out: list[Play] = []
    for c in cards_of(hand):
        v = VALUE[c]
        if v == bid:
            if caps[0]:
                out.extend([(CAPTURE, c, 0, 0, loose & u) for u in caps])
                if holds_two:
                    out.extend([(ESTABLISH, c, v, 0, loose & u) for u in caps])
            else:
                out.append((THROW, c, 0, 0, 0))
        elif v < bid and reach >> (bid - v) & 1:
            out.extend([(ESTABLISH, c, bid, 0, loose & m) for m in options_of[ESTABLISH_OPTIONS, v, bid]])
    return out


def _restricted_bid_plays(hand: int, loose: int, bid: int, restricted: int) -> list[Play]:
    """:func:`_bid_plays` worked out card by card, with Qasim's restricted cards (7.2)."""
    out: list[Play] = []
    reach = _sums_reached(loose)
    locked = _locked(restricted & ~hand) if restricted else 0
    may_build = not locked >> bid & 1
    bid_caps = maximal_groups(loose, bid) if loose else _ONLY_EMPTY
    for c in cards_of(hand):
        v = VALUE[c]
        if restricted >> c & 1:
            out.extend(_restricted_plays(c, v, bid, bid_caps, (hand & VALUE_MASK[v]).bit_count() > 1, may_build))
            continue
        if v == bid:
            if bid_caps[0]:
                out.extend([(CAPTURE, c, 0, 0, u) for u in bid_caps])
            else:
                out.append((THROW, c, 0, 0, 0))
            if may_build and (hand & VALUE_MASK[v]).bit_count() > 1 and bid_caps[0]:
                out.extend([(ESTABLISH, c, v, 0, u) for u in bid_caps])
        elif v < bid and may_build and reach >> (bid - v) & 1:
            seen: set[int] = set()
            for s in subsets_adding_up(loose, bid - v):
                for u in maximal_groups(loose ^ s, bid):
                    if s | u not in seen:
                        seen.add(s | u)
                        out.append((ESTABLISH, c, bid, 0, s | u))
    return out


def _restricted_plays(c: int, v: int, bid: int, caps: tuple[int, ...], holds_two: bool, may_build: bool) -> list[Play]:
    """Plays of a Qasim-restricted card before its house is built: a throw, or a house of its own value."""
    if bid and v != bid:
        return []
    plays: list[Play] = [(THROW, c, 0, 0, 0)]
    if may_build and holds_two:
        plays.extend((ESTABLISH, c, v, 0, u) for u in caps if u)
    return plays


def apply_play(play: Play, seat: int, players: int, loose: int, houses: dict[int, House]) -> tuple[int, int]:
    """Make ``play`` on the floor: changes ``houses`` in place; returns ``(loose after, cards captured)``.

    The played card is included in the cards captured; nothing is captured unless the play is a capture.
    """
    kind, c, value, broken, m = play
    me = 1 << seat
    bit = 1 << c
    if kind == CAPTURE:
        taken = m | bit
        house = houses.pop(VALUE[c], None)
        if house is not None:
            taken |= house[0]
        return loose ^ m, taken
    if kind == THROW:
        return loose | bit, 0
    if kind == ESTABLISH:
        cards = m | bit
        houses[value] = (cards, mask_value_sum(cards) != value, me)
        return loose ^ m, 0
    if kind == ADD:
        cards, _, owners = houses[value]
        houses[value] = (cards | m | bit, True, joined_owners(owners, seat, players))
        return loose ^ m, 0
    cards = houses.pop(broken)[0] | m | bit
    target = houses.get(value)
    if target is None:
        houses[value] = (cards, mask_value_sum(cards) != value, me)
    else:
        houses[value] = (target[0] | cards, True, joined_owners(target[2], seat, players))
    return loose ^ m, 0


def joined_owners(owners: int, seat: int, players: int) -> int:
    """The owners of a house after ``seat`` adds to it: he joins them unless his partner owns it already."""
    me = 1 << seat
    if owners & team_mask(seat, players) & ~me and not owners & me:
        return owners
    return owners | me
