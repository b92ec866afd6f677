"""The search bot: its determinisations fit what the seat knows, and it never reads hidden cards."""

from __future__ import annotations

import random

import pytest

from taash.bots.seep.heuristic import HeuristicBot
from taash.bots.seep.ismcts import IsmctsBot, determinise
from taash.seep.deal import Deal
from taash.seep.rules import PRESETS
from taash.seep.values import VALUE_MASK
from taash.seep.view import view_of
from tests.bots.test_fairness import reshuffle_hidden


@pytest.mark.parametrize("players", [2, 4])
def test_determinisations_fit_the_seat_view(players: int) -> None:
    rng = random.Random(players)
    for d in range(6):
        deal = Deal.shuffled(PRESETS["standard"], players, d % players, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            seat = deal.to_move
            view = view_of(deal, seat)
            world = determinise(view, rng)
            seen = view_of(world, seat)
            assert (seen.hand, seen.loose, seen.houses, seen.hand_sizes, seen.to_move, seen.history,
                    seen.initial_floor, seen.unseen()) == \
                (view.hand, view.loose, view.houses, view.hand_sizes, view.to_move, view.history,
                 view.initial_floor, view.unseen())
            assert len(world.deck) == 52 and len(set(world.deck)) == 52
            for v, (_, _, owners) in world.houses.items():
                for s in range(players):
                    if owners >> s & 1:
                        assert world.hands[s] & VALUE_MASK[v], "an owner holds a card of his house"
            while not world.over:  # the determinised deal plays to its end like a real one
                world.play(rng.choice(world.legal_plays()))
            deal.play(rng.choice(deal.legal_plays()))


@pytest.mark.parametrize(("players", "preset"), [(4, "standard"), (2, "standard"), (4, "punjab_30_qasim")])
def test_hidden_cards_never_change_the_search(players: int, preset: str) -> None:
    rng = random.Random(7)
    deal = Deal.shuffled(PRESETS[preset], players, 0, rng)
    deal.make_bid(rng.choice(deal.legal_bids()))
    checked = 0
    while not deal.over:
        seat = deal.to_move
        if len(deal.legal_plays()) > 1 and checked < 6:
            other = reshuffle_hidden(deal, seat, rng)
            a = IsmctsBot(5, iterations=12).choose_play(view_of(deal, seat))
            b = IsmctsBot(5, iterations=12).choose_play(view_of(other, seat))
            assert a == b
            checked += 1
        deal.play(rng.choice(deal.legal_plays()))
    assert checked == 6


def test_search_respects_its_budgets() -> None:
    rng = random.Random(3)
    deal = Deal.shuffled(PRESETS["standard"], 4, 0, rng)
    deal.make_bid(deal.legal_bids()[0])
    deal.play(deal.legal_plays()[0])
    bot = IsmctsBot(1, iterations=30, candidates=5, prune=0)
    play = bot.choose_play(view_of(deal, deal.to_move))
    assert play in deal.legal_plays()
    assert len(bot.last_stats) == min(5, len(deal.legal_plays()))
    assert all(v == 30 for v, _ in bot.last_stats.values())  # every candidate on every determinisation
    assert bot.last_stats[play][1] == max(mean for _, mean in bot.last_stats.values())
    pruning = IsmctsBot(1, iterations=30)
    chosen = pruning.choose_play(view_of(deal, deal.to_move))
    visits = {p: v for p, (v, _) in pruning.last_stats.items()}
    assert 0 < visits[chosen] == max(visits.values()) <= 30
    view = view_of(deal, deal.to_move)
    why = bot.explain(view, play)
    assert "over 30 guessed deals its team nets" in why and why.startswith(HeuristicBot(1).explain(view, play))


@pytest.mark.parametrize("rollout", ["greedy", "heuristic", "random"])
def test_every_play_out_policy_searches_to_a_legal_play(rollout: str) -> None:
    from taash.bots.base import make_bot

    deal = Deal.shuffled(PRESETS["standard"], 4, 1, random.Random(11))
    deal.make_bid(deal.legal_bids()[-1])
    deal.play(deal.legal_plays()[0])
    view = view_of(deal, deal.to_move)
    spec = f"ismcts:rollout={rollout},iterations=3,candidates=3"
    play = make_bot(spec, 2).choose_play(view)
    assert play in deal.legal_plays() and play == make_bot(spec, 2).choose_play(view)
    with pytest.raises(ValueError, match="unknown play-out policy"):
        make_bot("ismcts:rollout=smart", 2)
