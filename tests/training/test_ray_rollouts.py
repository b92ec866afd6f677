"""Training's self-play deals on Ray give the same data as on local processes: the same seeds, the same decisions,
array for array. Ray runs in this process on loopback with two CPUs and is shut down afterwards; without Ray (or
NumPy) installed, the tests are skipped."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from taash.training.seep_data import Decisions, generate


@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'taash[ray]'")
    ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1", logging_level="ERROR",
             log_to_driver=False)
    yield ray
    ray.shutdown()


def same_data(a: Decisions, b: Decisions) -> None:
    assert len(a) == len(b) > 0
    for name in Decisions.__slots__:
        assert np.array_equal(getattr(a, name), getattr(b, name), equal_nan=True), name


def test_the_same_seeds_give_the_same_data_on_ray_as_on_local_processes(ray: Any) -> None:
    from taash.arena.backends import RayTasks

    done: list[None] = []
    local = generate(4, 300, 1, 2)
    on_ray = generate(4, 300, 1, 2, lambda: done.append(None), backend=RayTasks(ray))
    same_data(local, on_ray)
    assert sorted(set(on_ray.deal.tolist())) == [300, 301, 302, 303] and len(done) == 4
    same_data(generate(4, 300, 1, 1), on_ray)  # and in this process alone


def test_ray_hands_back_results_in_the_jobs_order_whatever_finishes_first(ray: Any) -> None:
    from taash.arena.backends import RayTasks
    from taash.training.seep_data import DealJob, play_deal

    jobs = [DealJob(seed, 1) for seed in (9, 2, 7)]
    results = RayTasks(ray).run(play_deal, iter(jobs), lambda: None)
    assert [int(r.deal[0]) for r in results] == [9, 2, 7]


def test_seep_train_records_on_ray_what_it_records_locally(ray: Any, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from tests.cli.test_seep_cli import run

    # Another process: --ray auto joins the Ray running on this machine (this test's), or starts its own.
    on_ray = run("seep", "train", "--deals", "3", "--epochs", "1", "--hidden", "8", "--seed", "21", "--ray", "auto",
                 "--out", str(tmp_path))
    assert on_ray.returncode == 0, on_ray.stderr
    assert "Ray at auto" in on_ray.stdout and "Trained on" in on_ray.stdout
    same_data(generate(3, 21, 1, 2), Decisions.load(tmp_path / "data.npz"))  # what --workers 2 records


def test_seep_train_refuses_an_address_it_cannot_reach_in_one_line(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is not installed: pip install 'taash[ray]'")
    pytest.importorskip("torch")
    from tests.cli.test_seep_cli import one_line_error, run

    proc = run("seep", "train", "--deals", "2", "--ray", "127.0.0.1:1", "--out", str(tmp_path))
    assert "no Ray cluster can be reached there" in one_line_error(proc, 2)
