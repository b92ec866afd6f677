"""The real ``taash serve`` killed with ``kill -9`` mid-arena (8 people playing for chips, their matches played by
bots for them): after the restart the arena pairs on until its window closes, every match is counted once, the
prizes are paid once, ``taash chips audit`` is clean and the pool is empty (SQLite, and PostgreSQL when
``TAASH_TEST_POSTGRES_URL`` is set). The window is real time here: a server's clock is the wall's."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from taash.chips.ledger import Ledger, wallet_of
from taash.web.db import make_engine
from taash.web.tournament_book import read
from taash.web.tournament_rows import pool_person, prize_id
from tests.web.server import Person, running_server
from tests.web.test_server import DATABASES

FEE = 100
GRANT = 10_000


@pytest.mark.parametrize("database", DATABASES)
def test_kill_9_mid_arena_loses_nothing_and_pays_once(tmp_path: Path, database: str) -> None:
    with running_server(tmp_path, database, away_seconds=0.0, extra=("--turn-seconds", "0")) as server:
        people = [Person(server, f"Player {i}", account=True) for i in range(8)]
        made = people[0].post("/api/tournaments", {"name": "Arena", "game": "seep", "kind": "arena", "minutes": 0.5,
                                                   "baazis": 0, "fee": FEE, "bots": False, "prizes": [70, 30]})
        assert made.status_code == 200, made.text
        tournament = made.json()["id"]
        for p in people:
            assert p.post(f"/api/tournaments/{tournament}/register").status_code == 200
        time.sleep(2.0)  # it started when full: killed while its matches are paired on
        before = people[0].http.get(f"/api/tournaments/{tournament}").json()
        assert before["status"] == "running" and before["ends_at"] is not None
        server.kill()
        server.start()
        after = people[0].http.get(f"/api/tournaments/{tournament}").json()
        assert after["ends_at"] == before["ends_at"], "the window closes when it was to, restart or not"
        deadline = time.monotonic() + 180
        while (status := people[0].http.get(f"/api/tournaments/{tournament}").json()["status"]) != "finished":
            assert time.monotonic() < deadline, f"the arena is still {status}"
            time.sleep(0.3)
        server.stop()
        engine = make_engine(server.database_url)
        try:
            audited = subprocess.run([sys.executable, "-m", "taash.cli.main", "chips", "audit", "--database-url",
                                      server.database_url], capture_output=True, text=True)
            assert audited.returncode == 0, audited.stdout + audited.stderr
            record = read(engine, tournament)
            assert record is not None
            assert len(record.matches) >= 4 and all(m.status == "done" for m in record.matches)
            payout = json.loads(record.row.payout or "{}")
            assert sum(payout.values()) == 8 * FEE
            ledger = Ledger(engine)
            assert ledger.balance(wallet_of(pool_person(tournament))) == 0
            for person in record.people:
                assert ledger.balance(wallet_of(person)) == GRANT - FEE + payout.get(person, 0)
                assert (ledger.transfer_by_id(prize_id(tournament, person)) is not None) == (person in payout)
        finally:
            engine.dispose()
