"""The 19 worked examples of ``shared/seep-rules.md`` section 8, one named test each.

"You" are seat 0; your partner is seat 2; the opponents are seats 1 and 3 (North 0, West 1, South 2, East 3).
Where the example leaves the rest of the hand open, the tests give the smallest hand that makes it work and then
assert the exact set of legal plays, so that a play the rules forbid cannot slip in.
"""

from __future__ import annotations

import random

import pytest

from taash.cards import parse_card
from taash.seep.deal import Deal
from taash.seep.errors import IllegalPlayError
from taash.seep.match import next_dealer, score_deal
from taash.seep.plays import CAPTURE, THROW
from taash.seep.rules import PRESETS, Rules
from tests.seep.helpers import card, house, mask, next_position, outcome_of, pj, plays_json, plays_of_card, position

NORTH, WEST, SOUTH, EAST = 0, 1, 2, 3
NS, EW = 0, 1
STANDARD = PRESETS["standard"]


def test_example_01_six_establishes_a_jack_house_from_6_2_3_or_from_6_5() -> None:
    pos = position(hand=["6h", "Jc"], loose=["2d", "3c", "5h"])
    assert plays_json(pos) == {
        pj({"card": "6h", "house": 11, "loose": ["2d", "3c"]}),
        pj({"card": "6h", "house": 11, "loose": ["5h"]}),
        pj({"card": "6h"}),
        pj({"card": "Jc"}),
    }
    o = outcome_of(pos, {"card": "6h", "house": 11, "loose": ["2d", "3c"]})
    assert o["kind"] == "establish" and o["loose"] == ["5h"]
    assert o["houses"] == [house(11, ["6h", "2d", "3c"], [0])]
    o = outcome_of(pos, {"card": "6h", "house": 11, "loose": ["5h"]})
    assert o["loose"] == ["2d", "3c"] and o["houses"] == [house(11, ["5h", "6h"], [0])]


def test_example_02_broken_jack_house_becomes_a_king_house_cemented_by_the_loose_king_and_nobody_builds_for_a_partner(
) -> None:
    # The floor is K, 8, 7, 2, all loose. Your partner (seat 2) plays a 4 on the 7: a jack house.
    partner = position(seat=2, hand=["4c", "Jd"], loose=["Kh", "8s", "7d", "2h"])
    builds = {p for p in plays_of_card(partner, "4c") if '"house"' in p}
    assert builds == {pj({"card": "4c", "house": 11, "loose": ["7d"]})}
    built = outcome_of(partner, {"card": "4c", "house": 11, "loose": ["7d"]})
    assert built["houses"] == [house(11, ["7d", "4c"], [2])] and built["loose"] == ["8s", "2h", "Kh"]
    # The next player (seat 3) breaks it with a 2 from hand into a king house; the loose king joins at once (R2).
    breaker = next_position(partner, built, seat=3, hand=["2c", "Kc"])
    assert {p for p in plays_of_card(breaker, "2c") if '"break"' in p} == {
        pj({"card": "2c", "house": 13, "break": 11, "loose": ["Kh"]})}
    broken = outcome_of(breaker, {"card": "2c", "house": 13, "break": 11, "loose": ["Kh"]})
    assert broken["houses"] == [house(13, ["Kh", "7d", "2c", "4c"], [3], cemented=True)]
    assert broken["loose"] == ["8s", "2h"]
    # You hold a 9 but no jack: you cannot play the 9 on the 2 to make a jack house for your partner.
    you = next_position(breaker, broken, seat=0, hand=["9s", "5d"])
    assert not [p for p in plays_json(you) if '"house"' in p]
    assert plays_json(you) == {pj({"card": "9s"}), pj({"card": "5d"})}
    # With a jack of your own you could, and it would be your jack house.
    with_jack = next_position(breaker, broken, seat=0, hand=["9s", "Jh"])
    o = outcome_of(with_jack, {"card": "9s", "house": 11, "loose": ["2h"]})
    assert house(11, ["9s", "2h"], [0]) in o["houses"]


