"""Plays in plain words, for people: "Capture 2♠ 9♠ with J♣", "Build a king house from 8♥ 5♦".

Each sentence is a message of the catalogue (:mod:`taash.i18n`), said in the language spoken when it is made and
able to be said again in another (a server's reader's)."""

from __future__ import annotations

import re

from taash.cards import card_symbol, cards_of, parse_card
from taash.i18n import N_, _, ngettext
from taash.seep.deal import Deal, DealScore, Phase, card_points
from taash.seep.plays import ADD, BREAK, CAPTURE, ESTABLISH, THROW, House, Play, apply_play, team_mask
from taash.seep.rules import Rules
from taash.seep.values import VALUE_MASK
from taash.seep.view import PlayerView

HOUSE_NAMES = {9: N_("nine"), 10: N_("ten"), 11: N_("jack"), 12: N_("queen"), 13: N_("king")}
#: A card's name inside the engine's words (``9s``, ``Td``).
_CARD_NAME = re.compile(r"\b[2-9TJQKA][shdc]\b")
#: The engine's other reason to deal again (:func:`taash.seep.dealing.deal_problem`).
_FLOOR_REDEAL = re.compile(r"the first floor cards hold ([2-9TJQKA][shdc])")


def plural(n: int, word: str) -> str:
    """``1 point``, ``2 points``, ``0 sweeps``."""
    return f"{n} {word}{'s' * (n != 1)}"


def points(n: int, short: bool = False) -> str:
    """``1 point``, ``11 points``; ``short``: ``1 pt``, ``11 pts``."""
    return plural(n, "pt" if short else "point")


def house_word(value: int) -> str:
    """A house's (or a bid's) value as its name says it, in the language spoken: "nine" to "king"."""
    return _(HOUSE_NAMES[value])


def cards_text(mask: int, ascii_only: bool = False) -> str:
    """Cards of a mask, by suit and rank, separated by spaces."""
    return " ".join(card_symbol(c, ascii_only) for c in cards_of(mask))


def describe_play(play: Play, houses: dict[int, House], ascii_only: bool = False) -> str:
    """One play in words; ``houses`` are the houses on the floor before it."""
    kind, c, value, broken, m = play
    card = card_symbol(c, ascii_only)
    loose = cards_text(m, ascii_only)
    if kind == THROW:
        return _("Throw {card}", card=card)
    if kind == CAPTURE:
        if c % 13 + 1 not in houses:
            return _("Capture {cards} with {card}", cards=loose, card=card)
        house = house_word(c % 13 + 1)
        return (_("Capture the {house} house and {cards} with {card}", house=house, cards=loose, card=card) if loose
                else _("Capture the {house} house with {card}", house=house, card=card))
    name = house_word(value)
    if kind == ESTABLISH:
        return (_("Build a {house} house from {card} with {cards}", house=name, card=card, cards=loose) if loose
                else _("Build a {house} house from {card}", house=name, card=card))
    if kind == BREAK:
        old = house_word(broken)
        if value in houses:
            return (_("Break the {old} house with {card} into the {house} house with {cards}", old=old, card=card,
                      house=name, cards=loose) if loose
                    else _("Break the {old} house with {card} into the {house} house", old=old, card=card, house=name))
        return (_("Break the {old} house with {card} into a new {house} house with {cards}", old=old, card=card,
                  house=name, cards=loose) if loose
                else _("Break the {old} house with {card} into a new {house} house", old=old, card=card, house=name))
    return (_("Put {card} with {cards} on the {house} house", card=card, cards=loose, house=name) if loose
            else _("Put {card} on the {house} house", card=card, house=name))


