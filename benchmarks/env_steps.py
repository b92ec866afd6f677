"""Random steps per second of the PettingZoo environments (``taash.env.seep_v0``, ``taash.env.rummy_v0``) and of the
batched Seep environment (``taash.env.seep_batch``), on one core: the loop a learner runs, ``env.last()`` (the
observation and the action mask of the agent to act), a legal action drawn uniformly from the mask,
``env.step(action)``, and a new match when one ends; for the batch, ``batch.step(batch.random_actions())`` over
``--games`` games (its observations, masks, rewards and done flags written every step; a step of each game counts
as one). Prints each run and the median of the runs for each environment; ``--json`` prints the medians as JSON.

    PYTHONPATH=src .venv/bin/python benchmarks/env_steps.py
    PYTHONPATH=src .venv/bin/python benchmarks/env_steps.py --game seep --players 2 --steps 20000 --runs 7
    PYTHONPATH=src .venv/bin/python benchmarks/env_steps.py --game seep_batch --games 1024 --batch-steps 1000000

``--cpu`` times by the process's CPU time instead of the clock (on a busy machine). ``--no-observe`` times
``env.last(observe=False)`` with the legal actions read from the environment instead: the engine and the action
numbering alone, without building observations. ``--numpy-actions`` has the batch's actions drawn in NumPy from
its masks instead of by its C helper.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

#: The environments timed by default: (game, players).
DEFAULT = (("seep", 2), ("seep", 4), ("seep_batch", 2), ("seep_batch", 4), ("rummy", 2), ("rummy", 6))


def steps_per_second(game: str, players: int, steps: int, seed: int, observe: bool, cpu: bool = False) -> float:
    """Random steps per second over ``steps`` steps of one environment (by the clock, or by CPU time)."""
    clock = time.process_time if cpu else time.perf_counter
    from taash.env.single_agent import raw_env  # the env extra: main() says so in one line when it is missing

    env = raw_env(game, players=players)
    env.reset(seed=seed)
    rng = random.Random(seed)
    started = clock()
    for _ in range(steps):
        if env.state.is_over:
            env.reset()
        if observe:
            observation, *_ = env.last()
            action = rng.choice(observation["action_mask"].nonzero()[0].tolist())
        else:
            env.last(observe=False)
            action = rng.choice(list(env.legal_indices()))
        env.step(action)
    return steps / (clock() - started)


def batch_steps_per_second(players: int, games: int, steps: int, seed: int, cpu: bool = False,
                           numpy_actions: bool = False) -> float:
    """Random steps per second of ``taash.env.seep_batch`` over about ``steps`` steps (``games`` a round)."""
    import numpy as np

    from taash.env.seep_batch import SeepBatch

    clock = time.process_time if cpu else time.perf_counter
    batch = SeepBatch(games, players=players, seed=seed)
    rng = np.random.default_rng(seed)
    rounds = max(1, steps // games)
    started = clock()
    for _ in range(rounds):
        batch.step(masked_choice(batch.action_masks, rng) if numpy_actions else batch.random_actions())
    return rounds * games / (clock() - started)


def masked_choice(masks: Any, rng: Any) -> Any:
    """A legal index of each row of ``masks`` drawn uniformly, in NumPy: the k-th set cell of the row."""
    import numpy as np

    legal = np.flatnonzero(masks.view(np.bool_))  # every game's legal indices, game by game
    counts = np.bincount(legal // masks.shape[1], minlength=len(masks))
    picks = (rng.random(len(counts)) * counts).astype(np.int64) + np.concatenate(([0], np.cumsum(counts)[:-1]))
    return legal[picks] % masks.shape[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("seep", "seep_batch", "rummy"),
                        help="seep: both Seep environments, side by side; seep_batch: the batch alone (default: all)")
    parser.add_argument("--players", type=int, help="one player count only")
    parser.add_argument("--steps", type=int, default=10_000, help="steps per run (default 10,000)")
    parser.add_argument("--runs", type=int, default=5, help="runs per environment (default 5)")
    parser.add_argument("--games", type=int, default=256, help="games of the batch (default 256)")
    parser.add_argument("--batch-steps", type=int, default=500_000, help="steps per run of the batch (default 500,000)")
    parser.add_argument("--numpy-actions", action="store_true", help="the batch's actions drawn in NumPy")
    parser.add_argument("--no-observe", action="store_true", help="no observations: the engine and the indices")
    parser.add_argument("--cpu", action="store_true", help="time by the process's CPU time (a busy machine)")
    parser.add_argument("--json", action="store_true", help="print the medians as JSON")
    args = parser.parse_args()
    if min(args.steps, args.runs, args.games, args.batch_steps) < 1:
        parser.error("--steps, --runs, --games and --batch-steps must be at least 1")
    try:
        import pettingzoo  # noqa: F401
    except ImportError:
        parser.error("the env extra is not installed: pip install 'taash[env]'")
    games = {None: {g for g, _ in DEFAULT}, "seep": {"seep", "seep_batch"}}.get(args.game, {args.game})
    chosen = [(g, p) for g, p in DEFAULT if g in games and args.players in (None, p)]
    if not chosen:
        chosen = [(args.game or "seep", args.players)]
    medians: dict[str, Any] = {}
    for game, players in chosen:
        if game == "seep_batch":
            def run(seed: int, steps: int, players: int = players) -> float:
                return batch_steps_per_second(players, args.games, steps, seed, args.cpu, args.numpy_actions)
            name, steps = f"seep_batch players={players} games={args.games}", args.batch_steps
            how = f"{', actions drawn in NumPy' if args.numpy_actions else ''}"
        else:
            def run(seed: int, steps: int, game: str = game, players: int = players) -> float:
                return steps_per_second(game, players, steps, seed, not args.no_observe, args.cpu)
            name, steps = f"{game}_v0 players={players}", args.steps
            how = f"{', no observations' if args.no_observe else ''}"
        run(0, min(steps, 1000))  # warm up
        runs = [run(seed + 1, steps) for seed in range(args.runs)]
        medians[name] = round(statistics.median(runs))
        if not args.json:
            print(f"{name}: median {statistics.median(runs):,.0f} steps/s (runs: "
                  f"{', '.join(f'{r:,.0f}' for r in runs)}; {steps:,} random steps each"
                  f"{how}{', CPU time' if args.cpu else ''})")
    if args.json:
        print(json.dumps(medians))


if __name__ == "__main__":
    main()
