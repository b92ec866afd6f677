"""The greedy play-out in the compiled core (``greedy_outcomes``) against the pure one it stands in for: the same
outcome of every play, to the last bit, from every position of random deals of every preset and both player
counts; and its refusals of what does not fit."""

from __future__ import annotations

import random

import pytest

from taash.bots.seep.ismcts import determinise
from taash.bots.seep.rollout import counted_outcomes, counted_play, greedy_outcome, greedy_outcomes, greedy_play
from taash.seep.core import CORE, compiled, state_of
from taash.seep.deal import Deal
from taash.seep.rules import PRESETS
from taash.seep.view import view_of

needs_compiled = pytest.mark.skipif(compiled is None, reason=f"the compiled core is not in use: {CORE}")


def _positions(preset: str, players: int, deals: int) -> list[tuple[Deal, int, random.Random]]:
    """Guessed deals (determinised from the view of the seat to move) at every play of random deals."""
    found = []
    for seed in range(deals):
        rng = random.Random(f"{preset}/{players}/{seed}")
        deal = Deal.shuffled(PRESETS[preset], players, seed % players, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            found.append((determinise(view_of(deal, deal.to_move), rng), deal.to_move % 2, rng))
            deal.play(rng.choice(deal.legal_plays()))
    return found


@needs_compiled
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_compiled_greedy_outcomes_are_the_pure_ones(preset: str, players: int) -> None:
    for world, team, rng in _positions(preset, players, 2):
        legal = world.legal_plays()
        seed = rng.random()
        want = [greedy_outcome(world, team, p, seed) for p in legal]
        assert greedy_outcomes(world, team, legal, seed) == want, (preset, players, len(world.plays))


@needs_compiled
def test_compiled_greedy_outcomes_refuse_what_does_not_fit() -> None:
    world, team, _ = _positions("standard", 4, 1)[5]
    state = state_of(random.Random(1))
    assert compiled is not None
    not_held = next(c for c in range(52) if not world.hands[world.to_move] >> c & 1)
    with pytest.raises(ValueError, match="not legal"):
        compiled.greedy_outcomes(world.core_state(), state, [(1, not_held, 0, 0, 0)], team)
    with pytest.raises(ValueError, match="team"):
        compiled.greedy_outcomes(world.core_state(), state, world.legal_plays(), 2)
    assert compiled.greedy_outcomes(world.core_state(), state, [], team) == []


def test_greedy_outcomes_are_one_outcome_per_play_with_the_same_luck() -> None:
    """Either core: each play's outcome is its own play-out's, whatever plays come with it."""
    world, team, rng = _positions("standard", 4, 1)[9]
    legal = world.legal_plays()
    seed = rng.random()
    together = greedy_outcomes(world, team, legal, seed)
    assert together == [greedy_outcomes(world, team, [p], seed)[0] for p in legal]
    assert len(set(together)) > 1


@needs_compiled
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_compiled_counted_outcomes_are_the_pure_ones(preset: str, players: int) -> None:
    for world, team, rng in _positions(preset, players, 2):
        legal = world.legal_plays()
        seed = rng.random()
        want = [greedy_outcome(world, team, p, seed, counted_play) for p in legal]
        assert counted_outcomes(world, team, legal, seed) == want, (preset, players, len(world.plays))


def test_the_counted_play_out_does_not_read_the_next_hand() -> None:
    """Two guesses that differ only in the next player's hand (the same cards, swapped with a later seat's) are
    played the same by the counting mover, where the greedy one (which reads that hand) plays some differently."""
    differs = 0
    for world, _, rng in _positions("standard", 4, 3):
        if not world.plays or world.over:
            continue
        nxt, later = (world.to_move + 1) % 4, (world.to_move + 2) % 4
        hands = list(world.hands)
        if hands[nxt].bit_count() != hands[later].bit_count():
            continue
        swapped = world.clone()
        swapped.hands[nxt], swapped.hands[later] = hands[later], hands[nxt]
        legal = world.legal_plays()
        seed = rng.random()
        assert counted_play(world, legal, random.Random(seed).random) == counted_play(
            swapped, legal, random.Random(seed).random)
        greedy = [greedy_play(w, legal, random.Random(seed).random) for w in (world, swapped)]
        differs += greedy[0] != greedy[1]
    assert differs
