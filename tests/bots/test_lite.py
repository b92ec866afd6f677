"""The lite heuristic play-out: its scores are the heuristic bot's (without reading the others' plays) from the
mover's view, it reads no hidden hand, and the compiled core plays it out to the same outcomes as the pure one."""

from __future__ import annotations

import random

import pytest

from taash.bots.seep.heuristic import HeuristicBot
from taash.bots.seep.ismcts import determinise
from taash.bots.seep.lite import (
    lite_outcomes,
    lite_play,
    lite_scores,
    model_outcomes,
    model_play,
    sharp_outcomes,
    sharp_play,
)
from taash.bots.seep.rollout import greedy_outcome
from taash.seep.core import CORE, compiled
from taash.seep.deal import Deal
from taash.seep.rules import PRESETS
from taash.seep.view import view_of

needs_compiled = pytest.mark.skipif(compiled is None, reason=f"the compiled core is not in use: {CORE}")


def _positions(preset: str, players: int, deals: int) -> list[tuple[Deal, int, random.Random]]:
    """Guessed deals (determinised from the view of the seat to move) at every play of random deals."""
    found = []
    for seed in range(deals):
        rng = random.Random(f"lite/{preset}/{players}/{seed}")
        deal = Deal.shuffled(PRESETS[preset], players, seed % players, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            found.append((determinise(view_of(deal, deal.to_move), rng), deal.to_move % 2, rng))
            deal.play(rng.choice(deal.legal_plays()))
    return found


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_lite_scores_are_the_heuristics_without_inference(preset: str, players: int) -> None:
    heuristic = HeuristicBot(0, inference=False)
    for world, _, _ in _positions(preset, players, 2):
        legal = world.legal_plays()
        view = view_of(world, world.to_move)
        want = [heuristic.evaluate(view, p)[0] for p in legal]
        assert lite_scores(world, legal) == pytest.approx(want, abs=1e-9), (preset, players, len(world.plays))


@needs_compiled
@pytest.mark.parametrize("rollout", ["lite", "sharp", "model"])
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_compiled_lite_outcomes_are_the_pure_ones(preset: str, players: int, rollout: str) -> None:
    compiled_outcomes = {"lite": lite_outcomes, "sharp": sharp_outcomes, "model": model_outcomes}[rollout]
    for world, team, rng in _positions(preset, players, 1):
        policy = {"lite": lite_play, "sharp": sharp_play, "model": model_play(team)}[rollout]
        legal = world.legal_plays()
        seed = rng.random()
        want = [greedy_outcome(world, team, p, seed, policy) for p in legal]
        assert compiled_outcomes(world, team, legal, seed) == want, (preset, players, len(world.plays))


def test_the_sharp_scores_read_the_next_hand() -> None:
    """The sharp scores differ from the lite ones (they read the guessed hands) and change with the next hand."""
    differs = 0
    for world, _, _ in _positions("standard", 4, 2):
        if not world.plays or world.over:
            continue
        legal = world.legal_plays()
        differs += lite_scores(world, legal, sharp=True) != lite_scores(world, legal)
    assert differs


def test_the_lite_play_out_reads_no_other_hand() -> None:
    """Guesses that differ only in how the other hands share their cards (sizes kept) are scored the same."""
    rng = random.Random(7)
    checked = 0
    for world, _, _ in _positions("standard", 4, 2):
        if not world.plays or world.over:
            continue
        other = world.clone()
        hidden = [s for s in range(4) if s != world.to_move]
        pool = [c for s in hidden for c in range(52) if world.hands[s] >> c & 1]
        rng.shuffle(pool)
        for s in hidden:
            n = world.hands[s].bit_count()
            other.hands[s] = sum(1 << c for c in pool[:n])
            pool = pool[n:]
        legal = world.legal_plays()
        assert lite_scores(world, legal) == lite_scores(other, legal)
        checked += 1
    assert checked > 50


def test_the_model_play_out_is_sharp_for_the_team_and_lite_for_the_others() -> None:
    rng = random.Random(3)
    for world, team, _ in _positions("standard", 4, 1):
        legal = world.legal_plays()
        if world.over or len(legal) < 2:
            continue
        seed = rng.random()
        mine = sharp_play if world.to_move % 2 == team else lite_play
        assert model_play(team)(world, legal, random.Random(seed).random) == mine(world, legal,
                                                                                random.Random(seed).random)
