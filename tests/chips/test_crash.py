"""``kill -9`` at random moments while matches are held and settled: every restart finishes or retries what the
killed process left, and then ``taash chips audit`` passes and every balance is what a model says (at least 20
kills, on SQLite and on PostgreSQL when one is offered)."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import sys
import time
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

import pytest
from sqlalchemy import text

from taash.chips import Ledger
from taash.cli.main import run as taash_main
from taash.web.db import make_engine
from tests.chips import crash_worker
from tests.chips.crash_worker import PEOPLE, expected, last_begun

KILLS = 20


def worker(url: str, seed: int) -> tuple[BaseProcess, Connection, tuple[int | None, str]]:
    """A worker process that has recovered, and what it found: the last match begun and its state then."""
    ours, theirs = multiprocessing.get_context("fork").Pipe()
    proc = multiprocessing.get_context("fork").Process(target=crash_worker.main, args=(url, seed, theirs))
    proc.start()
    theirs.close()
    assert ours.poll(60), "the worker did not recover in 60 s"
    return proc, ours, ours.recv()


def killed_sessions_ended(url: str) -> None:
    """Wait until PostgreSQL has finished the killed worker's sessions: a COMMIT sent just before the kill is still
    carried out by its server process, and the next worker must find the last match as it ends up (seen once: the
    next worker found match 44 the last one begun, and match 45's hold committed a moment later)."""
    if not url.startswith("postgresql"):
        return  # SQLite: a killed writer's transaction is rolled back by the next one to open the file
    engine = make_engine(url)
    try:
        for _ in range(300):
            with engine.connect() as c:
                busy = c.execute(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid() AND state <> 'idle'")).scalar_one()
            if busy == 0:
                return
            time.sleep(0.05)
        raise AssertionError(f"{busy} sessions of the killed worker still busy after 15 s")
    finally:
        engine.dispose()


def audit_clean(url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``taash chips audit --database-url URL`` exits 0 (run through the command's entry point)."""
    monkeypatch.setattr(sys, "argv", ["taash", "chips", "audit", "--database-url", url])
    with pytest.raises(SystemExit) as done:
        taash_main()
    out, err = capsys.readouterr()
    assert done.value.code in (0, None), out + err
    assert out.startswith("taash: the books are clean:"), out


def test_kill_9_during_settlements_loses_no_chip(database_url: str, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    seed = random.randrange(10**6)
    rng = random.Random(seed)
    engine = make_engine(database_url)
    ledger = Ledger(engine)
    for person in PEOPLE:
        ledger.open_wallet(person)
    opened = ledger.balances()
    engine.dispose()  # the forked workers must not share the parent's connections
    states: list[str] = []
    for kill in range(KILLS + 1):
        proc, pipe, (last, state) = worker(database_url, seed)
        states.append(state)
        audit_clean(database_url, capsys, monkeypatch)
        assert last == last_begun(engine)
        assert ledger.balances() == expected(seed, last, opened), f"seed {seed}, kill {kill}: {last} was {state}"
        engine.dispose()
        if kill == KILLS:
            pipe.send("stop")
            proc.join(30)
            assert proc.exitcode == 0
            break
        pipe.send("go")
        time.sleep(rng.uniform(0.02, 0.3))
        assert proc.pid is not None
        os.kill(proc.pid, signal.SIGKILL)
        proc.join(30)
        assert proc.exitcode == -signal.SIGKILL
        pipe.close()
        killed_sessions_ended(database_url)
    assert last is not None and last >= 5, f"seed {seed}: only {last} matches played"
    assert "pending" in states, f"seed {seed}: no kill fell between a hold and its settlement ({states})"
    print(f"seed {seed}: {KILLS} kills over {last + 1} matches; the restarts found the last match "
          f"{', '.join(f'{states.count(s)} times {s}' for s in sorted(set(states)))}")
