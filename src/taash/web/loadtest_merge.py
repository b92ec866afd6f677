"""Load tests run side by side, merged into one set of figures.

The simulated people of ``taash web loadtest`` are one Python process, which can become the bottleneck before
several servers do (docs/results/cluster.md). Several load tests then run at once, each with its share of the
people, and each writes what it measured with ``--latencies FILE``; :func:`merged` adds them up, taking the
percentiles from every play's latency together rather than averaging each test's own
(benchmarks/merge_loadtests.py; benchmarks/cluster_load.sh with ``LOADTESTS=K``).
"""

from __future__ import annotations

from typing import Any

from taash.web.loadtest import Results


def latencies_record(results: Results, ended: float) -> dict[str, Any]:
    """What ``taash web loadtest --latencies FILE`` writes: the figures, every play's time to its ack in seconds,
    and the measured window's wall-clock start and end (``ended``: ``time.time()`` when the play stopped)."""
    return {"figures": results.to_json(), "start": round(ended - results.duration, 3), "end": round(ended, 3),
            "latencies": [round(x, 6) for x in results.latencies]}


def merged(records: list[dict[str, Any]]) -> dict[str, Any]:
    """One set of figures for load tests that ran side by side: people, tables, plays, errors, disconnects and
    websockets moved to their owner added up; p50, p99, max and mean from all their plays' latencies together;
    each set-up step's seconds, the slowest test's; plays a second over the whole span from the first test's
    start to the last one's end. ``plays_per_sec_summed`` (each test's rate added up) is higher when the tests'
    windows did not quite overlap (``overlap_seconds`` says how long they all ran at once).
    Raises ValueError for anything that is not a list of ``--latencies`` records."""
    if not records:
        raise ValueError("no load tests to merge")
    try:
        starts = [float(r["start"]) for r in records]
        ends = [float(r["end"]) for r in records]
        figures = [r["figures"] for r in records]
        total = Results(sum(int(f["players"]) for f in figures), sum(int(f["tables"]) for f in figures),
                        duration=max(ends) - min(starts),
                        latencies=[float(x) for r in records for x in r["latencies"]])
        for f in figures:
            for code, count in f["errors"].items():
                total.errors[str(code)] = total.errors.get(str(code), 0) + int(count)
            total.disconnects += int(f["disconnects"])
            total.moved += int(f.get("moved_to_owner", 0))
        summed = round(sum(float(f["plays_per_sec"]) for f in figures), 1)
        for f in figures:  # side by side: each step took as long as the slowest test's
            for step, seconds in f.get("setup_seconds", {}).items():
                total.setup[str(step)] = max(total.setup.get(str(step), 0.0), float(seconds))
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise ValueError(f"not a record of taash web loadtest --latencies ({type(e).__name__}: {e})") from None
    if total.duration <= 0:
        raise ValueError("the load tests' windows end before they start")
    return {**total.to_json(), "processes": len(records), "plays_per_sec_summed": summed,
            "overlap_seconds": round(max(0.0, min(ends) - max(starts)), 1)}
