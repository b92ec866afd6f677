"""The ``random`` bot: every legal bid and play equally likely."""

from __future__ import annotations

import random

from taash.seep.describe import describe_play
from taash.seep.plays import Play
from taash.seep.view import PlayerView


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose_bid(self, view: PlayerView) -> int:
        return self.rng.choice(view.legal_bids())

    def choose_play(self, view: PlayerView) -> Play:
        legal = view.legal_plays()
        return legal[self.rng.randrange(len(legal))]

    def explain(self, view: PlayerView, play: Play) -> str:
        return f"{describe_play(play, view.houses)}: chosen at random"
