"""The tools in ``benchmarks/`` still run (on tiny settings: their figures are not tested, only that they work)."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_script(name: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / name), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout (ab.py reads versions from git)")
def test_ab_compares_two_versions_of_the_engine_in_one_process() -> None:
    out = run_script("ab.py", "--base", "HEAD", "--rounds", "2", "--deals", "3", "--warmup", "5")
    assert "base HEAD:" in out and "work working tree:" in out
    assert "work / base, per round: median" in out


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout (ab.py reads versions from git)")
def test_ab_times_by_cpu_time_when_asked() -> None:
    out = run_script("ab.py", "--base", "HEAD", "--rounds", "2", "--deals", "3", "--warmup", "5", "--cpu")
    assert "(medians of 2, CPU time)" in out and "work / base, per round: median" in out


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout (ab.py reads versions from git)")
@pytest.mark.skipif(shutil.which(shlex.split(sysconfig.get_config_var("CC") or "cc")[0]) is None,
                    reason="no C compiler (ab.py --build builds the compiled core)")
def test_ab_times_legal_plays_with_a_revision_built_on_its_compiled_core() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "ab.py"), "--base", "HEAD", "--legal", "--build",
                           "--rounds", "2", "--deals", "3", "--warmup", "5", "--passes", "2"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "taash_base: compiled core" in done.stderr
    assert "base HEAD:" in done.stdout and "legal-play generations/s; work working tree:" in done.stdout
    assert "work / base, per round: median" in done.stdout


def test_count_bytecodes_lists_the_engine_functions() -> None:
    out = run_script("count_bytecodes.py", "--warmup", "5", "--deals", "2")
    assert "bytecodes per deal" in out and "plays.py:plays_of" in out


def test_cache_misses_times_deals_played_twice() -> None:
    out = run_script("cache_misses.py", "--warmup", "5", "--deals", "3", "--rounds", "2")
    assert "first time / again, per chunk of 3 deals: median" in out


def test_bench_series_runs_the_bench_in_new_processes(tmp_path: Path) -> None:
    log, chart = tmp_path / "runs.jsonl", tmp_path / "runs.png"
    out = run_script("bench_series.py", "--runs", "2", "--pause", "0", "--log", str(log), "--chart", str(chart),
                     "--bench-args", "--repeats 2 --deals 2 --warmup 2")
    assert out.count("deals/s,") == 2 and "over 2 runs: median" in out and "of 2 runs at 2,500 or more" in out
    assert len(log.read_text().splitlines()) == 2
    assert chart.read_bytes().startswith(b"\x89PNG")


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_count_instructions_counts_under_valgrind() -> None:
    out = run_script("count_instructions.py", "--warmup", "5", "--deals", "2")
    assert "million instructions per deal" in out


@pytest.mark.parametrize(("name", "args", "message"), [
    ("ab.py", ["--base", "no-such-revision"], "no src/taash at git revision 'no-such-revision'"),
    ("ab.py", ["--rounds", "1"], "--rounds must be at least 2"),
    ("ab.py", ["--legal", "--passes", "0"], "--passes at least 1"),
    ("count_instructions.py", ["--src", "/no/such/dir"], "holds no taash package"),
    ("cache_misses.py", ["--rounds", "1"], "--rounds must be at least 2"),
    ("bench_series.py", ["--runs", "0"], "--runs must be at least 1"),
    ("bench_series.py", ["--src", "/no/such/dir"], "holds no taash package"),
    ("bench_series.py", ["--chart", "/no/such/dir/x.png"], "no such folder"),
    ("bench_series.py", ["--log", "/no/such/dir/runs.jsonl"], "no such folder"),
    ("env_steps.py", ["--steps", "0"], "--steps, --runs, --games and --batch-steps must be at least 1"),
    ("openspiel_arena.py", ["--deals", "0"], "--deals and --simulations must be at least 1"),
])
def test_the_benchmark_tools_refuse_bad_input_in_one_line(name: str, args: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / name), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode != 0 and message in done.stderr
    assert "Traceback" not in done.stderr


def test_env_steps_times_random_steps_of_each_environment() -> None:
    pytest.importorskip("pettingzoo", reason="the env extra is not installed (pip install 'taash[env]')")
    out = run_script("env_steps.py", "--steps", "30", "--runs", "2", "--cpu")
    for name in ("seep_v0 players=2", "seep_v0 players=4", "rummy_v0 players=2", "rummy_v0 players=6"):
        assert f"{name}: median" in out
    assert "CPU time" in out


def test_openspiel_arena_plays_openspiels_ismcts_against_a_taash_bot_in_duplicate() -> None:
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed (pip install 'taash[openspiel]')")
    out = run_script("openspiel_arena.py", "--deals", "1", "--simulations", "2", "--expert", "random")
    assert "deal 1 (seed" in out and "against taash random, 2 players, 2 deals: mean margin" in out


def test_migrated_databases_times_a_migration_against_a_copy() -> None:
    out = run_script("migrated_databases.py", "--rounds", "1")
    assert "migrated_sqlite_file " in out and "copied_sqlite_file " in out and "(1 rounds)" in out
