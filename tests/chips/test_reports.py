"""What the books say about people: each match's chips for a person (settled, refunded, pending, unstaked) and the
board of wallets by balance with chips won at tables, on each database offered."""

from __future__ import annotations

import pytest

from taash.chips import HOUSE_ACCOUNT, Ledger, Stake, wallet_of
from taash.chips.reports import chips_by_match, wallet_board
from taash.web.db import make_engine

GRANT = 10_000


def played(database_url: str) -> Ledger:
    """Anil and Bina: one match between them settled (Bina wins 300, 10% rake), one against a bot settled (Anil
    loses 50 to the house), one refunded, one still pending; Chetan never played."""
    ledger = Ledger(make_engine(database_url), rake_percent=10)
    for person in ("anil", "bina", "chetan"):
        ledger.open_wallet(person)
    ledger.hold("t1:1", [Stake(0, wallet_of("anil"), 500), Stake(1, wallet_of("bina"), 500)], table_id="t1")
    ledger.settle("t1:1", {0: -300, 1: 300})
    ledger.hold("t2:1", [Stake(0, wallet_of("anil"), 100), Stake(1, HOUSE_ACCOUNT, 100)], table_id="t2")
    ledger.settle("t2:1", {0: -50, 1: 50})
    ledger.hold("t3:1", [Stake(0, wallet_of("anil"), 70), Stake(1, wallet_of("bina"), 70)], table_id="t3")
    ledger.refund("t3:1")
    ledger.hold("t4:1", [Stake(0, wallet_of("anil"), 40), Stake(1, wallet_of("bina"), 40)], table_id="t4")
    return ledger


def test_each_match_moved_its_settlement_after_the_rake(database_url: str) -> None:
    ledger = played(database_url)
    matches = ["t1:1", "t2:1", "t3:1", "t4:1", "t5:1"]
    assert chips_by_match(ledger.engine, "anil", matches) == {"t1:1": -300, "t2:1": -50, "t3:1": 0}
    # Bina's 300 less the house's 10%; she was not at t2; t4 is pending and t5 had no stakes: left out.
    assert chips_by_match(ledger.engine, "bina", matches) == {"t1:1": 270, "t3:1": 0}
    assert chips_by_match(ledger.engine, "chetan", matches) == {}
    assert chips_by_match(ledger.engine, "anil", []) == {}
    # They agree with the wallets: what the settled matches moved, and the pending stake held.
    assert ledger.balance(wallet_of("anil")) == GRANT - 300 - 50 - 40
    assert ledger.balance(wallet_of("bina")) == GRANT + 270 - 40
    ledger.engine.dispose()


def test_the_board_ranks_wallets_by_balance_with_chips_won_at_tables(database_url: str) -> None:
    ledger = played(database_url)
    total, lines = wallet_board(ledger.engine, limit=10)
    assert total == 3
    assert [(w.person, w.balance, w.won, w.matches) for w in lines] == [
        ("bina", GRANT + 230, 270, 1), ("chetan", GRANT, 0, 0), ("anil", GRANT - 390, -350, 2)]
    # Pages: two, then the rest; past the end, none.
    assert [w.person for w in wallet_board(ledger.engine, limit=2)[1]] == ["bina", "chetan"]
    assert [w.person for w in wallet_board(ledger.engine, limit=2, offset=2)[1]] == ["anil"]
    assert wallet_board(ledger.engine, limit=2, offset=5) == (3, [])
    for limit, offset in ((0, 0), (5, -1)):
        with pytest.raises(ValueError, match="a page of the board needs"):
            wallet_board(ledger.engine, limit, offset)
    ledger.engine.dispose()


def test_equal_balances_are_ranked_by_id(database_url: str) -> None:
    ledger = Ledger(make_engine(database_url))
    for person in ("zed", "amy", "kim"):
        ledger.open_wallet(person)
    assert [w.person for w in wallet_board(ledger.engine, limit=5)[1]] == ["amy", "kim", "zed"]
    ledger.engine.dispose()
