"""How long a bot takes over each decision, as ``taash play`` makes its bots: wall and CPU seconds per play.

Plays whole deals of four (or two) bots of one level, each decision by a fresh bot of that level with the seed
``taash play`` would give it, and times every ``choose_play``. Prints the median, the 90th and 95th percentiles
and the maximum, for the whole deal and for its first plays (the longest to search), with the load average.

    PYTHONPATH=src .venv/bin/python benchmarks/bot_decision_time.py --level expert --deals 4
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

from taash.bots.base import make_bot
from taash.play.seep import Session
from taash.seep.deal import Phase
from taash.seep.rules import PRESETS

#: Plays counted as "early in a deal".
EARLY = 12


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "median": statistics.median(values), "p90": percentile(values, 0.9),
            "p95": percentile(values, 0.95), "max": max(values)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert", help="a level or a bot spec (default: expert)")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--players", type=int, default=4, choices=(2, 4))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    load = os.getloadavg()
    wall: list[float] = []
    cpu: list[float] = []
    early: list[float] = []
    for d in range(args.deals):
        s = Session(PRESETS["standard"], args.players, "easy", 0, seed=args.seed + d)
        while not s.deal_over:
            seat = s.deal.to_move
            view = s.match.view(seat)
            bot = make_bot(args.level, random.Random(f"{s.seed}/{seat}/{len(s.deal.plays)}").randrange(2**32))
            if s.deal.phase is Phase.BID:
                s.match.make_bid(bot.choose_bid(view))
                continue
            w, c = time.perf_counter(), time.process_time()
            play = bot.choose_play(view)
            wall.append(time.perf_counter() - w)
            cpu.append(time.process_time() - c)
            if view.plays_made < EARLY:
                early.append(wall[-1])
            s.match.play(play)
    print(json.dumps({"level": args.level, "players": args.players, "deals": args.deals,
                      "load_average_before": [round(x, 2) for x in load],
                      "load_average_after": [round(x, 2) for x in os.getloadavg()], "cpus": os.cpu_count(),
                      "wall_s": {k: round(v, 3) for k, v in summary(wall).items()},
                      "cpu_s": {k: round(v, 3) for k, v in summary(cpu).items()},
                      f"wall_s_first_{EARLY}_plays": {k: round(v, 3) for k, v in summary(early).items()}},
                     indent=1))


if __name__ == "__main__":
    main()
