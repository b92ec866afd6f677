"""The constraints of the books hold in the database itself, whatever Python does: raw SQL that would overdraw a
wallet, change or delete a transfer, close an escrow that still holds chips or pay a seat twice is refused. The
models agree with the migrated schema, and a database of an older taash upgrades in place."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from taash.chips import HOUSE_ACCOUNT, Ledger, Stake, wallet_of
from taash.chips.audit import audit
from taash.chips.books import ChipsBase
from taash.web.db import make_engine, migrate
from tests.web.test_migrations import downgrade

A, B = wallet_of("asha"), wallet_of("bilal")
NOW = datetime(2026, 11, 24, tzinfo=UTC)


@pytest.fixture
def books(database_url: str) -> Iterator[tuple[Engine, Ledger]]:
    """Two wallets and a pending match, on SQLite and (when offered) PostgreSQL."""
    engine = make_engine(database_url)
    ledger = Ledger(engine)
    ledger.open_wallet("asha")
    ledger.open_wallet("bilal")
    ledger.hold("m", [Stake(0, A, 500), Stake(1, B, 500)])
    yield engine, ledger
    engine.dispose()


def refused(engine: Engine, sql: str, **values: object) -> str:
    """The database's refusal of ``sql``, which must change nothing."""
    before = Ledger(engine).balances()
    with pytest.raises((IntegrityError, DBAPIError)) as caught, engine.begin() as c:
        c.execute(text(sql), values)
    assert Ledger(engine).balances() == before
    return str(caught.value.orig)


def test_a_raw_update_cannot_overdraw_a_wallet(books: tuple[Engine, Ledger]) -> None:
    engine, _ = books
    assert "never_overdrawn" in refused(engine, "UPDATE chips_accounts SET balance = -1 WHERE id = :id", id=A)


def test_a_raw_insert_cannot_open_an_overdrawn_wallet_or_escrow_or_a_grant_source_in_credit(
        books: tuple[Engine, Ledger]) -> None:
    engine, _ = books
    insert = ("INSERT INTO chips_accounts (id, kind, currency, balance, state, created_at) "
              "VALUES (:id, :kind, 'chips', :balance, :state, :at)")
    assert "never_overdrawn" in refused(engine, insert, id="wallet:x", kind="wallet", balance=-5, state=None, at=NOW)
    assert "never_overdrawn" in refused(engine, insert, id="escrow:x", kind="escrow", balance=-5, state="pending",
                                        at=NOW)
    assert "never_overdrawn" in refused(engine, "UPDATE chips_accounts SET balance = 1 WHERE id = 'grants'")


def test_the_house_may_go_below_zero(books: tuple[Engine, Ledger]) -> None:
    _, ledger = books
    ledger.hold("bots", [Stake(0, HOUSE_ACCOUNT, 300)])
    assert ledger.balance(HOUSE_ACCOUNT) == -300


def test_a_transfer_that_bypasses_the_ledger_cannot_overdraw_a_wallet(books: tuple[Engine, Ledger]) -> None:
    """What a bug that forgot Python's check would do: record the transfer and move the balances by hand."""
    engine, _ = books
    with pytest.raises(IntegrityError, match="never_overdrawn"), engine.begin() as c:
        c.execute(text("INSERT INTO chips_transfers (id, debit_id, credit_id, amount, currency, kind, created_at) "
                       "VALUES ('sneaky', :a, :b, 20000, 'chips', 'move', :at)"), {"a": A, "b": B, "at": NOW})
        c.execute(text("UPDATE chips_accounts SET balance = balance + 20000 WHERE id = :b"), {"b": B})
        c.execute(text("UPDATE chips_accounts SET balance = balance - 20000 WHERE id = :a"), {"a": A})
    assert Ledger(engine).transfer_by_id("sneaky") is None
    assert audit(engine).clean


@pytest.mark.parametrize("sql", ["UPDATE chips_transfers SET amount = 1 WHERE id = 'grant:asha'",
                                 "DELETE FROM chips_transfers WHERE id = 'grant:asha'"])
def test_transfers_are_never_changed_or_deleted(books: tuple[Engine, Ledger], sql: str) -> None:
    engine, ledger = books
    assert "append-only" in refused(engine, sql)
    assert ledger.transfer_by_id("grant:asha") is not None


def test_an_escrow_that_still_holds_chips_cannot_be_closed(books: tuple[Engine, Ledger]) -> None:
    engine, _ = books
    assert "closed_escrow_empty" in refused(
        engine, "UPDATE chips_accounts SET state = 'posted', closed_at = :at WHERE id = 'escrow:m'", at=NOW)


def test_a_closed_escrow_takes_no_more_chips(books: tuple[Engine, Ledger]) -> None:
    engine, ledger = books
    ledger.refund("m")
    assert "closed_escrow_empty" in refused(
        engine, "UPDATE chips_accounts SET balance = 10 WHERE id = 'escrow:m'")


def test_a_seat_is_paid_at_most_once_whatever_the_transfer_id(books: tuple[Engine, Ledger]) -> None:
    engine, ledger = books
    ledger.settle("m", {0: 500, 1: -500})
    message = refused(engine, "INSERT INTO chips_transfers (id, debit_id, credit_id, amount, currency, kind, "
                              "match_id, seat, created_at) VALUES ('m:0:settle-again', 'escrow:m', :a, 1, 'chips', "
                              "'settle', 'm', 0, :at)", a=A, at=NOW)
    assert "uq_chips_transfers_match_seat_kind" in message or "UNIQUE" in message


def test_a_transfer_names_accounts_of_its_own_currency(books: tuple[Engine, Ledger]) -> None:
    engine, _ = books
    message = refused(engine, "INSERT INTO chips_transfers (id, debit_id, credit_id, amount, currency, kind, "
                              "created_at) VALUES ('gold', :a, :b, 1, 'gold', 'move', :at)", a=A, b=B, at=NOW)
    assert "FOREIGN KEY" in message or "fk_chips_transfers" in message


def test_the_models_are_the_migrated_schema(engine: Engine) -> None:
    with engine.connect() as c:
        differences = compare_metadata(MigrationContext.configure(c), ChipsBase.metadata)
    assert [d for d in differences if "chips_" in repr(d)] == []


def test_a_database_of_the_taash_before_chips_upgrades_in_place(database_url: str) -> None:
    downgrade(database_url, "0005")  # and the triggers go with the tables (else the upgrade could not make them)
    engine = make_engine(database_url)
    assert "chips_accounts" not in inspect(engine).get_table_names()
    migrate(engine)
    ledger = Ledger(engine)
    ledger.open_wallet("asha")
    assert ledger.balance(A) == 10_000 and audit(engine).clean
    engine.dispose()
