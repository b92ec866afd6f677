"""The arena on Ray gives the same results as on local processes: the same seeds, the same summary, pairs.csv and
chart, byte for byte (only the time per decision differs). Ray runs in this process on loopback with two CPUs and
is shut down afterwards; without Ray installed, the tests that need it are skipped and the arena says how to
install it."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taash.arena.backends import BackendError, import_ray
from taash.cli.main import app

TIMINGS = ("a_ms_median", "a_ms_p95", "b_ms_median", "b_ms_p95")


@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'taash[ray]'")
    ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1", logging_level="ERROR",
             log_to_driver=False)
    yield ray
    ray.shutdown()


def arena(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def without_timings(out_dir: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out_dir / "results.json").read_text())
    for pairing in data["pairings"]:
        for name in TIMINGS:
            assert pairing.pop(name) >= 0
    return data


def same_results(local: Path, on_ray: Path) -> None:
    assert (local / "pairs.csv").read_bytes() == (on_ray / "pairs.csv").read_bytes()
    assert (local / "results.png").read_bytes() == (on_ray / "results.png").read_bytes()
    assert without_timings(local) == without_timings(on_ray)


@pytest.mark.parametrize("command", [["seep", "arena", "heuristic", "greedy", "--deals", "6", "--seed", "3"],
                                     ["rummy", "arena", "greedy", "random", "--deals", "4", "--seed", "5"]],
                         ids=["seep", "rummy"])
def test_the_same_seeds_give_the_same_arena_on_ray_as_on_local_processes(
        ray: Any, tmp_path: Path, command: list[str]) -> None:
    arena(*command, "--jobs", "2", "--out", str(tmp_path / "local"))
    arena(*command, "--ray", "auto", "--out", str(tmp_path / "ray"))
    same_results(tmp_path / "local", tmp_path / "ray")
    assert ray.is_initialized()  # joined the running Ray, and left it for its owner to shut down


def test_the_ray_backend_returns_pairs_in_seed_order_whatever_finishes_first(ray: Any) -> None:
    from taash.arena.backends import PairJob, RayTasks
    from taash.games import make_game

    game = make_game("seep", players=2)
    done: list[None] = []
    results = RayTasks(ray).play([PairJob("greedy", "random", game, s) for s in (9, 2, 7, 4)],
                                 lambda: done.append(None))
    assert [r.seed for r in results] == [9, 2, 7, 4] and len(done) == 4


def test_an_address_that_cannot_be_reached_is_one_line() -> None:
    pytest.importorskip("ray", reason="Ray is not installed: pip install 'taash[ray]'")
    for address, words in (("127.0.0.1:1", "no Ray cluster can be reached there"),
                           ("nohost", "say auto or a cluster's HOST:PORT"), (" ", "needs auto or a cluster's")):
        result = CliRunner().invoke(app, ["seep", "arena", "heuristic", "greedy", "--deals", "2", "--ray", address])
        assert result.exit_code == 2
        assert words in result.output and "Traceback" not in result.output


def test_without_ray_the_arena_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails as if it were not installed
    with pytest.raises(BackendError, match=r"pip install 'taash\[ray\]'"):
        import_ray()
    result = CliRunner().invoke(app, ["seep", "arena", "heuristic", "greedy", "--deals", "2", "--ray", "auto"])
    assert result.exit_code == 2
    assert "--ray needs Ray: pip install 'taash[ray]'" in result.output
