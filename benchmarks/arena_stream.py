"""Seep duplicate pairs as ``taash seep arena A B --seed S --jobs 2`` plays them, written one JSON line per pair
as each ends (in order), so that a long run stopped at any time leaves the figure of the pairs it finished; with
``--summary`` it prints the margin per deal with its 95% interval and A's time per decision instead.

    PYTHONPATH=src .venv/bin/python benchmarks/arena_stream.py ismcts:guesses=2 heuristic --seed 3000 --pairs 200 \\
        --out pairs.jsonl
    PYTHONPATH=src .venv/bin/python benchmarks/arena_stream.py --summary pairs.jsonl
    PYTHONPATH=src .venv/bin/python benchmarks/arena_stream.py --summary pairs.jsonl --against base.jsonl

``--against`` compares two runs on the pairs (seeds) both finished: the difference of their margins per deal,
pair by pair, with its 95% interval (the same decks, so far less noise than two intervals apart).

The first N pairs are those of ``taash seep arena A B --deals N --seed S`` (the same ``play_pair`` calls), so
their margin is what the arena would print for them.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from taash.arena.duplicate import play_pair
from taash.seep.game import SeepGame
from taash.seep.rules import PRESETS


def pair(args: tuple[str, str, int, int]) -> dict[str, Any]:
    a, b, players, seed = args
    r = play_pair(a, b, SeepGame(PRESETS["standard"], players), seed)
    return {"seed": seed, "margin": r.margin, "won": [r.a_deals_won, r.b_deals_won], "a_seconds": r.a_seconds}


def summary(path: str) -> str:
    with open(path) as f:
        rows = [json.loads(line) for line in f]
    if len(rows) < 2:
        return f"{path}: {len(rows)} pairs, too few for an interval"
    per_deal = [r["margin"] / 2 for r in rows]
    ci = 1.96 * statistics.stdev(per_deal) / math.sqrt(len(per_deal))
    times = sorted(t for r in rows for t in r.get("a_seconds", r.get("a_s", ())))
    return (f"{path}: {len(rows)} pairs (seeds {rows[0]['seed']}..{rows[-1]['seed']}), margin per deal "
            f"{statistics.fmean(per_deal):+.1f} ±{ci:.1f}, deals won {sum(r['won'][0] for r in rows)} / "
            f"{sum(r['won'][1] for r in rows)}, A's decision {1000 * statistics.median(times):.0f} ms median, "
            f"{1000 * times[int(0.95 * len(times))]:.0f} ms p95")


def against(path: str, base: str) -> str:
    """The margin per deal of ``path`` less that of ``base``, pair by pair on the seeds both played."""
    with open(path) as f, open(base) as g:
        a = {r["seed"]: r["margin"] / 2 for r in map(json.loads, f)}
        b = {r["seed"]: r["margin"] / 2 for r in map(json.loads, g)}
    common = sorted(a.keys() & b.keys())
    diffs = [a[s] - b[s] for s in common]
    if len(diffs) < 2:
        return f"{path} against {base}: {len(diffs)} pairs in common, too few for an interval"
    ci = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return (f"{path} against {base}: {len(diffs)} pairs in common, margin per deal "
            f"{statistics.fmean(diffs):+.1f} ±{ci:.1f} (each: {statistics.fmean(a[s] for s in common):+.1f} and "
            f"{statistics.fmean(b[s] for s in common):+.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="*", help="bot A and bot B (arena specs)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", help="append each pair's JSON line here")
    parser.add_argument("--summary", metavar="FILE", help="summarise a file of pairs instead")
    parser.add_argument("--against", metavar="FILE", help="with --summary: compare with this run, pair by pair")
    args = parser.parse_args()
    if args.summary:
        print(against(args.summary, args.against) if args.against else summary(args.summary))
        return
    if len(args.bots) != 2 or not args.out:
        parser.error("name two bots and --out")
    work = [(args.bots[0], args.bots[1], args.players, args.seed + k) for k in range(args.pairs)]
    with ProcessPoolExecutor(args.jobs) as pool, open(args.out, "a") as f:
        for row in pool.map(pair, work):
            f.write(json.dumps(row) + "\n")
            f.flush()


if __name__ == "__main__":
    main()
