"""Greedy must beat random clearly in duplicate deals (a small, fast version of the arena's measurement)."""

from __future__ import annotations

from taash.arena.duplicate import run_duplicate
from taash.seep.game import SeepGame
from taash.seep.rules import PRESETS


def test_greedy_beats_random_in_duplicate_deals() -> None:
    summary, results = run_duplicate("greedy", "random", SeepGame(PRESETS["standard"], 4), pairs=60, seed=1)
    assert len(results) == 60
    assert summary.mean_margin - summary.ci95 > 0
    assert 0 < summary.a_ms_median <= summary.a_ms_p95 and 0 < summary.b_ms_median <= summary.b_ms_p95
    # Bot A makes half of the 48 plays of each of the two deals, and the bid of the deals its side bids.
    assert 48 <= len(results[0].a_seconds) <= 50
    assert len(results[0].a_seconds) + len(results[0].b_seconds) == 2 * (48 + 1)


def test_summary_mean_and_interval() -> None:
    from taash.arena.duplicate import PairResult, summarise

    results = [PairResult(k, m, 0, 0) for k, m in enumerate([20, 40, 60, 80])]  # per deal: 10, 20, 30, 40
    summary = summarise("a", "b", results)
    assert summary.mean_margin == 25
    assert abs(summary.ci95 - 1.96 * 12.909944487358056 / 2) < 1e-9


def test_heuristic_beats_greedy_in_duplicate_deals() -> None:
    summary, _ = run_duplicate("heuristic", "greedy", SeepGame(PRESETS["standard"], 4), pairs=80, seed=2)
    assert summary.mean_margin - summary.ci95 > 0


def test_probability_of_holding_a_value() -> None:
    from taash.bots.seep.heuristic import holds_probability

    assert holds_probability(10, 0, 5) == 0.0
    assert holds_probability(10, 1, 10) == 1.0
    assert abs(holds_probability(4, 1, 2) - 0.5) < 1e-12
    assert abs(holds_probability(10, 2, 3) - (1 - (8 * 7 * 6) / (10 * 9 * 8))) < 1e-12


def test_levels_map_to_bots() -> None:
    from taash.bots.base import make_bot
    from taash.games.registry import levels

    for game in ("seep", "rummy"):
        for level, kind in levels(game).items():
            assert make_bot(level, 1, game).name == kind
    assert levels("seep")["learned"] == "learned" and "learned" not in levels("rummy")


def test_ratings_order_the_stronger_bot_first() -> None:
    from taash.arena.duplicate import play_pair, ratings
    from taash.seep.game import SeepGame

    results = [play_pair("greedy", "random", SeepGame(PRESETS["standard"], 4), seed) for seed in range(30)]
    rated = ratings([("greedy", "random", results)])
    assert rated["greedy"][0] > rated["random"][0]
    assert all(sigma > 0 for _, sigma in rated.values())