def describe_outcome(view: PlayerView, play: Play, ascii_only: bool = False) -> str:
    """A play of the seat of ``view`` with what it brings: "Capture 2♠ 9♠ with J♣: +11 points",
    "Build a king house from 8♥ 5♦ (you keep K♠)"."""
    words = describe_play(play, view.houses, ascii_only)
    houses = dict(view.houses)
    loose, taken = apply_play(play, view.seat, view.players, view.loose, houses)
    kind, c, value = play[0], play[1], play[2]
    if kind == CAPTURE:
        n = card_points(view.rules, taken)
        if loose or houses:
            return ngettext("{play}: +{n} point", "{play}: +{n} points", n, play=words)
        sweep = view.rules.sweep_value(c, view.plays_made)
        if sweep:
            return ngettext("{play}: +{n} point, a sweep (+{sweep})", "{play}: +{n} points, a sweep (+{sweep})", n,
                            play=words, sweep=sweep)
        return ngettext("{play}: +{n} point, a sweep (scores nothing on the last play)",
                        "{play}: +{n} points, a sweep (scores nothing on the last play)", n, play=words)
    if kind == THROW:
        return words
    cemented, owners = houses[value][1], houses[value][2]
    if owners >> view.seat & 1:
        keep = cards_text(view.hand & ~(1 << c) & VALUE_MASK[value], ascii_only)
        return (_("{play} (cemented, you keep {cards})", play=words, cards=keep) if cemented
                else _("{play} (you keep {cards})", play=words, cards=keep))
    return (_("{play} (cemented, your partner's house)", play=words) if cemented
            else _("{play} (your partner's house)", play=words))


def no_play_reason(view: PlayerView, card: int, ascii_only: bool = False) -> str | None:
    """Why ``card`` in the hand of the seat of ``view`` has no legal play now, or None when it has one."""
    name = card_symbol(card, ascii_only)
    if not view.hand >> card & 1:
        return _("{card} is not in your hand", card=name)
    if view.phase is Phase.OVER:
        return _("the deal is over")
    if view.phase is Phase.BID:
        return _("the bid comes first") if view.to_move == view.seat else _("the bidder is still bidding")
    if view.to_move != view.seat:
        return _("it is not your turn")
    if any(p[1] == card for p in view.legal_plays()):
        return None
    if not view.history and view.bid:
        return _("the bid play must use the bid: build a {bid} house, or capture with (or throw) a {bid}; {card} can "
                 "do none of these", bid=house_word(view.bid), card=name)
    return _("no legal play uses {card} here", card=name)


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
        return _("the bid play must use the bid: {card} is not a {bid}; build a {bid} house with it, or play a {bid}",
                 card=name, bid=house_word(view.bid))
    if kind == THROW:
        return _("a card that can capture may not be thrown: {play}",
                 play=describe_play(captures[0], view.houses, ascii_only)) \
            if captures else _("{card} cannot be thrown here", card=name)
    if kind == CAPTURE:
        if len(captures) > 1:
            return _("a capture must take everything it can: {play} or {other}",
                     play=describe_play(captures[0], view.houses, ascii_only),
                     other=describe_play(captures[1], view.houses, ascii_only))
        if captures:
            return _("a capture must take everything it can: {play}",
                     play=describe_play(captures[0], view.houses, ascii_only))
        return _("{card} captures nothing here: no house of its value and no loose cards adding up to {value}",
                 card=name, value=c % 13 + 1)
    return _house_refusal(view, play, ascii_only)


