"""The opponent model: which past plays a guess decides, the probabilities it gives them, and that it prefers the
true hidden hands to guesses that merely fit the hard facts."""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import replace

import pytest

from taash.bots.seep.heuristic import HeuristicBot
from taash.bots.seep.inference import hand_requirements
from taash.bots.seep.ismcts import deal_hidden
from taash.bots.seep.opponent_model import (
    EPSILON,
    log_likelihood,
    past_plays,
    play_likelihood,
    reader,
)
from taash.seep.core import CORE, compiled
from taash.seep.deal import Deal
from taash.seep.plays import legal_plays
from taash.seep.rules import FIRST_HALF_PLAYS, PRESETS
from taash.seep.view import PlayerView, view_of


def heuristic_deal(players: int, seed: int, stop_at: int) -> tuple[Deal, PlayerView]:
    """A deal the heuristic plays for every seat, stopped before play ``stop_at``, and the view of the seat to
    move then."""
    rng = random.Random(seed)
    deal = Deal.shuffled(PRESETS["standard"], players, seed % players, rng)
    bots = [HeuristicBot(s) for s in range(players)]
    deal.make_bid(bots[deal.to_move].choose_bid(view_of(deal, deal.to_move)))
    while len(deal.plays) < stop_at:
        deal.play(bots[deal.to_move].choose_play(view_of(deal, deal.to_move)))
    return deal, view_of(deal, deal.to_move)


@pytest.mark.parametrize(("players", "stop_at"), [(4, 20), (2, 30), (2, 12)])
def test_past_plays_are_the_other_seats_plays_a_guess_decides(players: int, stop_at: int) -> None:
    deal, view = heuristic_deal(players, 3, stop_at)
    pasts = past_plays(view)
    expected = [i for i, (seat, _) in enumerate(view.history)
                if i > 0 and seat != view.seat and not (players == 2 and i < FIRST_HALF_PLAYS <= stop_at)]
    assert [p.index for p in pasts] == expected and expected
    for past in pasts:
        assert view.history[past.index] == (past.seat, past.play)
        # His hand then, rebuilt from his true hand of today, held the card he played and made the play legal.
        hand = deal.hands[past.seat] | past.played_since
        assert hand >> past.play[1] & 1
        assert past.play in legal_plays(hand, past.seat, players, past.loose, past.houses, 0,
                                        view.rules.max_houses, view.rules.break_with_loose, past.restricted)


@pytest.mark.parametrize("model", ["greedy", "lite"])
def test_the_model_gives_each_play_a_probability_and_they_add_up_to_one(model: str) -> None:
    deal, view = heuristic_deal(4, 8, 24)
    checked = 0
    for past in past_plays(view):
        hand = deal.hands[past.seat] | past.played_since
        nxt = deal.hands[past.next_seat] | past.next_played_since
        legal = legal_plays(hand, past.seat, 4, past.loose, past.houses, 0, 0, False, past.restricted)
        if len(legal) < 2:
            continue
        chances = [play_likelihood(view, replace(past, play=p), hand, nxt, model=model) for p in legal]
        assert math.isclose(sum(chances), 1.0)
        assert min(chances) >= EPSILON / len(legal) - 1e-12
        checked += 1
    assert checked > 5


def test_a_play_the_guessed_hand_could_not_make_is_as_unlikely_as_the_model_allows() -> None:
    deal, view = heuristic_deal(4, 5, 16)
    past = past_plays(view)[-1]
    without = (deal.hands[past.seat] | past.played_since) & ~(1 << past.play[1])
    nxt = deal.hands[past.next_seat] | past.next_played_since
    assert play_likelihood(view, past, without, nxt) < EPSILON / 2


@pytest.mark.parametrize("model", ["greedy", "lite"])
def test_the_true_hands_are_likelier_than_guesses_that_only_fit_the_facts(model: str) -> None:
    """Against heuristic players, the true hidden hands rank high among guesses dealt from the hard facts alone:
    the model reads something real in the plays (half the guesses would rank above them were it blind)."""
    rng = random.Random(1)
    ranks = []
    for seed in range(4):
        for stop_at in (14, 26, 38):
            deal, view = heuristic_deal(4, seed, stop_at)
            pasts = past_plays(view)
            requirements = hand_requirements(view)
            true = log_likelihood(view, pasts, list(deal.hands), model=model)
            guesses = [log_likelihood(view, pasts, deal_hidden(view, rng, requirements)[0], model=model)
                       for _ in range(30)]
            ranks.append(sum(g < true for g in guesses) / len(guesses))
    assert statistics.fmean(ranks) > 0.7


@pytest.mark.skipif(compiled is None, reason=f"the compiled core is not in use: {CORE}")
@pytest.mark.parametrize("players", [2, 4])
def test_the_compiled_lite_likelihood_is_the_pure_one(players: int) -> None:
    """``reader`` for the lite model (in the compiled core) gives the pure log-likelihood of any guess, to
    rounding, at every stage of a deal; a guess it could not have made (the hands swapped) included."""
    rng = random.Random(players)
    checked = 0
    for seed in range(3):
        for stop_at in (6, 20, 34, 46):
            deal, view = heuristic_deal(players, seed, stop_at)
            pasts = past_plays(view)
            for temperature in (1.0, 0.3):
                likelihood = reader(view, pasts, temperature, "lite")
                guesses = [deal_hidden(view, rng)[0] for _ in range(3)] + [list(deal.hands)]
                others = [s for s in range(players) if s != view.seat]
                swapped = list(deal.hands)
                swapped[others[0]], swapped[others[-1]] = swapped[others[-1]], swapped[others[0]]
                for hands in [*guesses, swapped]:
                    want = log_likelihood(view, pasts, hands, temperature, "lite")
                    assert math.isclose(likelihood(hands), want, rel_tol=1e-9, abs_tol=1e-9), (seed, stop_at)
                    checked += 1
    assert checked > 50


@pytest.mark.skipif(compiled is None, reason=f"the compiled core is not in use: {CORE}")
def test_the_compiled_lite_likelihood_refuses_what_does_not_fit() -> None:
    assert compiled is not None
    with pytest.raises(ValueError, match="past play"):
        compiled.pack_pasts([(0, 1, (1, 5, 0, 0, 0), 0, {}, 0, 0, 2, 0, 0)])
    with pytest.raises(TypeError):
        compiled.pack_pasts([(3, 1, (1, 5, 0, 0, 0), 0, [], 0, 0, 2, 0, 0)])
    _, view = heuristic_deal(4, 1, 10)
    from taash.seep.core import core_rules
    with pytest.raises(ValueError, match="pack_pasts"):
        compiled.lite_log_likelihood(core_rules(view.rules), 4, b"123", [0, 0, 0, 0], 1.0, EPSILON)
