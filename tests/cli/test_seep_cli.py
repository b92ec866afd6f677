"""The `taash seep` commands: protocol contracts, exit codes, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

TAASH = [sys.executable, "-m", "taash.cli.main"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TAASH, *args], input=stdin, capture_output=True, text=True, timeout=120)


def one_line_error(proc: subprocess.CompletedProcess[str], code: int) -> str:
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("taash: ")
    return lines[0]


def outcome_set(outcomes: list[dict]) -> set[str]:
    keys = set()
    for o in outcomes:
        houses = sorted((h["value"], sorted(h["cards"]), h["cemented"], h["owners"]) for h in o["houses"])
        keys.add(json.dumps([o["play"]["card"], sorted(o["loose"]), houses, sorted(o["captured"]), o["kind"]]))
    return keys


def test_legal_json_lines_matches_the_conformance_data(conformance_dir: Path) -> None:
    proc = run("seep", "legal", str(conformance_dir / "legal.jsonl"))
    assert proc.returncode == 0, proc.stderr
    got = proc.stdout.strip().splitlines()
    want = (conformance_dir / "legal.expected.jsonl").read_text().strip().splitlines()
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert outcome_set(json.loads(g)) == outcome_set(json.loads(w))


def test_legal_reads_one_position_from_stdin() -> None:
    proc = run("seep", "legal", stdin='{"seat": 0, "hand": ["Jc"], "loose": ["2s", "3h", "5d", "6c"]}')
    assert proc.returncode == 0
    assert sorted(o["play"]["capture"] for o in json.loads(proc.stdout)) == [["2s", "3h", "6c"], ["5d", "6c"]]


def test_legal_answers_600_positions_in_well_under_10_seconds(conformance_dir: Path, tmp_path: Path) -> None:
    lines = (conformance_dir / "legal.jsonl").read_text().strip().splitlines()
    big = tmp_path / "600.jsonl"
    big.write_text("\n".join((lines * 7)[:600]) + "\n")
    start = time.perf_counter()
    proc = run("seep", "legal", str(big))
    elapsed = time.perf_counter() - start
    assert proc.returncode == 0
    assert len(proc.stdout.strip().splitlines()) == 600
    assert elapsed < 5, f"{elapsed:.2f} s"


@pytest.mark.parametrize("name", ["standard-4p", "standard-2p", "karan-4p", "punjab30-4p"])
def test_replay_prints_the_expected_scores(conformance_dir: Path, name: str) -> None:
    proc = run("seep", "replay", str(conformance_dir / f"{name}.record.json"))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == json.loads((conformance_dir / f"{name}.expected.json").read_text())


@pytest.mark.parametrize(("stdin", "words"), [
    ("not json", "not valid JSON"),
    ('{"seat": 0, "hand": ["Zz"]}', "unknown card"),
    ('{"seat": 0, "hand": ["Ks", "Ks"]}', "named twice"),
    ('{"seat": 0, "hand": ["Ks"], "loose": ["Ks"]}', "two places"),
    ('{"seat": 0, "hand": ["Ks"], "loose": ["9h"], "houses": [{"value": 9, "cards": ["4s", "5s"], '
     '"cemented": false, "owners": [1]}]}', "I1"),
    ('{"seat": 0, "hand": ["Ks"], "rules": "nosuch"}', "unknown rules preset"),
    ('{"seat": 7, "hand": ["Ks"]}', "seat"),
    ("[1, 2]", "must be a JSON object"),
])
def test_legal_refuses_bad_input_with_one_line_and_exit_2(stdin: str, words: str) -> None:
    assert words in one_line_error(run("seep", "legal", stdin=stdin), 2)


def test_replay_names_the_deal_and_play_of_an_illegal_play(conformance_dir: Path, tmp_path: Path) -> None:
    record = json.loads((conformance_dir / "standard-4p.record.json").read_text())
    record["deals"][1]["plays"][5] = record["deals"][1]["plays"][6]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    assert "deal 1, play 5" in one_line_error(run("seep", "replay", str(bad)), 1)
    record = json.loads((conformance_dir / "standard-4p.record.json").read_text())
    record["deals"][1]["dealer"] = (record["deals"][1]["dealer"] + 1) % 4
    bad.write_text(json.dumps(record))
    assert "deal 1" in one_line_error(run("seep", "replay", str(bad)), 1)
    record["deals"][0]["deck"] = record["deals"][0]["deck"][:51]
    bad.write_text(json.dumps(record))
    one_line_error(run("seep", "replay", str(bad)), 2)
    one_line_error(run("seep", "replay", str(tmp_path / "missing.json")), 2)


def test_simulate_writes_records_that_replay_to_its_scores(tmp_path: Path) -> None:
    out = tmp_path / "records.jsonl"
    proc = run("seep", "simulate", "--players", "2", "--deals", "5", "--seed", "4", "--record", str(out), "--sheet")
    assert proc.returncode == 0, proc.stderr
    records = out.read_text().strip().splitlines()
    assert records
    total = 0
    for line in records:
        path = tmp_path / "one.json"
        path.write_text(line)
        replayed = run("seep", "replay", str(path))
        assert replayed.returncode == 0, replayed.stderr
        total += len(json.loads(replayed.stdout)["deals"])
    assert total == 5


def test_simulate_refuses_bad_options() -> None:
    one_line_error(run("seep", "simulate", "--rules", "nosuch"), 2)
    one_line_error(run("seep", "simulate", "--players", "3"), 2)


def test_bench_json_has_the_two_figures() -> None:
    proc = run("seep", "bench", "--json", "--repeats", "1", "--deals", "5", "--warmup", "0")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert list(data)[:2] == ["deals_per_sec", "legal_per_sec"]
    assert data["deals_per_sec"] > 0 and data["legal_per_sec"] > 0


def test_rules_lists_the_presets() -> None:
    proc = run("seep", "rules")
    assert proc.returncode == 0
    for name in ("standard", "karan", "limited_houses", "break_with_loose", "punjab_30", "punjab_30_qasim"):
        assert name in proc.stdout


def test_arena_writes_json_and_csv(tmp_path: Path) -> None:
    proc = run("seep", "arena", "greedy", "random", "--deals", "20", "--players", "2", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["pairings"][0]["bot_a"] == "greedy" and data["pairings"][0]["pairs"] == 20
    assert set(data["ratings"]) == {"greedy", "random"}
    assert (tmp_path / "results.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "results.csv").read_text().startswith("bot_a,bot_b,pairs,mean_margin")
    one_line_error(run("seep", "arena", "greedy", "nosuch"), 2)
    one_line_error(run("seep", "arena", "greedy"), 2)
