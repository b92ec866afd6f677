"""What the tests that ``kill -9`` a real ``taash serve`` during a tournament share (:mod:`test_tournaments_kill`,
:mod:`test_tournament_arena_kill`): the people entered through HTTP, the kills and restarts, the wait for the end,
and the books checked afterwards (``taash chips audit`` clean, the pool empty, each wallet its grant less the fee
plus its prize, each prize paid once)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterable
from typing import Any

from taash.chips.ledger import Ledger, wallet_of
from taash.web.db import make_engine
from taash.web.tournament_book import Record, read
from taash.web.tournament_rows import pool_person, prize_id
from tests.web.server import Person, Server

FEE = 100
GRANT = 10_000


def entered(server: Server, count: int, tournament: dict[str, Any]) -> tuple[list[Person], str]:
    """``count`` people with accounts, the first making ``tournament`` (the body of ``POST /api/tournaments``) and
    all of them registering; the people and the tournament's id."""
    people = [Person(server, f"Player {i}", account=True) for i in range(count)]
    made = people[0].post("/api/tournaments", tournament)
    assert made.status_code == 200, made.text
    tournament_id = str(made.json()["id"])
    for p in people:
        r = p.post(f"/api/tournaments/{tournament_id}/register")
        assert r.status_code == 200, r.text
    return people, tournament_id


def killed(server: Server, pauses: Iterable[float]) -> None:
    """After each pause (seconds), the server killed with ``kill -9`` and started again."""
    for pause in pauses:
        time.sleep(pause)
        server.kill()
        server.start()


def until_finished(person: Person, tournament_id: str, seconds: float, every: float = 0.2) -> None:
    deadline = time.monotonic() + seconds
    while (status := person.http.get(f"/api/tournaments/{tournament_id}").json()["status"]) != "finished":
        assert time.monotonic() < deadline, f"the tournament is still {status}"
        time.sleep(every)


def books_checked(server: Server, tournament_id: str, entrants: int) -> Record:
    """Stop the server and check its books after the tournament: the audit clean, the whole pool paid out as the
    prizes decided (each under its transfer id, once), every wallet its grant less the fee plus its prize. The
    tournament's record."""
    server.stop()
    audited = subprocess.run([sys.executable, "-m", "taash.cli.main", "chips", "audit", "--database-url",
                              server.database_url], capture_output=True, text=True)
    assert audited.returncode == 0, audited.stdout + audited.stderr
    engine = make_engine(server.database_url)
    try:
        record = read(engine, tournament_id)
        assert record is not None
        payout = json.loads(record.row.payout or "{}")
        assert sum(payout.values()) == entrants * FEE
        ledger = Ledger(engine)
        assert ledger.balance(wallet_of(pool_person(tournament_id))) == 0
        for person in record.people:
            assert ledger.balance(wallet_of(person)) == GRANT - FEE + payout.get(person, 0)
            assert (ledger.transfer_by_id(prize_id(tournament_id, person)) is not None) == (person in payout)
        return record
    finally:
        engine.dispose()
