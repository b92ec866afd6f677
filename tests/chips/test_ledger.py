"""The ledger's rules, one by one: grants, idempotent transfers, refused conflicting retries, holds that are all or
nothing, settlements and refunds that happen once, the rake, the daily bonus, bad input."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import Engine

from taash.chips import (
    GRANTS_ACCOUNT,
    HOUSE_ACCOUNT,
    POSTED,
    STARTING_GRANT,
    VOIDED,
    ChipsError,
    ConflictingTransfer,
    InsufficientChips,
    Ledger,
    MatchClosed,
    Stake,
    UnknownAccount,
    escrow_of,
    wallet_of,
)
from taash.chips.audit import audit

A, B, C = wallet_of("asha"), wallet_of("bilal"), wallet_of("chitra")


def seated(ledger: Ledger, *people: str) -> None:
    for person in people:
        ledger.open_wallet(person)


def stakes(amount: int, *payers: str) -> list[Stake]:
    return [Stake(seat, payer, amount) for seat, payer in enumerate(payers)]


def clean(engine: Engine) -> None:
    found = audit(engine)
    assert found.faults == []


def test_a_new_wallet_opens_with_the_starting_grant_once(ledger: Ledger, engine: Engine) -> None:
    first = ledger.open_wallet("asha")
    again = ledger.open_wallet("asha")
    assert first == again and first is not None and first.id == "grant:asha"
    assert ledger.balance(A) == STARTING_GRANT == -ledger.balance(GRANTS_ACCOUNT)
    clean(engine)


def test_the_starting_grant_is_a_parameter(engine: Engine) -> None:
    ledger = Ledger(engine, starting_grant=250)
    ledger.open_wallet("asha")
    assert ledger.balance(A) == 250


def test_a_retried_transfer_is_recognised_and_not_made_twice(ledger: Ledger, engine: Engine) -> None:
    seated(ledger, "asha", "bilal")
    first = ledger.transfer("gift:asha:bilal:1", A, B, 300)
    assert ledger.transfer("gift:asha:bilal:1", A, B, 300) == first
    assert (ledger.balance(A), ledger.balance(B)) == (STARTING_GRANT - 300, STARTING_GRANT + 300)
    clean(engine)


@pytest.mark.parametrize(("debit", "credit", "amount"), [(A, B, 301), (B, A, 300), (A, C, 300)])
def test_the_same_transfer_id_with_another_amount_or_other_accounts_is_refused(
        ledger: Ledger, debit: str, credit: str, amount: int) -> None:
    seated(ledger, "asha", "bilal", "chitra")
    ledger.transfer("gift:1", A, B, 300)
    before = ledger.balances()
    with pytest.raises(ConflictingTransfer, match="gift:1 was made already as 300 chips from wallet:asha"):
        ledger.transfer("gift:1", debit, credit, amount)
    assert ledger.balances() == before


def test_a_wallet_cannot_pay_more_than_it_has(ledger: Ledger) -> None:
    seated(ledger, "asha", "bilal")
    with pytest.raises(InsufficientChips, match="wallet:asha has 10,000 chips, fewer than the 10,001"):
        ledger.transfer("too-much", A, B, STARTING_GRANT + 1)
    assert ledger.balance(A) == STARTING_GRANT and ledger.transfer_by_id("too-much") is None


def test_a_hold_moves_every_stake_into_the_matchs_escrow(ledger: Ledger, engine: Engine) -> None:
    seated(ledger, "asha", "bilal")
    held = ledger.hold("t1:1", stakes(500, A, B, HOUSE_ACCOUNT), table_id="t1")
    assert held.state == "pending" and held.pot == 1500 and held.table_id == "t1"
    assert [t.id for t in held.transfers] == ["t1:1:0:hold", "t1:1:1:hold", "t1:1:2:hold"]
    assert ledger.balance(escrow_of("t1:1")) == 1500
    assert (ledger.balance(A), ledger.balance(HOUSE_ACCOUNT)) == (STARTING_GRANT - 500, -500)
    clean(engine)


def test_a_hold_is_all_or_nothing_when_one_seat_is_short(ledger: Ledger) -> None:
    seated(ledger, "asha", "bilal")
    ledger.transfer("spend", B, A, STARTING_GRANT - 100)
    before = ledger.balances()
    with pytest.raises(InsufficientChips, match="seat 1 has 100 chips, fewer than the 500"):
        ledger.hold("m", stakes(500, A, B))
    assert ledger.balances() == before and ledger.match("m") is None


def test_a_person_seated_twice_must_cover_both_stakes(ledger: Ledger) -> None:
    seated(ledger, "asha")
    with pytest.raises(InsufficientChips, match="seat 1 has 10,000 chips, fewer than the 12,000"):
        ledger.hold("m", stakes(6000, A, A))


def test_holding_again_with_the_same_stakes_returns_the_hold_and_other_stakes_are_refused(ledger: Ledger) -> None:
    seated(ledger, "asha", "bilal")
    held = ledger.hold("m", stakes(500, A, B))
    assert ledger.hold("m", list(reversed(stakes(500, A, B)))) == held
    with pytest.raises(ConflictingTransfer, match="match m already holds other stakes"):
        ledger.hold("m", stakes(600, A, B))
    with pytest.raises(ConflictingTransfer):
        ledger.hold("m", stakes(500, B, A))
    assert ledger.balance(escrow_of("m")) == 1000


def test_settling_pays_each_seat_its_stake_and_its_result(ledger: Ledger, engine: Engine) -> None:
    seated(ledger, "asha", "bilal", "chitra")
    ledger.hold("m", stakes(800, A, B, C))
    settled = ledger.settle("m", {0: 1000, 1: -800, 2: -200})
    assert settled.state == POSTED
    assert [(t.id, t.credit, t.amount) for t in settled.transfers if t.kind == "settle"] == [
        ("m:0:settle", A, 1800), ("m:2:settle", C, 600)]  # bilal lost his whole stake: nothing to pay him
    assert (ledger.balance(A), ledger.balance(B), ledger.balance(C)) == (11_000, 9_200, 9_800)
    assert ledger.balance(escrow_of("m")) == 0
    clean(engine)


def test_a_settlement_happens_once_and_a_retry_with_the_same_results_changes_nothing(ledger: Ledger) -> None:
    seated(ledger, "asha", "bilal")
    ledger.hold("m", stakes(500, A, B))
    first = ledger.settle("m", {0: 500, 1: -500})
    after = ledger.balances()
    assert ledger.settle("m", {1: -500, 0: 500}) == first
    assert ledger.balances() == after


def test_a_second_settlement_with_other_results_is_refused(ledger: Ledger) -> None:
    seated(ledger, "asha", "bilal")
    ledger.hold("m", stakes(500, A, B))
    ledger.settle("m", {0: 500, 1: -500})
    after = ledger.balances()
    with pytest.raises(ConflictingTransfer, match="match m was settled already with other results"):
        ledger.settle("m", {0: -500, 1: 500})
    assert ledger.balances() == after


def test_a_settled_match_cannot_be_refunded_nor_a_refunded_one_settled(ledger: Ledger) -> None:
    seated(ledger, "asha", "bilal")
    ledger.hold("won", stakes(500, A, B))
    ledger.settle("won", {0: 500, 1: -500})
    with pytest.raises(MatchClosed, match="match won was settled: it cannot be refunded"):
        ledger.refund("won")
    ledger.hold("left", stakes(500, A, B))
    ledger.refund("left")
    with pytest.raises(MatchClosed, match="match left was refunded: it cannot be settled"):
        ledger.settle("left", {0: 500, 1: -500})


def test_a_refund_returns_every_stake_once(ledger: Ledger, engine: Engine) -> None:
    seated(ledger, "asha", "bilal")
    ledger.hold("m", stakes(700, A, B, HOUSE_ACCOUNT))
    refunded = ledger.refund("m")
    assert refunded.state == VOIDED and ledger.refund("m") == refunded
    assert ledger.balances()[A] == ledger.balances()[B] == STARTING_GRANT
    assert ledger.balance(HOUSE_ACCOUNT) == 0
    clean(engine)


def test_the_rake_goes_to_the_house_from_the_winnings_rounded_down(engine: Engine) -> None:
    ledger = Ledger(engine, rake_percent=5)
    seated(ledger, "asha", "bilal", "chitra")
    ledger.hold("m", stakes(1000, A, B, C))
    settled = ledger.settle("m", {0: 730, 1: 270, 2: -1000})
    # 5% of 730 is 36.5 (36) and of 270 is 13.5 (13): the house gets 49
    assert [(t.id, t.amount) for t in settled.transfers if t.kind in ("settle", "rake")] == [
        ("m:0:settle", 1694), ("m:1:settle", 1257), ("m:rake", 49)]
    assert ledger.balance(HOUSE_ACCOUNT) == 49
    clean(engine)


def test_there_is_no_rake_by_default(ledger: Ledger) -> None:
    seated(ledger, "asha", "bilal")
    ledger.hold("m", stakes(1000, A, B))
    settled = ledger.settle("m", {0: 1000, 1: -1000})
    assert all(t.kind != "rake" for t in settled.transfers) and ledger.balance(HOUSE_ACCOUNT) == 0


def test_a_bot_plays_with_the_houses_chips(ledger: Ledger, engine: Engine) -> None:
    seated(ledger, "asha")
    ledger.hold("m", stakes(400, A, HOUSE_ACCOUNT, HOUSE_ACCOUNT))
    ledger.settle("m", {0: -400, 1: 300, 2: 100})
    assert ledger.balance(HOUSE_ACCOUNT) == 400 and ledger.balance(A) == STARTING_GRANT - 400
    clean(engine)


@pytest.mark.parametrize(("results", "message"), [
    ({0: 500}, r"must name its seats \[0, 1\], not \[0\]"),
    ({0: 500, 1: -500, 2: 0}, r"must name its seats \[0, 1\], not \[0, 1, 2\]"),
    ({0: 500, 1: -400}, "must add up to 0"),
    ({0: 600, 1: -600}, "seat 1 cannot lose 600 chips: he staked 500"),
    ({0: 1.5, 1: -1.5}, "seat 0's result must be a whole number"),
    ({0: True, 1: -1}, "seat 0's result must be a whole number"),
])
def test_results_that_do_not_fit_the_stakes_are_refused(ledger: Ledger, results: dict[int, int],
                                                        message: str) -> None:
    seated(ledger, "asha", "bilal")
    ledger.hold("m", stakes(500, A, B))
    before = ledger.balances()
    with pytest.raises(ChipsError, match=message):
        ledger.settle("m", results)
    assert ledger.balances() == before and ledger.match("m").state == "pending"  # type: ignore[union-attr]


@pytest.mark.parametrize(("bad", "message"), [
    ([], "holds no stakes"),
    ([Stake(0, A, 0)], "seat 0's stake must be a whole number of chips from 1"),
    ([Stake(0, A, -5)], "from 1"),
    ([Stake(0, A, 10), Stake(0, B, 10)], "names a seat twice"),
    ([Stake(-1, A, 10)], "a seat is a number from 0 to 99"),
    ([Stake(0, wallet_of("nobody"), 10)], "payer 'wallet:nobody' has no account"),
    ([Stake(0, GRANTS_ACCOUNT, 10)], "must come from a wallet or the house"),
])
def test_stakes_that_make_no_sense_are_refused(ledger: Ledger, bad: list[Stake], message: str) -> None:
    seated(ledger, "asha", "bilal")
    with pytest.raises(ChipsError, match=message):
        ledger.hold("m", bad)
    assert ledger.match("m") is None


def test_settling_or_refunding_a_match_never_held_is_refused(ledger: Ledger) -> None:
    with pytest.raises(UnknownAccount, match="no stakes were held for match nothing"):
        ledger.settle("nothing", {})
    with pytest.raises(UnknownAccount):
        ledger.refund("nothing")


def test_bad_names_are_refused(ledger: Ledger) -> None:
    with pytest.raises(ChipsError, match="a match id must be 1 to 120 characters without spaces"):
        ledger.hold("a match", [Stake(0, A, 5)])
    for person in ("", "a:b", "a b"):
        with pytest.raises(ChipsError, match="a person must be 1 to 150 characters without spaces or colons"):
            ledger.open_wallet(person)
    with pytest.raises(ChipsError, match="a grant's reason must be"):
        ledger.grant("asha", 5, "x:y")


def test_the_daily_bonus_tops_up_a_person_below_the_floor_once_a_day(engine: Engine) -> None:
    ledger = Ledger(engine, starting_grant=2000, bonus_floor=1000, daily_bonus=500)
    seated(ledger, "asha", "bilal")
    day = date(2026, 11, 24)
    assert ledger.daily_bonus("asha", day) is None  # 2,000 chips: above the floor
    ledger.transfer("lost", A, B, 1500)
    bonus = ledger.daily_bonus("asha", day)
    assert bonus is not None and bonus.id == "bonus:asha:2026-11-24" and bonus.amount == 500
    assert ledger.daily_bonus("asha", day) == bonus and ledger.balance(A) == 1000
    ledger.transfer("lost-again", A, B, 1000)
    assert ledger.daily_bonus("asha", day) == bonus and ledger.balance(A) == 0  # once a day
    assert ledger.daily_bonus("asha", date(2026, 11, 25)) is not None and ledger.balance(A) == 500
    clean(engine)


def test_a_grant_is_given_once_per_reason(ledger: Ledger) -> None:
    seated(ledger, "asha")
    first = ledger.grant("asha", 250, "diwali")
    assert ledger.grant("asha", 250, "diwali") == first and ledger.balance(A) == STARTING_GRANT + 250
    with pytest.raises(ConflictingTransfer):
        ledger.grant("asha", 300, "diwali")


def test_a_match_transfer_cannot_be_made_by_hand(ledger: Ledger) -> None:
    seated(ledger, "asha")
    with pytest.raises(ChipsError, match="is made by a match's hold, settlement or refund"):
        ledger.transfer("fake", A, HOUSE_ACCOUNT, 5, kind="settle")


def test_the_rake_is_fixed_when_the_stakes_are_held(engine: Engine) -> None:
    seated(Ledger(engine), "asha", "bilal")
    Ledger(engine, rake_percent=10).hold("m", stakes(1000, A, B))
    after_a_restart = Ledger(engine, rake_percent=0)  # the server restarted with another rake: the match keeps its own
    settled = after_a_restart.settle("m", {0: 1000, 1: -1000})
    assert settled.rake_percent == 10 and after_a_restart.balance(HOUSE_ACCOUNT) == 100
    assert Ledger(engine, rake_percent=3).settle("m", {0: 1000, 1: -1000}) == settled  # a retry, whatever the rake
    with pytest.raises(ConflictingTransfer, match="match m was held with a rake of 10%, not 3%"):
        after_a_restart.hold("m", stakes(1000, A, B), rake_percent=3)
    assert Ledger(engine).hold("n", stakes(10, A, B), rake_percent="2.5").rake_percent == 2.5


@pytest.mark.parametrize("rake", [-1, 101, "0.001", "lots", True])
def test_a_rake_out_of_bounds_is_refused(engine: Engine, rake: object) -> None:
    with pytest.raises(ChipsError, match="the rake must be from 0 to 100 percent"):
        Ledger(engine, rake_percent=rake)  # type: ignore[arg-type]
    seated(Ledger(engine), "asha")
    with pytest.raises(ChipsError, match="the rake must be from 0 to 100 percent"):
        Ledger(engine).hold("m", stakes(10, A), rake_percent=rake)  # type: ignore[arg-type]


def test_a_wallet_opened_before_the_starting_grant_changed_opens_again_without_a_second_grant(engine: Engine) -> None:
    first = Ledger(engine).open_wallet("asha")
    assert Ledger(engine, starting_grant=500).open_wallet("asha") == first
    assert Ledger(engine).balance(A) == STARTING_GRANT


def test_todays_bonus_is_returned_after_the_bonus_changed(engine: Engine) -> None:
    ledger = Ledger(engine, starting_grant=100)
    seated(ledger, "asha")
    given = ledger.daily_bonus("asha", date(2026, 11, 24))
    assert given is not None and given.amount == 1000
    assert Ledger(engine, starting_grant=100, daily_bonus=50).daily_bonus("asha", date(2026, 11, 24)) == given


def test_a_bonus_for_someone_without_a_wallet_is_refused(ledger: Ledger) -> None:
    with pytest.raises(UnknownAccount, match="nobody has no wallet in the books"):
        ledger.daily_bonus("nobody", date(2026, 11, 24))


def test_a_plain_transfer_cannot_touch_a_matchs_escrow(ledger: Ledger, engine: Engine) -> None:
    seated(ledger, "asha", "bilal")
    ledger.hold("m", stakes(500, A, B))
    for debit, credit in ((escrow_of("m"), A), (A, escrow_of("m"))):
        with pytest.raises(ChipsError, match="a match's escrow takes and pays chips only by its hold"):
            ledger.transfer("skim", debit, credit, 100)
    assert ledger.balance(escrow_of("m")) == 1000
    clean(engine)


def test_a_write_that_cannot_get_the_database_is_refused_in_a_sentence_and_changes_nothing(sqlite_url: str) -> None:
    from sqlalchemy import create_engine

    impatient = create_engine(sqlite_url, connect_args={"timeout": 0.01})
    ledger = Ledger(impatient, attempts=3)
    other = create_engine(sqlite_url)
    with other.connect() as writer:
        writer.exec_driver_sql("BEGIN IMMEDIATE")  # another process is writing and does not finish
        with pytest.raises(ChipsError, match="the books are too busy: 3 tries lost a race"):
            ledger.open_wallet("asha")
        writer.rollback()
    assert ledger.match("m") is None and "wallet:asha" not in ledger.balances()
    ledger.open_wallet("asha")
    assert ledger.balance(A) == STARTING_GRANT
    impatient.dispose()
    other.dispose()
