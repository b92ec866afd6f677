"""The `taash rummy` commands: rules, replay, simulate; exit statuses and one-line errors, never a traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from taash.cli.main import run as taash_main
from taash.rummy.record import replay_json
from taash.rummy.rules import PRESETS

TAASH = [sys.executable, "-m", "taash.cli.main"]


Runner = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def taash(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Runner:
    """``taash ARGS`` in this process, through the installed entry point (exit status, stdout, stderr)."""
    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        monkeypatch.setattr(sys, "argv", ["taash", *args])
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        capsys.readouterr()
        with pytest.raises(SystemExit) as done:
            taash_main()
        captured = capsys.readouterr()
        code = done.value.code if isinstance(done.value.code, int) else 0
        return subprocess.CompletedProcess(args, code, captured.out, captured.err)
    return run


def test_the_installed_command_runs_rummy() -> None:
    proc = subprocess.run([*TAASH, "rummy", "replay"], input="[1", capture_output=True, text=True, timeout=120)
    one_line_error(proc, 2)


def one_line_error(proc: subprocess.CompletedProcess[str], code: int) -> str:
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("taash: ")
    return lines[0]


def test_rules_lists_the_presets_and_prints_every_parameter(taash: Runner) -> None:
    proc = taash("rummy", "rules")
    assert proc.returncode == 0 and "octro" in proc.stdout and "classic" in proc.stdout
    proc = taash("rummy", "rules", "classic")
    data = json.loads(proc.stdout)
    assert set(data) == set(PRESETS["classic"].__dataclass_fields__)
    assert data["ace_points"] == 10 and data["packs"]["6"] == [2, 2]


def test_rules_reads_a_rules_file_and_refuses_bad_ones(tmp_path: Path, taash: Runner) -> None:
    good = tmp_path / "house.toml"
    good.write_text('preset = "classic"\nace_points = 1\n')
    assert json.loads(taash("rummy", "rules", str(good)).stdout)["ace_points"] == 1
    bad = tmp_path / "bad.json"
    bad.write_text('{"ace_points": 99}')
    assert "ace_points" in one_line_error(taash("rummy", "rules", str(bad)), 2)
    assert "unknown rules preset" in one_line_error(taash("rummy", "rules", "bogus"), 2)


def test_replay_prints_the_conformance_deals_results(conformance_dir: Path, taash: Runner) -> None:
    lines = (conformance_dir / "rummy-deals.jsonl").read_text().splitlines()
    for line in lines[:2]:
        case = json.loads(line)
        proc = taash("rummy", "replay", "-", stdin=json.dumps(case["record"]))
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        assert out["deals"][0]["winner"] == case["expected"]["winner"]
        assert out["deals"][0]["points"] == case["expected"]["points"]


def test_replay_of_a_tampered_record_is_exit_1_naming_deal_and_turn(conformance_dir: Path, taash: Runner) -> None:
    record = json.loads((conformance_dir / "rummy-deals.jsonl").read_text().splitlines()[0])["record"]
    turns = record["deals"][0]["turns"]
    turns[4]["seat"] = (turns[4]["seat"] + 1) % record["players"]
    line = one_line_error(taash("rummy", "replay", stdin=json.dumps(record)), 1)
    assert line.startswith("taash: deal 1, turn 5: ")


@pytest.mark.parametrize("text", ["not json", "[]", '{"game": "rummy", "players": 9, "seed": 1, "deals": []}',
                                  '{"players": 2, "seed": 1, "deals": [{"dealer": 0, "pack": ["Xx"]}]}'])
def test_replay_of_a_malformed_record_is_exit_2(text: str, taash: Runner) -> None:
    one_line_error(taash("rummy", "replay", stdin=text), 2)


def test_replay_of_a_missing_file_is_exit_2(tmp_path: Path, taash: Runner) -> None:
    one_line_error(taash("rummy", "replay", str(tmp_path / "none.json")), 2)


def test_simulate_summarises_and_writes_records_that_replay(tmp_path: Path, taash: Runner) -> None:
    records = tmp_path / "sim.jsonl"
    proc = taash("rummy", "simulate", "--players", "3", "--rules", "classic", "--format", "deals2", "--matches", "2",
               "--seed", "5", "--record", str(records))
    assert proc.returncode == 0, proc.stderr
    assert "matches won" in proc.stdout and "deals" in proc.stdout and "Records written" in proc.stdout
    lines = records.read_text().splitlines()
    assert len(lines) == 2
    for line in lines:
        out = replay_json(json.loads(line))
        assert out["winner"] is not None and len(out["deals"]) >= 2
    again = tmp_path / "again.jsonl"
    taash("rummy", "simulate", "--players", "3", "--rules", "classic", "--format", "deals2", "--matches", "2",
        "--seed", "5", "--record", str(again))
    assert again.read_text() == records.read_text()


@pytest.mark.parametrize("args", [("--players", "7"), ("--format", "pool150"), ("--rules", "bogus"),
                                  ("--matches", "0"), ("--record", "/no/such/dir/x.jsonl")])
def test_simulate_refuses_bad_options_in_one_line(args: tuple[str, str], taash: Runner) -> None:
    one_line_error(taash("rummy", "simulate", *args), 2)


def test_arena_prints_the_table_and_writes_its_files(tmp_path: Path, taash: Runner) -> None:
    proc = taash("rummy", "arena", "greedy", "random", "--deals", "4", "--players", "2", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "2 players, octro, points, 4 pairs each" in proc.stdout and "Ratings" in proc.stdout
    data = json.loads((tmp_path / "results.json").read_text())
    assert (data["players"], data["format"], data["rules"], data["pairs"], data["seed"]) == (2, "points", "octro",
                                                                                             4, 0)
    [pairing] = data["pairings"]
    assert pairing["mean_margin"] > 0 and pairing["a_deals_won"] > pairing["b_deals_won"]
    assert {"a_drops", "b_drops", "a_wrong_declarations", "a_valid_declarations"} <= set(pairing)
    assert set(data["ratings"]) == {"greedy", "random"}
    rows = (tmp_path / "pairs.csv").read_text().splitlines()
    assert rows[0].startswith("bot_a,bot_b,seed,margin,a_margin_game1,a_margin_game2,a_deals_won,")
    assert len(rows) == 5 and "a_valid_declarations" in (tmp_path / "results.csv").read_text()
    assert (tmp_path / "results.png").stat().st_size > 1000


def test_arena_rotates_the_seats_of_more_than_two_players(tmp_path: Path, taash: Runner) -> None:
    proc = taash("rummy", "arena", "random", "greedy", "--deals", "2", "--players", "3", "--jobs", "2",
                 "--format", "points", "--seed", "5", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    header, *rows = (tmp_path / "pairs.csv").read_text().splitlines()
    assert "a_margin_game6,a_deals_won" in header and [r.split(",")[2] for r in rows] == ["5", "6"]
    assert json.loads((tmp_path / "results.json").read_text())["pairings"][0]["mean_margin"] < 0


def test_arena_of_a_pool_match_counts_matches(taash: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    from taash.cli.common import out

    monkeypatch.setattr(out, "_width", 200)  # the whole table on one line a row
    proc = taash("rummy", "arena", "greedy", "random", "--deals", "2", "--format", "pool101")
    assert proc.returncode == 0, proc.stderr
    # Each heading on two lines (the table fits 80 columns): "margin/match" over "A-B, 95%", "matches" over "won A/B".
    heading = next(line for line in proc.stdout.splitlines() if "margin/match" in line)
    assert heading.split()[:2] == ["margin/match", "matches"] and "deals" not in heading


@pytest.mark.parametrize(("args", "words"), [
    (["greedy"], "at least two bots"),
    (["greedy", "greedy"], "each bot once"),
    (["greedy", "nosuch"], "nosuch"),
    (["greedy", "grandmaster"], "grandmaster"),
    (["greedy", "random", "--players", "7"], "2 to 6"),
    (["greedy", "random", "--format", "pool7"], "pool7"),
    (["greedy", "random", "--rules", "bogus"], "bogus"),
])
def test_arena_refuses_bad_input_in_one_line(taash: Runner, args: list[str], words: str) -> None:
    assert words in one_line_error(taash("rummy", "arena", *args, "--deals", "2"), 2)
