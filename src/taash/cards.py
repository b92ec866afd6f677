"""Playing cards as small ints and card sets as 52-bit masks.

A card is an ``int`` in ``0..51``: ``suit * 13 + rank`` with suits in the order spades, hearts, diamonds,
clubs (``s h d c``) and ranks ace to king (``A 2 .. 9 T J Q K``). Sorting card ints therefore gives the
canonical order of the interchange format (by suit, then rank). A set of cards is an ``int`` bitmask with
bit ``c`` set for card ``c``; union, intersection and difference are ``|``, ``&`` and ``& ~``.

>>> parse_card("Ts"), card_name(9), parse_card("10h")
(9, 'Ts', 22)
>>> names_of(mask_of([parse_card("Kd"), parse_card("2s")]))
['2s', 'Kd']
"""

from __future__ import annotations

from collections.abc import Iterable

from taash.i18n import _

RANKS = "A23456789TJQK"
SUITS = "shdc"
SUIT_SYMBOLS = "♠♥♦♣"

#: The full pack as a mask.
FULL_PACK = (1 << 52) - 1

#: ``SUIT_MASK[s]``: the thirteen cards of suit ``s``.
SUIT_MASK: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))


class CardError(ValueError):
    """A card or list of cards that cannot be read."""


def card(rank: str, suit: str) -> int:
    """The card of this rank character and suit character."""
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def parse_card(text: str) -> int:
    """Read a card such as ``"Ts"``, ``"10s"`` or ``"kd"``; raise :class:`CardError` if it is none."""
    if not isinstance(text, str):
        raise CardError(_("a card must be a string such as 'Ts', not {text}", text=repr(text)))
    t = text.strip()
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    if len(t) != 2:
        raise CardError(_("unknown card {text} (write rank then suit, such as 'Ts' or 'Kd')", text=repr(text)))
    r, s = t[0].upper(), t[1].lower()
    if r not in RANKS or s not in SUITS:
        raise CardError(_("unknown card {text} (ranks {ranks}, suits {suits})", text=repr(text), ranks=RANKS,
                          suits=SUITS))
    return SUITS.index(s) * 13 + RANKS.index(r)


def card_name(c: int) -> str:
    """The canonical two-character name of card ``c``."""
    return RANKS[c % 13] + SUITS[c // 13]


def card_symbol(c: int, ascii_only: bool = False) -> str:
    """A name for people: ``"T♠"``, or ``"Ts"`` when only ASCII can be shown."""
    if ascii_only:
        return card_name(c)
    return RANKS[c % 13] + SUIT_SYMBOLS[c // 13]


def mask_of(cards: Iterable[int]) -> int:
    """The mask of some cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards of a mask in canonical order."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def names_of(mask: int) -> list[str]:
    """Canonical names of the cards of a mask, in canonical order."""
    return [card_name(c) for c in cards_of(mask)]


def parse_cards(texts: object, what: str = "cards") -> list[int]:
    """Read a JSON list of card names, refusing anything else and any card named twice."""
    if not isinstance(texts, list):
        raise CardError(_("{what} must be a list of cards, not {kind}", what=what, kind=type(texts).__name__))
    out = [parse_card(t) for t in texts]
    if len(set(out)) != len(out):
        seen: set[int] = set()
        for c in out:
            if c in seen:
                raise CardError(_("{what}: card {card} is named twice", what=what, card=card_name(c)))
            seen.add(c)
    return out


def parse_mask(texts: object, what: str = "cards") -> int:
    """Read a JSON list of card names as a mask (see :func:`parse_cards`)."""
    return mask_of(parse_cards(texts, what))
