"""Melds, card points and declarations (sections 3-5 of ``shared/rummy-rules.md``): the rules' worked examples and
rulings R1, R2, R5, R6, R7, one named test each."""

from __future__ import annotations

import dataclasses

from taash.packs import parse_face
from taash.rummy.melds import (
    card_points,
    declaration_valid,
    group_kind,
    hand_points,
    is_joker,
    meets_requirement,
    meld_kind,
)
from taash.rummy.rules import PRESETS

OCTRO = PRESETS["octro"]
CLASSIC = PRESETS["classic"]
EIGHTS = 7  # a wild rank no example below holds


def cards(text: str) -> list[int]:
    return [parse_face(t) for t in text.split()]


def test_runs_ace_low_or_high_never_both() -> None:
    assert meld_kind(cards("As 2s 3s"), OCTRO, EIGHTS) == "pure"
    assert meld_kind(cards("Qs Ks As"), OCTRO, EIGHTS) == "pure"
    assert meld_kind(cards("Ks As 2s"), OCTRO, EIGHTS) is None  # K-A-2 is not a run
    assert meld_kind(cards("Ks As 2s 3s"), CLASSIC, EIGHTS) is None
    assert meld_kind(cards("Js Qs Ks As 2s"), CLASSIC, EIGHTS) is None


def test_runs_need_one_suit_and_consecutive_cards() -> None:
    assert meld_kind(cards("4s 5s 6s 7s"), OCTRO, EIGHTS) == "pure"
    assert meld_kind(cards("4s 5h 6s"), OCTRO, EIGHTS) is None
    assert meld_kind(cards("4s 5s 7s"), OCTRO, EIGHTS) is None
    assert meld_kind(cards("4s 5s"), OCTRO, EIGHTS) is None  # 3 cards at least
    assert meld_kind(cards("4s 4s 5s"), OCTRO, EIGHTS) is None  # twins are one rank twice


def test_impure_runs_jokers_stand_in_for_missing_cards() -> None:
    assert meld_kind(cards("4s 5s JK"), OCTRO, EIGHTS) == "impure"
    assert meld_kind(cards("2s 3s JK 5s"), OCTRO, EIGHTS) == "impure"
    assert meld_kind(cards("Ks JK"), OCTRO, EIGHTS) is None


def test_r5_octro_one_joker_per_run_classic_any_with_two_naturals() -> None:
    assert meld_kind(cards("4s JK JK 7s"), OCTRO, EIGHTS) is None
    assert meld_kind(cards("4s JK JK 7s"), CLASSIC, EIGHTS) == "impure"
    assert meld_kind(cards("4s 8h JK 7s"), CLASSIC, wild=7) == "impure"  # a wild eight and a printed joker
    assert meld_kind(cards("JK JK 5s"), CLASSIC, EIGHTS) is None  # at least two natural cards
    assert meld_kind(cards("JK JK JK"), CLASSIC, EIGHTS) is None  # jokers alone are no meld


def test_sets_one_rank_different_suits() -> None:
    assert meld_kind(cards("Qc Qd Qh"), OCTRO, EIGHTS) == "set"
    assert meld_kind(cards("Qc Qd Qh Qs"), OCTRO, EIGHTS) == "set"
    assert meld_kind(cards("JK 4s 4h"), OCTRO, EIGHTS) == "set"
    assert meld_kind(cards("Qc Qd Kh"), OCTRO, EIGHTS) is None


def test_twins_never_sit_in_one_set() -> None:
    assert meld_kind(cards("4s 4s 4h"), OCTRO, EIGHTS) is None
    assert meld_kind(cards("4s 4s 4h 4d"), CLASSIC, EIGHTS) is None
    assert meld_kind(cards("4s 4h 4d"), CLASSIC, EIGHTS) == "set"


