"""Whole random matches in every preset, format and player count end, and their records replay to the same scores."""

from __future__ import annotations

import json

import pytest

from taash.rummy.match import FORMATS
from taash.rummy.record import record_from_json, replay
from taash.rummy.rules import PLAYER_COUNTS, PRESETS
from taash.rummy.simulate import random_matches


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_matches_end_and_replay_to_the_same_scores(preset: str, fmt: str) -> None:
    for players in PLAYER_COUNTS:
        (sim,) = random_matches(PRESETS[preset], players, fmt, 1, seed=100 * players + len(fmt))
        match = sim.match
        assert match.over and match.winner is not None and match.deal.over
        data = json.loads(json.dumps(sim.record().to_json()))
        replayed = replay(record_from_json(data))
        assert [r.points for r in replayed.results] == [r.points for r in match.results]
        assert replayed.tally.totals == list(match.totals) and replayed.tally.winner == match.winner
        for deal in match.past:
            result = deal.result()
            assert sum(1 for p in result.points if p == 0) >= 1 and result.points[result.winner] == 0
            assert all(p is None or 0 <= p <= 80 for p in result.points)


def test_random_matches_are_the_same_for_a_seed() -> None:
    a = [sim.record().to_json() for sim in random_matches(PRESETS["classic"], 3, "deals2", 2, seed=4)]
    b = [sim.record().to_json() for sim in random_matches(PRESETS["classic"], 3, "deals2", 2, seed=4)]
    assert a == b and a[0] != a[1]


def test_a_long_simulation_meets_every_ending() -> None:
    """Deals won by a valid declaration and by the last player left, drops, wrong declarations and reshuffles
    all happen in random play (a 6-player pool 201 is long enough)."""
    counts = {"valid": 0, "last": 0, "drops": 0, "wrong": 0, "reshuffles": 0}
    for sim in random_matches(PRESETS["octro"], 6, "pool201", 2, seed=1):
        replayed = replay(record_from_json(sim.record().to_json()))
        assert replayed.tally.totals == list(sim.match.totals)
        for deal in sim.match.past:
            result = deal.result()
            counts["valid"] += result.declared
            counts["last"] += not result.declared
            counts["drops"] += len(result.dropped)
            counts["wrong"] += len(result.wrong)
            counts["reshuffles"] += sum(t.reshuffled for t in deal.turns)
    assert all(counts.values()), counts
