"""What the servers of a cluster share besides their tables, in-process: the idle sweep runs for a table on its
owner only; a tournament is stepped only by the server that directs it; a lease in Redis has one holder at a time
(against a real redis-server, skipped where there is none); a server's snapshot reads back as written; and the
lobby lists a table moving between servers once."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session

from taash.tables.adapter import Settings
from taash.web.hub import FakeClock
from taash.web.lobby import cluster_tables
from taash.web.shared import RedisLease, Seated, Snapshot
from taash.web.tournament_book import create_tournament, read
from taash.web.tournament_rows import OPEN, RUNNING, TournamentRow
from taash.web.tournaments import Tournaments
from tests.web.server import free_port
from tests.web.test_lease import server
from tests.web.test_tournaments import Server, people, spec
from tests.web.test_tournaments import database as tournament_database

REDIS = shutil.which("redis-server", path=f"{os.environ.get('PATH', '')}:/usr/sbin:/sbin")


def test_the_idle_sweep_abandons_a_table_on_its_owner_only(database: str) -> None:
    clock = FakeClock()

    async def scenario() -> None:
        a, store_a, _ = server(database, "a", clock)
        b, store_b, _ = server(database, "b", clock)
        try:
            live = await a.create(Settings(players=2, length=0), "g0")
            seen = b.get(live.table.id)
            assert seen is not None and seen.owner == "a"  # a view of a's table, at b
            later = a.clock.monotonic() + 3600
            assert await b.sweep(60, now=later) == 0  # not b's to sweep, however idle
            assert (stored := store_b.table(live.table.id)) is not None and stored.row.status == "waiting"
            assert await a.sweep(60, now=later) == 1  # its owner's
            assert (stored := store_a.table(live.table.id)) is not None and stored.row.status == "abandoned"
        finally:
            store_a.close()
            store_b.close()

    asyncio.run(scenario())


class OneDirector:
    """A lease every server asks, held by the first server to ask for each tournament."""

    def __init__(self) -> None:
        self.holders: dict[str, str] = {}

    def of(self, server: str) -> Any:
        async def directs(tournament_id: str) -> bool:
            return self.holders.setdefault(tournament_id, server) == server

        return directs


def test_a_tournament_is_stepped_only_by_the_server_that_directs_it(tmp_path: Path) -> None:
    with tournament_database("sqlite", tmp_path) as engine:
        async def run() -> None:
            first, second = Server(engine), Server(engine)
            lease = OneDirector()
            first.director = Tournaments(engine, first.hub, first.ledger, directs=lease.of("first"))
            second.director = Tournaments(engine, second.hub, second.ledger, directs=lease.of("second"))
            made = create_tournament(engine, None, spec(capacity=4), "p0")
            lease.holders[made] = "first"
            for p in people(first.ledger, 2):
                await second.director.register(made, p, p.upper())  # registered through the other server
            with Session(engine) as s, s.begin():  # due now
                s.execute(update(TournamentRow).values(starts_at=datetime.now(UTC) - timedelta(seconds=1)))
            await second.director.tick()
            record = read(engine, made)
            assert record is not None and record.row.status == OPEN and not record.matches  # not its to start
            await first.director.tick()
            record = read(engine, made)
            assert record is not None and record.row.status == RUNNING and len(record.matches) == 2
            assert all(m.table_id in first.hub.live for m in record.round_matches())  # its director's tables
            await first.close()
            await second.close()

        asyncio.run(run())


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    if REDIS is None:
        pytest.skip("redis-server is not installed (scripts/ensure-redis)")
    port = free_port()
    proc = subprocess.Popen([REDIS, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    import redis

    while True:
        try:
            redis.Redis(port=port).ping()
            break
        except redis.ConnectionError:
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    proc.kill()
    proc.wait()


def test_a_redis_lease_has_one_holder_renewed_by_it_alone_and_let_go(redis_url: str) -> None:
    import redis.asyncio as redis

    async def run() -> None:
        client = redis.Redis.from_url(redis_url)
        a, b = RedisLease(client, "test:job", "a", seconds=3), RedisLease(client, "test:job", "b", seconds=3)
        assert await a.hold() and not await b.hold()
        assert await b.holder() == "a" and 0 < await client.pttl("test:job") <= 3000
        await client.pexpire("test:job", 100)
        assert await a.hold() and await client.pttl("test:job") > 2000  # renewed by its holder
        await b.release()  # not b's to let go
        assert await a.holder() == "a"
        await a.release()
        assert await a.holder() is None and await b.hold() and await a.holder() == "b"
        await client.delete("test:job")  # lapsed (the key's time ran out): the next to ask takes it
        assert await a.hold()
        await client.aclose()

    asyncio.run(run())


def test_a_snapshot_reads_back_as_written_and_a_table_moving_between_servers_is_listed_once() -> None:
    table: dict[str, Any] = {"id": "0123456789abcdef", "code": "ABCDEF", "game": "seep", "players": 2,
                             "rules": "standard", "baazis": 0, "format": None, "level": "easy", "public": True,
                             "status": "waiting", "version": 1, "seats": [], "invite": "/join/ABCDEF", "stake": 0,
                             "hold": 0}
    shot = Snapshot("s2", [table], {"g1"}, {"g1": Seated(table["id"], True, "seep")})
    again = Snapshot.loads(shot.dumps())
    assert again == shot

    class NoTables:
        live: ClassVar[dict[str, Any]] = {}

        def public_tables(self) -> list[dict[str, Any]]:
            return []

    both = cluster_tables(NoTables(), {"s2": again, "s3": Snapshot("s3", [table])})  # type: ignore[arg-type]
    assert [t.id for t in both] == [table["id"]]
