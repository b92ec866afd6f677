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

from typing import Final

from taash.cards import VALUE, VALUE_MASK, cards_of, mask_value_sum
from taash.seep.groups import (
    ADD_OPTIONS,
    ESTABLISH_OPTIONS,
    MAXIMAL,
    OPTIONAL,
    Groups,
    _dup_options,
    _value_info,
    _value_options,
    build_options,
    floor_info,
    floor_sums,
    maximal_groups,
    optional_groups,
    subsets_summing,
)

CAPTURE: Final = 0
THROW: Final = 1
ESTABLISH: Final = 2
ADD: Final = 3
BREAK: Final = 4
KIND_NAMES: Final = ("capture", "throw", "establish", "add", "break")

Play = tuple[int, int, int, int, int]
House = tuple[int, bool, int]

_ONLY_EMPTY: Final[tuple[int, ...]] = (0,)
_NO_CAPTURES: Final[list[Groups]] = [_ONLY_EMPTY] * 14
_NO_BUILDERS: Final[tuple[int, ...]] = (0,) * 32
_NO_SUMS: Final[tuple[dict[int, tuple[int, ...]], int]] = ({}, 0)


def team_mask(seat: int, players: int) -> int:
    """Mask of the seats of ``seat``'s team (the seat alone in the 2-player game)."""
    return (1 << seat) | (1 << ((seat + 2) % 4)) if players == 4 else 1 << seat


