"""Stakes: what a table's match is played for, in chips, and what each seat wins or loses when it ends.

Each game says its own rule (its plugin's ``stakes``, a :class:`StakeRules`: :mod:`taash.web.seep_stakes`,
:mod:`taash.web.rummy_stakes`): ``stake`` is the table's, in chips; each seat's hold is the most it can lose. A game
without stake rules is not played for chips. Whatever the game, a match the players left agreed to split
(:mod:`taash.tables.split`) pays each of them his share of the pool of every seat's stake instead.

People pay from their wallets, bots from the house. The house's rake (a server option) is taken from each
winner's winnings by the ledger.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from taash.chips.books import HOUSE_ACCOUNT
from taash.chips.ledger import Stake, wallet_of
from taash.games.registry import plugin
from taash.i18n import _, said_of
from taash.tables.adapter import SeatResult, Settings, TableError
from taash.tables.split import divide
from taash.tables.table import Table


class StakeRules(Protocol):
    """A game's rule for playing for chips."""

    def hold(self, settings: Settings, stake: int) -> int:
        """The most one seat can lose at a table of ``settings`` played for ``stake``."""

    def words(self, settings: Settings, stake: int, hold: str) -> str:
        """What a stake holds, in a player's words, ending with ``hold`` ("holds 20,000 chips from each
        player")."""

    def won(self, settings: Settings, stake: int, cap: int, results: Sequence[SeatResult]) -> list[int]:
        """Each seat's chips won (or, negative, lost) at a finished match, the hold per seat being ``cap``; they
        add up to 0."""


def stake_rules(settings: Settings) -> StakeRules:
    """The stake rules of the game of ``settings`` (``TableError`` for a game not played for chips)."""
    try:
        found = plugin(settings.game)
    except ValueError as e:
        raise TableError(said_of(e)) from None
    if found.stakes is None:
        raise TableError(_("{game} is not played for chips: make its table with a stake of 0", game=found.title))
    rules: StakeRules = found.part("stakes")
    return rules


def match_id(table_id: str) -> str:
    """The ledger's id of the (one) match of a table."""
    return f"{table_id}:1"


def hold_per_seat(table: Table, stake: int) -> int:
    """The most one seat can lose at ``table`` played for ``stake``."""
    return hold_for(table.settings, stake)


def hold_for(settings: Settings, stake: int) -> int:
    """The most one seat can lose at a table of ``settings`` played for ``stake`` (before the table exists: what
    Play now checks a wallet for)."""
    if stake == 0:
        return 0
    return stake_rules(settings).hold(settings, stake)


def hold_words(settings: Settings, stake: int) -> str:
    """What a stake holds, in a player's words: "a stake of 200 a point on a single Seep deal holds 20,000 chips
    from each player (a lead of up to 100 points is paid)"."""
    hold = f"holds {hold_for(settings, stake):,} chips from each player"
    return stake_rules(settings).words(settings, stake, hold)


def short_words(table: Table, stake: int, seat: int, balance: int, asking: str | None) -> str:
    """Why a match cannot start, in a player's words: what the stake holds and what the seat's player has (the
    player who asked is "you")."""
    player = table.seats[seat]
    has = "you have" if asking is not None and player.guest == asking else f"{player.name} has"
    return f"not enough chips to start: {hold_words(table.settings, stake)}; {has} {balance:,}"


def stakes_of(table: Table, stake: int) -> list[Stake]:
    """Each seat's stake as the ledger holds it: from its person's wallet, a bot's from the house."""
    amount = hold_per_seat(table, stake)
    return [Stake(i, HOUSE_ACCOUNT if s.guest is None else wallet_of(s.guest), amount)
            for i, s in enumerate(table.seats)]


def chips_won(table: Table, stake: int) -> dict[int, int]:
    """Each seat's chips won (or, negative, lost) at a finished table; they add up to 0."""
    results = table.results()
    if not results:
        raise ValueError(f"table {table.id} has not finished")
    if table.split is not None:
        shares = divide(stake * len(table.seats), table.split)
        return {i: shares.get(i, 0) - stake for i, _, _ in results}
    cap = hold_per_seat(table, stake)
    won = stake_rules(table.settings).won(table.settings, stake, cap, [r for _, _, r in results])
    return {i: won[k] for k, (i, _, _) in enumerate(results)}
