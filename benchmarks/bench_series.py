"""``taash seep bench`` run again and again, each run a fresh process, with pauses between runs: the spread of the
figure over time on a machine whose speed swings from minute to minute. From the repository root:

    .venv/bin/python benchmarks/bench_series.py [--runs 20] [--pause 60] [--src DIR] [--log FILE] [--chart PNG]

Each run prints its time and figures as it ends (and, with ``--log``, is appended to FILE as one JSON line;
``--chart`` draws the runs over time, with the target and the median, into a PNG); the summary gives the median,
quartiles and range of the random-deal rate and how many runs reached 2,500 deals per second (the engine's
target). ``--src`` measures another checkout's ``src`` (a clone at a fixed commit, say, while
the working tree changes). Not a test: a tool for quoting the bench honestly.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGET = 2500
ROOT = Path(__file__).resolve().parent.parent


def one_run(src: Path, extra: list[str]) -> dict[str, float]:
    """One ``taash seep bench --json`` in a new interpreter with ``src`` first on its path."""
    env = {**os.environ, "PYTHONPATH": str(src.resolve())}
    command = "import sys; from taash.cli.main import run; sys.argv[0] = 'taash'; run()"  # what .venv/bin/taash does
    done = subprocess.run([sys.executable, "-c", command, "seep", "bench", "--json", *extra], env=env,
                          capture_output=True, text=True)
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        sys.exit(f"bench_series: the bench failed: {last}")
    found: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def draw(times: list[float], rates: list[float], path: Path) -> None:
    """The random-deal rate of each run against the minutes since the first, with the target and the median."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    minutes = [(t - times[0]) / 60 for t in times]
    fig, ax = plt.subplots(figsize=(9, 4))
    ax.plot(minutes, rates, "o-", color="#3b7dd8", label="one run of taash seep bench (median of its repeats)")
    ax.axhline(TARGET, color="#d8553b", linestyle="--", label=f"target: {TARGET:,} deals/s")
    ax.axhline(statistics.median(rates), color="#444444", linestyle=":",
               label=f"median of the runs: {statistics.median(rates):,.0f}")
    ax.set_xlabel("minutes since the first run")
    ax.set_ylabel("random full 4-player deals / s")
    ax.set_ylim(0, max(max(rates), TARGET) * 1.15)
    ax.legend(loc="lower left")
    start = time.strftime("%Y-%m-%d %H:%M", time.localtime(times[0]))
    ax.set_title(f"taash seep bench, {len(rates)} runs from {start}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="bench runs (default 20)")
    parser.add_argument("--pause", type=float, default=60.0, help="seconds between runs (default 60)")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the src directory whose engine is run")
    parser.add_argument("--log", type=Path, help="append each run to this file as a JSON line")
    parser.add_argument("--chart", type=Path, help="draw the runs over time into this PNG file")
    parser.add_argument("--bench-args", default="", help=argparse.SUPPRESS)  # tiny settings for the smoke test
    args = parser.parse_args()
    if args.runs < 1 or args.pause < 0:
        parser.error("--runs must be at least 1 and --pause at least 0")
    if not (args.src / "taash" / "seep").is_dir():
        parser.error(f"--src {args.src} holds no taash package (give a checkout's src directory)")
    for option, path in (("--log", args.log), ("--chart", args.chart)):
        if path and not path.parent.is_dir():
            parser.error(f"{option} {path}: no such folder {path.parent}")
    rates = []
    times = []
    for i in range(args.runs):
        if i:
            time.sleep(args.pause)
        result = one_run(args.src, args.bench_args.split())
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        rates.append(result["deals_per_sec"])
        times.append(time.time())
        print(f"{stamp}  run {i + 1}/{args.runs}: {result['deals_per_sec']:,.0f} deals/s, "
              f"{result['legal_per_sec']:,.0f} legal generations/s", flush=True)
        if args.log:
            with args.log.open("a") as log:
                log.write(json.dumps({"time": stamp, **result}) + "\n")
    low, high = min(rates), max(rates)
    middle = statistics.median(rates)
    spread = ""
    if len(rates) >= 2:
        q1, _, q3 = statistics.quantiles(rates, n=4)
        spread = f", quartiles {q1:,.0f} .. {q3:,.0f}"
    reached = sum(r >= TARGET for r in rates)
    if args.chart:
        draw(times, rates, args.chart)
    print(f"random full 4-player deals / s over {len(rates)} runs: median {middle:,.0f}{spread}, range "
          f"{low:,.0f} .. {high:,.0f}; {reached} of {len(rates)} runs at {TARGET:,} or more")


if __name__ == "__main__":
    main()
