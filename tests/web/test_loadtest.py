"""`taash web loadtest`, small: it starts its own server, plays, and reports sane figures; loopback only."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from taash.web.loadtest import SETUP_STEPS
from tests.cli.test_seep_cli import one_line_error

TAASH = [sys.executable, "-m", "taash.cli.main"]


def test_a_small_load_test_reports_plays_and_latencies(tmp_path: Path) -> None:
    proc = subprocess.run([*TAASH, "web", "loadtest", "--players", "16", "--duration", "4", "--json",
                           "--latencies", str(tmp_path / "latencies.json")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(proc.stdout)
    assert figures["players"] == 16 and figures["tables"] == 4
    assert figures["plays"] > 10 and figures["errors"] == {} and figures["disconnects"] == 0
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"] < 5000
    # How long each step of setting it up took, in order, before the window opened
    assert list(figures["setup_seconds"]) == list(SETUP_STEPS)
    assert all(0 <= seconds < 60 for seconds in figures["setup_seconds"].values())
    # --latencies: the same figures, every play's latency, and the measured window (for merging side-by-side tests)
    written = json.loads((tmp_path / "latencies.json").read_text())
    assert written["figures"] == figures and len(written["latencies"]) == figures["plays"]
    assert max(written["latencies"]) * 1000 == pytest.approx(figures["max_ms"], abs=0.1)
    assert written["end"] - written["start"] == pytest.approx(figures["seconds"], abs=0.1)


def test_the_load_test_refuses_other_hosts_and_bad_numbers() -> None:
    for args, message in [(["--url", "http://example.com:8000"], "loopback"),
                          (["--players", "100000"], "--players"), (["--duration", "0"], "--duration"),
                          (["--latencies", "/no/such/folder/l.json"], "--latencies")]:
        proc = subprocess.run([*TAASH, "web", "loadtest", *args], capture_output=True, text=True, timeout=60)
        assert message in one_line_error(proc, 2)


def test_a_small_rummy_load_test_plays_six_seat_tables() -> None:
    proc = subprocess.run([*TAASH, "web", "loadtest", "--game", "rummy", "--players", "24", "--duration", "4",
                           "--interval", "1", "--json"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(proc.stdout)
    assert figures["players"] == 24 and figures["tables"] == 4
    assert figures["plays"] > 10 and figures["errors"] == {} and figures["disconnects"] == 0
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"] < 5000
    proc = subprocess.run([*TAASH, "web", "loadtest", "--game", "chess"], capture_output=True, text=True, timeout=60)
    assert "seep or rummy" in one_line_error(proc, 2)


def test_the_measured_window_opens_once_the_tables_have_started() -> None:
    """Setting the tables up (slow on PostgreSQL or through a proxy) is never counted as time without plays: every
    person's session lasts the window's seconds from its opening, however long the set-up took."""
    import asyncio
    import contextlib

    from taash.web.loadtest import Window

    async def main() -> None:
        loop = asyncio.get_running_loop()
        window, ended = Window(2), []

        async def session(person: str) -> None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(None) as timeout, window.joined(timeout):
                    window.arrived(person)
                    await asyncio.sleep(3600)
            ended.append(loop.time())

        sessions = [asyncio.create_task(session(p)) for p in ("a", "b")]
        await asyncio.wait_for(window.everyone.wait(), 5)
        await asyncio.sleep(0.3)  # a slow set-up
        assert not ended and not window.counting
        opened = loop.time()
        window.open(0.2)
        assert window.counting
        await asyncio.wait_for(asyncio.gather(*sessions), 5)
        assert all(0.15 <= t - opened < 2 for t in ended)
        late = asyncio.create_task(session("c"))  # joining after the opening: ends with the window too
        await asyncio.wait_for(late, 5)
        assert not window.timeouts  # every session that ended left

    async def a_session_ending_before_the_opening() -> None:
        window = Window(1)
        async with asyncio.timeout(None) as timeout, window.joined(timeout):
            window.arrived("a")  # his socket closes at once
        window.open(0.1)  # nothing to reschedule: no "Cannot change state of finished Timeout"
        assert not window.timeouts

    asyncio.run(main())
    asyncio.run(a_session_ending_before_the_opening())
