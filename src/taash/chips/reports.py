"""What the books say about people (read only): the chips each match moved for a person, and the wallets ranked
by balance with what each won or lost at tables.

A match moved ``its payouts and refunds to the wallet - its stakes from it`` (the payouts are after the house's
rake): a refunded match 0, a lost one minus what was lost. A match whose hold is still pending (being played, or
between its end and its settlement) has moved nothing yet and is left out; so is a match the person staked nothing
in (a table without stakes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, Select, and_, case, func, literal, or_, select

from taash.chips.books import HOLD, PENDING, POSTED, REFUND, SETTLE, WALLET
from taash.chips.ledger import ACCOUNTS, TRANSFERS, escrow_of, wallet_of

#: The transfers between a wallet and a match's escrow.
_SEAT_TRANSFERS = (HOLD, SETTLE, REFUND)


@dataclass(frozen=True, slots=True)
class WalletLine:
    """A person's wallet on the board: his balance, his chips won (or, negative, lost) at tables, and the staked
    matches he played to the end."""

    person: str
    balance: int
    won: int
    matches: int


def chips_by_match(engine: Engine, person: str, match_ids: Sequence[str]) -> dict[str, int]:
    """The chips each of ``match_ids`` moved for ``person`` (won positive, lost negative), for those of them
    whose hold is closed and held a stake from his wallet."""
    if not match_ids:
        return {}
    wallet = wallet_of(person)
    escrows = {escrow_of(m): m for m in match_ids}
    with engine.connect() as c:
        closed = {escrows[r.id] for r in c.execute(select(ACCOUNTS.c.id).where(
            ACCOUNTS.c.id.in_(list(escrows)), ACCOUNTS.c.state.is_not(None), ACCOUNTS.c.state != PENDING))}
        if not closed:
            return {}
        rows = c.execute(select(TRANSFERS.c.match_id, TRANSFERS.c.kind, TRANSFERS.c.amount, TRANSFERS.c.credit_id)
                         .where(TRANSFERS.c.match_id.in_(sorted(closed)), TRANSFERS.c.kind.in_(_SEAT_TRANSFERS),
                                or_(TRANSFERS.c.debit_id == wallet, TRANSFERS.c.credit_id == wallet)))
        moved: dict[str, int] = {}
        for r in rows:
            moved[r.match_id] = moved.get(r.match_id, 0) + (r.amount if r.credit_id == wallet else -r.amount)
    return moved


def wallet_board(engine: Engine, limit: int, offset: int = 0,
                 people: Select[Any] | None = None) -> tuple[int, list[WalletLine]]:
    """How many wallets the books have, and ``limit`` of them from ``offset`` by balance (the highest first;
    equal balances by id). The house and the grant source are not wallets; nor are bots (they play with the
    house's chips). ``people``: a query of the person ids whose wallets are ranked (None: everyone's)."""
    if limit < 1 or offset < 0:
        raise ValueError(f"a page of the board needs a limit of 1 or more and an offset of 0 or more, "
                         f"not {limit} and {offset}")
    ranked = ACCOUNTS.c.kind == WALLET
    if people is not None:
        listed = people.subquery()
        ranked = and_(ranked, ACCOUNTS.c.id.in_(select(literal(f"{WALLET}:") + listed.c[0])))
    with engine.connect() as c:
        total = int(c.execute(select(func.count()).select_from(ACCOUNTS).where(ranked)).scalar_one())
        page = c.execute(select(ACCOUNTS.c.id, ACCOUNTS.c.balance).where(ranked)
                         .order_by(ACCOUNTS.c.balance.desc(), ACCOUNTS.c.id).limit(limit).offset(offset)).all()
        wallets = [r.id for r in page]
        won: dict[str, tuple[int, int]] = {}
        if wallets:
            escrow = ACCOUNTS.alias("escrow")
            is_hold = TRANSFERS.c.kind == HOLD
            side = case((is_hold, TRANSFERS.c.debit_id), else_=TRANSFERS.c.credit_id)
            query = (select(side.label("wallet"),
                            func.sum(case((is_hold, -TRANSFERS.c.amount), else_=TRANSFERS.c.amount)).label("won"),
                            func.sum(case((and_(is_hold, escrow.c.state == POSTED), 1), else_=0)).label("matches"))
                     .join(escrow, escrow.c.id == case((is_hold, TRANSFERS.c.credit_id), else_=TRANSFERS.c.debit_id))
                     .where(TRANSFERS.c.kind.in_(_SEAT_TRANSFERS), escrow.c.state != PENDING,
                            or_(and_(is_hold, TRANSFERS.c.debit_id.in_(wallets)),
                                and_(~is_hold, TRANSFERS.c.credit_id.in_(wallets))))
                     .group_by(side))
            won = {r.wallet: (int(r.won), int(r.matches)) for r in c.execute(query)}
    return total, [WalletLine(w.removeprefix(f"{WALLET}:"), int(balance), *won.get(w, (0, 0)))
                   for w, balance in page]
