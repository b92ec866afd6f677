"""Every bot and every player level plays whole deals, 2 and 4 players, under every preset."""

from __future__ import annotations

import random

import pytest

from taash.arena.duplicate import play_state
from taash.bots.base import make_bot
from taash.games.registry import levels
from taash.seep.deal import Deal
from taash.seep.game import SeepGame
from taash.seep.plays import Play
from taash.seep.rules import PRESETS
from taash.seep.view import PlayerView, view_of

#: The search with a small budget: the same code as the default, a few times faster.
BOTS = ["random", "greedy", "heuristic", "ismcts:iterations=3,candidates=3", "learned"]


class Checked:
    """A bot that checks every choice of the bot it wraps is legal in its seat's view."""

    def __init__(self, spec: str, seed: int):
        self.bot = make_bot(spec, seed)
        self.name = self.bot.name
        self.decisions = 0

    def choose(self, view: PlayerView) -> int | Play:
        action = self.bot.choose(view)
        assert action in view.legal_actions()
        assert self.bot.explain(view, action)  # every bot can say why
        self.decisions += 1
        return action

    def explain(self, view: PlayerView, action: int | Play) -> str:
        return self.bot.explain(view, action)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 4])
def test_every_bot_plays_whole_deals(players: int, preset: str) -> None:
    rng = random.Random(f"{players}/{preset}")
    for spec in BOTS:
        state = SeepGame(PRESETS[preset], players).new_state(rng.randrange(2**32))
        bots = [Checked(spec if seat % 2 == 0 else "greedy", rng.randrange(2**32)) for seat in range(players)]
        play_state(state, bots)
        assert state.is_over and sum(b.decisions for b in bots) == 1 + 48  # the bid and every play


@pytest.mark.parametrize("level", sorted(levels("seep")))
def test_every_level_is_a_bot_that_plays(level: str) -> None:
    deal = Deal.shuffled(PRESETS["standard"], 4, 0, random.Random(level))
    bot = make_bot(level, 1)
    deal.make_bid(bot.choose_bid(view_of(deal, deal.to_move)))
    play = bot.choose_play(view_of(deal, deal.to_move))
    assert play in deal.legal_plays()
