"""``taash rummy bench``: the exact hand solver's speed on one core.

Hands are dealt at random from the ``octro`` 2-player packs (two packs and four printed jokers), each with its own
wild rank turned from the same packs (aces when a printed joker is turned, R1). Figures, medians over several
repeats: 13-card hands solved per second (least points, validity and an arrangement: :func:`solve`, pure Python
always), 13-card hands valued per second (least points and validity alone: :func:`hand_value`) and 14-card
best-discard checks per second (:func:`best_discard`, every discard weighed, the arrangement of the 13 left shown).
The last two run on the solver's core in use (:mod:`taash.rummy.core`; ``TAASH_PURE=1`` forces the pure one), which
the result names; on the compiled core they are timed on the pure one as well, side by side. The pure solver keeps
the tables of the card clusters it has met, so the figures are taken after a warm-up of random hands, as in a long
simulation; the rate of the first hands, every table still to be made, is reported as well.
"""

from __future__ import annotations

import gc
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from taash.packs import JOKER, face_of
from taash.rummy.core import CORE
from taash.rummy.rules import PRESETS, Rules
from taash.rummy.solver import best_discard, hand_value, pure_best_discard, pure_hand_value, solve

Hand = tuple[list[int], int]


@dataclass(frozen=True, slots=True)
class BenchResult:
    #: The solver's core in use (``"compiled"``, or ``"pure (...)"`` with the reason): it values hands and weighs
    #: discards; arrangements are the pure solver's.
    core: str
    hands_per_sec: float
    discards_per_sec: float
    #: The same per second of this process's processor time: nearer the one-core figure on a shared machine.
    hands_per_cpu_sec: float
    discards_per_cpu_sec: float
    #: 13-card hands valued (points and validity, no arrangement) on the core in use, wall clock and processor.
    values_per_sec: float
    values_per_cpu_sec: float
    #: Hands valued and best discards found by the pure solver (the same figures as above on the pure core).
    pure_values_per_sec: float
    pure_discards_per_sec: float
    pure_values_per_cpu_sec: float
    pure_discards_per_cpu_sec: float
    cold_hands_per_sec: float
    repeats: int
    hands_per_repeat: int
    discard_hands_per_repeat: int
    warmup: int
    rules: str
    python: str
    interpreter: str

    def to_json(self) -> dict[str, float | int | str]:
        return asdict(self)


def random_hands(n: int, size: int, rng: random.Random, rules: Rules, players: int = 2) -> list[Hand]:
    """``n`` hands of ``size`` faces dealt from a shuffled pack, each with the wild rank of one more card."""
    cards = rules.pack(players).cards()
    out = []
    for _ in range(n):
        dealt = rng.sample(cards, size + 1)
        turned = face_of(dealt[-1])
        out.append(([face_of(c) for c in dealt[:size]], 0 if turned == JOKER else turned % 13))
    return out


def solve_all(hands: list[Hand], rules: Rules) -> None:
    for faces, wild in hands:
        solve(faces, rules, wild)


def value_all(hands: list[Hand], rules: Rules) -> None:
    for faces, wild in hands:
        hand_value(faces, rules, wild)


def best_discards(hands: list[Hand], rules: Rules) -> None:
    for faces, wild in hands:
        best_discard(faces, rules, wild)


def pure_value_all(hands: list[Hand], rules: Rules) -> None:
    for faces, wild in hands:
        pure_hand_value(faces, rules, wild)


def pure_best_discards(hands: list[Hand], rules: Rules) -> None:
    for faces, wild in hands:
        pure_best_discard(faces, rules, wild)


def run_bench(repeats: int = 11, hands: int = 2000, discards: int = 300, warmup: int = 20000, seed: int = 1,
              preset: str = "octro", progress: Callable[[float], None] | None = None) -> BenchResult:
    """Measure; ``progress`` is told the fraction done."""
    rules = PRESETS[preset]
    rng = random.Random(seed)
    on_pure = CORE != "compiled"
    steps = 1 + (3 if on_pure else 5) * repeats
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress:
            progress(done / steps)

    first = random_hands(hands, 13, rng, rules)
    t = time.perf_counter()
    solve_all(first, rules)
    cold = hands / (time.perf_counter() - t)
    solve_all(random_hands(max(warmup - hands, 0), 13, rng, rules), rules)
    pure_best_discards(random_hands(warmup // 10, 14, rng, rules), rules)
    # The solver's tables are long-lived: keep the garbage collector from walking them again and again, as a
    # long simulation would (gc.freeze), so that the figures measure the solver.
    gc.collect()
    gc.freeze()
    tick()

    def timed(size: int, count: int, solve: Callable[[list[Hand], Rules], None]) -> tuple[float, float]:
        """Median wall-clock and processor-time rates of ``repeats`` batches of ``count`` hands of ``size``."""
        wall, cpu = [], []
        for _ in range(repeats):
            batch = random_hands(count, size, rng, rules)
            t, c = time.perf_counter(), time.process_time()
            solve(batch, rules)
            wall.append(count / (time.perf_counter() - t))
            cpu.append(count / max(time.process_time() - c, 1e-9))
            tick()
        return statistics.median(wall), statistics.median(cpu)

    hands_rate, hands_cpu = timed(13, hands, solve_all)
    values_rate, values_cpu = timed(13, hands, value_all)
    discards_rate, discards_cpu = timed(14, discards, best_discards)
    pure_values, pure_discards = (values_rate, values_cpu), (discards_rate, discards_cpu)
    if not on_pure:
        pure_values = timed(13, hands, pure_value_all)
        pure_discards = timed(14, discards, pure_best_discards)
    gc.unfreeze()
    return BenchResult(
        core=CORE,
        hands_per_sec=round(hands_rate, 1),
        discards_per_sec=round(discards_rate, 1),
        hands_per_cpu_sec=round(hands_cpu, 1),
        discards_per_cpu_sec=round(discards_cpu, 1),
        values_per_sec=round(values_rate, 1),
        values_per_cpu_sec=round(values_cpu, 1),
        pure_values_per_sec=round(pure_values[0], 1),
        pure_discards_per_sec=round(pure_discards[0], 1),
        pure_values_per_cpu_sec=round(pure_values[1], 1),
        pure_discards_per_cpu_sec=round(pure_discards[1], 1),
        cold_hands_per_sec=round(cold, 1),
        repeats=repeats,
        hands_per_repeat=hands,
        discard_hands_per_repeat=discards,
        warmup=warmup,
        rules=preset,
        python=platform.python_version(),
        interpreter=os.path.realpath(sys.executable),
    )
