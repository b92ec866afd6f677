"""The one family of exceptions of the Seep engine; each carries a sentence a person can read."""

from __future__ import annotations

from taash.i18n import _


class SeepError(ValueError):
    """Anything the Seep engine refuses."""


class BadRulesError(SeepError):
    """Rule parameters that are unknown or out of range."""


class BadPositionError(SeepError):
    """A position (or game record, or JSON) that is malformed or cannot arise in a game."""


class IllegalPlayError(SeepError):
    """A play or bid that the rules do not allow now."""


class RecordError(SeepError):
    """A game record that does not replay: carries the deal and play where it went wrong, counted from 1 as the
    screens, the rules, the README and Rummy's record errors count them (the first deal is deal 1; the bid play is
    play 1, the last play of a deal play 48)."""

    def __init__(self, message: str, deal: int | None = None, play: int | None = None, illegal: bool = False):
        # One sentence with the place in it (a said sentence, its reason said again in each reader's language).
        if deal is not None and play is not None:
            message = _("deal {deal}, play {play}: {why}", deal=deal, play=play, why=message)
        elif deal is not None:
            message = _("deal {deal}: {why}", deal=deal, why=message)
        super().__init__(message)
        self.deal = deal
        self.play = play
        #: True when the record is well formed but a play or bid in it breaks the rules.
        self.illegal = illegal
