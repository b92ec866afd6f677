"""The one family of exceptions of the Rummy engine; each carries a sentence a person can read."""

from __future__ import annotations

from taash.i18n import _


class RummyError(ValueError):
    """Anything the Rummy engine refuses."""


class BadRulesError(RummyError):
    """Rule parameters that are unknown or out of range."""


class BadHandError(RummyError):
    """A hand, a position or JSON that is malformed or cannot arise in a game."""


class IllegalTurnError(RummyError):
    """A take, discard, drop or declaration that the rules do not allow now."""


class RecordError(RummyError):
    """A game record that does not replay: carries the deal and turn (counted from 1) where it went wrong."""

    def __init__(self, message: str, deal: int | None = None, turn: int | None = None, illegal: bool = False):
        # One sentence with the place in it (a said sentence, its reason said again in each reader's language).
        if deal is not None and turn is not None:
            message = _("deal {deal}, turn {turn}: {why}", deal=deal, turn=turn, why=message)
        elif deal is not None:
            message = _("deal {deal}: {why}", deal=deal, why=message)
        super().__init__(message)
        self.deal = deal
        self.turn = turn
        #: True when the record is well formed but a turn in it breaks the rules.
        self.illegal = illegal