def test_example_03_the_nine_house_may_be_broken_with_the_ace_but_not_with_the_loose_two() -> None:
    pos = position(hand=["Ah", "Th", "Jc", "Qd"], loose=["2d"],
                   houses=[house(9, ["5c", "4d"], [1])])
    assert plays_json(pos) == {
        pj({"card": "Ah", "house": 10, "break": 9, "loose": []}),
        pj({"card": "Ah"}),
        pj({"card": "Th", "house": 12, "loose": ["2d"]}),
        pj({"card": "Th"}),
        pj({"card": "Jc"}),
        pj({"card": "Qd"}),
    }
    o = outcome_of(pos, {"card": "Ah", "house": 10, "break": 9, "loose": []})
    assert o["houses"] == [house(10, ["Ah", "4d", "5c"], [0])] and o["loose"] == ["2d"]
    # Not with the loose 2 (into an 11-house), nor with A and 2 together into a queen house.
    assert pj({"card": "Ah", "house": 12, "break": 9, "loose": ["2d"]}) not in plays_json(pos)
    assert not [p for p in plays_json(pos) if '"break"' in p and '"2d"' in p]


def test_example_04_a_three_onto_the_loose_seven_cements_the_ten_house() -> None:
    pos = position(hand=["3c", "Td"], loose=["7s"], houses=[house(10, ["6h", "4d"], [1])])
    assert plays_json(pos) == {
        pj({"card": "3c", "house": 10, "loose": ["7s"]}),
        pj({"card": "3c"}),
        pj({"card": "Td", "capture": []}),
    }
    o = outcome_of(pos, {"card": "3c", "house": 10, "loose": ["7s"]})
    assert o["kind"] == "add" and o["loose"] == []
    assert o["houses"] == [house(10, ["7s", "6h", "4d", "3c"], [0, 1], cemented=True)]
    # Onto an opponent's house only while keeping a ten; onto the partner's house without one.
    no_ten = position(hand=["3c", "5h"], loose=["7s"], houses=[house(10, ["6h", "4d"], [1])])
    assert pj({"card": "3c", "house": 10, "loose": ["7s"]}) not in plays_json(no_ten)
    partners = position(hand=["3c", "5h"], loose=["7s"], houses=[house(10, ["6h", "4d"], [2])])
    o = outcome_of(partners, {"card": "3c", "house": 10, "loose": ["7s"]})
    assert o["houses"] == [house(10, ["7s", "6h", "4d", "3c"], [2], cemented=True)]


def test_example_05_a_three_on_the_nine_house_merges_it_into_a_cemented_queen_house() -> None:
    houses = [house(12, ["7h", "5d"], [1]), house(9, ["6c", "3d"], [3])]
    merge = {"card": "3h", "house": 12, "break": 9, "loose": []}
    pos = position(hand=["3h", "Qs"], houses=houses)
    assert plays_json(pos) == {pj(merge), pj({"card": "3h"}), pj({"card": "Qs", "capture": []})}
    o = outcome_of(pos, merge)
    assert o["kind"] == "break"
    assert o["houses"] == [house(12, ["3h", "7h", "3d", "5d", "6c"], [0, 1], cemented=True)]
    # Without a queen: not on an opponent's queen house ...
    assert pj(merge) not in plays_json(position(hand=["3h", "5s"], houses=houses))
    # ... but yes on the partner's, and the partner stays the only owner.
    partners = [house(12, ["7h", "5d"], [2]), house(9, ["6c", "3d"], [3])]
    o = outcome_of(position(hand=["3h", "5s"], houses=partners), merge)
    assert o["houses"] == [house(12, ["3h", "7h", "3d", "5d", "6c"], [2], cemented=True)]


