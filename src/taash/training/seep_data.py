"""The training data of Seep's learned bot: decisions recorded from a seat's view, each with a teacher's value of
every candidate play.

A decision is recorded as the learned bot sees it (:func:`taash.bots.seep.learned.candidates`: the observation,
the heuristic's best plays and their features) with the teacher's value of each candidate, in points its team
gains from then on over the other team. Two teachers:

* ``oracle`` (the default): every seat plays the heuristic; at each decision every candidate is played out on the
  TRUE deal (the hidden hands and the stock as they are) with the search's ``sharp`` play-outs, in the compiled
  core. The network never sees those cards: it learns, from the view alone, the value a candidate has on average
  over the deals the view may be (the quantity the expert search estimates by guessing deals), with the hidden
  cards as they really fall in play. Cheap: hundreds of decisions a second on one core.
* ``search``: one team plays the expert search (``ismcts``), the other the heuristic, and the search's decisions
  are recorded with its own mean gain of each candidate (far slower: the search's time at every decision).

Deals are independent, so they are played on a backend of the arena's (:mod:`taash.arena.backends`): this
process, local worker processes, or Ray tasks on one machine or a cluster. Deal ``k`` of a run uses seed
``seed + k`` whatever the backend and the number of workers, and the deals are joined in seed order, so the same
seed gives the same data everywhere.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from taash.arena.backends import Backend, local_backend
from taash.bots.seep.heuristic import HeuristicBot
from taash.bots.seep.ismcts import IsmctsBot
from taash.bots.seep.learned import CANDIDATES, PLAY_FEATURES, candidates, observe
from taash.bots.seep.lite import sharp_outcomes
from taash.seep.deal import Deal, Phase
from taash.seep.game import SeepGame
from taash.seep.plays import Play
from taash.seep.rules import PRESETS
from taash.seep.view import PlayerView


@dataclass(frozen=True, slots=True)
class Decisions:
    """Recorded decisions, one row each: ``observation`` (N, 626), ``plays`` (N, CANDIDATES, features), ``valid``
    (N, CANDIDATES: which candidate rows are plays the teacher valued), ``gains`` (N, CANDIDATES: the teacher's
    value of each, in points), ``chosen`` (N: the teacher's choice) and ``deal`` (N: the seed of its deal)."""

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
    """One deal to play and record: its seed, the teacher (``oracle`` or ``search``), the search's iterations per
    decision (``search``) or play-outs per candidate (``oracle``: they differ only in how ties fall), the players
    and the preset."""

    seed: int
    iterations: int
    teacher: str = "oracle"
    players: int = 4
    preset: str = "standard"


#: The teachers of :class:`DealJob`.
TEACHERS = ("oracle", "search")


def play_deal(job: DealJob) -> Decisions:
    """Play one deal and record its decisions with more than one legal play: every seat's, the heuristic playing
    (``oracle``), or the search's at the seats of team ``seed % 2`` against the heuristic (``search``)."""
    game = SeepGame(PRESETS[job.preset], job.players)
    state = game.new_state(job.seed)
    expert_team = job.seed % 2 if job.teacher == "search" else -1
    bots = {seat: IsmctsBot(job.seed * 8 + seat, iterations=job.iterations) if seat % 2 == expert_team
            else HeuristicBot(job.seed * 8 + seat) for seat in range(job.players)}
    judge = HeuristicBot(0)
    rows: list[tuple[Any, Any, Any, Any, int]] = []
    while not state.is_over:
        seat = state.current_player
        view = state.view(seat)
        bot = bots[seat]
        if view.phase is Phase.PLAY and len(view.legal_plays()) > 1 and (
                job.teacher == "oracle" or isinstance(bot, IsmctsBot)):
            plays, features = candidates(view, judge)
            action = bot.choose(view)
            if isinstance(bot, HeuristicBot):
                values = _oracle_values(state.match.deal, plays, job.iterations, job.seed * 64 + len(rows))
            else:
                stats = bot.last_stats
                values = [stats[p][1] if stats.get(p, (0, 0.0))[0] else math.nan for p in plays] if stats else []
            if values:
                rows.append(_row(view, plays, features, values, action if job.teacher == "search" else None))
        else:
            action = bot.choose(view)
        state.apply(action)
    n = len(rows)
    if not n:
        return Decisions(np.zeros((0, 626), np.float16), np.zeros((0, CANDIDATES, PLAY_FEATURES), np.float16),
                         np.zeros((0, CANDIDATES), bool), np.zeros((0, CANDIDATES), np.float32),
                         np.zeros(0, np.int8), np.zeros(0, np.int64))
    return Decisions(np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows]), np.stack([r[2] for r in rows]),
                     np.stack([r[3] for r in rows]), np.array([r[4] for r in rows], dtype=np.int8),
                     np.full(n, job.seed, dtype=np.int64))


def _oracle_values(deal: Deal, plays: list[Play], playouts: int, seed: int) -> list[float]:
    """Each play's mean outcome (its team's points from now on, less the other team's) over ``playouts``
    play-outs of the true deal."""
    team = deal.to_move % 2
    rng = random.Random(seed)
    total = [0.0] * len(plays)
    for _ in range(playouts):
        for i, x in enumerate(sharp_outcomes(deal, team, plays, rng.random())):
            total[i] += x
    return [t / playouts for t in total]


def _row(view: PlayerView, plays: list[Play], features: Any, values: list[float],
         action: object) -> tuple[Any, Any, Any, Any, int]:
    """One decision's row: the observation, the candidates' features, which are valued, their values, and the
    teacher's choice (the search's own, given as ``action``; else the best valued candidate)."""
    valid = np.zeros(CANDIDATES, dtype=bool)
    gains = np.zeros(CANDIDATES, dtype=np.float32)
    for i, value in enumerate(values):
        if not math.isnan(value):
            valid[i] = True
            gains[i] = value
    padded = np.zeros((CANDIDATES, PLAY_FEATURES), dtype=np.float16)
    padded[:len(plays)] = features
    chosen = plays.index(action) if action in plays and valid[plays.index(action)] else int(
        np.where(valid, gains, -np.inf).argmax())
    return observe(view).astype(np.float16), padded, valid, gains, chosen


def generate(deals: int, seed: int, iterations: int, workers: int, on_deal: Callable[[], None] | None = None,
             teacher: str = "oracle", seconds: float | None = None, backend: Backend | None = None) -> Decisions:
    """Record ``deals`` deals (seeds ``seed`` .. ``seed + deals - 1``) on ``backend`` (None: ``workers`` local
    processes); with ``seconds``, no deal is started after that time, and the deals recorded are the first ones
    (seeds ``seed`` onwards, in order)."""
    if teacher not in TEACHERS:
        raise ValueError(f"unknown teacher {teacher[:40]!r} (oracle or search)")
    deadline = math.inf if seconds is None else time.monotonic() + seconds

    def jobs() -> Iterator[DealJob]:
        for k in range(deals):
            if time.monotonic() > deadline:
                return
            yield DealJob(seed + k, iterations, teacher)

    done = on_deal or (lambda: None)
    if backend is not None:
        return Decisions.join(backend.run(play_deal, jobs(), done))
    with local_backend(workers) as local:
        return Decisions.join(local.run(play_deal, jobs(), done))
