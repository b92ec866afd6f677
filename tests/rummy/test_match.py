"""Matches: the formats of section 6, eliminations, the tie-break, the dealer's rotation, seeds and clones."""

from __future__ import annotations

import random

import pytest

from taash.rummy.deal import DealPoints, Drop, Take
from taash.rummy.errors import BadRulesError, IllegalTurnError
from taash.rummy.match import FORMATS, Match, Tally, get_format
from taash.rummy.rules import PRESETS
from taash.rummy.simulate import play_match

OCTRO = PRESETS["octro"]


def points(winner: int, *values: int | None) -> DealPoints:
    return DealPoints(winner, True, tuple(values))


def test_points_is_one_deal() -> None:
    match = Match(OCTRO, 3, "points", seed=4)
    play_match(match, random.Random(0))
    assert match.over and len(match.past) == 1 and match.winner == match.past[0].winner
    assert match.totals == tuple(p or 0 for p in match.past[0].result().points)
    with pytest.raises(IllegalTurnError, match="match is over"):
        match.next_deal()
    with pytest.raises(IllegalTurnError, match="match is over"):
        match.act(Drop())


def test_pool_101_puts_out_a_player_at_101_and_deals_skip_him() -> None:
    tally = Tally(4, FORMATS["pool101"])
    tally.add(0, (0, 1, 2, 3), points(1, 80, 0, 40, 20))
    assert tally.seats() == (0, 1, 2, 3) and not tally.eliminated
    tally.add(1, (0, 1, 2, 3), points(2, 30, 30, 0, 81))  # 110 and exactly 101: both out
    assert tally.eliminated == {0: 2, 3: 2} and tally.seats() == (1, 2)
    assert tally.next_dealer(0) == 2
    tally.add(2, (1, 2), points(1, None, 0, 61, None))
    assert tally.over and tally.winner == 1 and tally.eliminated[2] == 3
    assert tally.standing() == [1, 2, 3, 0]


def test_the_dealer_passes_clockwise_skipping_players_out() -> None:
    tally = Tally(5, FORMATS["pool101"])
    tally.add(3, (0, 1, 2, 3, 4), points(0, 0, 20, 20, 20, 120))
    assert tally.seats() == (0, 1, 2, 3) and tally.next_dealer(3) == 0
    tally = Tally(5, FORMATS["pool101"])
    tally.add(1, (0, 1, 2, 3, 4), points(0, 0, 20, 120, 120, 20))
    assert tally.next_dealer(1) == 4


def test_pool_201_drops_cost_25_and_50() -> None:
    match = Match(OCTRO, 3, "pool201", seed=1)
    match.act(Drop())
    assert match.deal.points[match.deal.order[0]] == 25
    match.act(Take("stock"))
    match.act(next(a for a in match.legal_actions()))
    match.act(Take("stock"))
    match.act(match.legal_actions()[0])
    match.act(Drop())
    dropped = match.deal.result().dropped
    assert sorted(match.deal.points[s] for s in dropped) == [25, 50]
    pool101 = Match(OCTRO, 3, "pool101", seed=1)
    pool101.act(Drop())
    assert pool101.deal.points[pool101.deal.order[0]] == 20


def test_deals_n_plays_exactly_n_deals_and_the_lowest_total_wins() -> None:
    tally = Tally(3, FORMATS["deals2"])
    tally.add(0, (0, 1, 2), points(0, 0, 40, 30))
    assert not tally.over
    tally.add(1, (0, 1, 2), points(1, 20, 0, 30))
    assert tally.over and tally.winner == 0 and tally.standing() == [0, 1, 2]


def test_a_tie_in_deals_n_plays_one_more_deal_between_the_tied_players() -> None:
    tally = Tally(4, FORMATS["deals2"])
    tally.add(2, (0, 1, 2, 3), points(1, 20, 0, 50, 40))
    tally.add(3, (0, 1, 2, 3), points(0, 0, 20, 30, 40))
    assert not tally.over and tally.seats() == (0, 1) and tally.next_dealer(3) == 0
    tally.add(0, (0, 1), points(1, 0, 0, None, None))  # still tied: another deal
    assert not tally.over and tally.seats() == (0, 1) and tally.next_dealer(3) == 1
    tally.add(1, (0, 1), points(0, 0, 12, None, None))
    assert tally.over and tally.winner == 0 and tally.totals == [20, 32, 80, 80]


def test_a_tie_break_deal_is_dealt_to_the_tied_players_only() -> None:
    match = Match(OCTRO, 4, "deals2", seed=3)
    for k in range(2):  # two deals of drops, then a tie made by hand
        while not match.deal.over:
            match.act(Drop())
        if k == 0:
            match.next_deal()
    match.tally.totals = [10, 10, 50, 60]
    assert not match.over
    deal = match.next_deal()
    assert deal.seats == (0, 1) and len(deal.pack) == 108 and set(deal.hands) == {0, 1}


def test_every_format_ends_with_a_winner_and_the_dealers_in_turn() -> None:
    for name in FORMATS:
        match = play_match(Match(OCTRO, 4, name, seed=11), random.Random(5))
        assert match.over and match.winner is not None
        dealers = [d.dealer for d in match.past]
        for before, after, deal in zip(dealers, dealers[1:], match.past[1:], strict=False):
            steps = [(before + k) % 4 for k in range(1, 5)]
            assert after == next(s for s in steps if s in deal.seats)


def test_the_same_seed_gives_the_same_match_and_clones_are_independent() -> None:
    a = play_match(Match(OCTRO, 5, "deals3", seed=9), random.Random(2))
    b = play_match(Match(OCTRO, 5, "deals3", seed=9), random.Random(2))
    assert [d.pack for d in a.past] == [d.pack for d in b.past] and a.totals == b.totals
    match = Match(OCTRO, 3, "pool101", seed=9)
    copy = match.clone()
    match.act(Drop())
    assert copy.deal.turns == [] and copy.rng.getstate() == Match(OCTRO, 3, "pool101", seed=9).rng.getstate()


def test_bad_match_settings_are_refused() -> None:
    with pytest.raises(BadRulesError, match="2 to 6"):
        Match(OCTRO, 7)
    with pytest.raises(BadRulesError, match="format"):
        get_format("pool150")
    with pytest.raises(BadRulesError, match="first dealer"):
        Match(OCTRO, 3, first_dealer=3)
    match = Match(OCTRO, 2, "deals2")
    with pytest.raises(IllegalTurnError, match="not over"):
        match.next_deal()