def test_example_06_a_jack_onto_the_jack_house_optionally_with_the_loose_8_and_3() -> None:
    partners_house = [house(11, ["5d", "6d"], [2])]
    pos = position(hand=["Jc"], loose=["8s", "3h"], houses=partners_house)
    assert plays_json(pos) == {
        pj({"card": "Jc", "capture": ["8s", "3h"]}),
        pj({"card": "Jc", "house": 11, "loose": []}),
        pj({"card": "Jc", "house": 11, "loose": ["8s", "3h"]}),
    }
    o = outcome_of(pos, {"card": "Jc", "house": 11, "loose": ["8s", "3h"]})
    assert o["houses"] == [house(11, ["8s", "3h", "5d", "6d", "Jc"], [2], cemented=True)] and o["loose"] == []
    o = outcome_of(pos, {"card": "Jc", "house": 11, "loose": []})
    assert o["houses"] == [house(11, ["5d", "6d", "Jc"], [2], cemented=True)] and o["loose"] == ["8s", "3h"]
    # On his own jack house the owner needs two jacks, one to play and one to keep.
    own = [house(11, ["5d", "6d"], [0])]
    assert plays_of_card(position(hand=["Jc", "2h"], loose=["8s", "3h"], houses=own), "Jc") == {
        pj({"card": "Jc", "capture": ["8s", "3h"]})}
    assert pj({"card": "Jc", "house": 11, "loose": ["8s", "3h"]}) in plays_json(
        position(hand=["Jc", "Jh"], loose=["8s", "3h"], houses=own))


def test_example_07_an_ace_with_the_loose_6_and_3_onto_a_cemented_ten_house() -> None:
    pos = position(hand=["Ac", "Ts"], loose=["6h", "3d"], houses=[house(10, ["Th", "9d", "Ad"], [1], cemented=True)])
    assert plays_json(pos) == {
        pj({"card": "Ac", "house": 10, "loose": ["6h", "3d"]}),
        pj({"card": "Ac"}),
        pj({"card": "Ts", "capture": []}),
    }
    o = outcome_of(pos, {"card": "Ac", "house": 10, "loose": ["6h", "3d"]})
    assert o["houses"] == [house(10, ["Th", "6h", "Ad", "3d", "9d", "Ac"], [0, 1], cemented=True)]
    assert o["loose"] == []


def test_example_08_five_with_4_and_3_is_cemented_at_once_by_the_loose_queen_or_by_8_and_4() -> None:
    pos = position(hand=["5c", "Qd"], loose=["4h", "3s", "Qh"])
    assert plays_json(pos) == {
        pj({"card": "5c", "house": 12, "loose": ["4h", "3s", "Qh"]}),
        pj({"card": "5c"}),
        pj({"card": "Qd", "capture": ["Qh"]}),
    }
    o = outcome_of(pos, {"card": "5c", "house": 12, "loose": ["4h", "3s", "Qh"]})
    assert o["houses"] == [house(12, ["3s", "4h", "Qh", "5c"], [0], cemented=True)] and o["loose"] == []
    # The same with a loose 8 and 4 instead of the queen: they must go in too.
    pos = position(hand=["5c", "Qd"], loose=["4h", "3s", "8d", "4c"])
    assert plays_json(pos) == {
        pj({"card": "5c", "house": 12, "loose": ["4h", "3s", "8d", "4c"]}),
        pj({"card": "5c"}),
        pj({"card": "Qd", "capture": ["8d", "4h"]}),
        pj({"card": "Qd", "capture": ["8d", "4c"]}),
    }
    o = outcome_of(pos, {"card": "5c", "house": 12, "loose": ["4h", "3s", "8d", "4c"]})
    assert o["houses"] == [house(12, ["3s", "4h", "8d", "4c", "5c"], [0], cemented=True)]


