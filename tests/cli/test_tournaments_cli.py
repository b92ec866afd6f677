"""``taash tournaments``: the operator schedules, lists and shows tournaments on a server's database; bad input is
one line and changes nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from taash.web.db import make_engine
from tests.cli import in_process
from tests.web.server import migrated_sqlite


def taash(*args: str) -> subprocess.CompletedProcess[str]:
    """``taash tournaments ARGS`` in this process (tests/cli/in_process.py)."""
    return in_process.taash("tournaments", *args)


def installed(*args: str) -> subprocess.CompletedProcess[str]:
    """``taash tournaments ARGS``, the installed command in a process of its own."""
    return subprocess.run([sys.executable, "-m", "taash.cli.main", "tournaments", *args], capture_output=True,
                          text=True)


def test_schedule_list_and_show(tmp_path: Path) -> None:
    url = migrated_sqlite(tmp_path, "taash.db")
    made = taash("schedule", "Sunday cup", "--game", "rummy", "--length", "points", "--fee", "200", "--in-minutes",
                 "30", "--database-url", url)
    assert made.returncode == 0, made.stderr
    tournament = made.stdout.split()[2]
    listed = taash("list", "--database-url", url)
    assert listed.stdout.split("\t")[:6] == [tournament, "open", "rummy", "knockout", "0/8", "200"]
    shown = taash("show", tournament, "--database-url", url)
    assert "Sunday cup: knockout of rummy, tables of 2, 0/8 entrants, fee 200, open" in shown.stdout
    assert "pool: 0 chips" in shown.stdout


def test_bad_input_is_one_line_and_schedules_nothing(tmp_path: Path) -> None:
    url = migrated_sqlite(tmp_path, "taash.db")
    for args in (["--game", "chess"], ["--game", "seep", "--prizes", "70,20"], ["--game", "seep", "--at", "soon"],
                 ["--game", "seep", "--kind", "ladder"], ["--game", "seep", "--at", "2001-01-01T00:00"]):
        refused = taash("schedule", "Cup", *args, "--database-url", url)
        assert refused.returncode != 0
        assert refused.stderr.startswith("taash: ") and refused.stderr.count("\n") == 1, refused.stderr
    assert taash("list", "--database-url", url).stdout == ""
    missing = installed("show", "0123456789abcdef", "--database-url", url)  # the real command, once
    assert missing.returncode != 0 and "no tournament" in missing.stderr


def test_cancel_returns_the_fees_once_and_refuses_a_second_time_in_one_line(tmp_path: Path) -> None:
    import asyncio

    from taash.chips.ledger import wallet_of
    from tests.web.test_tournaments import GRANT, Server, people

    url = migrated_sqlite(tmp_path, "taash.db")
    engine = make_engine(url)
    made = taash("schedule", "Cup", "--game", "seep", "--length", "0", "--fee", "300", "--database-url", url)
    tournament = made.stdout.split()[2]

    async def register() -> list[str]:
        server = Server(engine)
        entrants = people(server.ledger, 2)
        for p in entrants:
            await server.director.register(tournament, p, p)
        await server.close()
        return entrants

    entrants = asyncio.run(register())
    cancelled = taash("cancel", tournament, "--database-url", url)
    assert cancelled.returncode == 0, cancelled.stderr
    assert cancelled.stdout == f"taash: tournament {tournament} (Cup) cancelled: 600 chips returned to 2 entrants\n"
    assert taash("list", "--database-url", url).stdout.split("\t")[1] == "cancelled"
    again = taash("cancel", tournament, "--database-url", url)
    assert again.returncode != 0 and again.stderr == f"taash: tournament {tournament} is cancelled already\n"
    missing = taash("cancel", "nope", "--database-url", url)
    assert missing.returncode != 0 and missing.stderr.count("\n") == 1 and "no tournament" in missing.stderr
    from taash.chips.ledger import Ledger

    ledger = Ledger(engine)
    assert all(ledger.balance(wallet_of(p)) == GRANT for p in entrants)
    audited = subprocess.run([sys.executable, "-m", "taash.cli.main", "chips", "audit", "--database-url", url],
                             capture_output=True, text=True)
    assert audited.returncode == 0, audited.stdout + audited.stderr
    engine.dispose()


def test_show_of_an_arena_under_way_says_its_window_the_time_left_and_each_entrants_points(tmp_path: Path) -> None:
    import asyncio
    import re

    from taash.web.tournament_book import read
    from tests.web.test_tournament_arena import ticks_until
    from tests.web.test_tournaments import Server, people

    url = migrated_sqlite(tmp_path, "taash.db")
    engine = make_engine(url)
    made = taash("schedule", "Evening arena", "--game", "seep", "--length", "0", "--kind", "arena", "--minutes",
                 "30", "--capacity", "4", "--no-bots", "--database-url", url)
    assert made.returncode == 0, made.stderr
    tournament = made.stdout.split()[2]
    shown = taash("show", tournament, "--database-url", url)
    assert shown.stdout.splitlines()[1] == "window: 30m 00s, opens as soon as it is full"

    async def play() -> None:
        server = Server(engine)
        for p in people(server.ledger, 4):
            await server.director.register(tournament, p, p.upper())  # the fourth starts it: the window opens
        await ticks_until(server, tournament, 4)
        await server.close()

    asyncio.run(play())
    record = read(engine, tournament)
    assert record is not None and record.row.status == "running"
    done = sum(m.status == "done" for m in record.matches)
    shown = taash("show", tournament, "--database-url", url)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == (f"Evening arena: arena of seep, tables of 2, 4/4 entrants, fee 0, running, "
                        f"{len(record.matches)} matches made")
    assert re.fullmatch(r"window: 30m 00s, opened \S+ \S+ UTC, closes \S+ \S+ UTC, (29m \d\ds|30m 00s) left",
                        lines[1]), lines[1]
    standings = [line.split("\t") for line in lines[2:]]
    assert sorted(name for _, name, _, _ in standings) == ["P0", "P1", "P2", "P3"]
    played = [re.fullmatch(r"(\d+) won of (\d+)", won) for _, _, _, won in standings]
    assert all(p is not None and int(p[1]) <= int(p[2]) for p in played)
    assert sum(int(p[2]) for p in played if p is not None) == 2 * done
    assert [int(points.removesuffix(" points")) for _, _, points, _ in standings] == sorted(
        (int(points.removesuffix(" points")) for _, _, points, _ in standings), reverse=True)
    engine.dispose()


def test_an_arenas_window_before_during_and_after() -> None:
    from datetime import UTC, datetime, timedelta

    from taash.cli.tournaments import arena_window
    from taash.web.tournament_rows import TournamentRow

    now = datetime(2026, 11, 27, 18, 0, tzinfo=UTC)
    row = TournamentRow(kind="arena", window=1800, status="open", starts_at=now + timedelta(hours=1))
    assert arena_window(row, now) == "window: 30m 00s, opens 2026-11-27 19:00:00 UTC"
    row.status, row.ends_at = "running", now + timedelta(minutes=12, seconds=5)
    assert arena_window(row, now) == ("window: 30m 00s, opened 2026-11-27 17:42:05 UTC, closes 2026-11-27 18:12:05 "
                                      "UTC, 12m 05s left")
    assert arena_window(row, now + timedelta(minutes=13)) == (
        "window: 30m 00s, opened 2026-11-27 17:42:05 UTC, closed 2026-11-27 18:12:05 UTC: the matches being "
        "played finish")
    row.status = "finished"
    assert arena_window(row, now + timedelta(days=1)) == (
        "window: 30m 00s, opened 2026-11-27 17:42:05 UTC, closed 2026-11-27 18:12:05 UTC")
    row.status, row.ends_at = "cancelled", None
    assert arena_window(row, now) == "window: 30m 00s, never opened (cancelled)"
