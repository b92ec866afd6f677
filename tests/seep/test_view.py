"""A seat's view: what it can work out from public plays equals the full state's."""

from __future__ import annotations

import random

import pytest

from taash.seep.deal import Deal
from taash.seep.match import Match
from taash.seep.rules import PRESETS


@pytest.mark.parametrize("players", [2, 4])
def test_captured_cards_worked_out_from_the_plays_equal_the_piles(players: int) -> None:
    rng = random.Random(7)
    for seed in range(20):
        match = Match(PRESETS["standard"], players, seed)
        match.make_bid(rng.choice(match.legal_bids()))
        while not match.deal.over:
            for seat in range(players):
                assert match.view(seat).captured() == tuple(match.deal.piles)
            match.play(rng.choice(match.legal_plays()))


def test_a_match_deals_what_deal_shuffled_deals_and_keeps_the_redeals() -> None:
    rules = PRESETS["punjab_30"]  # floor redeals as well as bid redeals
    told = 0
    for seed in range(200):
        match = Match(rules, 4, seed)
        rng = random.Random(seed)
        dealer = rng.randrange(4)
        assert match.deal.deck == Deal.shuffled(rules, 4, dealer, rng).deck
        told += bool(match.redeals)
    assert told > 0
