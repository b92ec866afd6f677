"""The real ``taash serve`` killed with ``kill -9`` at random moments during a knockout of 8 people playing for
chips (their matches played by bots for them), and killed in the middle of a payout: after the restarts the
tournament ends with one champion, every match counted once, ``taash chips audit`` clean, the pool empty, and each
wallet its grant less the fee plus its prize (SQLite, and PostgreSQL when ``TAASH_TEST_POSTGRES_URL`` is set)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from taash.chips.ledger import Ledger
from taash.web.db import make_engine
from taash.web.tournament_book import Record, read
from taash.web.tournament_rows import prize_id
from tests.web.server import running_server
from tests.web.test_server import DATABASES
from tests.web.tournament_kills import FEE, books_checked, entered, killed, until_finished

KILLS = 4


def prizes_of(record: Record, pool: int) -> dict[str, int]:
    """The prizes of a knockout paying 70% and 30%, by its standings."""
    standings = record.standings()
    return {standings[0].entrant: pool * 70 // 100, standings[1].entrant: pool * 30 // 100}


@pytest.mark.parametrize("database", DATABASES)
def test_kill_9_during_a_tournament_loses_nothing_and_pays_once(tmp_path: Path, database: str) -> None:
    rng = random.Random()
    with running_server(tmp_path, database, away_seconds=0.0, extra=("--turn-seconds", "0")) as server:
        people, tournament = entered(server, 8, {"name": "Midnight knockout", "game": "seep", "players": 2,
                                                 "baazis": 0, "fee": FEE, "bots": False, "prizes": [70, 30]})
        killed(server, [rng.uniform(0.1, 1.0) for _ in range(KILLS)])  # it started when full: its rounds played
        until_finished(people[0], tournament, 180)
        record = books_checked(server, tournament, 8)
        assert [len(record.round_matches(r)) for r in (1, 2, 3)] == [4, 2, 1]
        assert all(m.status == "done" for m in record.matches)
        assert [s.place for s in record.standings()] == [1, 2, 3, 3, 5, 5, 5, 5]
        assert json.loads(record.row.payout or "{}") == prizes_of(record, 8 * FEE)


#: ``taash serve`` whose books stall before a tournament's second prize (after the first is committed), and say so
#: in the file named by ``TAASH_TEST_STALLED``: the test kills it there.
STALLED_PAYOUT = """
import os, time
from taash.chips.ledger import Ledger

plain = Ledger.transfer
paid = []

def transfer(self, transfer_id, *args, **kwargs):
    if ":prize:" in transfer_id and paid:
        open(os.environ["TAASH_TEST_STALLED"], "w").close()
        time.sleep(600)
    done = plain(self, transfer_id, *args, **kwargs)
    if ":prize:" in transfer_id:
        paid.append(transfer_id)
    return done

Ledger.transfer = transfer
from taash.cli.main import run
run()
"""


@pytest.mark.parametrize("database", DATABASES)
def test_kill_9_in_the_middle_of_a_payout_pays_the_rest_once(tmp_path: Path, database: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    stalled = tmp_path / "stalled"
    monkeypatch.setenv("TAASH_TEST_STALLED", str(stalled))
    with running_server(tmp_path, database, away_seconds=0.0, extra=("--turn-seconds", "0")) as server:
        server.kill()
        plain, server.launcher = server.launcher, ("-c", STALLED_PAYOUT)
        server.start()
        people, tournament = entered(server, 4, {"name": "Payout", "game": "seep", "players": 2, "baazis": 0,
                                                 "capacity": 4, "fee": FEE, "bots": False, "prizes": [70, 30]})
        deadline = time.monotonic() + 120
        while not stalled.exists():
            assert time.monotonic() < deadline, "the payout never began"
            time.sleep(0.1)
        server.kill()  # one prize paid, the other not yet
        engine = make_engine(server.database_url)
        try:
            record = read(engine, tournament)
            assert record is not None and record.row.status == "paying"
            paid = [p for p in record.people if Ledger(engine).transfer_by_id(prize_id(tournament, p))]
            assert len(paid) == 1
        finally:
            engine.dispose()
        server.launcher = plain
        server.start()
        until_finished(people[0], tournament, 60)
        record = books_checked(server, tournament, 4)
        assert json.loads(record.row.payout or "{}") == prizes_of(record, 4 * FEE)