def legal_plays(
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
    its value.

    This is the engine's hot path. Sets of values are bit masks (bit ``v`` for value ``v``), so the values that
    can build anything at all are found with a few integer operations before any loop, and a card that can
    only capture or be thrown costs one table look-up.
    """
    # Bit v of ``present``: a card of value v is in hand; of ``twice``: two or more are.
    a = hand & 0x1FFF
    b = hand >> 13 & 0x1FFF
    c3 = hand >> 26 & 0x1FFF
    d = hand >> 39
    present = (a | b | c3 | d) << 1
    twice = (a & b | a & c3 | a & d | b & c3 | b & d | c3 & d) << 1
    if bid:
        return _bid_plays(hand, loose, bid, twice, restricted)
    if loose:
        floor = (loose | loose >> 13 | loose >> 26 | loose >> 39) & 0x1FFF
        if floor.bit_count() == loose.bit_count():  # no two loose cards share a value: a value floor
            by_value, reach, builders, capturing, caps_of = _value_info.get(floor) or floor_info(loose)
        else:
            floor = loose
            by_value, reach, builders, capturing, caps_of = floor_info(loose)
    else:
        floor = 0
        by_value, reach, builders, capturing, caps_of = False, 0, _NO_BUILDERS, 0, _NO_CAPTURES
    house_bits = 0  # values of the houses on the floor
    build_vals = 0  # values whose cards may do more than capture or be thrown
    est_ok = add_ok = add_same_ok = new_ok = merge_or_new = breakable = 0
    if houses or reach:
        me = 1 << seat
        partner = (1 << ((seat + 2) % 4)) if players == 4 else 0
        owned = 0  # values of the houses this seat owns
        partners = 0  # values of the houses the partner owns and this seat does not
        breakable = 0  # values of the ordinary houses this seat may break
        for w, (_, cemented, owners) in houses.items():
            house_bits |= 1 << w
            if owners & me:
                owned |= 1 << w
            else:
                if owners & partner:
                    partners |= 1 << w
                if not cemented:
                    breakable |= 1 << w
        locked = 0  # values whose first house another player must build (rule 7.2)
        if restricted:
            for c in cards_of(restricted & ~hand):
                locked |= 1 << VALUE[c]
        new_ok = present & ~house_bits & ~locked & 0x3E00  # a new house of this value may be made
        est_ok = new_ok if not max_houses or len(houses) < max_houses else 0
        add_ok = house_bits & (partners | present)  # a card of another value may go into this house
        add_same_ok = house_bits & (partners | twice)  # a card of this value may go into this house
        build_vals = builders[(est_ok | add_ok) >> 9] | est_ok & twice | add_same_ok
        merge_or_new = house_bits & add_ok | new_ok
        if breakable:
            m = breakable
            while m:
                low = m & -m
                m ^= low
                build_vals |= merge_or_new >> (low.bit_length() - 1)
                if break_with_loose:
                    build_vals |= 0x3FFF << low.bit_length() & 0x3E00
        build_vals &= present & ~(owned & ~twice) & ~1  # R4: an owner keeps a card of his house
    out: list[Play] = []
    mine_restricted = hand & restricted
    free = hand & ~mine_restricted
    # Capture, else throw (5.1, 5.2): every card has one or the other.
    append = out.append
    x = (~(capturing | house_bits) & 0x3FFE) >> 1
    throws = free & (x | x << 13 | x << 26 | x << 39)
    cm = free ^ throws
    while cm:
        cl = cm & -cm
        cm ^= cl
        c = cl.bit_length() - 1
        for u in caps_of[VALUE[c]]:
            append((CAPTURE, c, 0, 0, loose & u))
    while throws:
        cl = throws & -throws
        throws ^= cl
        append((THROW, cl.bit_length() - 1, 0, 0, 0))
    if mine_restricted:
        for c in cards_of(mine_restricted):
            v = VALUE[c]
            caps = maximal_groups(loose, v) if loose else _ONLY_EMPTY
            out.extend(_restricted_plays(c, v, 0, caps, bool(twice >> v & 1), bool(est_ok >> v & 1)))
    if not build_vals:
        return out
    # The four loops below repeat one shape (each card of a value, each option) on purpose: a helper function
    # would cost a call per option on the engine's hottest path.
    opt_cache = _value_options if by_value else _dup_options
    # Establish a new house of value t: a card plus loose cards adding up to t, then auto-cement (R2).
    targets = est_ok
    while targets:
        low = targets & -targets
        targets ^= low
        t = low.bit_length() - 1
        vals = builders[1 << (t - 9)] & build_vals
        while vals:
            vl = vals & -vals
            vals ^= vl
            v = vl.bit_length() - 1
            options = opt_cache.get(((floor << 2) << 4 | v) << 4 | t) or build_options(
                floor, ESTABLISH_OPTIONS, v, t, by_value)
            cm = free & VALUE_MASK[v]
            while cm:
                cl = cm & -cm
                cm ^= cl
                c = cl.bit_length() - 1
                for m in options:
                    out.append((ESTABLISH, c, t, 0, loose & m))
    # A house cemented at once: a card onto loose groups of its own value, holding another.
    vals = est_ok & twice & build_vals
    while vals and loose:
        vl = vals & -vals
        vals ^= vl
        v = vl.bit_length() - 1
        caps = caps_of[v]
        if not caps[0]:
            continue
        cm = free & VALUE_MASK[v]
        while cm:
            cl = cm & -cm
            cm ^= cl
            c = cl.bit_length() - 1
            for u in caps:
                out.append((ESTABLISH, c, v, 0, loose & u))
    if not house_bits:
        return out
    # Add to the house of value w (5.5 items 1 and 2), with optional extra groups (R3).
    targets = add_ok | add_same_ok
    while targets:
        low = targets & -targets
        targets ^= low
        w = low.bit_length() - 1
        vals = (builders[1 << (w - 9)] if add_ok & low else 0) | (low if add_same_ok & low else 0)
        vals &= build_vals
        while vals:
            vl = vals & -vals
            vals ^= vl
            v = vl.bit_length() - 1
            options = (opt_cache.get(((floor << 2 | 1) << 4 | v) << 4 | w) or build_options(
                floor, ADD_OPTIONS, v, w, by_value)) if loose else _ONLY_EMPTY
            cm = free & VALUE_MASK[v]
            while cm:
                cl = cm & -cm
                cm ^= cl
                c = cl.bit_length() - 1
                for m in options:
                    out.append((ADD, c, w, 0, loose & m))
    # Break the ordinary house of value h into h + v (5.4): a new house (R2), or a merge (5.5 item 3, R3).
    hs = breakable
    while hs:
        low = hs & -hs
        hs ^= low
        h = low.bit_length() - 1
        vals = merge_or_new >> h & build_vals
        while vals:
            vl = vals & -vals
            vals ^= vl
            v = vl.bit_length() - 1
            n = h + v
            what = OPTIONAL if house_bits >> n & 1 else MAXIMAL
            options = (opt_cache.get(((floor << 2 | what) << 4) << 4 | n) or build_options(
                floor, what, 0, n, by_value)) if loose else _ONLY_EMPTY
            cm = free & VALUE_MASK[v]
            while cm:
                cl = cm & -cm
                cm ^= cl
                c = cl.bit_length() - 1
                for m in options:
                    out.append((BREAK, c, n, h, loose & m))
        if break_with_loose:
            vals = present & build_vals & (0x3FFF << (h + 1)) & 0x3E00
            while vals:
                vl = vals & -vals
                vals ^= vl
                v = vl.bit_length() - 1
                for c in cards_of(free & VALUE_MASK[v]):
                    out.extend(_break_with_loose(c, v, h, loose, house_bits, add_same_ok, new_ok, twice))
    return out


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


def _bid_plays(hand: int, loose: int, bid: int, twice: int, restricted: int) -> list[Play]:
    """The bid play (5.8): establish a house of the bid value, or capture or throw a card of that value."""
    out: list[Play] = []
    sums, reach = floor_sums(loose) if loose else _NO_SUMS
    locked = 0
    for c in cards_of(restricted & ~hand):
        locked |= 1 << VALUE[c]
    may_build = not locked >> bid & 1
    bid_caps = maximal_groups(loose, bid) if loose else _ONLY_EMPTY
    for c in cards_of(hand):
        v = VALUE[c]
        if restricted >> c & 1:
            out.extend(_restricted_plays(c, v, bid, bid_caps, bool(twice >> v & 1), may_build))
            continue
        if v == bid:
            if bid_caps[0]:
                out.extend((CAPTURE, c, 0, 0, u) for u in bid_caps)
            else:
                out.append((THROW, c, 0, 0, 0))
            if may_build and twice >> v & 1 and bid_caps[0]:
                out.extend((ESTABLISH, c, v, 0, u) for u in bid_caps)
        elif v < bid and may_build and reach >> (bid - v) & 1:
            seen: set[int] = set()
            for s in sums[bid - v]:
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
        if not (owners & team_mask(seat, players) & ~me and not owners & me):
            owners |= me
        houses[value] = (cards | m | bit, True, owners)
        return loose ^ m, 0
    cards = houses.pop(broken)[0] | m | bit
    target = houses.get(value)
    if target is None:
        houses[value] = (cards, mask_value_sum(cards) != value, me)
    else:
        owners = target[2]
        if not (owners & team_mask(seat, players) & ~me and not owners & me):
            owners |= me
        houses[value] = (target[0] | cards, True, owners)
    return loose ^ m, 0
