"""The training data of Seep's learned bot: positions of deals where one team plays the expert search and the
other the heuristic, each of the search's decisions recorded from its seat's view.

A decision is recorded as the learned bot sees it (:func:`taash.bots.seep.learned.candidates`: the observation,
the heuristic's best plays and their features) with what the search found of each of those plays (its mean gain
over its guessed deals; the search ranks the same candidates in the same order). Deals are independent, so
they are played in several worker processes; deal ``k`` of a run uses seed ``seed + k`` whatever the number of
workers, so the same seed gives the same data.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from taash.bots.seep.heuristic import HeuristicBot
from taash.bots.seep.ismcts import IsmctsBot
from taash.bots.seep.learned import CANDIDATES, PLAY_FEATURES, candidates, observe
from taash.seep.deal import Phase
from taash.seep.game import SeepGame
from taash.seep.rules import PRESETS


@dataclass(frozen=True, slots=True)
class Decisions:
    """Recorded decisions, one row each: ``observation`` (N, 626), ``plays`` (N, CANDIDATES, features), ``valid``
    (N, CANDIDATES: which candidate rows are plays), ``gains`` (N, CANDIDATES: the search's mean gain of each,
    in points), ``chosen`` (N: the search's choice) and ``deal`` (N: the seed of the deal it came from)."""

    observation: np.ndarray
    plays: np.ndarray
    valid: np.ndarray
    gains: np.ndarray
    chosen: np.ndarray
    deal: np.ndarray

    def __len__(self) -> int:
        return len(self.chosen)

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **{name: getattr(self, name) for name in self.__slots__})

    @classmethod
    def load(cls, path: Path) -> Decisions:
        try:
            with np.load(path) as data:
                return cls(*(data[name] for name in cls.__slots__))
        except (OSError, KeyError, ValueError) as e:
            raise ValueError(f"cannot read training data {str(path)[:80]!r}: {e}") from None

    @classmethod
    def join(cls, parts: list[Decisions]) -> Decisions:
        return cls(*(np.concatenate([getattr(p, name) for p in parts]) for name in cls.__slots__))


@dataclass(frozen=True, slots=True)
class DealJob:
    """One deal to play and record: its seed, the search's iterations per decision, the players and preset."""

    seed: int
    iterations: int
    players: int = 4
    preset: str = "standard"


def play_deal(job: DealJob) -> Decisions:
    """Play one deal, the search at the seats of team ``seed % 2`` and the heuristic at the others, and record
    every search decision with more than one legal play."""
    game = SeepGame(PRESETS[job.preset], job.players)
    state = game.new_state(job.seed)
    expert_team = job.seed % 2
    bots = {seat: IsmctsBot(job.seed * 8 + seat, iterations=job.iterations) if seat % 2 == expert_team
            else HeuristicBot(job.seed * 8 + seat) for seat in range(job.players)}
    judge = HeuristicBot(0)
    rows: list[tuple[Any, Any, Any, Any, int]] = []
    while not state.is_over:
        seat = state.current_player
        view = state.view(seat)
        bot = bots[seat]
        action = bot.choose(view)
        if isinstance(bot, IsmctsBot) and view.phase is Phase.PLAY and bot.last_stats:
            plays, features = candidates(view, judge)
            stats = bot.last_stats
            valid = np.zeros(CANDIDATES, dtype=bool)
            valid[:len(plays)] = True
            gains = np.zeros(CANDIDATES, dtype=np.float32)
            gains[:len(plays)] = [stats[p][1] if stats.get(p, (0, 0.0))[0] else -1e3 for p in plays]
            padded = np.zeros((CANDIDATES, PLAY_FEATURES), dtype=np.float16)
            padded[:len(plays)] = features
            rows.append((observe(view).astype(np.float16), padded, valid, gains, plays.index(action)))  # type: ignore[arg-type]
        state.apply(action)
    n = len(rows)
    return Decisions(np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows]), np.stack([r[2] for r in rows]),
                     np.stack([r[3] for r in rows]), np.array([r[4] for r in rows], dtype=np.int8),
                     np.full(n, job.seed, dtype=np.int64))


def generate(deals: int, seed: int, iterations: int, workers: int,
             on_deal: Callable[[], None] | None = None) -> Decisions:
    """Record ``deals`` deals (seeds ``seed`` .. ``seed + deals - 1``) over ``workers`` processes."""
    jobs = [DealJob(seed + k, iterations) for k in range(deals)]
    parts: list[Decisions] = []
    if workers <= 1:
        for job in jobs:
            parts.append(play_deal(job))
            if on_deal:
                on_deal()
    else:
        with ProcessPoolExecutor(workers) as pool:
            for part in pool.map(play_deal, jobs, chunksize=1):
                parts.append(part)
                if on_deal:
                    on_deal()
    return Decisions.join(parts)
