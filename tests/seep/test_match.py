"""The running score, baazis and who deals next (rules 6.1, 6.2 and R6), and the match's own bookkeeping."""

from __future__ import annotations

import random

import pytest

from taash.seep.errors import IllegalPlayError
from taash.seep.match import Match, next_dealer, score_deal
from taash.seep.rules import PRESETS, Rules

NORTH, WEST, SOUTH, EAST = 0, 1, 2, 3
NS, EW = 0, 1
STANDARD = PRESETS["standard"]


@pytest.mark.parametrize(("dealer", "difference", "expected"), [
    (NORTH, 10, WEST),  # the dealer's team strictly ahead: the deal passes on
    (NORTH, 0, NORTH),  # level: the same player deals again
    (NORTH, -10, NORTH),  # behind: the same player deals again
    (WEST, -1, SOUTH),
    (WEST, 1, WEST),
    (WEST, 0, WEST),
    (SOUTH, 99, EAST),
    (EAST, -99, NORTH),
    (EAST, 5, EAST),
])
def test_the_deal_passes_only_when_the_dealers_team_is_ahead(dealer: int, difference: int, expected: int) -> None:
    assert next_dealer(4, dealer, difference, None) == expected


@pytest.mark.parametrize(("dealer", "baazi", "expected"), [
    (SOUTH, EW, NORTH),  # seeds: dealer South loses a baazi -> North deals
    (EAST, EW, SOUTH),  # seeds: dealer East wins a baazi -> South deals
    (SOUTH, NS, WEST),  # wins: the next seat (East) would deal, so his partner West does
    (EAST, NS, WEST),  # loses: East would deal again, so his partner West does
    (NORTH, NS, EAST),
    (NORTH, EW, SOUTH),
    (WEST, EW, NORTH),
    (WEST, NS, EAST),
])
def test_after_a_baazi_the_partner_of_the_would_be_dealer_deals(dealer: int, baazi: int, expected: int) -> None:
    assert next_dealer(4, dealer, 0, baazi) == expected


@pytest.mark.parametrize(("dealer", "difference", "baazi", "expected"), [
    (0, 0, 1, 0),  # R6: the loser of the baazi deals
    (1, 0, 1, 0),
    (0, 0, 0, 1),
    (1, 0, 0, 1),
    (0, 30, None, 1),  # otherwise the player behind deals
    (1, 30, None, 1),
    (0, -30, None, 0),
    (1, -30, None, 0),
    (0, 0, None, 0),  # and on a level score the same dealer again
    (1, 0, None, 1),
])
def test_two_player_dealers_follow_r6(dealer: int, difference: int, baazi: int | None, expected: int) -> None:
    assert next_dealer(2, dealer, difference, baazi) == expected


def test_the_baazi_lead_is_reached_at_exactly_the_lead() -> None:
    assert score_deal(STANDARD, 40, (80, 20)).baazi == NS
    assert score_deal(STANDARD, 39, (80, 20)).baazi is None
    assert score_deal(STANDARD, -40, (20, 80)).baazi == EW
    step = score_deal(STANDARD, 39, (80, 20))
    assert (step.difference, step.minimum_rule) == (99, False)
    assert score_deal(Rules(baazi_lead=150), 89, (80, 20)).baazi is None
    assert score_deal(Rules(baazi_lead=150), 90, (80, 20)).baazi == NS


def test_the_minimum_rule_comes_before_the_lead() -> None:
    # NS are 99 ahead and lose a deal by 42 only, but score below 9: EW win the baazi.
    step = score_deal(STANDARD, 99, (8, 50))
    assert (step.baazi, step.difference, step.minimum_rule) == (EW, 0, True)
    step = score_deal(STANDARD, -99, (92, 8))
    assert (step.baazi, step.minimum_rule) == (NS, True)
    step = score_deal(STANDARD, 0, (9, 91))
    assert (step.baazi, step.difference) == (None, -82)
    step = score_deal(Rules(minimum_deal_score=20), 0, (19, 81))
    assert (step.baazi, step.minimum_rule) == (EW, True)