def test_example_09_a_nine_on_a_loose_nine_holding_another_nine_is_a_cemented_nine_house() -> None:
    pos = position(hand=["9s", "9h"], loose=["9d"])
    assert plays_json(pos) == {
        pj({"card": "9s", "capture": ["9d"]}),
        pj({"card": "9h", "capture": ["9d"]}),
        pj({"card": "9s", "house": 9, "loose": ["9d"]}),
        pj({"card": "9h", "house": 9, "loose": ["9d"]}),
    }
    o = outcome_of(pos, {"card": "9s", "house": 9, "loose": ["9d"]})
    assert o["houses"] == [house(9, ["9s", "9d"], [0], cemented=True)] and o["kind"] == "establish"
    # Holding a single nine there is nothing to build.
    assert plays_json(position(hand=["9s", "2h"], loose=["9d"])) == {pj({"card": "9s", "capture": ["9d"]}),
                                                                      pj({"card": "2h"})}


def test_example_10_breaking_with_the_ace_the_loose_4_and_6_cement_the_new_ten_house() -> None:
    pos = position(hand=["Ad", "Tc"], loose=["4h", "6s"], houses=[house(9, ["5c", "4d"], [1])])
    assert plays_json(pos) == {
        pj({"card": "Ad", "house": 10, "break": 9, "loose": ["4h", "6s"]}),
        pj({"card": "Ad"}),
        pj({"card": "Tc", "capture": ["4h", "6s"]}),
    }
    o = outcome_of(pos, {"card": "Ad", "house": 10, "break": 9, "loose": ["4h", "6s"]})
    assert o["houses"] == [house(10, ["6s", "4h", "Ad", "4d", "5c"], [0], cemented=True)] and o["loose"] == []


@pytest.mark.parametrize("capturer", ["8s", "Qs"])
def test_example_11_an_eight_or_a_queen_takes_all_of_a_3_5_7_8(capturer: str) -> None:
    loose = ["Ah", "3c", "5d", "7c", "8h"]
    pos = position(hand=[capturer], loose=loose)
    assert plays_json(pos) == {pj({"card": capturer, "capture": loose})}
    o = outcome_of(pos, {"card": capturer, "capture": loose})
    assert sorted(o["captured"]) == sorted([*loose, capturer]) and o["sweep"] is True


def test_example_12_a_jack_takes_the_jack_house_and_the_loose_7_and_4() -> None:
    pos = position(hand=["Jc"], loose=["7h", "4d"], houses=[house(11, ["9s", "2s"], [1])])
    assert plays_json(pos) == {pj({"card": "Jc", "capture": ["7h", "4d"]})}
    o = outcome_of(pos, {"card": "Jc", "capture": ["7h", "4d"]})
    assert o["captured"] == ["2s", "9s", "7h", "4d", "Jc"] and o["houses"] == [] and o["sweep"] is True


def test_example_13_jack_takes_2_3_6_or_5_6_never_all_four() -> None:
    pos = position(hand=["Jc"], loose=["2s", "3h", "5d", "6c"])
    assert set(pos.legal_plays()) == {
        (CAPTURE, card("Jc"), 0, 0, mask("2s", "3h", "6c")),
        (CAPTURE, card("Jc"), 0, 0, mask("5d", "6c")),
    }
    assert outcome_of(pos, {"card": "Jc", "capture": ["2s", "3h", "6c"]})["loose"] == ["5d"]
    assert outcome_of(pos, {"card": "Jc", "capture": ["5d", "6c"]})["loose"] == ["2s", "3h"]


def test_example_14_a_queen_takes_nothing_from_a_nine_house_and_a_loose_three_it_is_a_throw() -> None:
    houses = [house(9, ["5c", "4d"], [1])]
    pos = position(hand=["Qc"], loose=["3c"], houses=houses)
    assert pos.legal_plays() == [(THROW, card("Qc"), 0, 0, 0)]
    o = outcome_of(pos, {"card": "Qc"})
    assert o["kind"] == "throw" and o["loose"] == ["3c", "Qc"] and o["houses"] == houses and o["captured"] == []


