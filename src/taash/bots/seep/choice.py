"""What every Seep bot shares: the generic ``choose`` and ``explain`` of the games API, read as a bid in the bid
phase and a play otherwise."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable

from taash.i18n import N_, _
from taash.seep.deal import Phase
from taash.seep.plays import Play
from taash.seep.view import PlayerView


class SeepBot(ABC):
    """Base of Seep's bots: subclasses choose bids and plays and explain plays; this answers the generic calls."""

    #: Why the bid was chosen (a catalogue message with the placeholder ``{bid}``, translated where it is said).
    bid_reason = N_("Bid {bid}: the value held most often, then the highest")

    @abstractmethod
    def choose_bid(self, view: PlayerView) -> int:
        """Subclasses decide."""

    @abstractmethod
    def choose_play(self, view: PlayerView) -> Play:
        """Subclasses decide."""

    @abstractmethod
    def explain_play(self, view: PlayerView, play: Play) -> str:
        """Subclasses decide."""

    def choose(self, view: PlayerView) -> int | Play:
        """A bid in the bid phase, else a play."""
        return self.choose_bid(view) if view.phase is Phase.BID else self.choose_play(view)

    def explain(self, view: PlayerView, action: Hashable) -> str:
        """One line on why this bid or play."""
        if isinstance(action, int):
            return _(self.bid_reason, bid=action)
        assert isinstance(action, tuple)
        return self.explain_play(view, action)
