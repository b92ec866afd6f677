"""The real ``taash serve`` killed with ``kill -9`` at random moments while people start staked matches and bots
play them; after the last restart every match ends, ``taash chips audit`` is clean, and each wallet holds its
grant plus what its matches won or lost (SQLite, and PostgreSQL when ``TAASH_TEST_POSTGRES_URL`` is set).

Five kills in the suite (each restart is a server start: minutes on a loaded machine); ``TAASH_SLOW_TESTS=1``
(``make test-long``) kills it twenty times."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine, text

from taash.chips.ledger import Ledger, wallet_of
from taash.web.db import make_engine
from taash.web.hub import Live, rebuild
from taash.web.store import Store
from tests.web.server import Person, running_server
from tests.web.test_server import DATABASES
from tests.web.test_stakes import GRANT, expected

KILLS = 20 if os.environ.get("TAASH_SLOW_TESTS") else 5
GAMES = [{"game": "seep", "players": 2, "baazis": 0, "stake": 2, "level": "easy"},
         {"game": "rummy", "players": 2, "format": "points", "stake": 1, "level": "easy"}]


@pytest.mark.parametrize("database", DATABASES)
def test_kill_9_during_staked_matches_loses_no_chip(tmp_path: Path, database: str) -> None:
    rng = random.Random()
    with running_server(tmp_path, database, away_seconds=0.0, extra=("--turn-seconds", "0")) as server:
        people = [Person(server, "Anil", account=True), Person(server, "Bela", account=True)]
        stop = threading.Event()

        def start_matches() -> None:
            n = 0
            while not stop.is_set():
                n += 1
                try:
                    people[n % 2].post("/api/quick", GAMES[n % 2])
                except httpx.HTTPError:
                    time.sleep(0.02)

        for _ in range(KILLS):
            stop.clear()
            worker = threading.Thread(target=start_matches)
            worker.start()
            time.sleep(rng.uniform(0.05, 0.5))
            server.kill()
            stop.set()
            worker.join()
            server.start()
        url = server.database_url
        engine = make_engine(url)
        deadline = time.monotonic() + 60
        while True:  # the restored matches are played to their end by bots
            with engine.connect() as c:
                playing = c.execute(text("SELECT count(*) FROM tables WHERE status = 'playing'")).scalar()
            if playing == 0:
                break
            assert time.monotonic() < deadline, f"{playing} matches still playing"
            time.sleep(0.2)
        server.stop()
        books_are_right(url, engine)  # inside: a PostgreSQL test database is dropped when the server's block ends


def books_are_right(url: str, engine: Engine) -> None:
    """``taash chips audit`` is clean and each wallet holds its grant plus its finished matches' chips."""
    audited = subprocess.run([sys.executable, "-m", "taash.cli.main", "chips", "audit", "--database-url", url],
                             capture_output=True, text=True)
    assert audited.returncode == 0, audited.stdout + audited.stderr
    store = Store(engine)
    try:
        want: dict[str, int] = {}
        finished = 0
        for stored in store.tables(unfinished_only=False):
            table = rebuild(stored)
            assert table.status in ("waiting", "finished")
            if table.status == "finished":
                finished += 1
                for seat, chips in expected(Live(table), stored.row.stake).items():
                    guest = table.seats[seat].guest
                    if guest is not None:
                        want[guest] = want.get(guest, 0) + chips
        assert finished >= 1
        ledger = Ledger(engine)
        for guest in {s.guest for t in store.tables(unfinished_only=False) for s in rebuild(t).seats if s.guest}:
            assert ledger.balance(wallet_of(guest)) == GRANT + want.get(guest, 0)
    finally:
        store.close()
