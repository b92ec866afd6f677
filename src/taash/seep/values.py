"""Seep's capture values of the cards (ace 1, two to ten their face value, jack 11, queen 12, king 13), and card
sets by value: what captures, houses and sweeps are counted in. Cards themselves are :mod:`taash.cards`'s."""

from __future__ import annotations

#: Capture value of each card: ace 1, two to ten face value, jack 11, queen 12, king 13.
VALUE: tuple[int, ...] = tuple(c % 13 + 1 for c in range(52))

#: ``VALUE_MASK[v]``: the mask of the four cards of capture value ``v`` (index 0 is empty).
VALUE_MASK: tuple[int, ...] = (0, *(sum(1 << (s * 13 + v - 1) for s in range(4)) for v in range(1, 14)))


#: ``ROW_VALUE_SUM[row]``: the sum of the capture values of the cards of one suit's 13-bit ``row``.
ROW_VALUE_SUM: tuple[int, ...] = tuple(sum(r + 1 for r in range(13) if row >> r & 1) for row in range(1 << 13))


def mask_value_sum(mask: int) -> int:
    """The sum of the capture values of the cards of a mask (a suit row at a time)."""
    return (ROW_VALUE_SUM[mask & 0x1FFF] + ROW_VALUE_SUM[mask >> 13 & 0x1FFF] + ROW_VALUE_SUM[mask >> 26 & 0x1FFF]
            + ROW_VALUE_SUM[mask >> 39])
