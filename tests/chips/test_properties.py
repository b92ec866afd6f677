"""Property tests: random interleavings of wallets, holds, settlements, refunds, plain transfers, their retries and
conflicting retries keep the audit clean and every balance equal to a simple model's (a dict of numbers)."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from taash.chips import (
    GRANTS_ACCOUNT,
    HOUSE_ACCOUNT,
    STARTING_GRANT,
    ChipsError,
    ConflictingTransfer,
    InsufficientChips,
    Ledger,
    MatchClosed,
    Stake,
    escrow_of,
    wallet_of,
)
from taash.chips.audit import audit
from taash.web.db import make_engine, migrate

PEOPLE = ("asha", "bilal", "chitra", "dev")
RAKE = 3  # percent: the model takes it the same way, from each winner's winnings, rounded down

_template: list[Path] = []


def template() -> Path:
    """A migrated SQLite database, made once for the whole module and copied for each example."""
    if not _template:
        directory = Path(tempfile.mkdtemp(prefix="taash-chips-"))
        atexit.register(shutil.rmtree, directory, True)
        engine = make_engine(f"sqlite:///{directory / 'template.db'}")
        migrate(engine)
        engine.dispose()
        _template.append(directory / "template.db")
    return _template[0]


@dataclass
class ModelMatch:
    stakes: list[Stake]
    state: str = "pending"
    results: dict[int, int] = field(default_factory=dict)


class Books(RuleBasedStateMachine):
    """The ledger beside a model of what every balance must be."""

    def __init__(self) -> None:
        super().__init__()
        self.directory = Path(tempfile.mkdtemp(prefix="taash-chips-example-"))
        shutil.copyfile(template(), self.directory / "books.db")
        self.engine = make_engine(f"sqlite:///{self.directory / 'books.db'}")
        self.ledger = Ledger(self.engine, rake_percent=RAKE)
        self.model: dict[str, int] = {HOUSE_ACCOUNT: 0, GRANTS_ACCOUNT: 0}
        self.matches: dict[str, ModelMatch] = {}
        self.moves: list[tuple[str, str, str, int]] = []

    def teardown(self) -> None:
        self.engine.dispose()
        shutil.rmtree(self.directory, ignore_errors=True)

    def move(self, debit: str, credit: str, amount: int) -> None:
        self.model[debit] -= amount
        self.model[credit] = self.model.get(credit, 0) + amount

    @initialize()
    def two_people(self) -> None:
        for person in PEOPLE[:2]:
            self.open_wallet(person)

    @rule(person=st.sampled_from(PEOPLE))
    def open_wallet(self, person: str) -> None:
        self.ledger.open_wallet(person)
        if wallet_of(person) not in self.model:
            self.model[wallet_of(person)] = 0
            self.move(GRANTS_ACCOUNT, wallet_of(person), STARTING_GRANT)

    def wallets(self) -> list[str]:
        return sorted(a for a in self.model if a.startswith("wallet:"))

    @rule(data=st.data(), seats=st.integers(1, 4))
    def hold(self, data: st.DataObject, seats: int) -> None:
        payers = st.sampled_from([*self.wallets(), HOUSE_ACCOUNT])
        stakes = [Stake(seat, data.draw(payers), data.draw(st.sampled_from([1, 50, 999, 4000, 7000])))
                  for seat in range(seats)]
        match = f"t{len(self.matches)}:1"
        owed: dict[str, int] = {}
        for s in stakes:
            owed[s.payer] = owed.get(s.payer, 0) + s.amount
        if any(p != HOUSE_ACCOUNT and owed[p] > self.model[p] for p in owed):
            with pytest.raises(InsufficientChips):
                self.ledger.hold(match, stakes)
            assert self.ledger.match(match) is None
            return
        held = self.ledger.hold(match, stakes)
        assert held.state == "pending" and held.pot == sum(owed.values())
        self.matches[match] = ModelMatch(stakes)
        self.model[escrow_of(match)] = 0
        for s in stakes:
            self.move(s.payer, escrow_of(match), s.amount)

    def matches_in(self, state: str) -> list[str]:
        return sorted(m for m, held in self.matches.items() if held.state == state)

    @precondition(lambda self: self.matches_in("pending"))
    @rule(data=st.data())
    def settle(self, data: st.DataObject) -> None:
        match = data.draw(st.sampled_from(self.matches_in("pending")))
        held = self.matches[match]
        losses = {s.seat: data.draw(st.integers(0, s.amount)) for s in held.stakes}
        winner = data.draw(st.sampled_from([s.seat for s in held.stakes]))
        results = {seat: -loss for seat, loss in losses.items() if seat != winner}
        results[winner] = -sum(results.values())
        self.ledger.settle(match, results)
        held.state, held.results = "posted", results
        for s in held.stakes:
            cut = max(results[s.seat], 0) * RAKE // 100
            self.move(escrow_of(match), s.payer, s.amount + results[s.seat] - cut)
            self.move(escrow_of(match), HOUSE_ACCOUNT, cut)

    @precondition(lambda self: self.matches_in("pending"))
    @rule(data=st.data())
    def refund(self, data: st.DataObject) -> None:
        match = data.draw(st.sampled_from(self.matches_in("pending")))
        self.ledger.refund(match)
        self.matches[match].state = "voided"
        for s in self.matches[match].stakes:
            self.move(escrow_of(match), s.payer, s.amount)

    @rule(data=st.data(), amount=st.integers(1, 12_000))
    def transfer(self, data: st.DataObject, amount: int) -> None:
        if len(self.wallets()) < 2:
            return
        debit, credit = data.draw(st.permutations(self.wallets()))[:2]
        transfer_id = f"gift:{len(self.moves)}"
        if amount > self.model[debit]:
            with pytest.raises(InsufficientChips):
                self.ledger.transfer(transfer_id, debit, credit, amount)
            return
        self.ledger.transfer(transfer_id, debit, credit, amount)
        self.moves.append((transfer_id, debit, credit, amount))
        self.move(debit, credit, amount)

    @precondition(lambda self: self.matches or self.moves)
    @rule(data=st.data())
    def retry(self, data: st.DataObject) -> None:
        """A crash after the commit, before the caller heard of it: the same call again changes nothing."""
        before = self.ledger.balances()
        if self.moves and (not self.matches or data.draw(st.booleans())):
            transfer_id, debit, credit, amount = data.draw(st.sampled_from(self.moves))
            assert self.ledger.transfer(transfer_id, debit, credit, amount).amount == amount
        else:
            match = data.draw(st.sampled_from(sorted(self.matches)))
            held = self.matches[match]
            again = self.ledger.hold(match, list(reversed(held.stakes)))
            assert again.state == held.state
            if held.state == "posted":
                self.ledger.settle(match, held.results)
            elif held.state == "voided":
                self.ledger.refund(match)
        assert self.ledger.balances() == before

    @precondition(lambda self: self.matches or self.moves)
    @rule(data=st.data())
    def conflicting_retry(self, data: st.DataObject) -> None:
        """The same ids with other amounts, results or outcomes: refused, nothing changed."""
        before = self.ledger.balances()
        if self.moves and (not self.matches or data.draw(st.booleans())):
            transfer_id, debit, credit, amount = data.draw(st.sampled_from(self.moves))
            with pytest.raises(ConflictingTransfer):
                self.ledger.transfer(transfer_id, debit, credit, amount + 1)
        else:
            match = data.draw(st.sampled_from(sorted(self.matches)))
            held = self.matches[match]
            changed = [Stake(s.seat, s.payer, s.amount + 1) for s in held.stakes]
            with pytest.raises(ConflictingTransfer):
                self.ledger.hold(match, changed)
            if held.state == "posted":
                with pytest.raises(MatchClosed):
                    self.ledger.refund(match)
                other = {seat: -result for seat, result in held.results.items()}
                if other != held.results and all(-r >= -s.amount for s in held.stakes
                                                 for seat, r in held.results.items() if seat == s.seat):
                    with pytest.raises(ChipsError):  # other results: a conflict, or a loss beyond a stake
                        self.ledger.settle(match, other)
            elif held.state == "voided":
                with pytest.raises(MatchClosed):
                    self.ledger.settle(match, dict.fromkeys((s.seat for s in held.stakes), 0))
        assert self.ledger.balances() == before

    @invariant()
    def balances_are_the_models_and_the_audit_is_clean(self) -> None:
        assert self.ledger.balances() == self.model
        found = audit(self.engine)
        assert found.faults == []


Books.TestCase.settings = settings(max_examples=30, stateful_step_count=25, deadline=None,
                                   suppress_health_check=[HealthCheck.too_slow])
TestBooks = Books.TestCase
