"""Seep's capture values of the cards (ace 1, two to ten their face value, jack 11, queen 12, king 13), and card
sets by value: what captures, houses and sweeps are counted in. Cards themselves are :mod:`taash.cards`'s."""

from __future__ import annotations

#: One suit's 13 cards as a row of bits (card ``13 * suit + rank``): bit ``rank`` of a row, ace first.
SUIT_ROW = (1 << 13) - 1
#: The cards of the first two suits (spades and hearts): the low half of a card mask.
TWO_SUITS = (1 << 26) - 1
#: Sets of values are masks too, bit ``v`` for value ``v``: every value from ace (1) to king (13)...
ALL_VALUES = ((1 << 14) - 1) & ~1
#: ...every sum from 0 to 13 (the sums a group of loose cards may add up to, the empty group's 0 included)...
SUMS_TO_13 = (1 << 14) - 1
#: ...and the values a house may have, 9 to 13 (rule 5.3).
HOUSE_VALUE_BITS = ALL_VALUES & ~((1 << 9) - 1)

#: Capture value of each card: ace 1, two to ten face value, jack 11, queen 12, king 13.
VALUE: tuple[int, ...] = tuple(c % 13 + 1 for c in range(52))

#: ``VALUE_MASK[v]``: the mask of the four cards of capture value ``v`` (index 0 is empty).
VALUE_MASK: tuple[int, ...] = (0, *(sum(1 << (s * 13 + v - 1) for s in range(4)) for v in range(1, 14)))


#: ``ROW_VALUE_SUM[row]``: the sum of the capture values of the cards of one suit's 13-bit ``row``.
ROW_VALUE_SUM: tuple[int, ...] = tuple(sum(r + 1 for r in range(13) if row >> r & 1) for row in range(1 << 13))


def mask_value_sum(mask: int) -> int:
    """The sum of the capture values of the cards of a mask (a suit row at a time)."""
    spades, hearts, diamonds, clubs = suit_rows(mask)
    return ROW_VALUE_SUM[spades] + ROW_VALUE_SUM[hearts] + ROW_VALUE_SUM[diamonds] + ROW_VALUE_SUM[clubs]


def suit_rows(cards: int) -> tuple[int, int, int, int]:
    """The cards of each suit (spades, hearts, diamonds, clubs) as a 13-bit row."""
    return cards & SUIT_ROW, cards >> 13 & SUIT_ROW, cards >> 26 & SUIT_ROW, cards >> 39


def values_row(cards: int) -> int:
    """The values of some cards as one suit's row (bit ``v - 1`` for value ``v``), whatever their suits."""
    return (cards | cards >> 13 | cards >> 26 | cards >> 39) & SUIT_ROW
