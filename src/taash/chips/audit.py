"""The audit: reads the whole books in one snapshot and names every way they are wrong.

It checks what the constraints already keep (so that a database changed by hand, or a constraint lost in some
migration, is caught) and what no one row can state: every currency sums to zero, every balance equals its
transfers, every match's transfers go in and out of its own escrow, every hold is pending (nothing out yet),
posted once (paid out exactly what was held, nothing refunded) or voided once (each seat's stake back to its payer,
nothing paid out), and a match played at a web table is settled when the table finished and refunded when it was
abandoned.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Connection, Engine, inspect, text

from taash.chips.books import ESCROW, GRANTS, HOLD, HOLD_STATES, HOUSE, PENDING, POSTED, VOIDED, WALLET
from taash.chips.errors import ChipsError

#: The web tables' statuses that must have closed a match's hold one way or the other.
FINISHED = "finished"
ABANDONED = "abandoned"


@dataclass(slots=True)
class Audit:
    """What the audit found: ``faults`` (one sentence each; none when the books are clean) and what it counted."""

    faults: list[str] = field(default_factory=list)
    accounts: int = 0
    wallets: int = 0
    transfers: int = 0
    matches: dict[str, int] = field(default_factory=lambda: dict.fromkeys(HOLD_STATES, 0))
    in_wallets: int = 0
    house: int = 0
    granted: int = 0

    @property
    def clean(self) -> bool:
        return not self.faults

    def summary(self) -> str:
        m = self.matches
        verdict = "the books are clean" if self.clean else f"the books have {_count(len(self.faults), 'fault')}"
        return (f"{verdict}: {_count(self.accounts, 'account')} ({_count(self.wallets, 'wallet')}), "
                f"{_count(self.transfers, 'transfer')}, {_count(sum(m.values()), 'match', 'matches')} "
                f"({m[PENDING]:,} pending, {m[POSTED]:,} settled, {m[VOIDED]:,} refunded); "
                f"{self.granted:,} chips granted, {self.in_wallets:,} in wallets, the house at "
                f"{self.house:+,}")


def _count(n: int, one: str, many: str = "") -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"


def audit(engine: Engine) -> Audit:
    """Check the books on ``engine``; a :class:`ChipsError` when the database has no books at all."""
    with engine.connect() as c:
        names = set(inspect(c).get_table_names())
        if not {"chips_accounts", "chips_transfers"} <= names:
            raise ChipsError("the database has no chips ledger (its schema is older: `taash serve` upgrades it)")
        c.rollback()
        if c.dialect.name == "sqlite":
            c.exec_driver_sql("BEGIN")  # one snapshot for every query (Python's sqlite3 would not begin one)
        else:
            c = c.execution_options(isolation_level="REPEATABLE READ")
        try:
            return _audit(c, with_tables="tables" in names)
        finally:
            c.rollback()


def _rows(c: Connection, sql: str) -> list[tuple[object, ...]]:
    return [tuple(r) for r in c.execute(text(sql))]


def _audit(c: Connection, with_tables: bool) -> Audit:
    found = Audit()
    faults = found.faults
    accounts = _rows(c, "SELECT id, kind, currency, balance, state, table_id FROM chips_accounts")
    found.accounts = len(accounts)
    found.wallets = sum(1 for a in accounts if a[1] == WALLET)
    found.in_wallets = sum(int(str(a[3])) for a in accounts if a[1] == WALLET)
    found.house = sum(int(str(a[3])) for a in accounts if a[1] == HOUSE)
    found.granted = -sum(int(str(a[3])) for a in accounts if a[1] == GRANTS)
    found.transfers = int(str(c.execute(text("SELECT COUNT(*) FROM chips_transfers")).scalar()))

    for currency, total in _rows(c, "SELECT currency, SUM(balance) FROM chips_accounts GROUP BY currency"):
        if int(str(total)) != 0:
            faults.append(f"the balances in {currency} add up to {int(str(total)):+,}, not 0")
    for account, balance, derived in _rows(c, """
            SELECT a.id, a.balance, COALESCE(cr.total, 0) - COALESCE(db.total, 0)
            FROM chips_accounts a
            LEFT JOIN (SELECT credit_id AS id, SUM(amount) AS total FROM chips_transfers GROUP BY credit_id) cr
                ON cr.id = a.id
            LEFT JOIN (SELECT debit_id AS id, SUM(amount) AS total FROM chips_transfers GROUP BY debit_id) db
                ON db.id = a.id
            WHERE a.balance <> COALESCE(cr.total, 0) - COALESCE(db.total, 0)
            ORDER BY a.id"""):
        faults.append(f"{account} has a balance of {int(str(balance)):,}, but its transfers add up to "
                      f"{int(str(derived)):,}")
    for account, kind, _currency, balance, state, _table in accounts:
        b = int(str(balance))
        if (kind in (WALLET, ESCROW) and b < 0) or (kind == GRANTS and b > 0):
            faults.append(f"{account} is overdrawn: {b:,} chips")
        if kind == ESCROW and state not in HOLD_STATES:
            faults.append(f"{account} is in no state a hold may be in ({state!r})")
    for (transfer,) in _rows(c, """
            SELECT t.id FROM chips_transfers t
            LEFT JOIN chips_accounts d ON d.id = t.debit_id AND d.currency = t.currency
            LEFT JOIN chips_accounts r ON r.id = t.credit_id AND r.currency = t.currency
            WHERE d.id IS NULL OR r.id IS NULL OR t.amount <= 0 OR t.debit_id = t.credit_id ORDER BY t.id"""):
        faults.append(f"transfer {transfer} does not move a positive amount between two accounts of its currency")
    for (transfer,) in _rows(c, f"""
            SELECT t.id FROM chips_transfers t
            JOIN chips_accounts d ON d.id = t.debit_id JOIN chips_accounts r ON r.id = t.credit_id
            WHERE CASE WHEN t.kind = '{HOLD}' THEN r.id <> 'escrow:' || t.match_id OR d.kind = '{ESCROW}'
                       WHEN t.kind IN ('settle', 'rake', 'refund')
                            THEN d.id <> 'escrow:' || t.match_id OR r.kind = '{ESCROW}'
                       ELSE d.kind = '{ESCROW}' OR r.kind = '{ESCROW}' END
            ORDER BY t.id"""):
        faults.append(f"transfer {transfer} moves chips into or out of an escrow other than its own match's way")
    _audit_matches(c, accounts, found)
    if with_tables:
        _audit_tables(c, found)
    return found


def _audit_matches(c: Connection, accounts: list[tuple[object, ...]], found: Audit) -> None:
    faults = found.faults
    totals: dict[str, tuple[int, ...]] = {}
    for match, *sums in _rows(c, """
            SELECT match_id,
                SUM(CASE WHEN kind = 'hold' THEN amount ELSE 0 END), SUM(CASE WHEN kind = 'hold' THEN 1 ELSE 0 END),
                SUM(CASE WHEN kind IN ('settle', 'rake') THEN amount ELSE 0 END),
                SUM(CASE WHEN kind IN ('settle', 'rake') THEN 1 ELSE 0 END),
                SUM(CASE WHEN kind = 'refund' THEN amount ELSE 0 END),
                SUM(CASE WHEN kind = 'refund' THEN 1 ELSE 0 END)
            FROM chips_transfers WHERE match_id IS NOT NULL GROUP BY match_id"""):
        totals[f"escrow:{match}"] = tuple(int(str(s)) for s in sums)
    escrows = {str(a[0]): a for a in accounts if a[1] == ESCROW}
    for escrow in sorted(set(totals) - set(escrows)):
        faults.append(f"match {escrow.removeprefix('escrow:')} has transfers but no escrow")
    for escrow, (_id, _kind, _currency, balance, state, _table) in sorted(escrows.items()):
        match = escrow.removeprefix("escrow:")
        held, holds, paid, payouts, refunded, refunds = totals.get(escrow, (0,) * 6)
        b = int(str(balance))
        if state in HOLD_STATES:
            found.matches[str(state)] += 1
        if holds == 0:
            faults.append(f"match {match} has an escrow but no stakes held")
        if state == PENDING and (payouts or refunds or b != held):
            faults.append(f"match {match} is pending, but of the {held:,} chips held {paid:,} were paid out and "
                          f"{refunded:,} refunded, and its escrow has {b:,}")
        elif state == POSTED and (refunds or paid != held or b != 0):
            faults.append(f"match {match} was settled, but paid out {paid:,} of the {held:,} chips held, refunded "
                          f"{refunded:,}, and its escrow has {b:,}")
        elif state == VOIDED and (payouts or refunded != held or b != 0):
            faults.append(f"match {match} was refunded, but refunded {refunded:,} of the {held:,} chips held, paid "
                          f"out {paid:,}, and its escrow has {b:,}")
    for match, seat, kind in _rows(c, """
            SELECT t.match_id, t.seat, t.kind FROM chips_transfers t
            LEFT JOIN chips_transfers h ON h.match_id = t.match_id AND h.seat = t.seat AND h.kind = 'hold'
            WHERE t.kind IN ('settle', 'refund')
              AND (h.id IS NULL OR t.credit_id <> h.debit_id OR (t.kind = 'refund' AND t.amount <> h.amount))
            ORDER BY t.match_id, t.seat"""):
        faults.append(f"match {match}'s {kind} of seat {seat} does not return to the payer of that seat's stake"
                      + (" the amount held" if kind == "refund" else ""))


def _audit_tables(c: Connection, found: Audit) -> None:
    """A match held at a web table is settled once the table finished, refunded once it was abandoned."""
    for match, table, state, status in _rows(c, """
            SELECT a.id, a.table_id, a.state, t.status FROM chips_accounts a JOIN tables t ON t.id = a.table_id
            WHERE a.kind = 'escrow' ORDER BY a.id"""):
        name = str(match).removeprefix("escrow:")
        if status == FINISHED and state != POSTED:
            found.faults.append(f"table {table} finished, but its match {name} was not settled ({state})")
        if status == ABANDONED and state != VOIDED:
            found.faults.append(f"table {table} was abandoned, but its match {name} was not refunded ({state})")
