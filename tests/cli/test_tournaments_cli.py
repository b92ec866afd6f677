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
