"""The heuristic bot's tactics from the rules text: what the others surely hold, and few items on the floor."""

from __future__ import annotations

import random

from taash.bots.seep.heuristic import HeuristicBot, surely_held
from taash.seep.deal import Deal
from taash.seep.plays import apply_play
from taash.seep.rules import PRESETS
from taash.seep.values import VALUE_MASK
from taash.seep.view import view_of


def test_owners_of_houses_surely_hold_their_value() -> None:
    rng = random.Random(4)
    checked = 0
    for d in range(30):
        deal = Deal.shuffled(PRESETS["standard"], 4, d % 4, rng)
        deal.make_bid(deal.legal_bids()[0])
        while not deal.over:
            view = view_of(deal, deal.to_move)
            held = surely_held(view)
            for v, (_, _, owners) in view.houses.items():
                for s in range(4):
                    if s != view.seat and owners >> s & 1 and VALUE_MASK[v] & view.unseen():
                        assert held[s].get(v) == 1
                        checked += 1
            for s, values in enumerate(held):
                for v in values:
                    assert deal.hands[s] & VALUE_MASK[v]
            deal.play(HeuristicBot(d).choose_play(view))
    assert checked > 20


def test_leaving_at_most_two_items_on_the_floor_is_preferred() -> None:
    rng = random.Random(8)
    deal = Deal.shuffled(PRESETS["standard"], 4, 0, rng)
    deal.make_bid(deal.legal_bids()[0])
    seen_small = seen_large = False
    while not deal.over and len(deal.plays) < 40:
        view = view_of(deal, deal.to_move)
        plain = HeuristicBot(1, floor_items=False)
        tidy = HeuristicBot(1, floor_items=True)
        for play in view.legal_plays():
            houses = dict(view.houses)
            loose, _ = apply_play(play, view.seat, 4, view.loose, houses)
            items = loose.bit_count() + len(houses)
            bonus = tidy.evaluate(view, play)[0] - plain.evaluate(view, play)[0]
            if 0 < items <= 2:
                assert abs(bonus - 0.5) < 1e-9
                seen_small = True
            else:
                assert abs(bonus) < 1e-9
                seen_large = True
        deal.play(tidy.choose_play(view))
    assert seen_small and seen_large


def test_inference_can_be_switched_off() -> None:
    deal = Deal.shuffled(PRESETS["standard"], 4, 0, random.Random(1))
    deal.make_bid(deal.legal_bids()[0])
    view = view_of(deal, deal.to_move)
    assert HeuristicBot(1, inference=False)._surely_held(view) == [{}, {}, {}, {}]
