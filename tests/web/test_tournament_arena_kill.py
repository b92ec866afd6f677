"""The real ``taash serve`` killed with ``kill -9`` mid-arena (8 people playing for chips, their matches played by
bots for them): after the restart the arena pairs on until its window closes, every match is counted once, the
prizes are paid once, ``taash chips audit`` is clean and the pool is empty (SQLite, and PostgreSQL when
``TAASH_TEST_POSTGRES_URL`` is set). The window is real time here: a server's clock is the wall's."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.web.server import running_server
from tests.web.test_server import DATABASES
from tests.web.tournament_kills import FEE, books_checked, entered, killed, until_finished


@pytest.mark.parametrize("database", DATABASES)
def test_kill_9_mid_arena_loses_nothing_and_pays_once(tmp_path: Path, database: str) -> None:
    with running_server(tmp_path, database, away_seconds=0.0, extra=("--turn-seconds", "0")) as server:
        people, tournament = entered(server, 8, {"name": "Arena", "game": "seep", "kind": "arena", "minutes": 0.5,
                                                 "baazis": 0, "fee": FEE, "bots": False, "prizes": [70, 30]})
        time.sleep(2.0)  # it started when full: killed while its matches are paired on
        before = people[0].http.get(f"/api/tournaments/{tournament}").json()
        assert before["status"] == "running" and before["ends_at"] is not None
        killed(server, [0.0])
        after = people[0].http.get(f"/api/tournaments/{tournament}").json()
        assert after["ends_at"] == before["ends_at"], "the window closes when it was to, restart or not"
        until_finished(people[0], tournament, 180, every=0.3)
        record = books_checked(server, tournament, 8)
        assert len(record.matches) >= 4 and all(m.status == "done" for m in record.matches)
