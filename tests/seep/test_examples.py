"""The worked examples of seep-rules.md section 8, one test each."""

from __future__ import annotations

from taash.seep.match import next_dealer, score_deal
from taash.seep.plays import BREAK, CAPTURE, ESTABLISH
from taash.seep.rules import PRESETS
from tests.seep.helpers import card, mask, pj, plays_json, position

NORTH, WEST, SOUTH, EAST = 0, 1, 2, 3
STANDARD = PRESETS["standard"]


def test_example_01_six_builds_a_jack_house_from_6_2_3_or_6_5() -> None:
    pos = position(hand=["6h", "Jc"], loose=["2d", "3c", "5h"])
    plays = plays_json(pos)
    assert pj({"card": "6h", "house": 11, "loose": ["2d", "3c"]}) in plays
    assert pj({"card": "6h", "house": 11, "loose": ["5h"]}) in plays
    assert {p for p in plays if '"house": 11' in p} == {
        pj({"card": "6h", "house": 11, "loose": ["2d", "3c"]}),
        pj({"card": "6h", "house": 11, "loose": ["5h"]}),
    }


def test_example_02_broken_jack_house_becomes_king_house_cemented_by_loose_king_and_no_building_for_partner() -> None:
    # The partner (seat 2) builds 4 on the loose 7: a jack house.
    partner = position(seat=2, hand=["4c", "Jd"], loose=["Kh", "8s", "7d", "2h"])
    assert pj({"card": "4c", "house": 11, "loose": ["7d"]}) in plays_json(partner)
    # The next player (seat 3) breaks it with a 2 into a king house; the loose king cements it at once.
    breaker = position(seat=3, hand=["2c", "Kc"], loose=["Kh", "8s", "2h"],
                       houses=[{"value": 11, "cards": ["4c", "7d"], "cemented": False, "owners": [2]}])
    breaks = [p for p in breaker.legal_plays() if p[0] == BREAK]
    assert breaks == [(BREAK, card("2c"), 13, 11, mask("Kh"))]
    after = breaker.outcome(breaks[0])
    assert after["houses"] == [{"value": 13, "cards": ["Kh", "7d", "2c", "4c"], "cemented": True, "owners": [3]}]
    # You hold a 9 but no jack: no jack house from 9 + 2 for your partner.
    me = position(seat=0, hand=["9s", "5d"], loose=["8s", "2h"])
    assert not [p for p in me.legal_plays() if p[0] == ESTABLISH and p[2] == 11]


def test_example_03_break_the_nine_house_with_the_ace_only() -> None:
    pos = position(hand=["Ah", "Th", "Jc", "Qd"], loose=["2d"],
                   houses=[{"value": 9, "cards": ["5c", "4d"], "cemented": False, "owners": [1]}])
    breaks = {p for p in pos.legal_plays() if p[0] == BREAK}
    assert breaks == {(BREAK, card("Ah"), 10, 9, 0)}


def test_example_04_three_onto_loose_seven_cements_the_ten_house() -> None:
    pos = position(hand=["3c", "Td"], loose=["7s"],
                   houses=[{"value": 10, "cards": ["6h", "4d"], "cemented": False, "owners": [1]}])
    play = next(p for p in pos.legal_plays() if p[1] == card("3c") and p[2] == 10 and p[4] == mask("7s"))
    after = pos.outcome(play)
    assert after["houses"] == [{"value": 10, "cards": ["7s", "6h", "4d", "3c"], "cemented": True, "owners": [0, 1]}]
    assert after["loose"] == []


def test_example_05_three_on_the_nine_house_merges_into_a_cemented_queen_house() -> None:
    houses = [{"value": 12, "cards": ["7h", "5d"], "cemented": False, "owners": [1]},
              {"value": 9, "cards": ["6c", "3d"], "cemented": False, "owners": [3]}]
    holding_queen = position(hand=["3h", "Qs"], houses=houses)
    merge = (BREAK, card("3h"), 12, 9, 0)
    assert merge in holding_queen.legal_plays()
    assert holding_queen.outcome(merge)["houses"] == [
        {"value": 12, "cards": ["3h", "7h", "3d", "5d", "6c"], "cemented": True, "owners": [0, 1]}]
    # Without a queen: only when the partner owns the queen house (he stays the owner).
    no_queen = position(hand=["3h", "5s"], houses=houses)
    assert merge not in no_queen.legal_plays()
    partners_queen = [dict(houses[0], owners=[2]), houses[1]]
    pos = position(hand=["3h", "5s"], houses=partners_queen)
    assert merge in pos.legal_plays()
    assert pos.outcome(merge)["houses"][0]["owners"] == [2]


def test_example_06_jack_onto_the_jack_house_optionally_with_8_and_3() -> None:
    pos = position(hand=["Jc"], loose=["8s", "3h"],
                   houses=[{"value": 11, "cards": ["5d", "6d"], "cemented": False, "owners": [2]}])
    plays = plays_json(pos)
    assert pj({"card": "Jc", "house": 11, "loose": []}) in plays
    assert pj({"card": "Jc", "house": 11, "loose": ["8s", "3h"]}) in plays


def test_example_07_ace_with_six_and_three_onto_a_cemented_ten_house() -> None:
    pos = position(hand=["Ac", "Ts"], loose=["6h", "3d"],
                   houses=[{"value": 10, "cards": ["Th", "9d", "Ad"], "cemented": True, "owners": [1]}])
    assert pj({"card": "Ac", "house": 10, "loose": ["6h", "3d"]}) in plays_json(pos)


