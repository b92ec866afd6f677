"""The audit finds each way the books can be wrong, names it in a sentence, and passes clean books."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, text

from taash.chips import HOUSE_ACCOUNT, ChipsError, Ledger, Stake, wallet_of
from taash.chips.audit import audit
from taash.web.db import make_engine

A, B = wallet_of("asha"), wallet_of("bilal")
NOW = datetime(2026, 11, 24, tzinfo=UTC)


@pytest.fixture
def books(engine: Engine) -> Ledger:
    """A settled match, a refunded one and a pending one."""
    ledger = Ledger(engine)
    ledger.open_wallet("asha")
    ledger.open_wallet("bilal")
    for match in ("won", "left", "playing"):
        ledger.hold(match, [Stake(0, A, 500), Stake(1, B, 500), Stake(2, HOUSE_ACCOUNT, 500)])
    ledger.settle("won", {0: 1000, 1: -500, 2: -500})
    ledger.refund("left")
    return ledger


def tamper(engine: Engine, *statements: str, triggers: bool = False, checks: bool = False) -> None:
    """Change the books behind the ledger's back (SQLite), past the append-only triggers and the CHECKs if asked."""
    with engine.begin() as c:
        if triggers:
            c.exec_driver_sql("DROP TRIGGER chips_transfers_no_update")
            c.exec_driver_sql("DROP TRIGGER chips_transfers_no_delete")
        if checks:
            c.exec_driver_sql("PRAGMA ignore_check_constraints = ON")
        for statement in statements:
            c.execute(text(statement), {"at": NOW})


def faults(engine: Engine) -> list[str]:
    return audit(engine).faults


def test_clean_books_pass_and_are_counted(books: Ledger, engine: Engine) -> None:
    found = audit(engine)
    assert found.clean
    assert found.summary() == ("the books are clean: 7 accounts (2 wallets), 15 transfers, 3 matches (1 pending, "
                               "1 settled, 1 refunded); 20,000 chips granted, 19,500 in wallets, the house at -1,000")


def test_a_balance_changed_by_hand_is_named(books: Ledger, engine: Engine) -> None:
    tamper(engine, "UPDATE chips_accounts SET balance = balance + 7 WHERE id = 'wallet:asha'")
    assert faults(engine) == ["the balances in chips add up to +7, not 0",
                              "wallet:asha has a balance of 10,507, but its transfers add up to 10,500"]


def test_chips_moved_between_balances_without_a_transfer_are_named(books: Ledger, engine: Engine) -> None:
    tamper(engine, "UPDATE chips_accounts SET balance = balance + 100 WHERE id = 'wallet:asha'",
           "UPDATE chips_accounts SET balance = balance - 100 WHERE id = 'wallet:bilal'")
    assert faults(engine) == ["wallet:asha has a balance of 10,600, but its transfers add up to 10,500",
                              "wallet:bilal has a balance of 8,900, but its transfers add up to 9,000"]


def test_a_second_payout_of_a_settled_match_is_named(books: Ledger, engine: Engine) -> None:
    tamper(engine, "INSERT INTO chips_transfers (id, debit_id, credit_id, amount, currency, kind, match_id, "
                   "seat, created_at) VALUES ('won:1:settle', 'escrow:won', 'wallet:bilal', 10, 'chips', 'settle', "
                   "'won', 1, :at)",
           "UPDATE chips_accounts SET balance = balance + 10 WHERE id = 'wallet:bilal'", checks=True)
    assert "match won was settled, but paid out 1,510 of the 1,500 chips held, refunded 0, and its escrow has 0" \
        in faults(engine)


def test_a_settled_match_that_was_also_refunded_is_named(books: Ledger, engine: Engine) -> None:
    tamper(engine, "INSERT INTO chips_transfers (id, debit_id, credit_id, amount, currency, kind, match_id, "
                   "seat, created_at) VALUES ('won:1:refund', 'escrow:won', 'wallet:bilal', 500, 'chips', 'refund', "
                   "'won', 1, :at)", checks=True)
    assert any(f.startswith("match won was settled, but paid out 1,500 of the 1,500 chips held, refunded 500")
               for f in faults(engine))


