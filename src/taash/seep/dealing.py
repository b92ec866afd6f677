"""Dealing a Seep pack: a shuffled pack, the values a bidder may bid, and why a deck would be dealt again (sections 4.2,
4.3 and 7.1 of ``shared/seep-rules.md``)."""

from __future__ import annotations

import random

from taash.cards import FULL_PACK, mask_of, parse_card
from taash.i18n import N_, _
from taash.seep.rules import HOUSE_VALUES, Rules
from taash.seep.values import VALUE, VALUE_MASK

_PACK = range(52)


def bids_in(hand: int) -> list[int]:
    """The values a bidder holding ``hand`` may bid: 9 to 13, of cards he holds (section 4.3)."""
    return [v for v in HOUSE_VALUES if hand & VALUE_MASK[v]]


def shuffled_pack(rng: random.Random) -> list[int]:
    """The 52 cards in a random order drawn from ``rng``: every card gets a random key and the pack is sorted by
    the keys. Every order is equally likely, as with ``rng.shuffle``, at a fraction of its cost in Python."""
    keys = [rng.random() for _ in range(52)]
    return sorted(_PACK, key=keys.__getitem__)


#: Why a deck would not be dealt as it is: a message and its values, said in English by :func:`deal_problem` (a
#: match keeps the reason with its redeals, and saves write it) and in the language spoken by :func:`deal_refusal`.
Reason = tuple[str, dict[str, str]]


def deal_problem(rules: Rules, players: int, deck: list[int]) -> str | None:
    """Why this deck order would have been redealt (or is no pack), or None when it is a valid deal."""
    reason = _deal_reason(rules, deck)
    return None if reason is None else reason[0].format(**reason[1])


def deal_refusal(rules: Rules, players: int, deck: list[int]) -> str | None:
    """:func:`deal_problem`'s reason as a sentence said in the language spoken, for a record's refusal."""
    reason = _deal_reason(rules, deck)
    return None if reason is None else _(reason[0], **reason[1])


def _deal_reason(rules: Rules, deck: list[int]) -> Reason | None:
    if len(deck) != 52 or mask_of(deck) != FULL_PACK:
        return N_("the deck must hold each of the 52 cards once"), {}
    return _redeal_reason(rules, deck)


def _redeal_problem(rules: Rules, deck: list[int]) -> str | None:
    """Why a pack in this order would be dealt again (4.2, 7.1), or None."""
    reason = _redeal_reason(rules, deck)
    return None if reason is None else reason[0].format(**reason[1])


def _redeal_reason(rules: Rules, deck: list[int]) -> Reason | None:
    if VALUE[deck[0]] < 9 and VALUE[deck[1]] < 9 and VALUE[deck[2]] < 9 and VALUE[deck[3]] < 9:
        return N_("the bidder's first four cards hold no card above 8, so the deal would have been redone"), {}
    for name in rules.floor_redeal_cards:
        if parse_card(name) in deck[4:8]:
            return N_("the first floor cards hold {card}, so the deal would have been redone"), {"card": name}
    return None
