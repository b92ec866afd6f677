"""``taash tournaments``: the operator schedules, lists and shows tournaments on a server's database; bad input is
one line and changes nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from taash.web.db import make_engine, migrate


def taash(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "taash.cli.main", "tournaments", *args], capture_output=True,
                          text=True)


def test_schedule_list_and_show(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'taash.db'}"
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
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
    url = f"sqlite:///{tmp_path / 'taash.db'}"
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
    for args in (["--game", "chess"], ["--game", "seep", "--prizes", "70,20"], ["--game", "seep", "--at", "soon"],
                 ["--game", "seep", "--kind", "ladder"], ["--game", "seep", "--at", "2001-01-01T00:00"]):
        refused = taash("schedule", "Cup", *args, "--database-url", url)
        assert refused.returncode != 0
        assert refused.stderr.startswith("taash: ") and refused.stderr.count("\n") == 1, refused.stderr
    assert taash("list", "--database-url", url).stdout == ""
    missing = taash("show", "0123456789abcdef", "--database-url", url)
    assert missing.returncode != 0 and "no tournament" in missing.stderr


def test_cancel_returns_the_fees_once_and_refuses_a_second_time_in_one_line(tmp_path: Path) -> None:
    import asyncio

    from taash.chips.ledger import wallet_of
    from tests.web.test_tournaments import GRANT, Server, people

    url = f"sqlite:///{tmp_path / 'taash.db'}"
    engine = make_engine(url)
    migrate(engine)
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
