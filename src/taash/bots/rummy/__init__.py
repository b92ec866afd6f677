"""Rummy's computer players: ``random`` and ``greedy`` so far (the heuristic and the search are still to come, so
the levels ``hard`` and ``expert`` have no Rummy bot yet)."""

from typing import Any

from taash.bots.rummy.greedy import GreedyBot
from taash.bots.rummy.random_bot import RandomBot

#: The bots players may meet, by name.
BOTS: dict[str, type[Any]] = {"random": RandomBot, "greedy": GreedyBot}

__all__ = ["BOTS", "GreedyBot", "RandomBot"]
