"""How long a bot takes over each decision, as ``taash play`` makes its bots: wall and CPU seconds per play.

Plays whole deals of four (or two) bots of one level, each decision by a fresh bot of that level with the seed
``taash play`` would give it, and times every ``choose_play``. Prints the median, the 90th and 95th percentiles
and the maximum, for the whole deal and for its first plays (the longest to search), with the load average.
With ``--game rummy``, deals of Rummy (octro rules, 2 to 6 players) with a bot of the level at every seat, each
decision (a take, a discard, a drop or a declaration) by a fresh bot, timing every ``choose``.

    PYTHONPATH=src .venv/bin/python benchmarks/bot_decision_time.py --level expert --deals 4
    PYTHONPATH=src .venv/bin/python benchmarks/bot_decision_time.py --game rummy --players 6 --deals 4
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

from taash.bots.base import make_bot
from taash.games import make_game
from taash.seep.deal import Phase
from taash.seep.rules import PRESETS
from taash.tui.seep.persons_match import PersonsMatch

#: Plays counted as "early in a deal".
EARLY = 12


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "median": statistics.median(values), "p90": percentile(values, 0.9),
            "p95": percentile(values, 0.95), "max": max(values)}


def time_rummy(level: str, players: int, deals: int, seed: int, wall: list[float], cpu: list[float],
               early: list[float]) -> None:
    """Rummy deals (points format: a match is one deal) with the level at every seat, each decision timed."""
    game = make_game("rummy", players=players)
    for d in range(deals):
        state = game.new_state(seed + d)
        decisions = 0
        while not state.is_over:
            seat = state.current_player
            view = state.view(seat)
            bot = make_bot(level, random.Random(f"{seed + d}/{seat}/{decisions}").randrange(2**32), game="rummy")
            w, c = time.perf_counter(), time.process_time()
            action = bot.choose(view)
            wall.append(time.perf_counter() - w)
            cpu.append(time.process_time() - c)
            if decisions < EARLY:
                early.append(wall[-1])
            decisions += 1
            state.apply(action)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert", help="a level or a bot spec (default: expert)")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5, 6),
                        help="2 or 4 for Seep, 2 to 6 for Rummy (default: 4)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="seep", choices=("seep", "rummy"))
    args = parser.parse_args()
    if args.game == "seep" and args.players not in (2, 4):
        parser.error("Seep is played by 2 or 4 players")
    load = os.getloadavg()
    wall: list[float] = []
    cpu: list[float] = []
    early: list[float] = []
    if args.game == "rummy":
        time_rummy(args.level, args.players, args.deals, args.seed, wall, cpu, early)
    for d in range(args.deals if args.game == "seep" else 0):
        s = PersonsMatch(PRESETS["standard"], args.players, "easy", 0, seed=args.seed + d)
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
    print(json.dumps({"game": args.game, "level": args.level, "players": args.players, "deals": args.deals,
                      "load_average_before": [round(x, 2) for x in load],
                      "load_average_after": [round(x, 2) for x in os.getloadavg()], "cpus": os.cpu_count(),
                      "wall_s": {k: round(v, 3) for k, v in summary(wall).items()},
                      "cpu_s": {k: round(v, 3) for k, v in summary(cpu).items()},
                      f"wall_s_first_{EARLY}_plays": {k: round(v, 3) for k, v in summary(early).items()}},
                     indent=1))


if __name__ == "__main__":
    main()
