"""Many tables settle at once, from threads: each match's hold and settlement are sent twice at the same moment
(a retry racing the original), and people pass chips to each other in both directions across them. Nothing is
paid twice, no transaction deadlocks for good, the audit is clean and every balance is the sum of what happened.
On SQLite (one writer at a time) and on PostgreSQL (row locks) when one is offered."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import text

from taash.chips import HOUSE_ACCOUNT, POSTED, STARTING_GRANT, VOIDED, Ledger, Stake, escrow_of, wallet_of
from taash.chips.audit import audit
from taash.web.db import make_engine

PEOPLE = [f"p{i}" for i in range(6)]
MATCHES = 40
STAKE = 100
THREADS = 8


def test_concurrent_settlements_of_many_tables(database_url: str) -> None:
    engine = make_engine(database_url)
    ledger = Ledger(engine, rake_percent=2)
    for person in PEOPLE:
        ledger.open_wallet(person)
    rng = random.Random(17)
    model = {wallet_of(p): STARTING_GRANT for p in PEOPLE}
    model[HOUSE_ACCOUNT] = 0
    tasks: list[Callable[[], object]] = []
    for number in range(MATCHES):
        match = f"table{number}:1"
        payers = [wallet_of(p) for p in rng.sample(PEOPLE, rng.randint(1, 3))] + [HOUSE_ACCOUNT] * rng.randint(0, 1)
        stakes = [Stake(seat, payer, STAKE) for seat, payer in enumerate(payers)]
        if len(stakes) == 1:
            stakes.append(Stake(1, HOUSE_ACCOUNT, STAKE))
        losses = [-rng.randint(0, STAKE) for _ in stakes[1:]]
        results = {0: -sum(losses), **{seat + 1: loss for seat, loss in enumerate(losses)}}
        abandoned = rng.random() < 0.25
        model[escrow_of(match)] = 0
        for s in stakes:
            cut = 0 if abandoned else max(results[s.seat], 0) * 2 // 100
            model[s.payer] += 0 if abandoned else results[s.seat] - cut
            model[HOUSE_ACCOUNT] += cut

        def play(match: str = match, stakes: list[Stake] = stakes, results: dict[int, int] = results,
                 abandoned: bool = abandoned) -> object:
            ledger.hold(match, stakes, table_id=match.split(":")[0])
            return ledger.refund(match) if abandoned else ledger.settle(match, results)

        tasks += [play, play]  # the original and its retry, at once
    for number in range(MATCHES):
        giver, taker = rng.sample(PEOPLE, 2)
        model[wallet_of(giver)] -= 7
        model[wallet_of(taker)] += 7

        def give(n: int = number, giver: str = giver, taker: str = taker) -> object:
            return ledger.transfer(f"gift:{n}", wallet_of(giver), wallet_of(taker), 7)

        tasks += [give, give]
    rng.shuffle(tasks)
    start = threading.Barrier(THREADS)

    def run(share: list[Callable[[], object]]) -> int:
        start.wait()
        for task in share:
            task()
        return len(share)

    with ThreadPoolExecutor(THREADS) as pool:
        done = sum(pool.map(run, [tasks[i::THREADS] for i in range(THREADS)]))
    assert done == len(tasks)
    balances = ledger.balances()
    model["grants"] = -STARTING_GRANT * len(PEOPLE)
    assert balances == model
    for number in range(MATCHES):
        held = ledger.match(f"table{number}:1")
        assert held is not None and held.state in (POSTED, VOIDED)
    with engine.connect() as c:
        gifts = c.execute(text("SELECT COUNT(*) FROM chips_transfers WHERE kind = 'move'")).scalar()
    assert gifts == MATCHES
    assert audit(engine).faults == []
    engine.dispose()
