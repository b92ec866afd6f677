"""The ledger's errors: each a ValueError carrying one sentence a person can read (the CLI and the server show it
as it is)."""

from __future__ import annotations


class ChipsError(ValueError):
    """Something the ledger refuses; nothing was changed."""


class InsufficientChips(ChipsError):
    """A wallet has fewer chips than a stake or a transfer asks of it: for a match's stake, the ``seat`` refused,
    its wallet's ``balance`` and the chips ``asked`` of it (None otherwise), for the server to say in a player's
    words."""

    def __init__(self, message: str, seat: int | None = None, balance: int | None = None,
                 asked: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat
        self.balance = balance
        self.asked = asked


class ConflictingTransfer(ChipsError):
    """A transfer id already names a transfer with other accounts or another amount (a retry that is not one)."""


class MatchClosed(ChipsError):
    """A match's hold was already settled (and cannot be refunded) or refunded (and cannot be settled)."""


class UnknownAccount(ChipsError):
    """A transfer or a stake names an account the books do not have (a wallet never opened, a match never held)."""
