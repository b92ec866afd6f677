"""The ``random`` bot of any game: every legal action equally likely."""

from __future__ import annotations

import random

from taash.games.api import Action, View
from taash.i18n import _


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        legal = view.legal_actions()
        return legal[self.rng.randrange(len(legal))]

    def explain(self, view: View, action: Action) -> str:
        return _("chosen at random")
