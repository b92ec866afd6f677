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


@pytest.mark.parametrize("rollout", ["greedy", "counted", "lite", "sharp", "model", "heuristic", "random"])
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
    with pytest.raises(ValueError, match="unknown opponent model"):
        make_bot("ismcts:opponent=smart", 2)


def early_positions(players: int, count: int) -> list[Deal]:
    """Positions early in deals (right after the bid play: full hands, the longest play-outs), several legal plays."""
    rng = random.Random(players * 100 + count)
    found = []
    while len(found) < count:
        deal = Deal.shuffled(PRESETS["standard"], players, rng.randrange(players), rng)
        deal.make_bid(deal.legal_bids()[-1])
        deal.play(deal.legal_plays()[0])
        if len(deal.legal_plays()) > 3:
            found.append(deal)
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_a_tiny_time_budget_is_kept_early_in_a_deal(players: int) -> None:
    """With far more iterations than it could finish, the search answers once its seconds are up: the budget
    bounds the whole decision, and the answer is still a legal play (the heuristic's best with no iteration)."""
    import time

    budget, margin = 0.05, 0.5  # an iteration takes a few milliseconds; the margin is for a loaded machine
    for deal in early_positions(players, 3):
        view = view_of(deal, deal.to_move)
        bot = IsmctsBot(4, iterations=10**6, seconds=budget)
        started = time.perf_counter()
        play = bot.choose_play(view)
        assert time.perf_counter() - started < budget + margin
        assert play in deal.legal_plays()
        visits = [v for v, _ in bot.last_stats.values()]
        assert visits and max(visits) < 10**6  # it stopped for time, not for its iterations
    shortest = IsmctsBot(4, iterations=10**6, seconds=1e-9)
    deal = early_positions(players, 1)[0]
    view = view_of(deal, deal.to_move)
    assert shortest.choose_play(view) == max(deal.legal_plays(), key=lambda p: HeuristicBot(4).evaluate(view, p)[0])


def test_the_expert_level_thinks_within_its_budget() -> None:
    """``taash play``'s expert bots (and the web's) keep to EXPERT_SECONDS a play, early in a deal too, where a
    full search of 400 iterations takes most of a second or more; a bot named ``ismcts`` has no time limit."""
    import time

    from taash.bots.base import EXPERT_SECONDS, make_bot

    assert make_bot("expert", 1).seconds == EXPERT_SECONDS  # type: ignore[attr-defined]
    assert make_bot("ismcts", 1).seconds is None  # type: ignore[attr-defined]
    assert make_bot("ismcts", 1).iterations == make_bot("expert", 1).iterations == 400  # type: ignore[attr-defined]
    for deal in early_positions(4, 2):
        started = time.perf_counter()
        make_bot("expert", 7).choose_play(view_of(deal, deal.to_move))
        assert time.perf_counter() - started < EXPERT_SECONDS + 0.5


@pytest.mark.parametrize("seconds", [0, -1, "abc", True, 10**9])
def test_a_time_budget_must_be_positive_and_sane(seconds: object) -> None:
    from taash.bots.base import make_bot

    with pytest.raises(ValueError, match="seconds must be a number above 0"):
        IsmctsBot(1, seconds=seconds)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seconds must be a number above 0"):
        make_bot(f"ismcts:seconds={seconds}", 1)


def test_weighing_guesses_is_deterministic_for_a_seed_and_changes_the_search() -> None:
    """With ``guesses`` the search plays out deals drawn from its pool of guesses by the opponent model: the same
    seed gives the same search, and the weighting does change which deals are played out (so the statistics
    differ)."""
    from taash.bots.seep.heuristic import HeuristicBot as Heuristic

    rng = random.Random(21)
    deal = Deal.shuffled(PRESETS["standard"], 4, 0, rng)
    bots = [Heuristic(s) for s in range(4)]
    deal.make_bid(bots[deal.to_move].choose_bid(view_of(deal, deal.to_move)))
    while len(deal.plays) < 18 or len(deal.legal_plays()) < 3:
        deal.play(bots[deal.to_move].choose_play(view_of(deal, deal.to_move)))
    view = view_of(deal, deal.to_move)
    a, b = (IsmctsBot(3, iterations=20, guesses=2, prune=0, opponent="greedy", temperature=1),
            IsmctsBot(3, iterations=20, guesses=2, prune=0, opponent="greedy", temperature=1))
    assert a.choose_play(view) == b.choose_play(view) and a.last_stats == b.last_stats
    plain = IsmctsBot(3, iterations=20, prune=0, guesses=0)
    plain.choose_play(view)
    assert plain.last_stats != a.last_stats
    softer = IsmctsBot(3, iterations=20, guesses=2, prune=0, opponent="greedy", temperature=8)
    softer.choose_play(view)
    assert softer.last_stats != a.last_stats  # the opponent model's temperature weighs the guesses otherwise
    lite = [IsmctsBot(3, iterations=20, guesses=2, prune=0, opponent="lite", temperature=1) for _ in range(2)]
    assert lite[0].choose_play(view) == lite[1].choose_play(view) and lite[0].last_stats == lite[1].last_stats
    assert lite[0].last_stats != a.last_stats  # the lite opponent model weighs the guesses otherwise


@pytest.mark.parametrize("guesses", [-2, 1.5, "x", 10**4])
def test_guesses_must_be_a_sane_whole_number(guesses: object) -> None:
    from taash.bots.base import make_bot

    with pytest.raises(ValueError, match="guesses must be a whole number from 0 to 256"):
        IsmctsBot(1, guesses=guesses)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="guesses must be a whole number from 0 to 256"):
        make_bot(f"ismcts:guesses={guesses}", 1)


@pytest.mark.parametrize("temperature", [0, -1, "warm", True, 101])
def test_the_opponent_models_temperature_must_be_positive_and_sane(temperature: object) -> None:
    from taash.bots.base import make_bot

    with pytest.raises(ValueError, match="temperature must be a number above 0 and at most 100"):
        IsmctsBot(1, guesses=1, temperature=temperature)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="temperature must be a number above 0 and at most 100"):
        make_bot(f"ismcts:guesses=1,temperature={temperature}", 1)
