"""The chips books' values: a transfer, a seat's stake, a match's hold, and the ids of a person's wallet and a match's
escrow (:mod:`taash.chips.ledger` writes them)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from taash.chips.books import CHIPS, ESCROW, MOVE, WALLET
from taash.chips.errors import ChipsError


def wallet_of(person: str) -> str:
    """The account id of ``person``'s wallet (a guest's or an account's id: no spaces, no colons)."""
    _check_name(person, "a person", 150, colons=False)
    return f"{WALLET}:{person}"


def escrow_of(match_id: str) -> str:
    """The account id of a match's escrow."""
    _check_name(match_id, "a match id", 120)
    return f"{ESCROW}:{match_id}"


def _check_name(name: object, what: str, longest: int, colons: bool = True) -> None:
    """Names go into ids joined by colons: a person's or a reason's has none, so that ``grant:PERSON:REASON``
    is read one way only (a match's may: ``TABLE:MATCH``)."""
    if (not isinstance(name, str) or not 0 < len(name) <= longest or any(c.isspace() for c in name)
            or (not colons and ":" in name)):
        raise ChipsError(f"{what} must be 1 to {longest} characters without spaces{'' if colons else ' or colons'}, "
                         f"not {name!r}")


@dataclass(frozen=True, slots=True)
class Transfer:
    """A movement of ``amount`` chips from ``debit`` to ``credit``; ``id`` names the event that made it."""

    id: str
    debit: str
    credit: str
    amount: int
    kind: str = MOVE
    match_id: str | None = None
    seat: int | None = None
    currency: str = CHIPS


@dataclass(frozen=True, slots=True)
class Stake:
    """What ``seat`` puts into a match: ``amount`` chips from ``payer`` (``wallet_of(person)``, or
    ``HOUSE_ACCOUNT`` for a bot, who plays with the house's chips)."""

    seat: int
    payer: str
    amount: int


@dataclass(frozen=True, slots=True)
class Hold:
    """A match's stakes and what became of them: ``pending`` while it is played, ``posted`` once settled,
    ``voided`` once refunded; ``transfers`` are all of the match's, in the order they were made."""

    match_id: str
    state: str
    stakes: tuple[Stake, ...]
    transfers: tuple[Transfer, ...]
    table_id: str | None = None
    #: The house's share of each winner's winnings, fixed when the stakes were held.
    rake_percent: Decimal = Decimal(0)

    @property
    def escrow(self) -> str:
        return escrow_of(self.match_id)

    @property
    def pot(self) -> int:
        return sum(s.amount for s in self.stakes)
