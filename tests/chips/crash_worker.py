"""A process that settles matches in a loop until it is killed, for the ``kill -9`` tests.

:func:`main` (run in a forked process: no second start-up of Python): first it finishes what a killed predecessor
may have left (the last match it began: the hold retried, then its settlement or refund, each a no-op if it was
done), says ``(LAST, STATE)`` (the state that match was found in) down its pipe and waits for ``go``; then it plays
matches ``km:K+1``, ``km:K+2``, ... (each a hold and its settlement or refund, as :func:`plan` says) until killed.
"""

from __future__ import annotations

import random
from multiprocessing.connection import Connection

from sqlalchemy import Engine, text

from taash.chips import HOUSE_ACCOUNT, InsufficientChips, Ledger, Stake, escrow_of, wallet_of
from taash.web.db import make_engine

PEOPLE = tuple(f"p{i}" for i in range(5))
PAYERS = (*(wallet_of(p) for p in PEOPLE), HOUSE_ACCOUNT)
RAKE = 5


def match_id(number: int) -> str:
    return f"km:{number}"


def plan(seed: int, number: int) -> tuple[list[Stake], dict[int, int] | None]:
    """Match ``number``'s stakes, and its results (None: abandoned, to be refunded)."""
    rng = random.Random(f"{seed}:{number}")
    seats = rng.randint(2, 4)
    amount = rng.choice([100, 700, 2500])
    stakes = [Stake(seat, rng.choice(PAYERS), amount) for seat in range(seats)]
    if rng.random() < 0.2:
        return stakes, None
    winner = rng.randrange(seats)
    results = {seat: -rng.randint(0, amount) for seat in range(seats) if seat != winner}
    results[winner] = -sum(results.values())
    return stakes, results


def play(ledger: Ledger, seed: int, number: int) -> None:
    """Match ``number`` from its hold to its end; every step may be a retry."""
    stakes, results = plan(seed, number)
    try:
        ledger.hold(match_id(number), stakes)
    except InsufficientChips:
        return  # a payer cannot cover his stake: the match is not played
    if results is None:
        ledger.refund(match_id(number))
    else:
        ledger.settle(match_id(number), results)


def last_begun(engine: Engine) -> int | None:
    """The number of the last match that has an escrow (the worker plays them in order)."""
    with engine.connect() as c:
        ids = c.execute(text("SELECT id FROM chips_accounts WHERE kind = 'escrow'")).scalars()
        numbers = [int(i.removeprefix("escrow:km:")) for i in ids]
    return max(numbers, default=None)


def expected(seed: int, upto: int | None, balances: dict[str, int]) -> dict[str, int]:
    """``balances`` after matches 0 to ``upto`` played by :func:`play` (a model: a dict of numbers)."""
    model = dict(balances)
    for number in range(-1 if upto is None else upto + 1):
        stakes, results = plan(seed, number)
        owed: dict[str, int] = {}
        for s in stakes:
            owed[s.payer] = owed.get(s.payer, 0) + s.amount
        if any(p != HOUSE_ACCOUNT and owed[p] > model[p] for p in owed):
            continue
        for s in stakes:
            cut = 0 if results is None else max(results[s.seat], 0) * RAKE // 100
            back = s.amount if results is None else s.amount + results[s.seat] - cut
            model[s.payer] += back - s.amount
            model[HOUSE_ACCOUNT] += cut
        model[escrow_of(match_id(number))] = 0
    return model


def main(url: str, seed: int, pipe: Connection) -> None:
    engine = make_engine(url)
    ledger = Ledger(engine, rake_percent=RAKE)
    last = last_begun(engine)
    state = "none"
    if last is not None:
        held = ledger.match(match_id(last))
        state = held.state if held is not None else "none"
        play(ledger, seed, last)
    pipe.send((last, state))
    if pipe.recv() != "go":
        return
    number = 0 if last is None else last + 1
    while True:
        play(ledger, seed, number)
        number += 1

