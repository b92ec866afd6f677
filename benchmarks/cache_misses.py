"""What the engine's cache misses cost in time: after the bench's warm-up, chunks of random deals are played
twice, first as the bench plays them (new floors still come, and their answers are worked out), then again with
the same cards and the same choices, when every answer is already kept. From the repository root:

    .venv/bin/python benchmarks/cache_misses.py [--warmup 5000] [--deals 300] [--rounds 15]

The answer is the median (and quartiles) of the per-chunk ratio of the two times: 1.19 means that the bench's
deals would run 19% faster if nothing were ever worked out for the first time (an upper bound for work on the
misses: the second run also finds its data in the processor's caches). Not a test: a tool for judging where the
engine's time goes.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time

from taash.cli.seep_bench import random_deals
from taash.seep.rules import PRESETS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warmup", type=int, default=5000, help="untimed random deals first (default 5000)")
    parser.add_argument("--deals", type=int, default=300, help="random deals per chunk (default 300)")
    parser.add_argument("--rounds", type=int, default=15, help="chunks, each played twice (default 15)")
    args = parser.parse_args()
    if args.rounds < 2 or args.deals < 1 or args.warmup < 0:
        parser.error("--rounds must be at least 2, --deals at least 1, --warmup at least 0")
    rules = PRESETS["standard"]
    rng = random.Random(1)
    random_deals(args.warmup, rng, rules)
    gc.collect()
    gc.freeze()  # as the bench does
    ratios = []
    for i in range(args.rounds):
        state = rng.getstate()
        t = time.perf_counter()
        random_deals(args.deals, rng, rules)
        first = time.perf_counter() - t
        rng.setstate(state)  # the same deals and choices again: every answer is kept by now
        t = time.perf_counter()
        random_deals(args.deals, rng, rules)
        ratios.append(first / (time.perf_counter() - t))
        print(f"\rround {i + 1}/{args.rounds}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    q1, q2, q3 = statistics.quantiles(ratios, n=4)
    print(f"first time / again, per chunk of {args.deals} deals: median {q2:.3f}, quartiles {q1:.3f} .. {q3:.3f} "
          f"({args.rounds} chunks after {args.warmup} warm-up deals)")


if __name__ == "__main__":
    main()
