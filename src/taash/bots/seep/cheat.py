"""The ``cheat`` bot: the ``ismcts`` search playing out the TRUE deal. It sees every hidden card.

FOR MEASUREMENT ONLY, NEVER A PLAYER. It reads the whole :class:`~taash.seep.deal.Deal` (the other hands and the
cards still to be dealt), so it is not a :class:`~taash.bots.base.Bot`: :func:`~taash.bots.base.make_bot` and the
player-facing levels do not know it, and only the arena's explicit full-information path
(:func:`taash.arena.duplicate.make_arena_bot`) hands it a copy of the real deal. With the same search settings as
``ismcts`` (candidates, iterations, rollout policy) every iteration plays out the real deal instead of a guessed
one, so its margin over a fair bot is an upper bound on what better guessing of the hidden cards can bring to
that search.
"""

from __future__ import annotations

from taash.bots.seep.ismcts import IsmctsBot
from taash.seep.deal import Deal, Phase
from taash.seep.describe import describe_play
from taash.seep.game import SeepState
from taash.seep.plays import Play
from taash.seep.view import view_of


class CheatBot:
    """Full-information flat Monte Carlo search: an upper bound for measurement, never offered to a player."""

    name = "cheat"
    #: The arena hands such a bot a copy of the whole state instead of a view.
    full_information = True

    def __init__(self, seed: int = 0, iterations: int = 200, seconds: float | None = None,
                 candidates: int = 8, prune: float = 2.5, rollout: str = "sharp"):
        self.search = IsmctsBot(seed, iterations=iterations, seconds=seconds, candidates=candidates, prune=prune,
                                rollout=rollout)

    def choose_bid(self, deal: Deal) -> int:
        """The heuristic bid (it does not look at the face-down floor)."""
        return self.search.choose_bid(view_of(deal, deal.to_move))

    def choose_play(self, deal: Deal) -> Play:
        """A legal play for the seat to move of ``deal``, searched on copies of the deal itself."""
        view = view_of(deal, deal.to_move)
        return self.search.search(view, deal.clone)

    def choose(self, state: SeepState) -> int | Play:
        """The bid or play for the seat to move of a whole match state (the arena's full-information path)."""
        deal = state.match.deal
        return self.choose_bid(deal) if deal.phase is Phase.BID else self.choose_play(deal)

    def explain(self, deal: Deal, play: Play) -> str:
        visits, mean = self.search.last_stats.get(play, (0, 0.0))
        return (f"{describe_play(play, deal.houses)}: {visits} simulations of the true deal, "
                f"{mean:+.0f} points on average")