def test_a_match_starts_with_a_dealer_drawn_from_its_seed_or_given() -> None:
    dealers = {Match(STANDARD, 4, seed).deal.dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert {Match(STANDARD, 2, seed).deal.dealer for seed in range(40)} == {0, 1}
    assert Match(STANDARD, 4, 5, first_dealer=2).deal.dealer == 2
    assert Match(STANDARD, 4, 5).deal.deck == Match(STANDARD, 4, 5).deal.deck


def test_a_match_refuses_bad_settings_and_moves_out_of_turn() -> None:
    with pytest.raises(ValueError):
        Match(STANDARD, 3, 1)
    with pytest.raises(ValueError):
        Match(STANDARD, 4, 1, baazis_to_win=-1)
    match = Match(STANDARD, 4, 1)
    with pytest.raises(IllegalPlayError):
        match.next_deal()  # the deal is not over
    assert match.winner() is None and not match.over


def test_a_match_is_first_to_its_number_of_baazis() -> None:
    rng = random.Random(3)
    match = Match(STANDARD, 4, seed=3, baazis_to_win=2)
    deals = 0
    while not match.over:
        if match.deal.over:
            match.next_deal()
        match.make_bid(rng.choice(match.legal_bids()))
        while not match.deal.over:
            match.play(rng.choice(match.legal_plays()))
        deals += 1
        assert deals < 200
    assert max(match.baazis) == 2 and min(match.baazis) < 2
    assert match.winner() == (NS if match.baazis[NS] == 2 else EW)
    assert sum(r.baazi is not None for r in match.results) == sum(match.baazis)
    with pytest.raises(IllegalPlayError):
        match.next_deal()
    with pytest.raises(IllegalPlayError):
        match.play((1, 0, 0, 0, 0))


def play_on(match: Match, deals: int, rng: random.Random) -> None:
    """Random legal moves until ``deals`` deals have started (or the match is over)."""
    while not match.over and len(match.dealt) < deals:
        if match.deal.over:
            match.next_deal()
            continue
        if match.legal_bids():
            match.make_bid(rng.choice(match.legal_bids()))
        else:
            match.play(rng.choice(match.legal_plays()))


def test_a_match_keeps_how_each_deal_was_dealt_and_can_be_dealt_so_again(monkeypatch: pytest.MonkeyPatch) -> None:
    import taash.seep.match

    match = Match(STANDARD, 4, seed=11, baazis_to_win=5)
    play_on(match, 3, random.Random(1))
    assert len(match.dealt) == 3 and match.dealt[-1].deck == tuple(match.deal.deck)
    assert match.dealt[-1].dealer == match.deal.dealer and list(match.dealt[-1].redeals) == match.redeals
    # The same seed deals the same; given its deals, another shuffle (a newer taash) deals them all the same.
    again = Match(STANDARD, 4, seed=11, baazis_to_win=5)
    play_on(again, 3, random.Random(1))
    assert again.dealt == match.dealt
    original = taash.seep.match.shuffled_pack
    monkeypatch.setattr(taash.seep.match, "shuffled_pack", lambda rng: original(rng)[::-1])
    changed = Match(STANDARD, 4, seed=11, baazis_to_win=5)
    assert changed.dealt[0] != match.dealt[0]
    given = Match(STANDARD, 4, seed=11, baazis_to_win=5, dealt=match.dealt[:2])
    play_on(given, 3, random.Random(1))
    assert given.dealt[:2] == match.dealt[:2]
    assert given.clone().dealt == given.dealt
    # A given deal must be a whole pack and a seat.
    bad = taash.seep.match.Dealt(0, tuple(range(51)), ())
    with pytest.raises(ValueError, match="52 cards"):
        Match(STANDARD, 4, seed=1, dealt=[bad])