def test_r6_octro_one_joker_per_set_classic_any_at_most_four_cards() -> None:
    assert meld_kind(cards("4s 4h JK JK"), OCTRO, EIGHTS) is None
    assert meld_kind(cards("4s 4h JK JK"), CLASSIC, EIGHTS) == "set"
    assert meld_kind(cards("4s 4h 4d 4c JK"), CLASSIC, EIGHTS) is None  # 5 cards
    assert meld_kind(cards("4s JK JK"), CLASSIC, EIGHTS) is None  # two natural cards at least
    three = dataclasses.replace(CLASSIC, max_set_size=3)
    assert meld_kind(cards("4s 4h 4d 4c"), three, EIGHTS) is None


def test_r1_aces_wild_are_jokers() -> None:
    """R1: when a printed joker is turned the aces are wild: every ace is a joker worth 0."""
    assert is_joker(parse_face("Ah"), wild=0)
    assert card_points(parse_face("Ah"), OCTRO, wild=0) == 0
    assert meld_kind(cards("4s Ah 6s"), OCTRO, wild=0) == "impure"


def test_r2_wild_card_as_itself_keeps_a_run_pure() -> None:
    fives_wild = 4
    assert meld_kind(cards("4s 5s 6s"), OCTRO, fives_wild) == "pure"
    assert meld_kind(cards("4s 5h 6s"), OCTRO, fives_wild) == "impure"  # the five of hearts stands in
    no_r2 = dataclasses.replace(OCTRO, wild_as_natural=False)
    assert meld_kind(cards("4s 5s 6s"), no_r2, fives_wild) == "impure"
    assert meld_kind(cards("4s 5s 6s JK"), no_r2, fives_wild) is None  # two jokers in one octro run
    assert meld_kind(cards("3s 4s 5s 6s JK"), OCTRO, fives_wild) == "impure"  # the five as itself, one joker


def test_r7_card_points() -> None:
    assert [card_points(parse_face(t), OCTRO, EIGHTS) for t in ("As", "2s", "9s", "Ts", "Js", "Qs", "Ks")] == \
        [1, 2, 9, 10, 10, 10, 10]
    assert card_points(parse_face("As"), CLASSIC, EIGHTS) == 10
    assert card_points(parse_face("JK"), OCTRO, EIGHTS) == 0
    assert card_points(parse_face("8d"), OCTRO, EIGHTS) == 0  # the wild rank


def test_hand_points_are_capped_at_80() -> None:
    assert hand_points(cards("Ks Kh Kd Kc Qs Qh Qd Qc Js"), OCTRO, EIGHTS) == 80
    assert hand_points(cards("Ks 2h"), OCTRO, EIGHTS) == 12


def test_requirement_two_runs_one_pure_and_octro_long_run() -> None:
    assert meets_requirement(["pure", "impure"], [4, 3], OCTRO)
    assert not meets_requirement(["pure", "impure"], [3, 3], OCTRO)  # octro needs a run of 4+
    assert meets_requirement(["pure", "impure"], [3, 3], CLASSIC)
    assert not meets_requirement(["impure", "impure", "set"], [4, 3, 4], OCTRO)  # no pure run
    assert not meets_requirement(["pure", "set", "set"], [4, 3, 3], OCTRO)  # one run only


def test_declarations() -> None:
    shown = [cards("4s 5s 6s 7s"), cards("9h Th Jh"), cards("Qc Qd Qh"), cards("2c 2d JK")]
    assert declaration_valid(shown, OCTRO, EIGHTS)
    assert declaration_valid([*shown[:3], cards("2c 2d"), cards("JK")], OCTRO, EIGHTS) is False
    assert declaration_valid([cards("4s 5s 6s 7s"), cards("9h Th JK"), cards("Qc Qd Qh"), cards("8c 8d JK")],
                             OCTRO, EIGHTS)  # two wild eights as themselves and a joker
    assert group_kind(cards("JK JK"), OCTRO, EIGHTS) == "free"
    assert group_kind(cards("JK 2c"), OCTRO, EIGHTS) == "invalid"
    assert not declaration_valid([cards("4s 5s 6s"), cards("9h Th Jh"), cards("Qc Qd Qh"), cards("2c 2d JK"),
                                  cards("3h")], CLASSIC, EIGHTS)