def _house_refusal(view: PlayerView, play: Play, ascii_only: bool) -> str:
    """Why a play into a house (establish, add, break) is refused: the first rule of 5.3 to 5.6 it breaks."""
    kind, c, value, broken, m = play
    name = card_symbol(c, ascii_only)
    house = house_word(value) if value in HOUSE_NAMES else str(value)
    if not view.history and view.bid and value != view.bid:
        return _("the bid play may build only a {bid} house (the bid)", bid=house_word(view.bid))
    if m & ~view.loose:
        return _("a house is built with loose cards from the floor: those cards are not loose on the floor")
    if kind == BREAK:
        target = view.houses.get(broken)
        if target is None:
            return _("there is no {house} house to break",
                     house=house_word(broken) if broken in HOUSE_NAMES else str(broken))
        if target[1]:
            return _("a cemented house can never be broken")
        if target[2] >> view.seat & 1:
            return _("you own that house: add to it instead of breaking it")
        total = broken + c % 13 + 1
    else:
        total = c % 13 + 1 + sum(x % 13 + 1 for x in cards_of(m))
    if kind in (ESTABLISH, ADD) and c % 13 + 1 != value and total % value:
        return _("{cards} add up to {total}, not {value}: a house's cards add up to its value",
                 cards=cards_text(m | 1 << c, ascii_only), total=total, value=value)
    partner_owns = kind == ADD and value in view.houses and view.houses[value][2] & team_mask(view.seat, view.players) \
        & ~(1 << view.seat)
    if not partner_owns and not view.hand & ~(1 << c) & VALUE_MASK[value]:
        return _("you build only for yourself: after the play you must still hold a {house} to take the {house} house",
                 house=house)
    return _("that play of {card} into a {house} house is not legal here", card=name, house=house)


def redeal_reason(problem: str, ascii_only: bool = False) -> str:
    """Why the pack was dealt again, from the engine's reason: "the first floor cards hold 9♠" (its cards shown
    as everywhere else, its "so the deal would have been redone" left out)."""
    reason = problem.split(", so ")[0]
    if reason == "the bidder's first four cards hold no card above 8":
        return _("the bidder's first four cards hold no card above 8")
    floor = _FLOOR_REDEAL.fullmatch(reason)
    if floor is not None:
        return _("the first floor cards hold {card}", card=card_symbol(parse_card(floor.group(1)), ascii_only))
    return _CARD_NAME.sub(lambda m: card_symbol(parse_card(m.group()), ascii_only), reason)


def card_points_notes(rules: Rules, score: DealScore, teams: tuple[str, str]) -> list[str]:
    """What a finished deal's card points hold besides the points of the cards, one line each: "A Satthi: Us
    took all 30 card points, which score 60", "Them +4 card points for the most cards (28 of 52)"."""
    notes = []
    for t in (0, 1):
        if rules.satthi_points and score.card_points[t] == rules.satthi_points and not score.card_points[1 - t]:
            notes.append(_("A Satthi: {team} took all {total} card points, which score {points}", team=teams[t],
                           total=rules.total_card_points, points=rules.satthi_points))
        elif rules.majority_points and score.cards_taken[t] > 26:
            notes.append(_("{team} +{points} card points for the most cards ({cards} of 52)", team=teams[t],
                           points=rules.majority_points, cards=score.cards_taken[t]))
    return notes


#: A team's line of the deal explained, by whether it took point cards and made sweeps.
_EXPLAINED = {
    (False, False): N_("{team}: {taken} taken, {points} from the cards: {score} in the deal"),
    (True, False): N_("{team}: {taken} taken, {points} from the cards ({counted}): {score} in the deal"),
    (False, True): N_("{team}: {taken} taken, {points} from the cards, {sweeps} (+{sweep_points}): {score} in the "
                      "deal"),
    (True, True): N_("{team}: {taken} taken, {points} from the cards ({counted}), {sweeps} (+{sweep_points}): {score} "
                     "in the deal"),
}


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
        sweeps = [pts for seat, _index, pts in deal.sweeps if seat % 2 == t]
        values = {"team": teams[t], "taken": ngettext("{n} card", "{n} cards", pile.bit_count()),
                  "points": ngettext("{n} point", "{n} points", score.card_points[t]), "score": score.score[t]}
        if counted:
            values["counted"] = counted
        if sweeps:
            values["sweeps"] = ngettext("{n} sweep", "{n} sweeps", len(sweeps))
            values["sweep_points"] = sum(sweeps)
        lines.append(_(_EXPLAINED[bool(counted), bool(sweeps)], **values))
    return lines + card_points_notes(deal.rules, score, teams)
