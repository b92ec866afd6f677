"""Registrations at the same moment through different servers of a cluster (issue 30): each server is a director of
its own, in its own thread and event loop, over one database (SQLite, and PostgreSQL when
``TAASH_TEST_POSTGRES_URL`` is set). The tournament never seats more entrants than its size and takes nobody's fee
twice, because the places are counted under the tournament's lock in the database, not in one server's memory."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine

from taash.chips.audit import audit
from taash.chips.ledger import Ledger, Transfer, wallet_of
from taash.tournaments.pairing import TournamentError
from taash.web.tournament_book import create_tournament, read
from taash.web.tournament_rows import ENTERING, REGISTERED, WITHDRAWN, pool_person
from taash.web.tournaments import ENTERING_SECONDS, Tournaments
from tests.web.test_tournaments import DATABASES, GRANT, Server, database, people, spec

FEE = 100


class GatedLedger(Ledger):
    """Books whose fee payments into ``pool`` wait for each other at ``gate`` (for at most a second): two
    registrations that both reach the payment pay at the same moment, and one that reaches it alone goes on."""

    def __init__(self, engine: Engine, pool: str, gate: threading.Barrier):
        super().__init__(engine, starting_grant=GRANT)
        self.pool, self.gate = pool, gate

    def transfer(self, transfer_id: str, debit: str, credit: str, amount: int, kind: str = "move") -> Transfer:
        if credit == self.pool:
            with contextlib.suppress(threading.BrokenBarrierError):
                self.gate.wait()
        return super().transfer(transfer_id, debit, credit, amount, kind)


def registering(engine: Engine, made: str, who: list[str], ledger: Callable[[], Ledger] | None = None,
                start: threading.Barrier | None = None) -> tuple[list[str], list[str]]:
    """Register ``who`` through a server of its own (each at once, in its own event loop and thread, not directing
    the tournament); who got in, and the refusals."""
    got: list[str] = []
    refused: list[str] = []

    async def run() -> None:
        server = Server(engine)
        if ledger is not None:
            server.ledger = server.director.ledger = ledger()
        server.director.directs = never
        if start is not None:
            await asyncio.to_thread(start.wait)

        async def one(person: str) -> None:
            try:
                await server.director.register(made, person, person.upper())
                got.append(person)
            except TournamentError as e:
                refused.append(str(e))

        await asyncio.gather(*(one(p) for p in who))
        await server.close()

    asyncio.run(run())
    return got, refused


async def never(tournament_id: str) -> bool:
    return False


async def always(tournament_id: str) -> bool:
    return True


def at_once(*work: Callable[[], tuple[list[str], list[str]]]) -> list[tuple[list[str], list[str]]]:
    results: list[tuple[list[str], list[str]]] = [([], [])] * len(work)

    def run(i: int) -> None:
        results[i] = work[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(work))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return results


@pytest.mark.parametrize("kind", DATABASES)
def test_two_servers_taking_the_last_place_at_once_seat_one(tmp_path: Path, kind: str) -> None:
    """The first entry is still paying its fee when the second server counts the places: it holds the place."""
    with database(kind, tmp_path) as engine:
        ledger = Ledger(engine, starting_grant=GRANT)
        first, second = people(ledger, 2)
        made = create_tournament(engine, ledger, spec(capacity=2, fee=FEE), None)
        gate = threading.Barrier(2, timeout=1)
        gated = lambda: GatedLedger(engine, wallet_of(pool_person(made)), gate)  # noqa: E731
        ledger.open_wallet("early")
        assert registering(engine, made, ["early"]) == (["early"], [])
        a, b = at_once(lambda: registering(engine, made, [first], gated),
                       lambda: registering(engine, made, [second], gated))
        got = a[0] + b[0]
        assert len(got) == 1, f"both {first} and {second} took the last place"
        assert a[1] + b[1] == ["the tournament is full (2 entrants)"]
        record = read(engine, made)
        assert record is not None and sorted(record.people) == sorted(["early", *got])
        assert ledger.balance(wallet_of(pool_person(made))) == 2 * FEE
        (left,) = {first, second} - set(got)
        assert ledger.balance(wallet_of(got[0])) == GRANT - FEE and ledger.balance(wallet_of(left)) == GRANT
        assert audit(engine).clean


@pytest.mark.parametrize("kind", DATABASES)
def test_one_person_registering_through_two_servers_at_once_pays_one_fee(tmp_path: Path, kind: str) -> None:
    with database(kind, tmp_path) as engine:
        ledger = Ledger(engine, starting_grant=GRANT)
        (person,) = people(ledger, 1)
        made = create_tournament(engine, ledger, spec(capacity=4, fee=FEE), None)
        gate = threading.Barrier(2, timeout=1)
        gated = lambda: GatedLedger(engine, wallet_of(pool_person(made)), gate)  # noqa: E731
        a, b = at_once(lambda: registering(engine, made, [person], gated),
                       lambda: registering(engine, made, [person], gated))
        assert a[0] + b[0] == [person]
        assert a[1] + b[1] == ["you are registered already"]
        record = read(engine, made)
        assert record is not None and record.people == [person]
        assert ledger.balance(wallet_of(person)) == GRANT - FEE
        assert ledger.balance(wallet_of(pool_person(made))) == FEE
        assert audit(engine).clean


@pytest.mark.parametrize("kind", DATABASES)
def test_ten_people_rushing_eight_places_through_two_servers_seat_eight_each_paying_once(
        tmp_path: Path, kind: str) -> None:
    with database(kind, tmp_path) as engine:
        ledger = Ledger(engine, starting_grant=GRANT)
        crowd = people(ledger, 10)
        made = create_tournament(engine, ledger, spec(capacity=8, fee=FEE), None)
        start = threading.Barrier(2, timeout=30)
        a, b = at_once(lambda: registering(engine, made, crowd[::2], start=start),
                       lambda: registering(engine, made, crowd[1::2], start=start))
        got = a[0] + b[0]
        assert len(got) == 8 and sorted(a[1] + b[1]) == ["the tournament is full (8 entrants)"] * 2
        record = read(engine, made)
        assert record is not None and sorted(record.people) == sorted(got)
        assert ledger.balance(wallet_of(pool_person(made))) == 8 * FEE
        assert all(ledger.balance(wallet_of(p)) == GRANT - (FEE if p in got else 0) for p in crowd)
        assert audit(engine).clean


class LateLedger(Ledger):
    """Books that run ``meanwhile`` just before a fee is paid into ``pool``."""

    def __init__(self, engine: Engine, pool: str, meanwhile: Callable[[], None]):
        super().__init__(engine, starting_grant=GRANT)
        self.pool, self.meanwhile = pool, meanwhile

    def transfer(self, transfer_id: str, debit: str, credit: str, amount: int, kind: str = "move") -> Transfer:
        if credit == self.pool:
            self.meanwhile()
        return super().transfer(transfer_id, debit, credit, amount, kind)


def test_an_entry_the_director_settled_as_unpaid_while_its_fee_was_being_taken_gets_the_fee_back(
        tmp_path: Path) -> None:
    """Another server's director settles the entries a crash would have left: it finds this one's fee not taken
    yet, ENTERING_SECONDS after the entry was made (its server stalled), and withdraws it; the fee then taken is
    returned, and the person is asked to try again."""
    with database("sqlite", tmp_path) as engine:
        async def run() -> None:
            server = Server(engine)
            (person,) = people(server.ledger, 1)
            made = create_tournament(engine, server.ledger, spec(fee=FEE), None)
            later = lambda: datetime.now(UTC) + timedelta(seconds=ENTERING_SECONDS + 1)  # noqa: E731
            director = Tournaments(engine, server.hub, server.ledger, now=later, directs=always)  # another server's

            def settle() -> None:
                record = read(engine, made)
                assert record is not None
                assert director._settle_entries(record)

            server.director.ledger = LateLedger(engine, wallet_of(pool_person(made)), settle)
            with pytest.raises(TournamentError, match="could not be made: please try again"):
                await server.director.register(made, person, "P")
            record = read(engine, made)
            assert record is not None and record.people == [] and record.entrants[0].state == WITHDRAWN
            assert server.ledger.balance(wallet_of(person)) == GRANT
            assert server.ledger.balance(wallet_of(pool_person(made))) == 0
            assert audit(engine).clean
            server.director.ledger = server.ledger
            await server.director.register(made, person, "P")  # again: in
            assert server.ledger.balance(wallet_of(person)) == GRANT - FEE
            await server.close()

        asyncio.run(run())


@pytest.mark.parametrize("kind", DATABASES)
def test_an_entry_being_paid_for_on_one_server_is_left_alone_by_the_director_of_another(
        tmp_path: Path, kind: str) -> None:
    """Regression (issue 30, found through a real cluster): the director of one server stepped the tournament while
    another server was taking a person's fee, took the entry for one a crash had left half made, and withdrew it:
    the person was refused ("please try again") and his fee returned. An entry being paid for now is his
    registration's to finish."""
    with database(kind, tmp_path) as engine:
        async def run() -> None:
            director, other = Server(engine), Server(engine)  # two servers of a cluster: the first directs
            director.director.directs, other.director.directs = always, never
            (person,) = people(other.ledger, 1)
            made = create_tournament(engine, other.ledger, spec(fee=FEE), None)
            stepped: list[bool] = []

            def meanwhile() -> None:  # the director's step, while the other server takes the fee
                record = read(engine, made)
                assert record is not None and record.entrants[0].state == ENTERING
                stepped.append(director.director._settle_entries(record))

            other.director.ledger = LateLedger(engine, wallet_of(pool_person(made)), meanwhile)
            await other.director.register(made, person, "P")
            assert stepped == [False]
            record = read(engine, made)
            assert record is not None and record.people == [person] and record.entrants[0].state == REGISTERED
            assert other.ledger.balance(wallet_of(person)) == GRANT - FEE
            assert audit(engine).clean
            await director.close()
            await other.close()

        asyncio.run(run())
