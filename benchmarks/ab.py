"""Compare the engine's speed at two versions in one process: chunks of random deals run by each in turn, so that
the machine's swings in speed (a third from minute to minute on a shared machine) fall on both alike. From the
repository root:

    .venv/bin/python benchmarks/ab.py                     # HEAD against the working tree
    .venv/bin/python benchmarks/ab.py --base HEAD~3 --work HEAD --rounds 100
    .venv/bin/python benchmarks/ab.py --base-pure          # the pure core against the compiled one, both the tree's

Each version's ``src/taash`` (from ``git archive``, or the working tree) is copied under another package name, both
are warmed up as ``taash seep bench`` warms up, then they take turns playing ``--deals`` random 4-player deals,
``--rounds`` times each (the order of the pair flips every round). The answer is each version's median rate and the
median (and quartiles) of the per-round ratio work / base: a ratio's quartiles that stay on one side of 1 mean a
real difference. Not a test: a tool for judging a change to the engine.

A version runs on its compiled Seep core when its copy has one built (the working tree's, built in place; a git
revision's export has none, so it runs on its pure core, unless ``--build`` builds one in the export with the C
compiler that built Python). ``--base-pure`` runs the base on its pure core (``TAASH_PURE=1`` while it is imported)
and, with no ``--base`` given, takes the working tree as the base too: the two cores side by side.

``--legal`` times legal-play generation through the Python API instead, as ``taash seep bench`` times it: each
turn, ``legal_plays(...)`` once at every position of the bench's sampled positions (those of ``--deals // 5``
random deals, at least 20: 2,880 positions at the default 300), ``--passes`` times (a longer turn, over the same
positions), each version with its own ``legal_plays``.

``--cpu`` times each turn by the CPU time of this process's thread (``time.thread_time``), not the time on the
clock: on a machine that other work keeps busy, a turn then leaves out the time the core was given to others
(which the clock counts, to one version or the other by chance), though not what others cost it in caches.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import importlib
import io
import os
import platform
import random
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_IMPORT = re.compile(r"^(\s*)(from|import) taash(\b|\.)", re.MULTILINE)


def export(version: str | None, into: Path) -> Path:
    """``src/taash`` of ``version`` (a git revision; None for the working tree) copied to ``into/taash``."""
    if version is None:
        shutil.copytree(ROOT / "src" / "taash", into / "taash")
    else:
        done = subprocess.run(["git", "-C", str(ROOT), "archive", version, "src/taash"], capture_output=True)
        if done.returncode:
            sys.exit(f"ab.py: no src/taash at git revision {version!r} ({done.stderr.decode().strip()})")
        archive = done.stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(into)  # our own repository's files
        shutil.move(into / "src" / "taash", into / "taash")
    return into / "taash"


def renamed(package: Path, name: str, root: Path) -> None:
    """The package copied to ``root/name`` with its own imports of ``taash`` pointed at ``name``."""
    target = root / name
    shutil.copytree(package, target)
    for path in target.rglob("*.py"):
        text = path.read_text()
        path.write_text(_IMPORT.sub(lambda m: f"{m.group(1)}{m.group(2)} {name}{m.group(3)}", text))


def build_core(package: Path) -> None:
    """Build the compiled Seep core in place in an exported ``package`` (as setup.py builds it: the same flags and
    the hash of its source), with the C compiler that built this Python; exits in one line when it cannot."""
    source = package / "seep" / "_core.c"
    if not source.is_file():
        sys.exit(f"ab.py --build: {package.parent.name} has no compiled core to build (no seep/_core.c)")
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    target = source.with_name("_core" + str(sysconfig.get_config_var("EXT_SUFFIX")))
    popcnt = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []
    command = [*shlex.split(str(sysconfig.get_config_var("CC") or "cc")), "-O3", "-std=c99", "-shared", "-fPIC",
               *popcnt, f"-I{sysconfig.get_paths()['include']}", f'-DTAASH_CORE_SOURCE="{digest}"', str(source),
               "-o", str(target)]
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        sys.exit(f"ab.py --build: no C compiler ({error.strerror}: {command[0]})")
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        sys.exit(f"ab.py --build: the compiled core of {package.parent.name} did not build: {last}")


def bench_module(name: str) -> ModuleType:
    """The Seep bench of the version copied as package ``name``: ``cli.seep_bench``, or ``benchmarks.seep`` in a
    revision from before the benchmarks had one home (``benchmarks/`` for the commands)."""
    try:
        return importlib.import_module(f"{name}.cli.seep_bench")
    except ModuleNotFoundError:
        return importlib.import_module(f"{name}.benchmarks.seep")


def deal_turn(bench: ModuleType, deals: int, rng: random.Random, rules: Any) -> Callable[[], int]:
    """One turn of random deals: ``deals`` random deals played by ``bench`` (a version's Seep bench module)."""
    def turn() -> int:
        bench.random_deals(deals, rng, rules)
        return deals
    return turn


def legal_turn(legal_plays: Callable[..., list[Any]], positions: list[Any], passes: int) -> Callable[[], int]:
    """One turn of ``--legal``: the legal plays of every position ``passes`` times, through the Python API; the
    generations done."""
    def turn() -> int:
        total = 0
        for _ in range(passes):
            for position in positions:
                total += len(legal_plays(*position))
        return passes * len(positions)
    return turn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default=None, help="git revision of the base (default HEAD; the working tree "
                                                      "with --base-pure)")
    parser.add_argument("--base-pure", action="store_true", help="run the base on its pure core (TAASH_PURE=1)")
    parser.add_argument("--work", default=None, help="git revision of the version judged (default: working tree)")
    parser.add_argument("--rounds", type=int, default=60, help="chunks each version plays (default 60)")
    parser.add_argument("--deals", type=int, default=300, help="random deals per chunk (default 300)")
    parser.add_argument("--warmup", type=int, default=5000, help="untimed deals first, per version (default 5000)")
    parser.add_argument("--legal", action="store_true", help="time legal-play generation through the Python API "
                                                             "(as taash seep bench does), not random deals")
    parser.add_argument("--passes", type=int, default=1, help="with --legal: times over the positions per turn "
                                                               "(default 1)")
    parser.add_argument("--build", action="store_true", help="build the compiled core in a git revision's export")
    parser.add_argument("--cpu", action="store_true", help="time turns by this thread's CPU time, not the clock's")
    args = parser.parse_args()
    if args.rounds < 2 or args.deals < 1 or args.warmup < 0 or args.passes < 1:
        parser.error("--rounds must be at least 2, --deals and --passes at least 1, --warmup at least 0")
    if args.base is None:
        args.base = None if args.base_pure else "HEAD"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name, version in (("taash_base", args.base), ("taash_work", args.work)):
            package = export(version, root / f"{name}_src")
            if args.build and version is not None:
                build_core(package)
            renamed(package, name, root / "packages")
        sys.path.insert(0, str(root / "packages"))
        names = ("taash_base", "taash_work")
        benches: list[ModuleType] = []
        for n in names:
            pure = n == "taash_base" and args.base_pure
            if pure:
                os.environ["TAASH_PURE"] = "1"  # read once, when the copy's core module is imported
            benches.append(bench_module(n))
            if pure:
                del os.environ["TAASH_PURE"]
        for n in names:
            core = sys.modules.get(f"{n}.seep.core")
            print(f"{n}: {getattr(core, 'CORE', 'pure (a version from before the compiled core)')} core",
                  file=sys.stderr)
        rules = [importlib.import_module(f"{n}.seep.rules").PRESETS["standard"] for n in names]
        rngs = [random.Random(1), random.Random(1)]
        for bench, r, rng in zip(benches, rules, rngs, strict=True):
            bench.random_deals(args.warmup, rng, r)
        turns: list[Callable[[], int]] = []
        for n, bench, r, rng in zip(names, benches, rules, rngs, strict=True):
            if args.legal:
                positions = bench.sample_positions(max(args.deals // 5, 20), 2, r)
                turns.append(legal_turn(importlib.import_module(f"{n}.seep.plays").legal_plays, positions,
                                        args.passes))
            else:
                turns.append(deal_turn(bench, args.deals, rng, r))
        unit = "legal-play generations/s" if args.legal else "deals/s"
        clock = time.thread_time if args.cpu else time.perf_counter
        gc.collect()
        gc.freeze()
        rates: list[list[float]] = [[], []]
        for i in range(args.rounds):
            for k in (0, 1) if i % 2 == 0 else (1, 0):
                t = clock()
                done = turns[k]()
                rates[k].append(done / (clock() - t))
            print(f"\rround {i + 1}/{args.rounds}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    ratios = [w / b for b, w in zip(rates[0], rates[1], strict=True)]
    q1, q2, q3 = statistics.quantiles(ratios, n=4)
    print(f"base {args.base or 'working tree'}: {statistics.median(rates[0]):,.0f} {unit}; "
          f"work {args.work or 'working tree'}: {statistics.median(rates[1]):,.0f} {unit} (medians of {args.rounds}"
          f"{', CPU time' if args.cpu else ''})")
    print(f"work / base, per round: median {q2:.3f}, quartiles {q1:.3f} .. {q3:.3f}")


if __name__ == "__main__":
    main()