def test_example_08_five_with_four_and_three_is_cemented_at_once_by_the_loose_queen_or_by_8_and_4() -> None:
    pos = position(hand=["5c", "Qd"], loose=["4h", "3s", "Qh"])
    builds = [p for p in pos.legal_plays() if p[0] == ESTABLISH]
    assert builds == [(ESTABLISH, card("5c"), 12, 0, mask("4h", "3s", "Qh"))]
    assert pos.outcome(builds[0])["houses"][0]["cemented"] is True
    pos = position(hand=["5c", "Qd"], loose=["4h", "3s", "8d", "4c"])
    builds = {p for p in pos.legal_plays() if p[0] == ESTABLISH and p[1] == card("5c")}
    assert (ESTABLISH, card("5c"), 12, 0, mask("4h", "3s", "8d", "4c")) in builds
    for p in builds:  # never leaves a group of 12 loose
        left = pos.outcome(p)["loose"]
        assert left != ["8d", "4c"] and left != ["4h", "8d"]


def test_example_09_nine_on_a_loose_nine_holding_another_is_a_cemented_nine_house() -> None:
    pos = position(hand=["9s", "9h"], loose=["9d"])
    play = (ESTABLISH, card("9s"), 9, 0, mask("9d"))
    assert play in pos.legal_plays()
    assert pos.outcome(play)["houses"] == [{"value": 9, "cards": ["9s", "9d"], "cemented": True, "owners": [0]}]


def test_example_10_breaking_with_the_ace_the_loose_four_and_six_cement_the_ten_house() -> None:
    pos = position(hand=["Ad", "Tc"], loose=["4h", "6s"],
                   houses=[{"value": 9, "cards": ["5c", "4d"], "cemented": False, "owners": [1]}])
    breaks = [p for p in pos.legal_plays() if p[0] == BREAK]
    assert breaks == [(BREAK, card("Ad"), 10, 9, mask("4h", "6s"))]


def test_example_11_eight_and_queen_each_take_all_of_a_3_5_7_8() -> None:
    loose = ["Ac", "3c", "5c", "7c", "8c"]
    for hand in ("8s", "Qs"):
        pos = position(hand=[hand], loose=loose)
        assert pos.legal_plays() == [(CAPTURE, card(hand), 0, 0, mask(*loose))]


def test_example_12_jack_takes_the_jack_house_and_the_loose_seven_and_four() -> None:
    pos = position(hand=["Jc"], loose=["7h", "4d"],
                   houses=[{"value": 11, "cards": ["9s", "2s"], "cemented": False, "owners": [1]}])
    (play,) = pos.legal_plays()
    after = pos.outcome(play)
    assert sorted(after["captured"]) == sorted(["9s", "2s", "7h", "4d", "Jc"])
    assert after["sweep"] is True


def test_example_13_jack_takes_2_3_6_or_5_6_never_all_four() -> None:
    pos = position(hand=["Jc"], loose=["2s", "3h", "5d", "6c"])
    assert set(pos.legal_plays()) == {
        (CAPTURE, card("Jc"), 0, 0, mask("2s", "3h", "6c")),
        (CAPTURE, card("Jc"), 0, 0, mask("5d", "6c")),
    }


def test_example_14_queen_takes_nothing_from_a_nine_house_and_a_three() -> None:
    pos = position(hand=["Qc"], loose=["3c"],
                   houses=[{"value": 9, "cards": ["5c", "4d"], "cemented": False, "owners": [1]}])
    assert pj({"card": "Qc"}) in plays_json(pos)
    assert not [p for p in pos.legal_plays() if p[0] == CAPTURE]


def test_example_15_bidder_must_take_2_9_and_jack_with_his_jack() -> None:
    pos = position(hand=["7d", "8h", "8c", "Jc"], loose=["2s", "9s", "Jd", "Kh"], bid=11)
    assert pos.legal_plays() == [(CAPTURE, card("Jc"), 0, 0, mask("2s", "9s", "Jd"))]


def test_example_16_jack_takes_the_house_and_2_9_leaving_4_and_6() -> None:
    pos = position(hand=["Jc"], loose=["2s", "4c", "6h", "9d"],
                   houses=[{"value": 11, "cards": ["5c", "6d"], "cemented": False, "owners": [1]}])
    assert pos.legal_plays() == [(CAPTURE, card("Jc"), 0, 0, mask("2s", "9d"))]
    assert pos.outcome(pos.legal_plays()[0])["loose"] == ["6h", "4c"]


def _run(dealer: int, difference: int, margins: list[int]) -> tuple[list[int], list[int | None], int]:
    dealers, baazis = [], []
    for margin in margins:
        dealers.append(dealer)
        score = (100 + margin) // 2, (100 - margin) // 2
        step = score_deal(STANDARD, difference, score)
        difference = step.difference
        baazis.append(step.baazi)
        dealer = next_dealer(4, dealer, difference, step.baazi)
    return dealers, baazis, dealer


def test_example_17_running_score_baazi_and_dealer_sequence() -> None:
    dealers, baazis, after = _run(NORTH, 0, [20, 36, -42, -66, -54])
    assert dealers == [NORTH, WEST, WEST, WEST, SOUTH]
    assert baazis == [None, None, None, None, 1]
    assert after == NORTH


def test_example_18_east_deals_ew_win_by_124_baazi_then_south_deals() -> None:
    _, baazis, after = _run(EAST, 10, [-124])
    assert baazis == [1] and after == SOUTH


def test_example_19_minimum_rule_loses_a_baazi_at_once_then_south_deals() -> None:
    step = score_deal(STANDARD, 99, (5, 95))
    assert step.baazi == 1 and step.minimum_rule and step.difference == 0
    assert next_dealer(4, EAST, step.difference, step.baazi) == SOUTH
