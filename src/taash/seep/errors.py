"""The one family of exceptions of the Seep engine; each carries a sentence a person can read."""

from __future__ import annotations


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
        where = ""
        if deal is not None:
            where = f"deal {deal}" + (f", play {play}" if play is not None else "") + ": "
        super().__init__(where + message)
        self.deal = deal
        self.play = play
        #: True when the record is well formed but a play or bid in it breaks the rules.
        self.illegal = illegal
