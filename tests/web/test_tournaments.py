"""Tournaments run by the director at real hub tables, in-process on a real database (SQLite, and PostgreSQL when
``TAASH_TEST_POSTGRES_URL`` is set): whole knockout and Swiss tournaments of 8, free and for chips, registration
and withdrawal, and a director that stops anywhere and is started again carrying on with nothing paid twice."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session

from taash.chips.audit import audit
from taash.chips.ledger import Ledger, Transfer, wallet_of
from taash.tournaments.pairing import TournamentError
from taash.web.db import ResultRow, make_engine, migrate
from taash.web.hub import Hub
from taash.web.store import Store
from taash.web.tournament_book import TournamentSpec, create_tournament, read
from taash.web.tournament_rows import FINISHED, PAYING, TournamentRow, pool_person, prize_id
from taash.web.tournaments import Tournaments
from tests.web.server import POSTGRES, migrated_database

GRANT = 10_000
DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
    POSTGRES is None, reason="TAASH_TEST_POSTGRES_URL is not set"))]


@contextmanager
def database(kind: str, tmp_path: Path) -> Iterator[Engine]:
    """An engine over a new database with the newest schema (tests/web/server.py's ``migrated_database``)."""
    with migrated_database(tmp_path, kind) as url:
        engine = make_engine(url)
        yield engine
        engine.dispose()


class Server:
    """A hub, its books and the tournaments' director over one database, as ``taash serve`` makes them."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.store = Store(engine)
        self.ledger = Ledger(engine, starting_grant=GRANT)
        self.hub = Hub(self.store, bot_delay=0, away_seconds=0, turn_seconds=0, ledger=self.ledger)
        self.hub.restore()
        for live in self.hub.live.values():
            self.hub.schedule_bots(live)
        self.director = Tournaments(engine, self.hub, self.ledger)
        self.hub.on_match_end(self.director.match_ended)

    async def run_until(self, tournament_id: str, statuses: tuple[str, ...] = (FINISHED,), ticks: int = 4000) -> None:
        for _ in range(ticks):
            await self.director.tick()
            record = read(self.engine, tournament_id)
            assert record is not None
            if record.row.status in statuses:
                return
            await asyncio.sleep(0.02)
        raise AssertionError(f"tournament {tournament_id} is still {record.row.status}")

    async def close(self) -> None:
        await self.director.close()
        await self.hub.close()
        self.store.close()


def people(ledger: Ledger, count: int) -> list[str]:
    found = [f"p{i}" for i in range(count)]
    for p in found:
        ledger.open_wallet(p)
    return found


def spec(**changed: object) -> TournamentSpec:
    base: dict[str, object] = {"name": "Sunday cup", "game": "seep", "players": 2, "length": 0, "capacity": 8}
    return TournamentSpec(**{**base, **changed})  # type: ignore[arg-type]


def rounds_of(engine: Engine, tournament_id: str) -> list[int]:
    record = read(engine, tournament_id)
    assert record is not None
    counts: dict[int, int] = {}
    for m in record.matches:
        counts[m.round] = counts.get(m.round, 0) + 1
    return [counts[r] for r in sorted(counts)]


@pytest.mark.parametrize("kind", DATABASES)
def test_a_free_knockout_of_eight_with_bots_plays_to_one_champion(tmp_path: Path, kind: str) -> None:
    with database(kind, tmp_path) as engine:
        async def run() -> None:
            server = Server(engine)
            entrants = people(server.ledger, 3)
            made = create_tournament(engine, None, spec(), "p0")
            for p in entrants:
                await server.director.register(made, p, p.upper())
            with Session(engine) as s, s.begin():  # due now: bots take the five places left
                s.execute(update(TournamentRow).values(starts_at=datetime.now(UTC) - timedelta(seconds=1)))
            await server.run_until(made)
            record = read(engine, made)
            assert record is not None
            assert rounds_of(engine, made) == [4, 2, 1]
            standings = record.standings()
            assert [s.place for s in standings] == [1, 2, 3, 3, 5, 5, 5, 5]
            champion = standings[0].entrant
            final = record.round_matches(3)[0]
            assert final.outcome_of()["goers"] == [champion]
            with Session(engine) as s:  # every match counted, as any table's, in the ratings
                tables = {m.table_id for m in record.matches}
                rated = set(s.scalars(select(ResultRow.table_id).where(ResultRow.table_id.in_(tables))))
            assert rated == tables
            assert all(server.ledger.balance(wallet_of(p)) == GRANT for p in entrants)  # free: no chip moved
            await server.close()

        asyncio.run(run())


def test_a_knockout_of_partners_sends_the_winning_pair_on_and_crowns_a_pair(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as engine:
        async def run() -> None:
            server = Server(engine)
            made = create_tournament(engine, None, spec(players=4), None)
            (alone,) = people(server.ledger, 1)
            await server.director.register(made, alone, "Alone")
            with Session(engine) as s, s.begin():
                s.execute(update(TournamentRow).values(starts_at=datetime.now(UTC) - timedelta(seconds=1)))
            await server.run_until(made)
            record = read(engine, made)
            assert record is not None
            assert rounds_of(engine, made) == [2, 1]
            for m in record.round_matches(1):
                outcome = m.outcome_of()
                winners = [e for e, _team, won, _ in outcome["seats"] if won]
                assert outcome["goers"] == winners and len(winners) == 2
                seats = m.entrants()
                assert seats.index(winners[0]) % 2 == seats.index(winners[1]) % 2  # partners sit opposite
            assert [s.place for s in record.standings()] == [1, 1, 3, 3, 5, 5, 5, 5]
            await server.close()

        asyncio.run(run())


@pytest.mark.parametrize("kind", DATABASES)
def test_a_swiss_of_eight_for_chips_pays_the_pool_once_and_the_books_stay_clean(tmp_path: Path, kind: str) -> None:
    with database(kind, tmp_path) as engine:
        async def run() -> None:
            server = Server(engine)
            entrants = people(server.ledger, 8)
            made = create_tournament(engine, server.ledger, spec(kind="swiss", game="rummy", length="points",
                                                                 fee=500, prizes=(50, 30, 20), bots=False),
                                     None)
            for p in entrants:
                await server.director.register(made, p, p.upper())
            await server.run_until(made)
            record = read(engine, made)
            assert record is not None
            assert record.row.rounds == 3 and rounds_of(engine, made) == [4, 4, 4]
            met: dict[str, list[str]] = {}
            for m in record.matches:
                a, b = m.entrants()
                met.setdefault(a, []).append(b)
                met.setdefault(b, []).append(a)
            assert all(len(set(o)) == 3 for o in met.values()), "nobody meets anyone twice in 3 rounds of 8"
            payout = json.loads(record.row.payout or "{}")
            assert sum(payout.values()) == 8 * 500
            assert server.ledger.balance(wallet_of(pool_person(made))) == 0
            for p in entrants:
                assert server.ledger.balance(wallet_of(p)) == GRANT - 500 + payout.get(p, 0)
            assert audit(engine).clean
            await server.close()

        asyncio.run(run())


def test_registration_refusals_and_a_withdrawal_before_the_start_returns_the_fee(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as engine:
        async def run() -> None:
            server = Server(engine)
            (rich,) = people(server.ledger, 1)
            server.ledger.open_wallet("broke", grant=False)
            made = create_tournament(engine, server.ledger, spec(fee=300, capacity=4), None)
            await server.director.register(made, rich, "Rich")
            assert server.ledger.balance(wallet_of(rich)) == GRANT - 300
            with pytest.raises(TournamentError, match="registered already"):
                await server.director.register(made, rich, "Rich")
            with pytest.raises(TournamentError, match="fewer chips"):
                await server.director.register(made, "broke", "Broke")
            await server.director.withdraw(made, rich)
            assert server.ledger.balance(wallet_of(rich)) == GRANT
            with pytest.raises(TournamentError, match="not registered"):
                await server.director.withdraw(made, rich)
            await server.director.register(made, rich, "Rich")  # again: a second fee, under its own id
            record = read(engine, made)
            assert record is not None and record.people == [rich]
            assert server.ledger.balance(wallet_of(rich)) == GRANT - 300
            assert server.ledger.balance(wallet_of(pool_person(made))) == 300
            assert audit(engine).clean
            await server.close()

        asyncio.run(run())


@pytest.mark.parametrize("bad", [
    {"kind": "arena"}, {"capacity": 1}, {"capacity": 65}, {"fee": -1}, {"prizes": (60, 30)}, {"name": " "},
    {"game": "chess"}, {"players": 3}, {"level": "godlike"},
    {"starts_at": datetime(2000, 1, 1, tzinfo=UTC)}])
def test_a_tournament_that_cannot_be_played_is_refused_in_one_sentence(tmp_path: Path, bad: dict[str, object]) -> None:
    with database("sqlite", tmp_path) as engine:
        with pytest.raises(TournamentError) as refused:
            create_tournament(engine, None, spec(**bad), None)
        assert "\n" not in str(refused.value)
        with Session(engine) as s:
            assert s.scalars(select(TournamentRow)).first() is None


class CrashingLedger(Ledger):
    """Books whose second prize never gets paid: the server dies there."""

    def __init__(self, engine: Engine):
        super().__init__(engine, starting_grant=GRANT)
        self.prizes_paid: list[str] = []

    def transfer(self, transfer_id: str, debit: str, credit: str, amount: int, kind: str = "move") -> Transfer:
        if ":prize:" in transfer_id and self.transfer_by_id(transfer_id) is None and any(
                ":prize:" in t for t in self.prizes_paid):
            raise RuntimeError("killed")
        done = super().transfer(transfer_id, debit, credit, amount, kind)
        self.prizes_paid.append(transfer_id)
        return done


def test_a_director_stopped_during_the_payout_pays_the_rest_once_when_started_again(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as engine:
        async def run() -> str:
            server = Server(engine)
            server.director.ledger = CrashingLedger(engine)
            entrants = people(server.ledger, 4)
            made = create_tournament(engine, server.ledger, spec(fee=1000, capacity=4, prizes=(60, 40)), None)
            for p in entrants:
                await server.director.register(made, p, p)
            await server.run_until(made, (PAYING,))  # its payout's first transfer is made, then it dies
            record = read(engine, made)
            assert record is not None and record.row.status == PAYING
            assert len([p for p in entrants if server.ledger.transfer_by_id(prize_id(made, p))]) == 1
            await server.close()
            again = Server(engine)
            await again.run_until(made)
            await again.close()
            return made

        made = asyncio.run(run())
        ledger = Ledger(engine)
        assert ledger.balance(wallet_of(pool_person(made))) == 0
        assert sum(ledger.balance(wallet_of(f"p{i}")) for i in range(4)) == 4 * GRANT
        assert audit(engine).clean


@pytest.mark.parametrize("kind", DATABASES)
def test_the_tournament_tables_are_as_their_models_say_and_downgrade_away(tmp_path: Path, kind: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy import inspect

    from taash.web.db import Base
    from tests.web.test_migrations import downgrade

    with database(kind, tmp_path) as engine:
        with engine.connect() as c:
            differences = [d for d in compare_metadata(MigrationContext.configure(c), Base.metadata)
                           if "tournament" in repr(d)]
        assert differences == []
        url = engine.url.render_as_string(hide_password=False)
        engine.dispose()
        downgrade(url, "0016_chat")
        old = make_engine(url)
        assert not {"tournaments", "tournament_entrants", "tournament_matches"} & set(inspect(old).get_table_names())
        migrate(old)
        assert {"tournaments", "tournament_entrants", "tournament_matches"} <= set(inspect(old).get_table_names())
        old.dispose()


def test_the_hook_at_a_matchs_end_takes_the_tournament_on_without_a_tick(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as engine:
        async def run() -> None:
            server = Server(engine)
            made = create_tournament(engine, None, spec(capacity=2), None)
            for p in people(server.ledger, 2):
                await server.director.register(made, p, p)  # full: it starts, its one match at a table
            for _ in range(3000):
                record = read(engine, made)
                assert record is not None
                if record.row.status == FINISHED:
                    break
                await asyncio.sleep(0.01)
            assert record.row.status == FINISHED and record.matches[0].status == "done"
            await server.close()

        asyncio.run(run())
