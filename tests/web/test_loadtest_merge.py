"""Load tests run side by side, merged (taash.web.loadtest_merge; benchmarks/merge_loadtests.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from taash.web.loadtest import Results
from taash.web.loadtest_merge import latencies_record, merged

ROOT = Path(__file__).resolve().parents[2]


def record(latencies: list[float], start: float, seconds: float, errors: dict[str, int] | None = None,
           disconnects: int = 0, players: int = 8, setup: dict[str, float] | None = None,
           moved: int = 0) -> dict[str, Any]:
    results = Results(players, players // 4, seconds, latencies, dict(errors or {}), disconnects, dict(setup or {}),
                      moved)
    return latencies_record(results, start + seconds)


def test_a_record_holds_the_figures_every_latency_and_the_window() -> None:
    r = record([0.010, 0.020, 0.030], start=1000.0, seconds=10.0)
    assert r["start"] == 1000.0 and r["end"] == 1010.0
    assert r["latencies"] == [0.01, 0.02, 0.03]
    assert r["figures"]["plays"] == 3 and r["figures"]["plays_per_sec"] == 0.3


def test_percentiles_come_from_every_play_together_not_from_each_test() -> None:
    fast = record([0.001] * 99, start=0.0, seconds=10.0)
    slow = record([1.0], start=0.0, seconds=10.0)
    both = merged([fast, slow])
    # 100 plays: the slow one is the 100th, above the 99th percentile; each test's own p99 would say 1 s for one
    # and 1 ms for the other, and neither is the p99 of all the plays.
    assert both["plays"] == 100 and both["p50_ms"] == 1.0 and both["p99_ms"] == 1000.0 and both["max_ms"] == 1000.0
    assert both["p99_ms"] == Results(16, 4, 10.0, [0.001] * 99 + [1.0]).to_json()["p99_ms"]


def test_counts_add_up_and_the_rate_is_over_the_whole_span() -> None:
    a = record([0.01] * 100, start=0.0, seconds=10.0, errors={"stale": 2}, disconnects=1, moved=5)
    b = record([0.01] * 100, start=2.0, seconds=10.0, errors={"stale": 1, "not_your_turn": 4}, moved=2)
    both = merged([a, b])
    assert both["players"] == 16 and both["tables"] == 4 and both["plays"] == 200
    assert both["errors"] == {"stale": 3, "not_your_turn": 4} and both["disconnects"] == 1
    assert both["moved_to_owner"] == 7
    assert both["seconds"] == 12.0 and both["plays_per_sec"] == round(200 / 12, 1)
    assert both["plays_per_sec_summed"] == 20.0 and both["overlap_seconds"] == 8.0 and both["processes"] == 2


def test_each_set_up_step_took_as_long_as_the_slowest_test_took_it() -> None:
    a = record([0.01], start=0.0, seconds=10.0, setup={"guests": 2.0, "tables": 5.0, "connected": 1.0})
    b = record([0.01], start=0.0, seconds=10.0, setup={"guests": 3.0, "tables": 4.0, "connected": 1.5})
    assert merged([a, b])["setup_seconds"] == {"guests": 3.0, "tables": 5.0, "connected": 1.5}
    assert merged([record([0.01], start=0.0, seconds=10.0)])["setup_seconds"] == {}


@pytest.mark.parametrize("records", [[], [{"start": 0}], [{"figures": {}, "start": 0, "end": 1, "latencies": []}],
                                     [{**record([0.1], 0.0, 1.0), "end": -5.0}]])
def test_anything_but_records_is_refused_in_a_sentence(records: list[dict[str, Any]]) -> None:
    with pytest.raises(ValueError, match=r"loadtest --latencies|no load tests|end before they start"):
        merged(records)


def test_the_merge_script_prints_one_line_of_json(tmp_path: Path) -> None:
    paths = []
    for i, start in enumerate((0.0, 1.0)):
        paths.append(tmp_path / f"{i}.json")
        paths[-1].write_text(json.dumps(record([0.02] * 10, start=start, seconds=5.0)))
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "merge_loadtests.py"), *map(str, paths)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["plays"] == 20 and len(done.stdout.strip().splitlines()) == 1
    (tmp_path / "bad.json").write_text("{")
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "merge_loadtests.py"), str(tmp_path / "bad.json")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stderr.startswith("merge_loadtests.py: cannot read")
    assert len(done.stderr.strip().splitlines()) == 1
