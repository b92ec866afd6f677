"""Computer players for Seep. Every bot decides from one seat's :class:`~taash.seep.view.PlayerView` alone."""

from taash.bots.base import Bot, make_bot
from taash.bots.greedy import GreedyBot
from taash.bots.heuristic import HeuristicBot
from taash.bots.random_bot import RandomBot

__all__ = ["Bot", "GreedyBot", "HeuristicBot", "RandomBot", "make_bot"]
