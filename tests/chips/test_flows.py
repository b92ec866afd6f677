"""Chip flows between people: each pair's chips each way through settled matches (a loser's chips shared among
the winners by what each won), net and one-sidedness, the related pairs first; refunded and pending matches and
the house moved nothing between people."""

from __future__ import annotations

from sqlalchemy import Engine

from taash.chips import HOUSE_ACCOUNT, Ledger, Stake, wallet_of
from taash.chips.flows import PairFlow, chip_flows


def settled(ledger: Ledger, match: str, results: dict[str, int], hold: int = 10_000) -> None:
    """A match of ``results`` (payer: chips won) settled; ``house`` is a bot's seat."""
    payers = list(results)
    ledger.hold(match, [Stake(i, HOUSE_ACCOUNT if p == "house" else wallet_of(p), hold) for i, p in enumerate(payers)])
    ledger.settle(match, {i: results[p] for i, p in enumerate(payers)})


def farmed(engine: Engine) -> Ledger:
    """Main farmed 10,000 from each of two helpers; Xavi and Yash played each other both ways; Zoya lost 300 at a
    table of three where Xavi won 200 and Main 100; Main beat a bot; one match refunded, one pending."""
    ledger = Ledger(engine)
    for person in ("main", "h1", "h2", "xavi", "yash", "zoya"):
        ledger.open_wallet(person)
    settled(ledger, "f1:1", {"main": 10_000, "h1": -10_000})
    settled(ledger, "f2:1", {"h2": -10_000, "main": 10_000})
    settled(ledger, "p1:1", {"xavi": 300, "yash": -300}, hold=1_000)
    settled(ledger, "p2:1", {"xavi": -200, "yash": 200}, hold=1_000)
    settled(ledger, "t3:1", {"zoya": -300, "xavi": 200, "main": 100}, hold=1_000)
    settled(ledger, "b1:1", {"main": 50, "house": -50}, hold=1_000)
    ledger.hold("r1:1", [Stake(0, wallet_of("zoya"), 10), Stake(1, wallet_of("yash"), 10)])
    ledger.refund("r1:1")
    ledger.hold("q1:1", [Stake(0, wallet_of("xavi"), 10), Stake(1, wallet_of("zoya"), 10)])
    return ledger


def test_farmed_chips_lead_the_report_and_every_pair_says_what_moved(engine: Engine) -> None:
    farmed(engine)
    related = {frozenset(("main", "h1")): 1, frozenset(("main", "h2")): 2}
    flows = chip_flows(engine, related)
    assert flows[:2] == [PairFlow("h2", "main", 10_000, 0, 1, 2), PairFlow("h1", "main", 10_000, 0, 1, 1)]
    top = flows[0]
    assert (top.net, top.one_sided, top.giver, top.taker) == (10_000, 1.0, "h2", "main")
    rest = {(f.a, f.b): (f.a_to_b, f.b_to_a, f.matches, f.shared) for f in flows[2:]}
    assert rest == {("xavi", "zoya"): (0, 200, 1, 0), ("main", "zoya"): (0, 100, 1, 0),
                    ("main", "xavi"): (0, 0, 1, 0), ("xavi", "yash"): (200, 300, 2, 0)}
    # Unrelated pairs by net x one-sidedness: Zoya's 200 to Xavi, her 100 to Main, Xavi and Yash (100 net of 500,
    # 20%), Main and Xavi (nothing between them, both won).
    assert [(f.a, f.b) for f in flows[2:]] == [("xavi", "zoya"), ("main", "zoya"), ("xavi", "yash"), ("main", "xavi")]
    assert flows[4].one_sided == 0.2 and flows[4].net == -100
    assert flows[0].as_dict()["related"] is True and flows[0].as_dict()["net"] == 10_000
    assert chip_flows(engine) == sorted(chip_flows(engine), key=lambda f: f.suspicion, reverse=True)


def test_no_settled_match_no_flows(engine: Engine) -> None:
    ledger = Ledger(engine)
    ledger.open_wallet("a")
    ledger.open_wallet("b")
    ledger.hold("m:1", [Stake(0, wallet_of("a"), 5), Stake(1, wallet_of("b"), 5)])
    assert chip_flows(engine) == []
