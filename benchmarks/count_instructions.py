"""Machine instructions per random 4-player deal, counted by valgrind's callgrind: the same answer every run, so a
change of 1% shows (timings on this machine swing by a third). Needs ``valgrind``; slow (a minute or two). From
the repository root:

    .venv/bin/python benchmarks/count_instructions.py [--warmup 5000] [--deals 300] [--src DIR]

The warm-up runs without instrumentation; only the counted deals are measured (``callgrind_control -i on``).
``--src`` counts another checkout's ``src`` (for comparing two versions). Instructions are not time: a change that
saves instructions but spreads memory about can still be slower, which ``benchmarks/ab.py`` shows.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def measured(warmup: int, deals: int) -> None:
    """In the process valgrind runs: warm up untimed, then count ``deals`` deals."""
    from taash.cli.seep_bench import random_deals
    from taash.seep.rules import PRESETS

    rules = PRESETS["standard"]
    rng = random.Random(1)
    random_deals(warmup, rng, rules)
    pid = str(os.getpid())
    subprocess.run(["callgrind_control", "-i", "on", pid], check=True, capture_output=True)
    random_deals(deals, rng, rules)
    subprocess.run(["callgrind_control", "-i", "off", pid], check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warmup", type=int, default=5000, help="random deals played first, not counted")
    parser.add_argument("--deals", type=int, default=300, help="random deals counted")
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parent.parent / "src",
                        help="the src directory whose engine is counted")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        measured(args.warmup, args.deals)
        return
    if args.deals < 1 or args.warmup < 0:
        parser.error("--deals must be at least 1 and --warmup at least 0")
    if not (args.src / "taash" / "seep").is_dir():
        parser.error(f"--src {args.src} holds no taash package (give a checkout's src directory)")
    if not shutil.which("valgrind"):
        sys.exit("count_instructions: valgrind is not installed (apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = {**os.environ, "PYTHONPATH": str(args.src.resolve())}
        done = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
                               sys.executable, __file__, "--inside", "--warmup", str(args.warmup), "--deals",
                               str(args.deals)], env=env, capture_output=True, text=True)
        if done.returncode:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            sys.exit(f"count_instructions: the measured run failed: {last}")
        summary = subprocess.run(["callgrind_annotate", str(out)], check=True, capture_output=True, text=True).stdout
    found = re.search(r"^\s*([\d,]+)\s.*PROGRAM TOTALS", summary, re.MULTILINE)
    if not found:
        sys.exit("count_instructions: no total in callgrind's output")
    total = int(found.group(1).replace(",", ""))
    print(f"{total / args.deals / 1e6:.3f} million instructions per deal ({args.deals} deals after {args.warmup} "
          f"warm-up deals, {args.src})")


if __name__ == "__main__":
    main()
