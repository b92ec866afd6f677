"""Plays in plain words, for people: "Capture 2♠ 9♠ with J♣", "Build a king house from 8♥ 5♦"."""

from __future__ import annotations

import re

from taash.cards import card_symbol, cards_of, parse_card
from taash.seep.deal import DealScore, Phase, card_points
from taash.seep.plays import BREAK, CAPTURE, ESTABLISH, THROW, House, Play, apply_play
from taash.seep.rules import Rules
from taash.seep.values import VALUE_MASK
from taash.seep.view import PlayerView

HOUSE_NAMES = {9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king"}
#: A card's name inside the engine's words (``9s``, ``Td``).
_CARD_NAME = re.compile(r"\b[2-9TJQKA][shdc]\b")


def plural(n: int, word: str) -> str:
    """``1 point``, ``2 points``, ``0 sweeps``."""
    return f"{n} {word}{'s' * (n != 1)}"


def points(n: int, short: bool = False) -> str:
    """``1 point``, ``11 points``; ``short``: ``1 pt``, ``11 pts``."""
    return plural(n, "pt" if short else "point")


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


def describe_outcome(view: PlayerView, play: Play, ascii_only: bool = False) -> str:
    """A play of the seat of ``view`` with what it brings: "Capture 2♠ 9♠ with J♣: +11 points",
    "Build a king house from 8♥ 5♦ (you keep K♠)"."""
    words = describe_play(play, view.houses, ascii_only)
    houses = dict(view.houses)
    loose, taken = apply_play(play, view.seat, view.players, view.loose, houses)
    kind, c, value = play[0], play[1], play[2]
    if kind == CAPTURE:
        text = f"{words}: +{points(card_points(view.rules, taken))}"
        if not loose and not houses:
            sweep = view.rules.sweep_value(c, view.plays_made)
            text += f", a sweep (+{sweep})" if sweep else ", a sweep (scores nothing on the last play)"
        return text
    if kind == THROW:
        return words
    _, cemented, owners = houses[value]
    notes = ["cemented"] if cemented else []
    keep = view.hand & ~(1 << c) & VALUE_MASK[value]
    if owners >> view.seat & 1:
        notes.append(f"you keep {cards_text(keep, ascii_only)}")
    else:
        notes.append("your partner's house")
    return f"{words} ({', '.join(notes)})"


def no_play_reason(view: PlayerView, card: int, ascii_only: bool = False) -> str | None:
    """Why ``card`` in the hand of the seat of ``view`` has no legal play now, or None when it has one."""
    name = card_symbol(card, ascii_only)
    if not view.hand >> card & 1:
        return f"{name} is not in your hand"
    if view.phase is Phase.OVER:
        return "the deal is over"
    if view.phase is Phase.BID:
        return "the bid comes first" if view.to_move == view.seat else "the bidder is still bidding"
    if view.to_move != view.seat:
        return "it is not your turn"
    if any(p[1] == card for p in view.legal_plays()):
        return None
    if not view.history and view.bid:
        bid = HOUSE_NAMES[view.bid]
        return (f"the bid play must use the bid: build a {bid} house, or capture with (or throw) a {bid}; "
                f"{name} can do none of these")
    return f"no legal play uses {name} here"


def redeal_reason(problem: str, ascii_only: bool = False) -> str:
    """Why the pack was dealt again, from the engine's reason: "the first floor cards hold 9♠" (its cards shown
    as everywhere else, its "so the deal would have been redone" left out)."""
    reason = problem.split(", so ")[0]
    return _CARD_NAME.sub(lambda m: card_symbol(parse_card(m.group()), ascii_only), reason)


def card_points_notes(rules: Rules, score: DealScore, teams: tuple[str, str]) -> list[str]:
    """What a finished deal's card points hold besides the points of the cards, one line each: "A Satthi: Us
    took all 30 card points, which score 60", "Them +4 card points for the most cards (28 of 52)"."""
    notes = []
    for t in (0, 1):
        if rules.satthi_points and score.card_points[t] == rules.satthi_points and not score.card_points[1 - t]:
            notes.append(f"A Satthi: {teams[t]} took all {rules.total_card_points} card points, which score "
                         f"{rules.satthi_points}")
        elif rules.majority_points and score.cards_taken[t] > 26:
            notes.append(f"{teams[t]} +{rules.majority_points} card points for the most cards "
                         f"({score.cards_taken[t]} of 52)")
    return notes
