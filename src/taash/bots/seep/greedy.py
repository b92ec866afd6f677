"""The ``greedy`` bot: the most points now, sweeps first, and no floor left that the next player can sweep."""

from __future__ import annotations

import random

from taash.bots.seep.choice import SeepBot
from taash.i18n import _, ngettext
from taash.seep.deal import card_points
from taash.seep.describe import describe_play
from taash.seep.groups import maximal_groups
from taash.seep.plays import CAPTURE, Play, apply_play
from taash.seep.rules import LAST_PLAY
from taash.seep.values import VALUE_MASK
from taash.seep.view import PlayerView


def sweepable(loose: int, houses: dict[int, tuple[int, bool, int]]) -> bool:
    """Whether one card could take everything on this floor."""
    if not loose:
        return len(houses) == 1
    if len(houses) > 1:
        return False
    values = list(houses) or range(1, 14)
    return any(loose in maximal_groups(loose, v) for v in values)


class GreedyBot(SeepBot):
    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def evaluate(self, view: PlayerView, play: Play) -> tuple[float, int, int, bool, bool]:
        """(score, points taken, cards taken, sweep, leaves a sweep) of one play, seen from this seat."""
        houses = dict(view.houses)
        loose, taken = apply_play(play, view.seat, view.players, view.loose, houses)
        gained = card_points(view.rules, taken)
        sweep = bool(taken) and not loose and not houses
        last = view.plays_made == LAST_PLAY
        sweep_value = view.rules.sweep_value(play[1], view.plays_made) if sweep and not last else 0
        danger = not sweep and not last and sweepable(loose, houses)
        score = gained + sweep_value + 0.1 * taken.bit_count() - (30.0 if danger else 0.0)
        if play[0] != CAPTURE:
            score -= 0.05 * (card_points(view.rules, 1 << play[1]) + 1)  # keep point cards in hand, not on the floor
        return score, gained, taken.bit_count(), sweep, danger

    def choose_bid(self, view: PlayerView) -> int:
        bids = view.legal_bids()
        # The value held most often, then the highest: more chances to take the bid house back.
        return max(bids, key=lambda v: ((view.hand & VALUE_MASK[v]).bit_count(), v))

    def choose_play(self, view: PlayerView) -> Play:
        legal = view.legal_plays()
        scored = [(self.evaluate(view, p)[0], p) for p in legal]
        best = max(s for s, _play in scored)
        ties = [p for s, p in scored if s >= best - 1e-9]
        return ties[self.rng.randrange(len(ties))]

    def explain_play(self, view: PlayerView, play: Play) -> str:
        _score, gained, count, sweep, danger = self.evaluate(view, play)
        words = describe_play(play, view.houses)
        worth = ngettext("{n} point", "{n} points", gained)
        if sweep:
            return _("{play}: a sweep, {points}", play=words, points=worth)
        if count:
            return (_("{play}: {points}, leaves a sweep", play=words, points=worth) if danger else
                    _("{play}: {points}, leaves no sweep", play=words, points=worth))
        return _("{play}: leaves a sweep", play=words) if danger else _("{play}: leaves no sweep", play=words)
