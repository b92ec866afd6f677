"""Plays in plain words, for people: "Capture 2♠ 9♠ with J♣", "Build a king house from 8♥ 5♦"."""

from __future__ import annotations

import re

from taash.cards import card_symbol, cards_of, parse_card
from taash.seep.deal import Deal, DealScore, Phase, card_points
from taash.seep.plays import ADD, BREAK, CAPTURE, ESTABLISH, THROW, House, Play, apply_play, team_mask
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


def play_refusal(view: PlayerView, play: Play, ascii_only: bool = False) -> str | None:
    """Why the engine refuses ``play`` by the seat of ``view``, in a player's words (one line), or None when it is
    legal. Legality is the engine's (:meth:`PlayerView.legal_plays`); this only names the rule a refused play
    breaks, for a learner: "a card that can capture may not be thrown: Capture 4♥ 5♣ with 9♠"."""
    legal = view.legal_plays()
    if play in legal:
        return None
    kind, c = play[0], play[1]
    refused = no_play_reason(view, c, ascii_only)
    if refused is not None:
        return refused
    name = card_symbol(c, ascii_only)
    own = [p for p in legal if p[1] == c]
    captures = [p for p in own if p[0] == CAPTURE]
    if not view.history and view.bid and kind in (THROW, CAPTURE) and c % 13 + 1 != view.bid:
        return f"the bid play must use the bid: {name} is not a {HOUSE_NAMES[view.bid]}; build a " \
               f"{HOUSE_NAMES[view.bid]} house with it, or play a {HOUSE_NAMES[view.bid]}"
    if kind == THROW:
        return f"a card that can capture may not be thrown: {describe_play(captures[0], view.houses, ascii_only)}" \
            if captures else f"{name} cannot be thrown here"
    if kind == CAPTURE:
        if captures:
            return (f"a capture must take everything it can: "
                    f"{' or '.join(describe_play(p, view.houses, ascii_only) for p in captures[:2])}")
        return f"{name} captures nothing here: no house of its value and no loose cards adding up to {c % 13 + 1}"
    return _house_refusal(view, play, ascii_only)


def _house_refusal(view: PlayerView, play: Play, ascii_only: bool) -> str:
    """Why a play into a house (establish, add, break) is refused: the first rule of 5.3 to 5.6 it breaks."""
    kind, c, value, broken, m = play
    name = card_symbol(c, ascii_only)
    house = HOUSE_NAMES.get(value, str(value))
    if not view.history and view.bid and value != view.bid:
        return f"the bid play may build only a {HOUSE_NAMES[view.bid]} house (the bid)"
    if m & ~view.loose:
        return "a house is built with loose cards from the floor: those cards are not loose on the floor"
    if kind == BREAK:
        target = view.houses.get(broken)
        if target is None:
            return f"there is no {HOUSE_NAMES.get(broken, broken)} house to break"
        if target[1]:
            return "a cemented house can never be broken"
        if target[2] >> view.seat & 1:
            return "you own that house: add to it instead of breaking it"
        total = broken + c % 13 + 1
    else:
        total = c % 13 + 1 + sum(x % 13 + 1 for x in cards_of(m))
    if kind in (ESTABLISH, ADD) and c % 13 + 1 != value and total % value:
        return (f"{cards_text(m | 1 << c, ascii_only)} add up to {total}, not {value}: a house's cards add up to its "
                "value")
    partner_owns = kind == ADD and value in view.houses and view.houses[value][2] & team_mask(view.seat, view.players) \
        & ~(1 << view.seat)
    if not partner_owns and not view.hand & ~(1 << c) & VALUE_MASK[value]:
        return f"you build only for yourself: after the play you must still hold a {house} to take the {house} house"
    return f"that play of {name} into a {house} house is not legal here"


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


def deal_explained(deal: Deal, teams: tuple[str, str], ascii_only: bool = False) -> list[str]:
    """Where each team's points of a finished deal came from, one line a team: its point cards (each with its
    points), its sweeps, what the rules add (majority, Satthi), and its deal score. Everything named was captured
    face up, so the lines tell nobody anything hidden."""
    score = deal.score()
    lines = []
    for t in (0, 1):
        pile = deal.piles[t]
        counted = ", ".join(f"{card_symbol(c, ascii_only)} {card_points(deal.rules, 1 << c)}" for c in cards_of(pile)
                            if card_points(deal.rules, 1 << c))
        said = (f"{teams[t]}: {plural(pile.bit_count(), 'card')} taken, {points(score.card_points[t])} from the "
                f"cards" + (f" ({counted})" if counted else ""))
        sweeps = [pts for seat, _, pts in deal.sweeps if seat % 2 == t]
        if sweeps:
            said += f", {plural(len(sweeps), 'sweep')} (+{sum(sweeps)})"
        lines.append(f"{said}: {score.score[t]} in the deal")
    return lines + card_points_notes(deal.rules, score, teams)
