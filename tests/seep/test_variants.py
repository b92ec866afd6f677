"""The variants of rules section 7: limited houses, breaking with loose cards, Qasim's restricted cards, Karan's and
the Punjabi scoring."""

from __future__ import annotations

import random

import pytest

from taash.cards import cards_of, mask_of, parse_card
from taash.seep.deal import Deal, Phase
from taash.seep.match import score_deal
from taash.seep.plays import ADD, BREAK, CAPTURE, ESTABLISH, THROW, Play
from taash.seep.rules import PRESETS
from taash.seep.values import VALUE
from tests.seep.helpers import card, house, mask, outcome_of, pj, plays_json, plays_of_card, position

QASIM = "punjab_30_qasim"


def random_deals(preset: str, players: int, seed: int, deals: int, builder: bool = True):
    """Deals played at random (building often), yielding each deal after every play."""
    rng = random.Random(seed)
    for i in range(deals):
        deal = Deal.shuffled(PRESETS[preset], players, i % players, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            legal = deal.legal_plays()
            builds = [p for p in legal if p[0] in (ESTABLISH, ADD, BREAK)]
            play = rng.choice(builds) if builder and builds and rng.random() < 0.7 else rng.choice(legal)
            before = deal.clone()
            deal.play(play)
            yield before, play, deal


# -- 7.3 limited houses --------------------------------------------------------------------------------------------


TWO_HOUSES = [house(9, ["5c", "4d"], [1]), house(10, ["6c", "4h"], [3])]


def test_limited_houses_forbids_a_third_house_but_not_plays_into_the_two() -> None:
    hand = ["5s", "Ks", "Ah", "Th"]
    limited = position(rules="limited_houses", hand=hand, loose=["8h"], houses=TWO_HOUSES)
    free = position(hand=hand, loose=["8h"], houses=TWO_HOUSES)
    third = pj({"card": "5s", "house": 13, "loose": ["8h"]})
    assert third in plays_json(free) and third not in plays_json(limited)
    assert not [p for p in limited.legal_plays() if p[0] == ESTABLISH]
    # Breaking the 9-house with the ace into the 10-house (a merge) or adding to a house stays legal.
    merge = pj({"card": "Ah", "house": 10, "break": 9, "loose": []})
    assert merge in plays_json(limited) and merge in plays_json(free)
    assert plays_json(free) - plays_json(limited) == {third}
    # With one house on the floor a second may be built.
    one = position(rules="limited_houses", hand=hand, loose=["8h"], houses=TWO_HOUSES[:1])
    assert third in plays_json(one)


def test_limited_houses_allows_breaking_into_a_new_value_which_keeps_two_houses() -> None:
    pos = position(rules="limited_houses", hand=["3s", "Qh"], houses=TWO_HOUSES)
    assert pj({"card": "3s", "house": 12, "break": 9, "loose": []}) in plays_json(pos)


@pytest.mark.parametrize("players", [2, 4])
def test_limited_houses_never_shows_a_third_house(players: int) -> None:
    two_seen = 0
    for _, _, deal in random_deals("limited_houses", players, seed=players, deals=40):
        assert len(deal.houses) <= 2
        two_seen += len(deal.houses) == 2
    assert two_seen > 100
    # The same random players do make a third house when the rule is off.
    assert any(len(deal.houses) >= 3 for _, _, deal in random_deals("standard", players, seed=players, deals=40))


# -- 7.4 break with loose cards -----------------------------------------------------------------------------------


JACK_HOUSE = [house(11, ["5c", "6d"], [1])]
KING_PLAY = {"card": "Kc", "house": 13, "break": 11, "loose": ["2s"]}


def test_break_with_loose_example_of_rules_7_4() -> None:
    """An ordinary jack house and a loose 2; holding two kings, one king with the house and the 2 makes a cemented
    king house."""
    variant = position(rules="break_with_loose", hand=["Kc", "Kd"], loose=["2s"], houses=JACK_HOUSE)
    o = outcome_of(variant, KING_PLAY)
    assert o["kind"] == "break" and o["loose"] == []
    assert o["houses"] == [house(13, ["2s", "6d", "5c", "Kc"], [0], cemented=True)]
    # Not in the standard game (example 3: never with a loose card from the floor).
    standard = position(hand=["Kc", "Kd"], loose=["2s"], houses=JACK_HOUSE)
    assert pj(KING_PLAY) not in plays_json(standard)
    assert plays_json(variant) - plays_json(standard) == {
        pj(KING_PLAY), pj({"card": "Kd", "house": 13, "break": 11, "loose": ["2s"]})}


def test_break_with_loose_needs_a_second_king_a_house_not_ones_own_and_an_ordinary_house() -> None:
    one_king = position(rules="break_with_loose", hand=["Kc", "5d"], loose=["2s"], houses=JACK_HOUSE)
    assert pj(KING_PLAY) not in plays_json(one_king), "he must keep a king for his new house"
    own = position(rules="break_with_loose", hand=["Kc", "Kd", "Jh"], loose=["2s"],
                   houses=[house(11, ["5c", "6d"], [0])])
    assert pj(KING_PLAY) not in plays_json(own), "nobody breaks his own house"
    cemented = position(rules="break_with_loose", hand=["Kc", "Kd"], loose=["2s"],
                        houses=[house(11, ["5c", "6d", "Jh"], [1], cemented=True)])
    assert pj(KING_PLAY) not in plays_json(cemented), "a cemented house is never broken"
    partners = position(rules="break_with_loose", hand=["Kc", "Kd"], loose=["2s"],
                        houses=[house(11, ["5c", "6d"], [2])])
    assert pj(KING_PLAY) in plays_json(partners), "a partner's house may be broken"


def test_break_with_loose_auto_cements_a_new_house_and_merges_into_an_existing_one() -> None:
    # R2: a further loose group of 13 (8 + 5) goes into the new king house at once.
    pos = position(rules="break_with_loose", hand=["Kc", "Kd"], loose=["2s", "8h", "5h"], houses=JACK_HOUSE)
    assert {p for p in plays_of_card(pos, "Kc") if '"break"' in p} == {
        pj({"card": "Kc", "house": 13, "break": 11, "loose": ["2s", "8h", "5h"]})}
    # A king house already there (the partner's): the result merges into it and one king is enough.
    houses = [*JACK_HOUSE, house(13, ["9h", "4h"], [2])]
    pos = position(rules="break_with_loose", hand=["Kc", "5d"], loose=["2s"], houses=houses)
    o = outcome_of(pos, KING_PLAY)
    assert o["houses"] == [house(13, ["2s", "9h", "4h", "6d", "5c", "Kc"], [2], cemented=True)]


# -- 7.2 Qasim's restricted cards -------------------------------------------------------------------------------------


def test_qasim_a_restricted_ten_of_diamonds_captures_nothing_and_may_be_thrown() -> None:
    pos = position(rules=QASIM, hand=["Td", "2c"], loose=["3s", "7h"])
    assert pos.restricted == mask("Td", "9s")
    assert plays_of_card(pos, "Td") == {pj({"card": "Td"})}
    # Without the restriction it must capture the 3 and 7 and may not be thrown.
    assert plays_of_card(position(rules="punjab_30", hand=["Td", "2c"], loose=["3s", "7h"]), "Td") == {
        pj({"card": "Td", "capture": ["3s", "7h"]})}


def test_qasim_a_restricted_card_may_build_a_house_of_its_own_value_holding_another() -> None:
    pos = position(rules=QASIM, hand=["Td", "Th", "2c"], loose=["3s", "7h"])
    assert plays_of_card(pos, "Td") == {pj({"card": "Td"}), pj({"card": "Td", "house": 10, "loose": ["3s", "7h"]})}
    # The ten of hearts is not restricted: it captures as usual (and may build too).
    assert pj({"card": "Th", "capture": ["3s", "7h"]}) in plays_json(pos)
    assert pj({"card": "Th"}) not in plays_json(pos)
    # The nine of spades likewise.
    pos = position(rules=QASIM, hand=["9s", "9h"], loose=["4c", "5d"], restricted=["9s"])
    assert plays_of_card(pos, "9s") == {pj({"card": "9s"}), pj({"card": "9s", "house": 9, "loose": ["4c", "5d"]})}
    assert plays_of_card(pos, "9h") == {pj({"card": "9h", "capture": ["4c", "5d"]}),
                                        pj({"card": "9h", "house": 9, "loose": ["4c", "5d"]})}


def test_qasim_a_restricted_card_goes_into_no_larger_house() -> None:
    # Not a new queen house from the ten and a loose 2, not onto a jack house with a loose ace.
    pos = position(rules=QASIM, hand=["Td", "Qh", "Jc"], loose=["2s", "Ac"],
                   houses=[house(11, ["5c", "6d", "Jh"], [1], cemented=True)])
    assert plays_of_card(pos, "Td") == {pj({"card": "Td"})}
    free = position(rules="punjab_30", hand=["Td", "Qh", "Jc"], loose=["2s", "Ac"],
                    houses=[house(11, ["5c", "6d", "Jh"], [1], cemented=True)])
    assert pj({"card": "Td", "house": 12, "loose": ["2s"]}) in plays_json(free)
    assert pj({"card": "Td", "house": 11, "loose": ["Ac"]}) in plays_json(free)


def test_qasim_nobody_else_builds_the_first_house_of_a_restricted_cards_value() -> None:
    # Another player holds the ten of diamonds: no ten-house, neither built nor broken into.
    hand = ["3c", "Th", "Tc", "Ad"]
    loose = ["7h", "3d"]
    nine = [house(9, ["5c", "4d"], [1])]
    locked = position(rules=QASIM, hand=hand, loose=loose, houses=nine, restricted=["Td"])
    assert not [p for p in locked.legal_plays() if p[2] == 10 and p[0] != CAPTURE]
    assert pj({"card": "Th", "capture": ["7h", "3d"]}) in plays_json(locked), "capturing is not building"
    released = position(rules=QASIM, hand=hand, loose=loose, houses=nine, restricted=[])
    opened = {pj({"card": "3c", "house": 10, "loose": ["7h"]}), pj({"card": "Th", "house": 10, "loose": ["7h", "3d"]}),
              pj({"card": "Ad", "house": 10, "break": 9, "loose": ["7h", "3d"]})}
    assert opened <= plays_json(released)
    assert plays_json(released) - plays_json(locked) == opened | {
        pj({"card": "Tc", "house": 10, "loose": ["7h", "3d"]})}
    # The holder himself may build it with another card, keeping the restricted ten.
    holder = position(rules=QASIM, hand=["3c", "Td"], loose=["7h"], restricted=["Td"])
    assert pj({"card": "3c", "house": 10, "loose": ["7h"]}) in plays_json(holder)


def test_qasim_a_restricted_card_in_the_bid_play() -> None:
    # Dealer 3; the bidder (seat 0) holds the ten of diamonds with small cards and must bid ten.
    top = [parse_card(n) for n in ("Td", "6c", "2h", "5c", "3s", "7h", "4d", "8c")]
    rest = [c for c in range(52) if c not in top]
    deal = Deal(PRESETS[QASIM], 4, 3, top + rest)
    assert deal.legal_bids() == [10]
    deal.make_bid(10)
    assert set(deal.legal_plays()) == {
        (THROW, card("Td"), 0, 0, 0),
        (ESTABLISH, card("6c"), 10, 0, mask("4d", "3s", "7h")),
        (ESTABLISH, card("2h"), 10, 0, mask("8c", "3s", "7h")),
    }
    free = Deal(PRESETS["punjab_30"], 4, 3, top + rest)
    free.make_bid(10)
    assert (CAPTURE, card("Td"), 0, 0, mask("3s", "7h")) in free.legal_plays()
    # Building the ten-house releases the ten of diamonds.
    deal.play((ESTABLISH, card("6c"), 10, 0, mask("4d", "3s", "7h")))
    assert deal.restricted == mask("9s")


def test_qasim_a_thrown_restricted_card_is_released_and_opens_its_value_to_everyone() -> None:
    top = [parse_card(n) for n in ("Td", "6c", "2h", "5c", "3s", "7h", "4d", "8c")]
    deal = Deal(PRESETS[QASIM], 4, 3, top + [c for c in range(52) if c not in top])
    deal.make_bid(10)
    deal.play((THROW, card("Td"), 0, 0, 0))
    assert deal.restricted == mask("9s")
    assert deal.loose & mask("Td")


def public_restricted(preset: str, plays: list[Play]) -> int:
    out = mask_of(parse_card(n) for n in PRESETS[preset].restricted_cards)
    built: set[int] = set()
    for kind, c, value, _, _ in plays:
        if kind == THROW:
            out &= ~(1 << c)
        elif kind in (ESTABLISH, BREAK):
            built.add(value)
    return mask_of(c for c in cards_of(out) if VALUE[c] not in built)


@pytest.mark.parametrize("players", [2, 4])
def test_qasim_restrictions_hold_and_release_through_random_deals(players: int) -> None:
    restricted_plays = released_by_house = released_by_throw = 0
    for before, play, deal in random_deals(QASIM, players, seed=10 + players, deals=40):
        # Release: only a throw of the card, or a house of its value built.
        assert deal.restricted == public_restricted(QASIM, deal.plays)
        gone = before.restricted & ~deal.restricted
        if gone:
            if play[0] == THROW and gone == 1 << play[1]:
                released_by_throw += 1
            else:
                assert play[0] in (ESTABLISH, BREAK) and all(VALUE[c] == play[2] for c in cards_of(gone))
                released_by_house += 1
        # What a restricted card may do, and what nobody may do while another holds one.
        seat = before.to_move
        hand = before.hands[seat]
        locked = {VALUE[c] for c in cards_of(before.restricted & ~hand)}
        for p in before.legal_plays():
            kind, c, value, _, _ = p
            if before.restricted >> c & 1:
                restricted_plays += 1
                assert kind == THROW or (kind == ESTABLISH and value == VALUE[c]), p
            if kind in (ESTABLISH, BREAK) and value not in before.houses:
                assert value not in locked, p
    assert restricted_plays > 50 and released_by_house > 3 and released_by_throw > 3


# -- scoring variants ------------------------------------------------------------------------------------------------


def finished(preset: str, team0: int) -> Deal:
    deal = Deal.shuffled(PRESETS[preset], 4, 0, random.Random(0))
    deal.phase = Phase.OVER
    deal.piles = [team0, ((1 << 52) - 1) & ~team0]
    deal.sweeps = []
    return deal


def test_karan_ten_of_diamonds_is_2_and_the_majority_4() -> None:
    cards = list(range(52))
    spades_and_td = mask_of([*range(13), parse_card("Td")])  # 14 cards: 91 + 2 points
    assert finished("karan", spades_and_td).score().card_points == (93, 7)
    assert finished("standard", spades_and_td).score().card_points == (97, 3)
    big = spades_and_td | mask_of(c for c in cards if VALUE[c] in (5, 6, 7, 8) and c >= 13)  # 14 + 12 = 26 cards
    assert finished("karan", big).score().card_points == (93, 3), "26-26: no majority"
    bigger = big | mask_of([parse_card("9h")])  # 27 cards
    assert finished("karan", bigger).score().card_points == (97, 3)
    assert finished("karan", ((1 << 52) - 1) & ~bigger).score().card_points == (3, 97)
    assert finished("standard", bigger).score().card_points == (97, 3)
    assert sum(finished("karan", bigger).score().card_points) == PRESETS["karan"].total_card_points == 100


def test_karan_a_bid_play_sweep_scores_50() -> None:
    top = [parse_card(n) for n in ("Js", "2h", "3h", "4h", "5c", "6c", "2d", "9h")]
    for preset, points in (("karan", 50), ("standard", 25)):
        deal = Deal(PRESETS[preset], 4, 3, top + [c for c in range(52) if c not in top])
        deal.make_bid(11)
        deal.play((CAPTURE, card("Js"), 0, 0, mask("5c", "6c", "2d", "9h")))
        assert deal.sweeps == [(0, 0, points)]


def test_punjab_a_sweep_scores_the_capture_value_of_its_card() -> None:
    seen = 0
    for preset in ("punjab_30", QASIM, "standard"):
        for players in (2, 4):
            rng = random.Random(players)
            for i in range(60):
                deal = Deal.shuffled(PRESETS[preset], players, i % players, rng)
                deal.make_bid(rng.choice(deal.legal_bids()))
                while not deal.over:
                    legal = deal.legal_plays()
                    captures = [p for p in legal if p[0] == CAPTURE]
                    deal.play(rng.choice(captures) if captures and rng.random() < 0.8 else rng.choice(legal))
                for seat, index, points in deal.sweeps:
                    c = deal.plays[index][1]
                    if index == 47:
                        assert points == 0
                    elif preset == "standard":
                        assert points == (25 if index == 0 else 50)
                    else:
                        assert points == VALUE[c]
                        seen += 1
                    assert seat == (deal.bidder + index) % players
    assert seen > 20


def test_punjab_has_no_minimum_rule_and_a_baazi_lead_of_30() -> None:
    punjab = PRESETS["punjab_30"]
    assert score_deal(punjab, 0, (0, 20)).baazi is None
    assert score_deal(punjab, 0, (0, 20)).difference == -20
    assert score_deal(punjab, -20, (0, 10)).baazi == 1
    assert score_deal(punjab, 29, (1, 0)).baazi == 0
    assert score_deal(punjab, 28, (1, 0)).difference == 29
    standard = PRESETS["standard"]
    assert score_deal(standard, 0, (8, 92)).baazi == 1 and score_deal(standard, 0, (8, 92)).minimum_rule
    assert score_deal(standard, 0, (92, 9)).baazi is None
    assert score_deal(standard, 99, (60, 59)).baazi == 0
    assert score_deal(standard, -50, (10, 60)).baazi == 1
