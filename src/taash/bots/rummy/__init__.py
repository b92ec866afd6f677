"""Rummy's computer players: ``random``, ``greedy``, ``heuristic`` and the search ``ismcts`` (the level
``expert``)."""

from typing import Any

from taash.bots.rummy.greedy import GreedyBot
from taash.bots.rummy.heuristic import HeuristicBot
from taash.bots.rummy.ismcts import IsmctsBot
from taash.bots.rummy.random_bot import RandomBot

#: The bots players may meet, by name.
BOTS: dict[str, type[Any]] = {"random": RandomBot, "greedy": GreedyBot, "heuristic": HeuristicBot,
                              "ismcts": IsmctsBot}

__all__ = ["BOTS", "GreedyBot", "HeuristicBot", "IsmctsBot", "RandomBot"]
