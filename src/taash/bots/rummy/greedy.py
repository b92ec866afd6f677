"""Rummy's ``greedy`` bot: it takes the open card when that lowers its hand's points, declares as soon as it
can, and otherwise discards the card that leaves the fewest points (the exact solver decides all three). It never
drops."""

from __future__ import annotations

import random
from collections.abc import Hashable

from taash.i18n import _
from taash.packs import face_name
from taash.rummy.deal import Declare, Discard, Drop, Phase, Take
from taash.rummy.solver import best_discard, discard_values, hand_value, take_value
from taash.rummy.view import PlayerView


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Drop | Take | Discard | Declare:
        legal = view.legal_actions()
        if view.phase is Phase.TAKE:
            if Take("discard") in legal and self._open_card_helps(view):
                return Take("discard")
            return Take("stock") if Take("stock") in legal else legal[0]
        declaration = next((a for a in legal if isinstance(a, Declare)), None)
        if declaration is not None:
            return declaration
        keep = view.taken_from_pile if view.rules.keep_taken_discard else None
        card, _ = best_discard(view.hand, view.rules, view.wild, keep)
        return Discard(card)

    def _open_card_helps(self, view: PlayerView) -> bool:
        top = view.pile[-1][0]
        return take_value(view.hand, top, view.rules, view.wild) < hand_value(view.hand, view.rules, view.wild)

    def explain(self, view: PlayerView, action: Hashable) -> str:
        rules, wild = view.rules, view.wild
        if isinstance(action, Take):
            if action.source == "discard":
                top = view.pile[-1][0]
                before = hand_value(view.hand, rules, wild)
                after = take_value(view.hand, top, rules, wild)
                return _("Take {card} from the discard pile: the hand goes from {now} to {after} points",
                         card=face_name(top), now=before, after=after)
            return _("Take from the stock: the open card would not lower the hand's points")
        if isinstance(action, Declare):
            return _("Declare, laying down {card}: a valid declaration scores 0", card=face_name(action.finish))
        if isinstance(action, Discard):
            keep = view.taken_from_pile if rules.keep_taken_discard else None
            left = discard_values(view.hand, rules, wild, keep).get(action.card)
            return _("Discard {card}: leaves {left} points, the fewest", card=face_name(action.card), left=left)
        if isinstance(action, Drop):
            return _("Drop: no card to take")
        return _("no reason")
