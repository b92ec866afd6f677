"""Seep's ``random`` bot: every legal bid and play equally likely (the generic random bot, explained in words)."""

from __future__ import annotations

from collections.abc import Hashable

from taash.bots.random_bot import RandomBot as AnyGameRandomBot
from taash.i18n import _
from taash.seep.describe import describe_play
from taash.seep.plays import Play
from taash.seep.view import PlayerView


class RandomBot(AnyGameRandomBot):
    def choose_bid(self, view: PlayerView) -> int:
        bid = self.choose(view)
        assert isinstance(bid, int)
        return bid

    def choose_play(self, view: PlayerView) -> Play:
        play = self.choose(view)
        assert isinstance(play, tuple)
        return play

    def explain(self, view: PlayerView, action: Hashable) -> str:  # type: ignore[override]
        if isinstance(action, int):
            return _("Bid {bid}: chosen at random", bid=action)
        assert isinstance(action, tuple)
        return _("{play}: chosen at random", play=describe_play(action, view.houses))
