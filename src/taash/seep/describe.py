"""Plays in plain words, for people: "Capture 2♠ 9♠ with J♣", "Build a king house from 8♥ 5♦"."""

from __future__ import annotations

from taash.cards import card_symbol, cards_of
from taash.seep.plays import BREAK, CAPTURE, ESTABLISH, THROW, House, Play

HOUSE_NAMES = {9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king"}


def cards_text(mask: int, ascii_only: bool = False) -> str:
    """Cards of a mask, by suit and rank, separated by spaces."""
    return " ".join(card_symbol(c, ascii_only) for c in cards_of(mask))


def describe_play(play: Play, houses: dict[int, House], ascii_only: bool = False) -> str:
    """One play in words; ``houses`` are the houses on the floor before it."""
    kind, c, value, broken, m = play
    card = card_symbol(c, ascii_only)
    loose = cards_text(m, ascii_only)
    if kind == THROW:
        return f"Throw {card}"
    if kind == CAPTURE:
        house = houses.get(c % 13 + 1)
        parts = []
        if house is not None:
            parts.append(f"the {HOUSE_NAMES[c % 13 + 1]} house")
        if loose:
            parts.append(loose)
        return f"Capture {' and '.join(parts)} with {card}"
    name = HOUSE_NAMES[value]
    with_loose = f" with {loose}" if loose else ""
    if kind == ESTABLISH:
        return f"Build a {name} house from {card}{with_loose}"
    if kind == BREAK:
        target = "into the" if value in houses else "into a new"
        return f"Break the {HOUSE_NAMES[broken]} house with {card} {target} {name} house{with_loose}"
    return f"Put {card}{with_loose} on the {name} house"
