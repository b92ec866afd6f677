"""Stakes: what a table's match is played for, in chips, and what each seat wins or loses when it ends.

The rules (``stake`` is the table's, in chips; each seat's hold is the most it can lose):

- Seep played to baazis: chips per baazi of the final lead. Each seat of the winning side wins
  ``stake x (its baazis - the other side's)`` and each seat of the losing side loses as much; the hold per seat is
  ``stake x baazis to win`` (the largest lead a match can end with).
- Seep, a single deal: chips per point of the final lead, capped by the hold: each seat of the side ahead wins
  ``stake x min(lead, 100)`` and each seat of the other side loses as much; the hold per seat is ``stake x 100``.
- Rummy points: chips per point: each loser pays ``stake x min(his points, 80)`` to the winner; the hold per seat
  is ``stake x 80`` (the most points a deal costs).
- Rummy pool and deals: an entry fee of ``stake`` from every seat into a prize pool paid to the winner; the hold
  per seat is the fee. A match the players left agreed to split (:mod:`taash.tables.split`) pays each of them
  his share of the pool instead.

People pay from their wallets, bots from the house. The house's rake (a server option) is taken from each
winner's winnings by the ledger.
"""

from __future__ import annotations

from taash.chips.books import HOUSE_ACCOUNT
from taash.chips.ledger import Stake, wallet_of
from taash.tables.adapter import Settings
from taash.tables.split import divide
from taash.tables.table import Table

#: The largest lead a single deal of Seep is settled for, in points.
SEEP_DEAL_CAP = 100
#: The most points a loser pays in Rummy points.
RUMMY_POINTS_CAP = 80


def match_id(table_id: str) -> str:
    """The ledger's id of the (one) match of a table."""
    return f"{table_id}:1"


def hold_per_seat(table: Table, stake: int) -> int:
    """The most one seat can lose at ``table`` played for ``stake``."""
    return hold_for(table.settings, stake)


def hold_for(settings: Settings, stake: int) -> int:
    """The most one seat can lose at a table of ``settings`` played for ``stake`` (before the table exists: what
    Play now checks a wallet for)."""
    length = settings.length
    if settings.game == "seep":
        return stake * (length if isinstance(length, int) and length > 0 else SEEP_DEAL_CAP)
    return stake * RUMMY_POINTS_CAP if length == "points" else stake


def _format_words(length: object) -> str:
    """A Rummy format as players say it: "pool101" -> "pool 101", "deals3" -> "3 deals"."""
    name = str(length)
    number = name.lstrip("abcdefghijklmnopqrstuvwxyz")
    kind = name[:len(name) - len(number)]
    if not number:
        return name
    return f"{kind} {number}" if kind == "pool" else f"{number} {kind}"


def hold_words(settings: Settings, stake: int) -> str:
    """What a stake holds, in a player's words: "a stake of 200 a point on a single Seep deal holds 20,000 chips
    from each player (a lead of up to 100 points is paid)"."""
    hold = f"holds {hold_for(settings, stake):,} chips from each player"
    length = settings.length
    if settings.game == "seep":
        if isinstance(length, int) and length > 0:
            return (f"a stake of {stake:,} a baazi in a match to {length} baazi{'s' if length != 1 else ''} {hold} "
                    f"(the most a match's lead can be)")
        return (f"a stake of {stake:,} a point on a single Seep deal {hold} (a lead of up to {SEEP_DEAL_CAP} points "
                "is paid)")
    if length == "points":
        return (f"a stake of {stake:,} a point on a Rummy points deal {hold} (a loser pays for up to "
                f"{RUMMY_POINTS_CAP} points)")
    return f"an entry fee of {stake:,} to a Rummy {_format_words(length)} match {hold} (the winner takes the pool)"


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
    length = table.settings.length
    if table.settings.game == "seep":
        if isinstance(length, int) and length > 0:
            lead = {r.team: r.stats.get("baazis", 0) for _, _, r in results}
        else:
            lead = {r.team: r.points for _, _, r in results}
        return {i: max(-cap, min(cap, stake * (lead[r.team] - lead[1 - r.team]))) for i, _, r in results}
    winners = [i for i, _, r in results if r.won]
    won = dict.fromkeys((i for i, _, _ in results), 0)
    if len(winners) != 1:
        return won  # nobody won alone: everyone keeps his stake
    winner = winners[0]
    for i, _, r in results:
        if i != winner:
            won[i] = -(min(cap, stake * max(0, r.points)) if length == "points" else stake)
    won[winner] = -sum(won.values())
    return won
