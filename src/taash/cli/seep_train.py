"""The body of ``taash seep train``: record decisions with a teacher's values in worker processes, train the
learned bot's network on them and write its weights and learning curve (:mod:`taash.training`). Thin: it
checks, calls and prints."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from taash.cli.common import fail, out, progress_bar, user_errors

if TYPE_CHECKING:
    from taash.training.seep_data import Decisions


def run_training(deals: int, teacher: str, iterations: int, workers: int, epochs: int, seed: int, out_dir: Path,
                 data_files: list[Path], hidden: int, device: str, ray_address: str | None = None) -> None:
    """Generate ``deals`` deals of data (seeds ``seed`` ..) in ``workers`` processes or, with ``ray_address``, as
    Ray tasks; add ``data_files``, train and write to ``out_dir``."""
    try:
        from taash.training.seep_train import TrainSettings, save_curve, save_weights, torch_module, train

        torch_module()
        from taash.training.seep_data import Decisions
    except ValueError as e:
        fail(str(e))
    except ImportError as e:
        fail(f"training needs NumPy and PyTorch: pip install 'taash[learn]' ({e.name} is missing)")
    if not deals and not data_files:
        fail("nothing to train on: give --deals above 0 or --data FILE")
    with user_errors(str(out_dir)):
        out_dir.mkdir(parents=True, exist_ok=True)
    parts = []
    for path in data_files:
        with user_errors():
            parts.append(Decisions.load(path))
    started = time.monotonic()
    if deals:
        fresh = record(deals, teacher, iterations, workers, seed, ray_address)
        with user_errors(str(out_dir)):
            fresh.save(out_dir / "data.npz")
        parts.append(fresh)
        where = f"Ray at {ray_address}" if ray_address is not None else f"{workers} workers"
        out.print(f"Recorded {len(fresh):,} decisions valued by the {teacher} in {deals:,} deals "
                  f"({time.monotonic() - started:.0f} s, {where}): {out_dir / 'data.npz'}")
    data = Decisions.join(parts)
    if len(data) < 2:
        fail(f"too few decisions to train on ({len(data)})")
    settings = TrainSettings(epochs=epochs, hidden=hidden, seed=seed, device=device)
    started = time.monotonic()
    with progress_bar("Training (epochs)") as bar:
        task = bar.add_task("epochs", total=epochs)
        weights, curve = train(data, settings, lambda _epoch, _curve: bar.advance(task))
    with user_errors(str(out_dir)):
        save_weights(weights, out_dir / "learned_weights.npz")
        save_curve(curve, out_dir / "curve")
    last = (f"; held out: agrees with the {teacher} {curve.held_agreement[-1]:.0%} (the heuristic "
            f"{curve.heuristic_agreement:.0%}), gives up {curve.held_regret[-1]:.2f} points a decision (the "
            f"heuristic {curve.heuristic_regret:.2f})") if curve.held_regret else ""
    out.print(f"Trained on {len(data):,} decisions, {epochs} epochs in {time.monotonic() - started:.0f} s{last}")
    out.print(f"Weights: {out_dir / 'learned_weights.npz'} (play them: taash seep arena "
              f"learned:weights={out_dir / 'learned_weights.npz'} heuristic); curve: {out_dir / 'curve.png'}")


def record(deals: int, teacher: str, iterations: int, workers: int, seed: int, ray_address: str | None) -> Decisions:
    """The deals' decisions, recorded with a progress bar in local
    processes or as Ray tasks (a backend that cannot start, or a task that fails there: one line)."""
    from taash.arena.backends import BackendError, local_backend
    from taash.cli.arena import ray_tasks
    from taash.training.seep_data import generate

    chosen = ray_tasks(ray_address) if ray_address is not None else local_backend(workers)
    try:
        with chosen as backend, progress_bar(f"Deals ({teacher})") as bar:
            task = bar.add_task("deals", total=deals)
            return generate(deals, seed, iterations, workers, lambda: bar.advance(task), teacher, backend=backend)
    except BackendError as e:
        fail(str(e))