def test_a_refund_to_someone_else_is_named(books: Ledger, engine: Engine) -> None:
    tamper(engine, "UPDATE chips_transfers SET credit_id = 'wallet:asha' WHERE id = 'left:1:refund'",
           triggers=True)
    assert "match left's refund of seat 1 does not return to the payer of that seat's stake the amount held" \
        in faults(engine)


def test_a_pending_match_with_chips_paid_out_is_named(books: Ledger, engine: Engine) -> None:
    tamper(engine, "INSERT INTO chips_transfers (id, debit_id, credit_id, amount, currency, kind, match_id, "
                   "seat, created_at) VALUES ('playing:0:settle', 'escrow:playing', 'wallet:asha', 100, 'chips', "
                   "'settle', 'playing', 0, :at)",
           "UPDATE chips_accounts SET balance = balance - 100 WHERE id = 'escrow:playing'",
           "UPDATE chips_accounts SET balance = balance + 100 WHERE id = 'wallet:asha'")
    assert faults(engine) == ["match playing is pending, but of the 1,500 chips held 100 were paid out and 0 "
                              "refunded, and its escrow has 1,400"]


def test_a_transfer_into_an_escrow_that_is_not_a_stake_is_named(books: Ledger, engine: Engine) -> None:
    tamper(engine, "INSERT INTO chips_transfers (id, debit_id, credit_id, amount, currency, kind, created_at) "
                   "VALUES ('odd', 'wallet:asha', 'escrow:playing', 5, 'chips', 'move', :at)",
           "UPDATE chips_accounts SET balance = balance - 5 WHERE id = 'wallet:asha'",
           "UPDATE chips_accounts SET balance = balance + 5 WHERE id = 'escrow:playing'")
    found = faults(engine)
    assert "transfer odd moves chips into or out of an escrow other than its own match's way" in found


def test_an_overdrawn_wallet_is_named(books: Ledger, engine: Engine) -> None:
    tamper(engine, "UPDATE chips_accounts SET balance = -1 WHERE id = 'wallet:asha'", checks=True)
    assert "wallet:asha is overdrawn: -1 chips" in faults(engine)


def test_a_finished_table_whose_match_was_not_settled_and_an_abandoned_one_not_refunded_are_named(
        engine: Engine) -> None:
    ledger = Ledger(engine)
    ledger.open_wallet("asha")
    ledger.open_wallet("bilal")
    with engine.begin() as c:
        for table, status in (("t1", "finished"), ("t2", "abandoned"), ("t3", "finished"), ("t4", "playing")):
            c.execute(text("INSERT INTO tables (id, game, code, players, rules, baazis, level, public, seed, status, "
                           "version, created_at) VALUES (:id, 'seep', :id, 2, '\"classic\"', 1, 'easy', false, 1, "
                           ":status, 0, :at)"), {"id": table, "status": status, "at": NOW})
    for table in ("t1", "t2", "t3", "t4"):
        ledger.hold(f"{table}:1", [Stake(0, A, 10), Stake(1, B, 10)], table_id=table)
    ledger.settle("t3:1", {0: 10, 1: -10})
    assert faults(engine) == ["table t1 finished, but its match t1:1 was not settled (pending)",
                              "table t2 was abandoned, but its match t2:1 was not refunded (pending)"]
    ledger.settle("t1:1", {0: 0, 1: 0})
    ledger.refund("t2:1")
    assert faults(engine) == []


def test_a_database_without_books_is_refused(tmp_path: pytest.TempPathFactory) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/empty.db")
    with pytest.raises(ChipsError, match="the database has no chips ledger"):
        audit(engine)
    engine.dispose()


@pytest.fixture
def pg_books(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


def test_the_audit_reads_both_kinds_of_database(pg_books: Engine) -> None:
    ledger = Ledger(pg_books)
    ledger.open_wallet("asha")
    ledger.hold("m", [Stake(0, A, 10), Stake(1, HOUSE_ACCOUNT, 10)])
    assert audit(pg_books).clean
    with pg_books.begin() as c:
        c.execute(text("UPDATE chips_accounts SET balance = balance + 3 WHERE id = 'house'"))
    assert audit(pg_books).faults == ["the balances in chips add up to +3, not 0",
                                      "house has a balance of -7, but its transfers add up to -10"]
