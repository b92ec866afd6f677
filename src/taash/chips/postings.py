"""The writes of one ledger transaction on its connection (:mod:`taash.chips.ledger` runs them): accounts locked and
created, a transfer posted with the balances it moves, an escrow closed, a match's hold read back, the transfers
that settle it, and what a refused or raced transaction means."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, cast

from sqlalchemy import Connection, Table, insert, select, update
from sqlalchemy.exc import DBAPIError

from taash.chips.books import (
    CHIPS,
    ESCROW,
    GRANTS,
    HOLD,
    HOUSE_ACCOUNT,
    MATCH_TRANSFERS,
    PENDING,
    RAKE,
    SETTLE,
    TRANSFER_KINDS,
    WALLET,
    AccountRow,
    TransferRow,
    now,
)
from taash.chips.errors import ChipsError, ConflictingTransfer, InsufficientChips, UnknownAccount
from taash.chips.transfers import Hold, Stake, Transfer

ACCOUNTS = cast(Table, AccountRow.__table__)

TRANSFERS = cast(Table, TransferRow.__table__)


def _transfer(row: Any) -> Transfer:
    return Transfer(row.id, row.debit_id, row.credit_id, row.amount, row.kind, row.match_id, row.seat, row.currency)


def _describe(t: Transfer) -> str:
    return f"{t.amount:,} {t.currency} from {t.debit} to {t.credit} ({t.kind})"

#: PostgreSQL's codes for a transaction that lost a race: serialization failure, deadlock, unique violation.
_RETRY_SQLSTATES = {"40001", "40P01", "23505"}


def _lost_a_race(error: DBAPIError) -> bool:
    """Whether running the transaction again may succeed (another transaction got there first)."""
    cause = error.orig
    code = getattr(cause, "sqlstate", None)
    if code is not None:
        return code in _RETRY_SQLSTATES
    text = str(cause).lower()
    return "database is locked" in text or "busy" in text or "unique constraint failed" in text


def _refusal(error: DBAPIError) -> ChipsError:
    """What a constraint of the books that refused a change says, in a sentence."""
    text = str(error.orig).split("\n")[0]
    if "never_overdrawn" in text:
        return InsufficientChips(f"the books refused a transfer that would overdraw an account ({text})")
    return ChipsError(f"the books refused the change: {text}")


@dataclass(slots=True)
class _Account:
    id: str
    kind: str
    currency: str
    balance: int
    state: str | None


def _lock(c: Connection, ids: Iterable[str]) -> dict[str, _Account]:
    """The accounts named (those that exist), locked against other writers until the commit, in id order."""
    wanted = sorted(set(ids))
    query = (select(ACCOUNTS.c.id, ACCOUNTS.c.kind, ACCOUNTS.c.currency, ACCOUNTS.c.balance, ACCOUNTS.c.state)
             .where(ACCOUNTS.c.id.in_(wanted)).order_by(ACCOUNTS.c.id).with_for_update())
    return {r.id: _Account(r.id, r.kind, r.currency, int(r.balance), r.state) for r in c.execute(query)}


def _create(c: Connection, account: str, kind: str) -> None:
    """Make ``account`` (empty) unless the books have it (both dialects say ``INSERT ... ON CONFLICT DO NOTHING``)."""
    from sqlalchemy.dialects import postgresql, sqlite

    dialect = postgresql if c.dialect.name == "postgresql" else sqlite
    c.execute(dialect.insert(ACCOUNTS).values(id=account, kind=kind, currency=CHIPS, balance=0, created_at=now())
              .on_conflict_do_nothing(index_elements=["id"]))


def _existing(c: Connection, transfer_id: str) -> Transfer | None:
    row = c.execute(select(TRANSFERS).where(TRANSFERS.c.id == transfer_id)).one_or_none()
    return None if row is None else _transfer(row)


def _post(c: Connection, accounts: dict[str, _Account], t: Transfer) -> Transfer:
    """Record ``t`` and move the balances of its (locked) accounts; if ``t.id`` is taken, return that transfer when
    it is ``t`` (a retry), refuse it when it is not."""
    if t.kind not in TRANSFER_KINDS:
        raise ChipsError(f"no transfer is of kind {t.kind!r}")
    found = _existing(c, t.id)
    if found is not None:
        if found != t:
            raise ConflictingTransfer(f"transfer {t.id} was made already as {_describe(found)}, not "
                                      f"{_describe(t)}")
        return found
    if t.debit == t.credit:
        raise ChipsError(f"transfer {t.id} moves chips from {t.debit} to itself")
    for side in (t.debit, t.credit):
        if side not in accounts:
            raise UnknownAccount(f"the books have no account {side!r}")
        if accounts[side].currency != t.currency:
            raise ChipsError(f"transfer {t.id} is in {t.currency}, account {side} in {accounts[side].currency}")
    debit, credit = accounts[t.debit], accounts[t.credit]
    if t.kind not in MATCH_TRANSFERS and ESCROW in (debit.kind, credit.kind):
        raise ChipsError(f"a match's escrow takes and pays chips only by its hold, settlement or refund, not by "
                         f"{t.id}")
    if debit.kind in (WALLET, ESCROW) and debit.balance < t.amount:
        raise InsufficientChips(f"{t.debit} has {debit.balance:,} chips, fewer than the {t.amount:,} of {t.id}")
    if credit.kind == GRANTS and credit.balance + t.amount > 0:
        raise ChipsError(f"the grant source only gives: {t.id} would leave it above 0")
    c.execute(insert(TRANSFERS).values(id=t.id, debit_id=t.debit, credit_id=t.credit, amount=t.amount,
                                       currency=t.currency, kind=t.kind, match_id=t.match_id, seat=t.seat,
                                       created_at=now()))
    for account, change in ((debit, -t.amount), (credit, t.amount)):
        c.execute(update(ACCOUNTS).where(ACCOUNTS.c.id == account.id)
                  .values(balance=ACCOUNTS.c.balance + change))
        account.balance += change
    return t


def _close(c: Connection, escrow: str, state: str) -> None:
    done = c.execute(update(ACCOUNTS).where(ACCOUNTS.c.id == escrow, ACCOUNTS.c.state == PENDING)
                     .values(state=state, closed_at=now()))
    if done.rowcount != 1:  # pragma: no cover - the escrow is locked and was pending
        raise ChipsError(f"{escrow} was closed by another transaction")


def _hold(c: Connection, match_id: str, escrow: Any) -> Hold:
    rows = c.execute(select(TRANSFERS).where(TRANSFERS.c.match_id == match_id).order_by(TRANSFERS.c.created_at,
                                                                                         TRANSFERS.c.id))
    transfers = tuple(_transfer(r) for r in rows)
    table_id, rake_bps = c.execute(select(ACCOUNTS.c.table_id, ACCOUNTS.c.rake_bps)
                                   .where(ACCOUNTS.c.id == escrow.id)).one()
    stakes = tuple(sorted((Stake(t.seat, t.debit, t.amount) for t in transfers
                           if t.kind == HOLD and t.seat is not None), key=lambda s: s.seat))
    return Hold(match_id, escrow.state, stakes, transfers, table_id, Decimal(rake_bps) / 100)


def _stakes(stakes: Iterable[Stake]) -> str:
    return ", ".join(f"seat {s.seat}: {s.amount:,} from {s.payer}" for s in stakes)


def _settlement(held: Hold, results: Mapping[int, int]) -> list[Transfer]:
    """The transfers that settle ``held`` by ``results``: each seat's payout, and the house's rake."""
    seats = {s.seat: s for s in held.stakes}
    if set(results) != set(seats):
        raise ChipsError(f"match {held.match_id}'s results must name its seats {sorted(seats)}, "
                         f"not {sorted(results)}")
    for seat, result in results.items():
        if isinstance(result, bool) or not isinstance(result, int):
            raise ChipsError(f"seat {seat}'s result must be a whole number of chips, not {result!r}")
        if result < -seats[seat].amount:
            raise ChipsError(f"seat {seat} cannot lose {-result:,} chips: he staked {seats[seat].amount:,}")
    if sum(results.values()) != 0:
        raise ChipsError(f"match {held.match_id}'s results must add up to 0 (what the losers lose the winners win), "
                         f"not {sum(results.values()):+,}")
    escrow = held.escrow
    transfers: list[Transfer] = []
    rake = 0
    rake_bps = int(held.rake_percent * 100)
    for seat, stake in sorted(seats.items()):
        result = results[seat]
        cut = max(result, 0) * rake_bps // 10_000
        rake += cut
        payout = stake.amount + result - cut
        if payout > 0:
            transfers.append(Transfer(f"{held.match_id}:{seat}:{SETTLE}", escrow, stake.payer, payout, SETTLE,
                                      held.match_id, seat))
    if rake > 0:
        transfers.append(Transfer(f"{held.match_id}:{RAKE}", escrow, HOUSE_ACCOUNT, rake, RAKE, held.match_id))
    return transfers
