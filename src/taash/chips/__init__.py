"""Virtual chips: a double-entry ledger of wallets, each match's escrow, the house and the grant source, and its
audit. See :mod:`taash.chips.ledger` for the rules and :mod:`taash.chips.books` for the constraints that keep them."""

from __future__ import annotations

from taash.chips.books import CHIPS, GRANTS_ACCOUNT, HOUSE_ACCOUNT, PENDING, POSTED, VOIDED
from taash.chips.errors import ChipsError, ConflictingTransfer, InsufficientChips, MatchClosed, UnknownAccount
from taash.chips.ledger import (
    BONUS_FLOOR,
    DAILY_BONUS,
    RAKE_PERCENT,
    STARTING_GRANT,
    Hold,
    Ledger,
    Stake,
    Transfer,
    escrow_of,
    wallet_of,
)

__all__ = [
    "BONUS_FLOOR", "CHIPS", "DAILY_BONUS", "GRANTS_ACCOUNT", "HOUSE_ACCOUNT", "PENDING", "POSTED", "RAKE_PERCENT",
    "STARTING_GRANT", "VOIDED", "ChipsError", "ConflictingTransfer", "Hold", "InsufficientChips", "Ledger",
    "MatchClosed", "Stake", "Transfer", "UnknownAccount", "escrow_of", "wallet_of",
]
