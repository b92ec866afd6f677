"""``taash seep bench``: random full 4-player deals per second and legal-play generations per second, one core.

A random deal is a real deal played to its end with every play drawn uniformly from the full list of legal
plays (the list is generated in full at every turn; nothing is sampled lazily). Figures are medians over
several repeats, after a warm-up that fills the engine's caches of floor arithmetic as a long simulation would;
the rate of the first deals of the run, with every cache empty, is reported as well.

The bench runs on the core in use (:mod:`taash.seep.core`; ``TAASH_PURE=1`` forces the pure one) and says which.
On the compiled core the deals are played in C from the same random stream (the same deals as the pure core
plays), and legal-play generation is timed twice: in the core alone (C over the sampled positions, no Python
objects made) and through the Python API (``legal_plays(...)``, a list of play tuples per call). On the pure core
both are the Python API.
"""

from __future__ import annotations

import gc
import math
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from taash.seep.core import CORE, compiled, core_rules, set_state, state_of
from taash.seep.deal import Deal
from taash.seep.plays import House, legal_plays
from taash.seep.rules import PLAYS_PER_DEAL, PRESETS, Rules


@dataclass(frozen=True, slots=True)
class BenchResult:
    deals_per_sec: float
    legal_per_sec: float
    cold_deals_per_sec: float
    legal_calls_per_sec: float
    core: str
    repeats: int
    deals_per_repeat: int
    positions: int
    mean_legal_plays: float
    python: str
    interpreter: str

    def to_json(self) -> dict[str, float | int | str]:
        return asdict(self)


_PLAYS = range(PLAYS_PER_DEAL)


def random_deals(n: int, rng: random.Random, rules: Rules, players: int = 4) -> int:
    """Play ``n`` random deals to the end on the core in use; returns the number of plays made."""
    if compiled is not None:  # the same deals, from the same draws of ``rng``, played in C
        plays, state, _ = compiled.random_deals(core_rules(rules), players, n, state_of(rng))
        set_state(rng, state)
        return int(plays)
    return pure_random_deals(n, rng, rules, players)


def pure_random_deals(n: int, rng: random.Random, rules: Rules, players: int = 4) -> int:
    """:func:`random_deals` on the pure core, whichever core is in use."""
    rnd = rng.random
    floor = math.floor  # the same index as int() for a product that is never negative, called more cheaply
    plays = 0
    for i in range(n):
        deal = Deal.shuffled(rules, players, i % players, rng)
        bids = deal.legal_bids()
        deal.make_bid(bids[floor(rnd() * len(bids))])
        legal_plays_of, play = deal.pure_legal_plays, deal.play
        for _ in _PLAYS:  # a deal is always 48 plays
            legal = legal_plays_of()
            play(legal[floor(rnd() * len(legal))], False)
        deal.score()
        plays += len(deal.plays)
    return plays


Sample = tuple[int, int, int, int, dict[int, House], int, int, bool, int]


def sample_positions(n_deals: int, seed: int, rules: Rules) -> list[Sample]:
    """Every position of ``n_deals`` random 4-player deals, as the arguments of :func:`legal_plays`."""
    rng = random.Random(seed)
    out: list[Sample] = []
    for i in range(n_deals):
        deal = Deal.shuffled(rules, 4, i % 4, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            p = deal.to_move
            out.append((deal.hands[p], p, 4, deal.loose, dict(deal.houses), 0 if deal.plays else deal.bid,
                        rules.max_houses, rules.break_with_loose, deal.restricted))
            deal.play(rng.choice(deal.legal_plays()), check=False)
    return out


def run_bench(repeats: int = 11, deals: int = 300, warmup: int = 5000, seed: int = 1,
              progress: Callable[[float], None] | None = None) -> BenchResult:
    """Measure; ``progress`` is told the fraction done."""
    rules = PRESETS["standard"]
    rng = random.Random(seed)
    steps = 2 + 2 * repeats
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress:
            progress(done / steps)

    # The first deals, timed before any cache is filled: what a short run sees.
    t = time.perf_counter()
    random_deals(deals, rng, rules)
    cold = deals / (time.perf_counter() - t)
    random_deals(max(warmup - deals, 0), rng, rules)
    # The engine's caches are long-lived: keep the garbage collector from walking them again and again, as a
    # long simulation or server would (gc.freeze), so the figure measures the engine.
    gc.collect()
    gc.freeze()
    tick()
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        random_deals(deals, rng, rules)
        rates.append(deals / (time.perf_counter() - t))
        tick()
    positions = sample_positions(max(deals // 5, 20), seed + 1, rules)
    tick()
    legal_rates = []
    call_rates = []
    total = 0
    packed = compiled.pack_positions(positions) if compiled is not None else None
    for _ in range(repeats):
        t = time.perf_counter()
        total = 0
        for args in positions:
            total += len(legal_plays(*args))
        call_rates.append(len(positions) / (time.perf_counter() - t))
        if compiled is not None:
            t = time.perf_counter()
            in_core = compiled.count_legal(packed)
            legal_rates.append(len(positions) / (time.perf_counter() - t))
            assert in_core == total, "the compiled core counted other plays than it listed"
        tick()
    gc.unfreeze()
    if compiled is None:
        legal_rates = call_rates
    return BenchResult(
        deals_per_sec=round(statistics.median(rates), 1),
        legal_per_sec=round(statistics.median(legal_rates), 1),
        cold_deals_per_sec=round(cold, 1),
        legal_calls_per_sec=round(statistics.median(call_rates), 1),
        core=CORE,
        repeats=repeats,
        deals_per_repeat=deals,
        positions=len(positions),
        mean_legal_plays=round(total / len(positions), 2),
        python=platform.python_version(),
        interpreter=os.path.realpath(sys.executable),
    )
