"""Arena tournaments run by the director at real hub tables on the fake clock (SQLite, and PostgreSQL when
``TAASH_TEST_POSTGRES_URL`` is set): whoever finishes is paired again at once while the window is open, nothing new
starts once it closes, the matches being played finish, and the standings and prizes follow the arena's points."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session

from taash.chips.audit import audit
from taash.chips.ledger import wallet_of
from taash.tournaments.arena import arena_score
from taash.web.tournament_book import arena_results, create_tournament, read
from taash.web.tournament_rows import DONE, FINISHED, TournamentRow, pool_person
from tests.web.test_tournaments import DATABASES, GRANT, Server, database, people, spec


class Moment:
    """The director's wall clock, moved by the test."""

    def __init__(self) -> None:
        self.at = datetime(2026, 11, 27, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at


async def ticks_until(server: Server, tournament_id: str, done: int) -> None:
    """Tick until ``done`` of the arena's matches are counted (the window open: they are paired on)."""
    for _ in range(4000):
        await server.director.tick()
        record = read(server.engine, tournament_id)
        assert record is not None
        if sum(m.status == DONE for m in record.matches) >= done:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the arena's matches were not played")


@pytest.mark.parametrize("kind", DATABASES)
def test_an_arena_of_eight_with_bots_pairs_on_until_its_window_closes_then_pays_by_points(tmp_path: Path,
                                                                                          kind: str) -> None:
    with database(kind, tmp_path) as engine:
        async def run() -> None:
            server = Server(engine)
            clock = Moment()
            server.director.now = clock
            entrants = people(server.ledger, 4)
            made = create_tournament(engine, server.ledger, spec(kind="arena", minutes=30, fee=200,
                                                                 prizes=(60, 40)), None, now=clock.at)
            for p in entrants:
                await server.director.register(made, p, p.upper())
            with Session(engine) as s, s.begin():  # due now: bots take the four places left
                s.execute(update(TournamentRow).values(starts_at=clock.at - timedelta(seconds=1)))
            await ticks_until(server, made, 12)
            record = read(engine, made)
            assert record is not None and record.row.status == "running"
            assert record.row.ends_at is not None
            assert len(record.seeds) == 8
            clock.at += timedelta(minutes=30)  # the window closes
            await server.director.tick()
            closing = read(engine, made)
            assert closing is not None
            made_by_then = len(closing.matches)
            await server.run_until(made)
            record = read(engine, made)
            assert record is not None
            assert len(record.matches) == made_by_then, "no match is made once the window has closed"
            assert all(m.status == DONE for m in record.matches) and len(record.matches) >= 12
            played: dict[str, int] = {}
            for m in record.matches:
                assert len(set(m.entrants())) == 2
                for e in m.entrants():
                    played[e] = played.get(e, 0) + 1
            assert set(played) == set(record.seeds), "every entrant was paired"
            results = arena_results(record.matches)
            standings = record.standings()
            assert [s.score for s in standings] == sorted((s.score for s in standings), reverse=True)
            assert all(s.score == arena_score(results.get(s.entrant, [])) for s in standings)
            payout = json.loads(record.row.payout or "{}")
            assert sum(payout.values()) == 4 * 200 and set(payout) <= set(entrants)
            assert server.ledger.balance(wallet_of(pool_person(made))) == 0
            for p in entrants:
                assert server.ledger.balance(wallet_of(p)) == GRANT - 200 + payout.get(p, 0)
            assert record.row.status == FINISHED and audit(engine).clean
            await server.close()

        asyncio.run(run())


def test_an_arena_is_paired_again_without_a_tick_when_a_match_ends(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as engine:
        async def run() -> None:
            server = Server(engine)
            server.director.now = Moment()
            made = create_tournament(engine, None, spec(kind="arena", minutes=10, capacity=2), None,
                                     now=server.director.now())
            for p in people(server.ledger, 2):
                await server.director.register(made, p, p)  # full: it starts
            for _ in range(3000):  # the hook at each match's end pairs them again: no tick here
                record = read(engine, made)
                assert record is not None
                if len(record.matches) >= 3:
                    break
                await asyncio.sleep(0.01)
            assert len(record.matches) >= 3
            await server.close()

        asyncio.run(run())
