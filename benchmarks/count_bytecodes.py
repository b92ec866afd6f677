"""Python bytecodes executed per random 4-player deal, by function: a measure of engine work that the
machine's speed swings do not touch. Slow (every bytecode is traced); run from the repository root:

    .venv/bin/python benchmarks/count_bytecodes.py [--warmup 5300] [--deals 200]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from types import FrameType
from typing import Any

from taash.cli.seep_bench import pure_random_deals as random_deals  # bytecodes: the pure core, whichever runs
from taash.seep.rules import PRESETS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warmup", type=int, default=5300, help="random deals played first, not counted")
    parser.add_argument("--deals", type=int, default=200, help="random deals counted")
    parser.add_argument("--top", type=int, default=12, help="functions listed")
    args = parser.parse_args()
    rules = PRESETS["standard"]
    rng = random.Random(1)
    random_deals(args.warmup, rng, rules)
    counts: Counter[str] = Counter()

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        name = f"{frame.f_code.co_filename.rsplit('/', 1)[-1]}:{frame.f_code.co_name}"

        def local(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "opcode":
                counts[name] += 1
            return local

        return local

    sys.settrace(trace)
    random_deals(args.deals, rng, rules)
    sys.settrace(None)
    print(f"{sum(counts.values()) / args.deals:,.0f} bytecodes per deal, after {args.warmup} warm-up deals")
    for name, n in counts.most_common(args.top):
        print(f"{n / args.deals:10,.0f}  {name}")


if __name__ == "__main__":
    main()
