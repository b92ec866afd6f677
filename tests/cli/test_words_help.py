"""Issue 27, 10: the command line's help and the package's description name both games (they said ``play`` and
``serve`` were for Seep alone), and the arena's table fits an 80-column terminal without cutting a heading."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from rich.console import Console

from taash.arena.duplicate import DuplicateSummary
from taash.cli.arena import ArenaSetup, duplicate_table
from tests.cli.test_seep_cli import run

ROOT = Path(__file__).resolve().parents[2]


def test_the_help_says_play_and_serve_are_for_both_games() -> None:
    top = run("--help").stdout
    assert "play Seep against bots" not in top
    play_line = next(line for line in top.splitlines() if line.strip().startswith("play "))
    serve_line = next(line for line in top.splitlines() if line.strip().startswith("serve "))
    assert "Rummy" in play_line and "Rummy" in serve_line, (play_line, serve_line)
    assert "13-card Rummy" in " ".join(run("play", "--help").stdout.split())
    assert "13-card Rummy" in " ".join(run("serve", "--help").stdout.split())


def test_the_package_describes_both_games() -> None:
    description = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["description"]
    assert description.startswith("Indian card games: Seep and 13-card Rummy") and "starting with" not in description


def test_the_arena_table_fits_80_columns_without_cutting_a_heading() -> None:
    summary = DuplicateSummary("heuristic", "lookahead", 300, -12.5, 3.7, 140, 160, 12.34, 45.67, 123.45, 456.78,
                               {"drops": (12, 30), "wrong declarations": (0, 1), "valid declarations": (140, 160)})
    setup = ArenaSetup(None, "6 players, octro, pool201",  # type: ignore[arg-type]
                       (("drops A/B", "drops"), ("wrong A/B", "wrong declarations"),
                        ("declared A/B", "valid declarations")), {}, "match", "matches")
    console = Console(width=80, record=True)
    console.print(duplicate_table(setup, [summary], 300))
    text = console.export_text()
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 80
    assert "…" not in text
    for words in ("margin/match", "A-B, 95%", "matches", "won A/B", "drops", "wrong", "declared", "ms p50",
                  "heuristic", "lookahead", "-12.5 ±3.7", "140/160", "12.3/123.5"):
        assert re.search(re.escape(words), text), (words, text)
