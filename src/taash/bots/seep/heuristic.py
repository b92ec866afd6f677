"""The ``heuristic`` bot: an expert's rules of thumb over one play, with the cards counted.

It counts what it has seen (its hand, the floor turned up after the bid, every card played) to know, for each
value, how many cards the others may still hold, and so how likely the next opponent is to hold one. A play is
scored by the points it takes now, minus what the opponent to play next can expect to take (a sweep above
all), plus the worth of houses it leaves that its team owns and the others are unlikely to take, plus small
preferences from the rules text: keep the last capture for the end, keep point cards off the floor.

It also reads what the others' plays prove they hold (:func:`taash.bots.seep.ismcts.hand_requirements`: a house's
owner keeps a card of its value, the bidder one of the bid value): a card of a value the partner surely holds is
not one the opponents can have, so a house of that value the team owns may be safe from them (then it is worth
cementing with point cards, as the rules text advises), and the next opponent's chances are counted without it.
Of the rules text's tactics it also follows "leave at most two items on the floor" (a small bonus).
"""

from __future__ import annotations

import random

from taash.bots.seep.choice import SeepBot
from taash.bots.seep.inference import hand_requirements
from taash.cards import cards_of
from taash.i18n import _, ngettext
from taash.seep.deal import card_points
from taash.seep.describe import describe_play
from taash.seep.groups import maximal_groups
from taash.seep.plays import CAPTURE, THROW, House, Play, apply_play, team_mask
from taash.seep.rules import LAST_PLAY
from taash.seep.values import VALUE, VALUE_MASK
from taash.seep.view import PlayerView


def surely_held(view: PlayerView) -> list[dict[int, int]]:
    """For each seat, ``{value: n}``: it surely holds at least ``n`` (here 0 or 1) unseen cards of that value."""
    held: list[dict[int, int]] = [{} for _ in range(view.players)]
    for seat, cards in hand_requirements(view):
        values = {VALUE[c] for c in cards_of(cards)}
        if len(values) == 1:
            held[seat][values.pop()] = 1
    return held


def holds_probability(unknown: int, of_value: int, hand_size: int) -> float:
    """Chance that a hand of ``hand_size`` cards drawn from ``unknown`` cards holds one of ``of_value`` of them."""
    if of_value <= 0 or hand_size <= 0 or unknown <= 0:
        return 0.0
    if hand_size >= unknown:
        return 1.0
    miss = 1.0
    for i in range(hand_size):
        miss *= (unknown - of_value - i) / (unknown - i)
        if miss <= 0:
            return 1.0
    return 1.0 - miss


