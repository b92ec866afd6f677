"""Cards of games played with several packs and printed jokers (13-card Rummy: two or three packs, 2 to 6 jokers).

A *face* is what is printed on a card: ``0..51`` as in :mod:`taash.cards` (``suit * 13 + rank``), or
:data:`JOKER` (52) for a printed joker. Cards of different packs with equal faces are *twins*: equal for the rules,
distinct objects at the table. A card's *identity* is ``copy * FACES + face``: the ``copy``-th card of that face in
the pack (copies of a natural face count the packs; copies of the joker count the printed jokers).

Seep keeps its single pack as 52-bit masks (:mod:`taash.cards`); this module is for multi-pack games.

>>> pack = Pack(packs=2, jokers=4)
>>> len(pack.cards()), pack.copies(JOKER), pack.copies(parse_face("Ts"))
(108, 4, 2)
>>> face_name(face_of(pack.cards()[-1]))
'JK'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from taash.cards import RANKS, SUIT_SYMBOLS, SUITS, CardError, card_name
from taash.i18n import _

#: The face of a printed joker.
JOKER = 52
#: Number of faces: 52 natural cards and the printed joker.
FACES = 53
#: How a printed joker is written.
JOKER_NAME = "JK"
#: Each face's name, by face (the names of every card a table sends are looked up here).
_FACE_NAMES = (*(card_name(f) for f in range(JOKER)), JOKER_NAME)


def face_of(card: int) -> int:
    """The face of a card identity."""
    return card % FACES


def copy_of(card: int) -> int:
    """Which copy of its face a card identity is (0 for the first pack's, 1 for the second's, ...)."""
    return card // FACES


def face_name(face: int) -> str:
    """``"Ts"``, ``"Qh"``, or ``"JK"`` for a printed joker."""
    return _FACE_NAMES[face] if 0 <= face <= JOKER else card_name(face)


def face_symbol(face: int, ascii_only: bool = False) -> str:
    """A name for people: ``"T♠"``, ``"JK"``; ASCII names when ``ascii_only``."""
    if face == JOKER or ascii_only:
        return face_name(face)
    return RANKS[face % 13] + SUIT_SYMBOLS[face // 13]


def _short(text: str, limit: int = 20) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def parse_face(text: object) -> int:
    """Read a face: ``"Ts"``, ``"10s"``, ``"T♠"``, ``"kd"`` or ``"JK"``; raise :class:`CardError` otherwise."""
    if not isinstance(text, str):
        raise CardError(_("a card must be a string such as 'Ts' or 'JK', not {text}", text=_short(repr(text))))
    t = text.strip()
    if t.upper() == JOKER_NAME:
        return JOKER
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    if len(t) != 2:
        raise CardError(_("unknown card {text} (write rank then suit, such as 'Ts', or JK for a joker)",
                          text=_short(repr(text))))
    rank, suit = t[0].upper(), t[1]
    if suit in SUIT_SYMBOLS:
        suit = SUITS[SUIT_SYMBOLS.index(suit)]
    suit = suit.lower()
    if rank not in RANKS or suit not in SUITS:
        raise CardError(_("unknown card {text} (ranks {ranks}, suits {suits}, or JK)", text=_short(repr(text)),
                          ranks=RANKS, suits=SUITS))
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def parse_rank(text: object) -> int:
    """Read a rank alone (``"5"``, ``"T"``, ``"10"``, ``"a"``) as ``0..12`` (ace 0, king 12)."""
    if not isinstance(text, str):
        raise CardError(_("a rank must be a string such as '5' or 'A', not {text}", text=_short(repr(text))))
    t = text.strip().upper()
    if t == "10":
        t = "T"
    if len(t) != 1 or t not in RANKS:
        raise CardError(_("unknown rank {text} (one of {ranks})", text=_short(repr(text)), ranks=RANKS))
    return RANKS.index(t)


def rank_name(rank: int) -> str:
    """``0`` -> ``"A"``, ``9`` -> ``"T"``."""
    return RANKS[rank]


@dataclass(frozen=True, slots=True)
class Pack:
    """What is shuffled for one deal: ``packs`` standard packs and ``jokers`` printed jokers."""

    packs: int
    jokers: int

    def __post_init__(self) -> None:
        if not 1 <= self.packs <= 8 or not 0 <= self.jokers <= 16:
            raise ValueError(f"a pack is 1 to 8 standard packs and 0 to 16 jokers, not {self.packs}/{self.jokers}")

    def copies(self, face: int) -> int:
        """How many cards of this face the pack holds."""
        return self.jokers if face == JOKER else self.packs

    def cards(self) -> tuple[int, ...]:
        """Every card identity, pack by pack, then the printed jokers."""
        out = [copy * FACES + face for copy in range(self.packs) for face in range(52)]
        out += [copy * FACES + JOKER for copy in range(self.jokers)]
        return tuple(out)

    def __len__(self) -> int:
        return 52 * self.packs + self.jokers

    def identities(self, faces: Iterable[int]) -> list[int]:
        """Card identities for some faces, twins numbered in order of appearance; refuses more copies of a face
        than the pack holds."""
        seen = [0] * FACES
        out = []
        for face in faces:
            if seen[face] >= self.copies(face):
                raise CardError(_("{card} appears more often than the {copies} the pack holds", card=face_name(face),
                                  copies=self.copies(face)))
            out.append(seen[face] * FACES + face)
            seen[face] += 1
        return out
