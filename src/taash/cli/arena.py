"""The arena's command body for any game (``taash seep arena``, ``taash rummy arena``): duplicate pairs between
every two bots, in worker processes or on Ray when asked, then the table, the ratings, and the results' files.

Thin like the rest of the command line: :mod:`taash.arena.duplicate` plays and measures, this module checks the
bots, chooses a backend (:mod:`taash.arena.backends`: this process, worker processes, Ray) and prints; each
game's command says only which game, what to call it and which of its tallies to show.
"""

from __future__ import annotations

import csv
import json
import os
import sys
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from rich import box
from rich.table import Table

from taash.arena.backends import Backend, BackendError, PairJob, local_backend, ray_backend
from taash.arena.duplicate import DuplicateSummary, PairResult, make_arena_bot, ratings, summarise
from taash.cli.common import fail, out, progress_bar, user_errors
from taash.games.api import Game


@dataclass(frozen=True, slots=True)
class ArenaSetup:
    """What a game's arena command passes on: the game, its words, and what results.json says about it."""

    game: Game
    #: The table's and the chart's description of the game, such as ``"4 players, standard"``.
    description: str
    #: The game's tallies shown in the table: (column heading, tally name), such as ("baazis A/B", "baazis").
    tally_columns: tuple[tuple[str, str], ...]
    #: results.json's fields after the pairings and ratings (players, rules, ...), before ``pairs`` and ``seed``.
    about: dict[str, Any]
    #: What one game of a pair is called in the table, and more than one: a deal (a single deal) or a match.
    unit: str = "deal"
    units: str = "deals"


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def worker_count(jobs: int, pairs: int) -> int:
    """``--jobs``, capped by the work (pairs a pairing) and the cores; a capped count is said on standard error."""
    available = cores()
    workers = min(jobs, pairs, available)
    if workers < jobs:
        limit = f"the {pairs} pairs of a pairing" if pairs < available else f"the {available} cores"
        print(f"taash: --jobs {jobs} is more than {limit}: {workers} worker process{'es' if workers > 1 else ''}",
              file=sys.stderr)
    return workers


def ray_tasks(ray_address: str) -> AbstractContextManager[Backend]:
    """Ray tasks at ``--ray``'s address (``auto``: this machine's Ray, or a fresh local one with its cores)."""
    if not ray_address.strip():
        fail("--ray needs auto or a cluster's address, such as 10.0.0.5:6379")
    return ray_backend(ray_address.strip(), cores())


def _backend(jobs: int, deals: int, ray_address: str | None) -> AbstractContextManager[Backend]:
    """Ray tasks with ``--ray``, else ``--jobs`` local processes."""
    if ray_address is not None:
        return ray_tasks(ray_address)
    return local_backend(worker_count(jobs, deals))


def _play(game: Game, pairings: list[tuple[str, str]], deals: int, seed: int, backend: Backend
          ) -> tuple[list[DuplicateSummary], list[tuple[str, str, list[PairResult]]]]:
    """Every pairing's pairs on ``backend``, with a progress bar; their summaries and results in seed order."""
    summaries: list[DuplicateSummary] = []
    played: list[tuple[str, str, list[PairResult]]] = []
    with progress_bar("Arena") as bar:
        task = bar.add_task("pairs", total=len(pairings) * deals)
        for a, b in pairings:
            jobs = [PairJob(a, b, game, seed + k) for k in range(deals)]
            results = backend.play(jobs, lambda: bar.advance(task))
            summaries.append(summarise(a, b, results))
            played.append((a, b, results))
    return summaries, played


def _column(name: str) -> str:
    """A tally's name as a column name: ``"wrong declarations"`` -> ``wrong_declarations``."""
    return name.replace(" ", "_")


def _flat(summary: dict[str, Any]) -> dict[str, Any]:
    """A pairing's summary with the game's tallies as columns of their own (``a_baazis``, ``b_baazis``)."""
    tallies = summary.pop("tallies")
    for name, (a, b) in tallies.items():
        summary[f"a_{_column(name)}"], summary[f"b_{_column(name)}"] = a, b
    return summary


def check_bots(bots: Sequence[str], game: str) -> None:
    """At least two bots, each named once and known to the arena of ``game`` (else one line and exit 2)."""
    if len(bots) < 2:
        fail("name at least two bots")
    for name in bots:
        try:
            make_arena_bot(name, 0, game)
        except ValueError as e:
            fail(str(e))
    if len(set(bots)) != len(bots):
        fail("name each bot once")


