"""What a bot is: a seeded object that picks a bid and plays from a seat's view, and can say why."""

from __future__ import annotations

from typing import Protocol

from taash.seep.plays import Play
from taash.seep.view import PlayerView


class Bot(Protocol):
    """A computer player. It never sees more than ``view``; all its chance comes from its seed."""

    name: str

    def choose_bid(self, view: PlayerView) -> int:
        """A legal bid (``view.legal_bids()``)."""

    def choose_play(self, view: PlayerView) -> Play:
        """A legal play (``view.legal_plays()``)."""

    def explain(self, view: PlayerView, play: Play) -> str:
        """One line on why this play (for hints)."""


#: Player-facing levels. ``expert`` will be the ISMCTS bot once it exists; until then it is the heuristic one.
LEVELS = {"easy": "random", "medium": "greedy", "hard": "heuristic", "expert": "heuristic"}


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name (``random``, ``greedy``, ``heuristic``) or level (``easy`` .. ``expert``)."""
    from taash.bots.greedy import GreedyBot
    from taash.bots.heuristic import HeuristicBot
    from taash.bots.ismcts import IsmctsBot
    from taash.bots.random_bot import RandomBot

    kinds: dict[str, type[RandomBot] | type[GreedyBot] | type[HeuristicBot] | type[IsmctsBot]] = {
        "random": RandomBot, "greedy": GreedyBot, "heuristic": HeuristicBot, "ismcts": IsmctsBot}
    kind = LEVELS.get(name, name)
    if kind not in kinds:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join([*kinds, *LEVELS])})")
    return kinds[kind](seed)
