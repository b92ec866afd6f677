"""The real ``taash serve`` killed with ``kill -9`` at random moments during a knockout of 8 people playing for
chips (their matches played by bots for them), and killed in the middle of a payout: after the restarts the
tournament ends with one champion, every match counted once, ``taash chips audit`` clean, the pool empty, and each
wallet its grant less the fee plus its prize (SQLite, and PostgreSQL when ``TAASH_TEST_POSTGRES_URL`` is set)."""

from __future__ import annotations

import random
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

KILLS = 4
FEE = 100
GRANT = 10_000


@pytest.mark.parametrize("database", DATABASES)
def test_kill_9_during_a_tournament_loses_nothing_and_pays_once(tmp_path: Path, database: str) -> None:
    rng = random.Random()
    with running_server(tmp_path, database, away_seconds=0.0, extra=("--turn-seconds", "0")) as server:
        people = [Person(server, f"Player {i}", account=True) for i in range(8)]
        made = people[0].post("/api/tournaments", {"name": "Midnight knockout", "game": "seep", "players": 2,
                                                   "baazis": 0, "fee": FEE, "bots": False, "prizes": [70, 30]})
        assert made.status_code == 200, made.text
        tournament = made.json()["id"]
        for p in people:
            r = p.post(f"/api/tournaments/{tournament}/register")
            assert r.status_code == 200, r.text
        for _ in range(KILLS):  # it started when full: killed while its rounds are played
            time.sleep(rng.uniform(0.1, 1.0))
            server.kill()
            server.start()
        deadline = time.monotonic() + 180
        while (status := people[0].http.get(f"/api/tournaments/{tournament}").json()["status"]) != "finished":
            assert time.monotonic() < deadline, f"the tournament is still {status}"
            time.sleep(0.2)
        server.stop()
        engine = make_engine(server.database_url)
        try:
            audited = subprocess.run([sys.executable, "-m", "taash.cli.main", "chips", "audit", "--database-url",
                                      server.database_url], capture_output=True, text=True)
            assert audited.returncode == 0, audited.stdout + audited.stderr
            record = read(engine, tournament)
            assert record is not None
            assert [len(record.round_matches(r)) for r in (1, 2, 3)] == [4, 2, 1]
            assert all(m.status == "done" for m in record.matches)
            standings = record.standings()
            assert [s.place for s in standings] == [1, 2, 3, 3, 5, 5, 5, 5]
            ledger = Ledger(engine)
            payout = {standings[0].entrant: 8 * FEE * 70 // 100, standings[1].entrant: 8 * FEE * 30 // 100}
            assert ledger.balance(wallet_of(pool_person(tournament))) == 0
            for person in record.people:
                assert ledger.balance(wallet_of(person)) == GRANT - FEE + payout.get(person, 0)
                paid = ledger.transfer_by_id(prize_id(tournament, person))
                assert (paid is not None) == (person in payout)
        finally:
            engine.dispose()


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
        people = [Person(server, f"Player {i}", account=True) for i in range(4)]
        server.kill()
        plain, server.launcher = server.launcher, ("-c", STALLED_PAYOUT)
        server.start()
        made = people[0].post("/api/tournaments", {"name": "Payout", "game": "seep", "players": 2, "baazis": 0,
                                                   "capacity": 4, "fee": FEE, "bots": False, "prizes": [70, 30]})
        tournament = made.json()["id"]
        for p in people:
            assert p.post(f"/api/tournaments/{tournament}/register").status_code == 200
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
            server.launcher = plain
            server.start()
            deadline = time.monotonic() + 60
            while (status := people[0].http.get(f"/api/tournaments/{tournament}").json()["status"]) != "finished":
                assert time.monotonic() < deadline, f"the tournament is still {status}"
                time.sleep(0.2)
            server.stop()
            audited = subprocess.run([sys.executable, "-m", "taash.cli.main", "chips", "audit", "--database-url",
                                      server.database_url], capture_output=True, text=True)
            assert audited.returncode == 0, audited.stdout + audited.stderr
            ledger = Ledger(engine)
            standings = read(engine, tournament).standings()  # type: ignore[union-attr]
            payout = {standings[0].entrant: 4 * FEE * 70 // 100, standings[1].entrant: 4 * FEE * 30 // 100}
            assert ledger.balance(wallet_of(pool_person(tournament))) == 0
            for person in record.people:
                assert ledger.balance(wallet_of(person)) == GRANT - FEE + payout.get(person, 0)
        finally:
            engine.dispose()
