"""Seep's computer players: random, greedy, heuristic, the ismcts search and the learned network (and, for the
arena only, ``cheat``, which is not among :data:`BOTS`). Each answers the generic ``choose(view)`` with a bid or a
play."""

from typing import Any

from taash.bots.seep.greedy import GreedyBot
from taash.bots.seep.heuristic import HeuristicBot
from taash.bots.seep.ismcts import IsmctsBot
from taash.bots.seep.learned import LearnedBot
from taash.bots.seep.random_bot import RandomBot
from taash.i18n import N_

#: The bots players may meet, by name.
BOTS: dict[str, type[Any]] = {"random": RandomBot, "greedy": GreedyBot, "heuristic": HeuristicBot,
                              "ismcts": IsmctsBot, "learned": LearnedBot}

#: What each level's bot does at Seep, in a player's words (the terminal's help).
LEVEL_WORDS = {"easy": N_("plays at random"), "medium": N_("takes the most points now"),
               "hard": N_("counts the cards and weighs what it leaves the next player"),
               "learned": N_("a small network, trained on thousands of played-out deals, picks among the best "
                             "plays"),
               "expert": N_("searches hundreds of guessed deals before each play")}

__all__ = ["BOTS", "LEVEL_WORDS", "GreedyBot", "HeuristicBot", "IsmctsBot", "LearnedBot", "RandomBot"]