class HeuristicBot(SeepBot):
    name = "heuristic"

    def __init__(self, seed: int = 0, inference: bool = True, floor_items: bool = True):
        self.rng = random.Random(seed)
        #: Use what the others' plays prove they hold (:func:`surely_held`).
        self.inference = inference
        #: Prefer to leave at most two items on the floor.
        self.floor_items = floor_items
        self._held: tuple[PlayerView | None, list[dict[int, int]]] = (None, [])

    def _surely_held(self, view: PlayerView) -> list[dict[int, int]]:
        """:func:`surely_held` of ``view``, worked out once for the plays of one decision."""
        if not self.inference:
            return [{} for _ in range(view.players)]
        if self._held[0] is not view:
            self._held = (view, surely_held(view))
        return self._held[1]

    def _sweep_value(self, view: PlayerView, card: int, index: int) -> int:
        return view.rules.sweep_value(card, min(index, LAST_PLAY))

    def evaluate(self, view: PlayerView, play: Play) -> tuple[float, int, bool, float]:
        """(score, points taken now, sweep, expected points lost to the next opponent)."""
        rules = view.rules
        houses: dict[int, House] = dict(view.houses)
        loose, taken = apply_play(play, view.seat, view.players, view.loose, houses)
        index = view.plays_made
        gained = card_points(rules, taken)
        sweep = bool(taken) and not loose and not houses
        score = float(gained)
        if sweep:
            score += self._sweep_value(view, play[1], index)
        unseen = view.unseen()
        unknown = unseen.bit_count()
        nxt = (view.seat + 1) % view.players
        nxt_hand = view.hand_sizes[nxt] - (1 if index == 0 and view.players == 4 else 0)
        if index == 0:  # after the bid play the others get their cards: 12 for the next player
            nxt_hand = 12
        remaining_plays = LAST_PLAY - index
        held = self._surely_held(view)
        partner = (view.seat + 2) % 4 if view.players == 4 else -1
        # What the next opponent may take from the floor we leave.
        danger = 0.0
        if remaining_plays > 0 and nxt_hand > 0:
            floor_cards = loose
            for cards, _, _ in houses.values():
                floor_cards |= cards
            for v in range(1, 14):
                k = (unseen & VALUE_MASK[v]).bit_count()
                if not k:
                    continue
                house = houses.get(v)
                best = 0.0
                if loose:
                    for u in maximal_groups(loose, v):
                        got = card_points(rules, u | (house[0] if house is not None else 0))
                        left = loose & ~u
                        others = [w for w in houses if w != v]
                        if u or house is not None:
                            if not left and not others and remaining_plays > 1:
                                got += self._sweep_value(view, 0, index + 1) if not view.rules.sweep_scores_card_value \
                                    else v
                            best = max(best, got + 0.1 * (u.bit_count()))
                elif house is not None:
                    got = card_points(rules, house[0])
                    if len(houses) == 1 and remaining_plays > 1:
                        got += self._sweep_value(view, 0, index + 1) if not view.rules.sweep_scores_card_value else v
                    best = got
                if best:
                    if held[nxt].get(v):
                        chance = 1.0
                    else:  # cards of v that other seats surely hold are not the next opponent's
                        pinned = sum(h.get(v, 0) for s, h in enumerate(held) if s != nxt)
                        chance = holds_probability(unknown - pinned, k - pinned, nxt_hand)
                    danger = max(danger, best * chance)
        score -= danger
        # Houses our team owns: worth their points if the others are unlikely to take them.
        ours = team_mask(view.seat, view.players)
        for v, (cards, cemented, owners) in houses.items():
            if owners & ours:
                # The opponents may hold only the unseen cards of v that the partner does not surely hold.
                k = (unseen & VALUE_MASK[v]).bit_count() - (held[partner].get(v, 0) if partner >= 0 else 0)
                house_points = card_points(rules, cards)
                safe = 1.0 - holds_probability(unknown, k, max(1, unknown // 2))
                before = view.houses.get(v)
                before_points = card_points(rules, before[0]) if before and before[2] & ours else 0
                score += 0.5 * (house_points - before_points) * (2 * safe - 1)
                if cemented and (before is None or not before[1]):
                    score += 1.0
        # Leave few items on the floor: fewer choices for the others (rules text, "Basic Tactics").
        if self.floor_items and remaining_plays > 0 and (loose or houses):
            items = loose.bit_count() + len(houses)
            if items <= 2:
                score += 0.5
        # Do not feed the floor with point cards; keep captures for late in the deal when it is cheap.
        if play[0] == THROW:
            score -= 0.5 * card_points(rules, 1 << play[1])
            if VALUE[play[1]] >= 9:
                score -= 0.5  # high cards are worth keeping for houses
        if play[0] == CAPTURE:
            score += 0.05 * taken.bit_count()
            if remaining_plays < 4:
                score += 0.5  # the last capture takes the floor
        return score, gained, sweep, danger

    def choose_bid(self, view: PlayerView) -> int:
        bids = view.legal_bids()
        return max(bids, key=lambda v: ((view.hand & VALUE_MASK[v]).bit_count(), v))

    def choose_play(self, view: PlayerView) -> Play:
        legal = view.legal_plays()
        if len(legal) == 1:
            return legal[0]
        scored = [(self.evaluate(view, p)[0], p) for p in legal]
        best = max(s for s, _ in scored)
        ties = [p for s, p in scored if s >= best - 1e-9]
        return ties[self.rng.randrange(len(ties))]

    def explain_play(self, view: PlayerView, play: Play) -> str:
        _score, gained, sweep, danger = self.evaluate(view, play)
        words = describe_play(play, view.houses)
        worth = ngettext("{n} point", "{n} points", gained)
        if sweep:
            return _("{play}: a sweep, {points}", play=words, points=worth)
        if danger < 1:
            return (_("{play}: {points}, leaves no sweep", play=words, points=worth) if gained else
                    _("{play}: leaves no sweep", play=words))
        risk = ngettext("{n} point", "{n} points", round(danger))
        return (_("{play}: {points}, risks about {risk} to the next player", play=words, points=worth, risk=risk)
                if gained else _("{play}: risks about {risk} to the next player", play=words, risk=risk))