def test_example_15_the_bidder_must_take_the_2_9_and_jack_with_his_jack() -> None:
    pos = position(hand=["7d", "8h", "8c", "Jc"], loose=["2s", "9s", "Jd", "Kh"], bid=11)
    assert pos.legal_plays() == [(CAPTURE, card("Jc"), 0, 0, mask("2s", "9s", "Jd"))]
    # The same in a real deal: the bidder (after dealer 3) may only bid 11 and has one play.
    top = [parse_card(n) for n in ("7d", "8h", "8c", "Jc", "2s", "9s", "Jd", "Kh")]
    rest = [c for c in range(52) if c not in top]
    random.Random(15).shuffle(rest)
    deal = Deal(STANDARD, 4, EAST, top + rest)
    assert deal.to_move == NORTH and deal.legal_bids() == [11]
    deal.make_bid(11)
    assert deal.legal_plays() == [(CAPTURE, card("Jc"), 0, 0, mask("2s", "9s", "Jd"))]
    for wrong in [(THROW, card("Jc"), 0, 0, 0), (CAPTURE, card("Jc"), 0, 0, mask("2s", "9s")),
                  (CAPTURE, card("Jc"), 0, 0, mask("Jd")), (THROW, card("7d"), 0, 0, 0)]:
        with pytest.raises(IllegalPlayError):
            deal.play(wrong)
    deal.play((CAPTURE, card("Jc"), 0, 0, mask("2s", "9s", "Jd")))
    assert deal.loose == mask("Kh") and not deal.sweeps


def test_example_16_a_jack_takes_the_house_and_2_9_and_must_leave_4_and_6() -> None:
    pos = position(hand=["Jc"], loose=["2s", "4c", "6h", "9d"], houses=[house(11, ["5c", "6d"], [1])])
    assert plays_json(pos) == {pj({"card": "Jc", "capture": ["2s", "9d"]})}
    o = outcome_of(pos, {"card": "Jc", "capture": ["2s", "9d"]})
    assert o["loose"] == ["6h", "4c"] and o["houses"] == [] and o["sweep"] is False


def _scores(margin: int) -> tuple[int, int]:
    """Deal scores (team 0, team 1) of a 100-point deal won by ``margin`` (both at least 9: no minimum rule)."""
    return (100 + margin) // 2, (100 - margin) // 2


def test_example_17_running_difference_baazi_and_the_dealer_sequence() -> None:
    dealer, difference = NORTH, 0
    dealers, differences, baazis = [], [], []
    for margin in (20, 36, -42, -66, -54):
        dealers.append(dealer)
        step = score_deal(STANDARD, difference, _scores(margin))
        assert not step.minimum_rule
        difference = step.difference
        differences.append(difference)
        baazis.append(step.baazi)
        dealer = next_dealer(4, dealer, difference, step.baazi)
    assert differences == [20, 56, 14, -52, 0]
    assert baazis == [None, None, None, None, EW]
    assert dealers == [NORTH, WEST, WEST, WEST, SOUTH]
    assert dealer == NORTH


def test_example_18_east_deals_ew_win_a_deal_by_124_from_10_behind_baazi_then_south_deals() -> None:
    step = score_deal(STANDARD, 10, (13, 137))
    assert (step.baazi, step.difference, step.minimum_rule) == (EW, 0, False)
    assert next_dealer(4, EAST, step.difference, step.baazi) == SOUTH


def test_example_19_ns_score_5_from_99_ahead_minimum_rule_baazi_to_ew_then_south_deals() -> None:
    step = score_deal(STANDARD, 99, (5, 95))
    assert (step.baazi, step.difference, step.minimum_rule) == (EW, 0, True)
    assert next_dealer(4, EAST, step.difference, step.baazi) == SOUTH
    # Without the minimum rule the same deal would leave NS 9 ahead and no baazi.
    no_minimum = score_deal(Rules(minimum_deal_score=0), 99, (5, 95))
    assert (no_minimum.baazi, no_minimum.difference) == (None, 9)
