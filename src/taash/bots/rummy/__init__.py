"""Rummy's computer players: ``random``, ``greedy``, ``heuristic`` and the search ``ismcts`` (the level
``expert``)."""

from typing import Any

from taash.bots.rummy.greedy import GreedyBot
from taash.bots.rummy.heuristic import HeuristicBot
from taash.bots.rummy.ismcts import IsmctsBot
from taash.bots.rummy.random_bot import RandomBot
from taash.i18n import N_

#: The bots players may meet, by name.
BOTS: dict[str, type[Any]] = {"random": RandomBot, "greedy": GreedyBot, "heuristic": HeuristicBot,
                              "ismcts": IsmctsBot}

#: What each level's bot does at 13-card Rummy, in a player's words (the terminal's help).
LEVEL_WORDS = {"easy": N_("plays at random"), "medium": N_("takes the card that lowers its points most"),
               "hard": N_("weighs what its hand could become and what the next player wants"),
               "expert": N_("weighs every card it may draw next, counting the cards it has seen, and plays the deal "
                         "out on guessed hands before it drops")}

__all__ = ["BOTS", "LEVEL_WORDS", "GreedyBot", "HeuristicBot", "IsmctsBot", "RandomBot"]