def duplicate_table(setup: ArenaSetup, summaries: Sequence[DuplicateSummary], deals: int) -> Table:
    """The pairings' results as a table that fits an 80-column terminal without cutting a heading short: headings
    on two lines, the margin with its 95% interval, the bots' median milliseconds a decision (their 95th
    percentiles are in results.json and results.csv)."""
    table = Table(title=f"Duplicate deals ({setup.description}, {deals} pairs each)", title_justify="left",
                  box=box.SIMPLE_HEAD, padding=(0, 1), collapse_padding=True, pad_edge=False, show_edge=False)
    for col in ("A", "B", f"margin/{setup.unit}\nA-B, 95%", f"{setup.units}\nwon A/B",
                *(heading.replace(" ", "\n", 1) for heading, _ in setup.tally_columns), "ms p50\nA/B"):
        table.add_column(col, justify="right", overflow="fold")
    for s in summaries:
        table.add_row(s.bot_a, s.bot_b, f"{s.mean_margin:+.1f} ±{s.ci95:.1f}", f"{s.a_deals_won}/{s.b_deals_won}",
                      *("{}/{}".format(*s.tallies.get(name, (0, 0))) for _, name in setup.tally_columns),
                      f"{s.a_ms_median:.1f}/{s.b_ms_median:.1f}")
    return table


def run_arena(setup: ArenaSetup, bots: Sequence[str], deals: int, seed: int, jobs: int,
              out_dir: Path | None, ray_address: str | None = None) -> None:
    """Every pairing of ``bots`` over ``deals`` duplicate pairs (pair k from ``seed + k``): print the table and
    the ratings, and write results.json, results.csv, pairs.csv and results.png to ``out_dir``. The pairs run in
    ``jobs`` local processes, or as Ray tasks with ``ray_address`` (``auto`` or a cluster's address); the results
    are the same either way."""
    check_bots(bots, setup.game.name)
    pairings = list(combinations(bots, 2))
    try:
        with _backend(jobs, deals, ray_address) as backend:
            summaries, played = _play(setup.game, pairings, deals, seed, backend)
    except BackendError as e:
        fail(str(e))
    rated = ratings(played)
    out.print(duplicate_table(setup, summaries, deals))
    rating_table = Table(title="Ratings (OpenSkill, every game)", title_justify="left")
    for col in ("bot", "mu", "sigma"):
        rating_table.add_column(col, justify="right")
    for name, (mu, sigma) in sorted(rated.items(), key=lambda kv: -kv[1][0]):
        rating_table.add_row(name, f"{mu:.1f}", f"{sigma:.2f}")
    out.print(rating_table)
    if out_dir is not None:
        _write(setup, summaries, played, rated, deals, seed, out_dir)
        out.print(f"Results written to {out_dir}/results.json, results.csv, pairs.csv and results.png")


def _write(setup: ArenaSetup, summaries: list[DuplicateSummary], played: list[tuple[str, str, list[PairResult]]],
           rated: dict[str, tuple[float, float]], deals: int, seed: int, out_dir: Path) -> None:
    from taash.arena.chart import draw

    tallies = [name for name in summaries[0].tallies]
    games = max(len(r.a_game_margins) for _, _, results in played for r in results)
    with user_errors(str(out_dir)):
        out_dir.mkdir(parents=True, exist_ok=True)
        data = {"pairings": [_flat(asdict(s)) for s in summaries],
                "ratings": {n: {"mu": mu, "sigma": sg} for n, (mu, sg) in rated.items()},
                **setup.about, "pairs": deals, "seed": seed}
        (out_dir / "results.json").write_text(json.dumps(data, indent=1) + "\n")
        margin = "points per deal" if setup.unit == "deal" else f"result per {setup.unit} (won +1)"
        draw(summaries, rated, out_dir / "results.png",
             f"Duplicate deals: {setup.description}, {deals} pairs per pairing", margin)
        with (out_dir / "results.csv").open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(_flat(asdict(summaries[0]))))
            writer.writeheader()
            writer.writerows(_flat(asdict(s)) for s in summaries)
        with (out_dir / "pairs.csv").open("w", newline="") as f:
            rows = csv.writer(f)
            rows.writerow(["bot_a", "bot_b", "seed", "margin", *(f"a_margin_game{k}" for k in range(1, games + 1)),
                           "a_deals_won", "b_deals_won",
                           *(f"{side}_{_column(name)}" for name in tallies for side in "ab")])
            for a, b, results in played:
                for r in results:
                    rows.writerow([a, b, r.seed, r.margin, *r.a_game_margins, r.a_deals_won, r.b_deals_won,
                                   *(n for name in tallies for n in r.tallies.get(name, (0, 0)))])
