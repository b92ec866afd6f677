"""Rummy's ``random`` bot: every listed legal action equally likely (the generic random bot, in Rummy's words)."""

from __future__ import annotations

from collections.abc import Hashable

from taash.bots.random_bot import RandomBot as AnyGameRandomBot
from taash.i18n import _
from taash.rummy.game import RummyCodec
from taash.rummy.view import PlayerView


class RandomBot(AnyGameRandomBot):
    def explain(self, view: PlayerView, action: Hashable) -> str:  # type: ignore[override]
        return _("{play}: chosen at random", play=RummyCodec().describe(view, action))
