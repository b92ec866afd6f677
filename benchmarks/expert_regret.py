"""How far a Seep bot's plays fall short of the best play on the TRUE deal: a quick, low-noise proxy for strength
at the search's own game, for comparing settings of the ``ismcts`` search before a long duplicate arena.

Positions are taken from deals of four heuristic players (every play with a choice, of every seat). Each legal
play of a position is valued on the true deal, the one the bot cannot see, by ``--truth`` greedy play-outs
(:func:`~taash.bots.seep.rollout.greedy_outcomes`: what the mover's team gains from then on, minus the other
team's). A bot's regret at a position is the best play's value less the value of its own choice; ``cheat``
searches that very deal, so it is near 0 by construction, and the gap to it is what better guessing of the
hidden cards could win. Prints, for each bot spec, the mean regret per decision with its 95% interval, how often
it chose the best play, and its median seconds per decision, with the load average.

    PYTHONPATH=src .venv/bin/python benchmarks/expert_regret.py ismcts ismcts:iterations=1000 heuristic --deals 6
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time

from taash.bots.base import make_bot
from taash.bots.seep.rollout import greedy_outcomes
from taash.seep.deal import Deal
from taash.seep.plays import Play
from taash.seep.rules import PRESETS
from taash.seep.view import PlayerView, view_of


def positions(deals: int, players: int, seed: int) -> list[tuple[Deal, PlayerView]]:
    """Every position with a choice of deals of heuristic players: the true deal and the mover's view."""
    found = []
    for d in range(deals):
        rng = random.Random(seed + d)
        deal = Deal.shuffled(PRESETS["standard"], players, d % players, rng)
        heuristic = make_bot("heuristic", seed + d)
        deal.make_bid(heuristic.choose_bid(view_of(deal, deal.to_move)))  # type: ignore[attr-defined]
        while not deal.over:
            view = view_of(deal, deal.to_move)
            if len(deal.legal_plays()) > 1:
                found.append((deal.clone(), view))
            deal.play(heuristic.choose_play(view))  # type: ignore[attr-defined]
    return found


def true_values(deal: Deal, truth: int, seed: int) -> dict[Play, float]:
    """Each legal play's mean outcome over ``truth`` greedy play-outs of the true deal."""
    legal = deal.legal_plays()
    rng = random.Random(seed)
    totals = [0.0] * len(legal)
    for _ in range(truth):
        for j, x in enumerate(greedy_outcomes(deal, deal.to_move % 2, legal, rng.random())):
            totals[j] += x
    return {p: t / truth for p, t in zip(legal, totals, strict=True)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="+", help="bot specs (cheat: the search on the true deal)")
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--players", type=int, default=4, choices=(2, 4))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--truth", type=int, default=300, help="play-outs valuing each play (default 300)")
    args = parser.parse_args()
    found = positions(args.deals, args.players, args.seed)
    values = [true_values(deal, args.truth, args.seed + i) for i, (deal, _) in enumerate(found)]
    print(f"{len(found)} positions of {args.deals} deals, {args.players} players, seed {args.seed}; "
          f"load average {os.getloadavg()[0]:.1f}")
    first: list[float] = []
    for spec in args.bots:
        regrets: list[float] = []
        best = 0
        seconds: list[float] = []
        for i, ((deal, view), vals) in enumerate(zip(found, values, strict=True)):
            t = time.perf_counter()
            if spec.split(":")[0] == "cheat":
                from taash.bots.seep.cheat import CheatBot
                play = CheatBot(args.seed + i).choose_play(deal.clone())
            else:
                play = make_bot(spec, args.seed + i).choose_play(view)  # type: ignore[attr-defined]
            seconds.append(time.perf_counter() - t)
            regret = max(vals.values()) - vals[play]
            regrets.append(regret)
            best += regret <= 1e-9
        ci = 1.96 * statistics.stdev(regrets) / math.sqrt(len(regrets))
        versus = ""
        if first:
            diffs = [a - b for a, b in zip(regrets, first, strict=True)]
            versus = (f", {statistics.fmean(diffs):+.2f} ±{1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)):.2f}"
                      f" against {args.bots[0]}")
        else:
            first = regrets
        print(f"{spec:40s} regret {statistics.fmean(regrets):5.2f} ±{ci:.2f} points a decision{versus}, best play "
              f"{100 * best / len(found):.0f}%, {1000 * statistics.median(seconds):.0f} ms median "
              f"(load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
