"""Random steps per second of the PettingZoo environments (``taash.env.seep_v0``, ``taash.env.rummy_v0``), on one
core: the loop a learner runs, ``env.last()`` (the observation and the action mask of the agent to act), a legal
action drawn uniformly from the mask, ``env.step(action)``, and a new match when one ends. Prints each run and the
median of the runs for each environment; ``--json`` prints the medians as JSON.

    PYTHONPATH=src .venv/bin/python benchmarks/env_steps.py
    PYTHONPATH=src .venv/bin/python benchmarks/env_steps.py --game seep --players 2 --steps 20000 --runs 7

``--cpu`` times by the process's CPU time instead of the clock (on a busy machine). ``--no-observe`` times
``env.last(observe=False)`` with the legal actions read from the environment instead: the engine and the action
numbering alone, without building observations.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

#: The environments timed by default: (game, players).
DEFAULT = (("seep", 2), ("seep", 4), ("rummy", 2), ("rummy", 6))


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("seep", "rummy"), help="one game only (default: both)")
    parser.add_argument("--players", type=int, help="one player count only")
    parser.add_argument("--steps", type=int, default=10_000, help="steps per run (default 10,000)")
    parser.add_argument("--runs", type=int, default=5, help="runs per environment (default 5)")
    parser.add_argument("--no-observe", action="store_true", help="no observations: the engine and the indices")
    parser.add_argument("--cpu", action="store_true", help="time by the process's CPU time (a busy machine)")
    parser.add_argument("--json", action="store_true", help="print the medians as JSON")
    args = parser.parse_args()
    if args.steps < 1 or args.runs < 1:
        parser.error("--steps and --runs must be at least 1")
    try:
        import pettingzoo  # noqa: F401
    except ImportError:
        parser.error("the env extra is not installed: pip install 'taash[env]'")
    chosen = [(g, p) for g, p in DEFAULT if args.game in (None, g) and args.players in (None, p)]
    if not chosen:
        chosen = [(args.game or "seep", args.players)]
    medians: dict[str, Any] = {}
    for game, players in chosen:
        steps_per_second(game, players, min(args.steps, 1000), 0, not args.no_observe)  # warm up
        runs = [steps_per_second(game, players, args.steps, run + 1, not args.no_observe, args.cpu)
                for run in range(args.runs)]
        name = f"{game}_v0 players={players}"
        medians[name] = round(statistics.median(runs))
        if not args.json:
            print(f"{name}: median {statistics.median(runs):,.0f} steps/s (runs: "
                  f"{', '.join(f'{r:,.0f}' for r in runs)}; {args.steps:,} random steps each"
                  f"{', no observations' if args.no_observe else ''}{', CPU time' if args.cpu else ''})")
    if args.json:
        print(json.dumps(medians))


if __name__ == "__main__":
    main()
