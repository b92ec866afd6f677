"""Rummy's computer players: ``random``, ``greedy`` and ``heuristic`` (the search is still to come, so the level
``expert`` has no Rummy bot yet)."""

from typing import Any

from taash.bots.rummy.greedy import GreedyBot
from taash.bots.rummy.heuristic import HeuristicBot
from taash.bots.rummy.random_bot import RandomBot

#: The bots players may meet, by name.
BOTS: dict[str, type[Any]] = {"random": RandomBot, "greedy": GreedyBot, "heuristic": HeuristicBot}

__all__ = ["BOTS", "GreedyBot", "HeuristicBot", "RandomBot"]
