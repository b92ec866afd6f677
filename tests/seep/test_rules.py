"""Rules as data: the presets of rules section 7, custom variants from JSON and TOML, and what is refused."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taash.cards import card_name
from taash.seep.errors import BadRulesError, SeepError
from taash.seep.rules import PRESETS, Rules, load_rules, rules_from_json
from tests.examples import examples

STANDARD = PRESETS["standard"]
SPADES = {card_name(c): c + 1 for c in range(13)}


def differences(rules: Rules) -> dict[str, Any]:
    """The parameters in which ``rules`` differ from ``standard`` (the preset's name aside)."""
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(Rules)
            if f.name != "preset" and getattr(rules, f.name) != getattr(STANDARD, f.name)}


def test_the_presets_are_the_six_of_the_rules() -> None:
    assert list(PRESETS) == ["standard", "karan", "limited_houses", "break_with_loose", "punjab_30",
                             "punjab_30_qasim"]
    for name, rules in PRESETS.items():
        assert rules.preset == name


def test_standard_is_the_100_point_game() -> None:
    assert Rules() == STANDARD
    assert dict(STANDARD.card_points) == {**SPADES, "Ah": 1, "Ad": 1, "Ac": 1, "Td": 6}
    assert STANDARD.total_card_points == 100
    assert (STANDARD.sweep_points, STANDARD.bid_sweep_points, STANDARD.last_sweep_points) == (50, 25, 0)
    assert (STANDARD.minimum_deal_score, STANDARD.baazi_lead, STANDARD.majority_points) == (9, 100, 0)
    assert (STANDARD.max_houses, STANDARD.break_with_loose, STANDARD.satthi_points) == (0, False, 0)
    assert (STANDARD.floor_redeal_cards, STANDARD.restricted_cards, STANDARD.sweep_scores_card_value) == \
        ((), (), False)
    table = STANDARD.card_point_table()
    assert len(table) == 52 and sum(table) == 100 and table[35] == 6 and table[12] == 13


def test_karan_differs_only_in_the_ten_of_diamonds_the_majority_and_the_bid_sweep() -> None:
    karan = PRESETS["karan"]
    assert differences(karan) == {
        "card_points": {**SPADES, "Ah": 1, "Ad": 1, "Ac": 1, "Td": 2}, "majority_points": 4, "bid_sweep_points": 50}
    assert karan.total_card_points == 100


def test_limited_houses_and_break_with_loose_differ_in_one_parameter_each() -> None:
    assert differences(PRESETS["limited_houses"]) == {"max_houses": 2}
    assert differences(PRESETS["break_with_loose"]) == {"break_with_loose": True}


def test_punjab_30_is_the_30_point_game() -> None:
    punjab = PRESETS["punjab_30"]
    assert differences(punjab) == {
        "card_points": {"Td": 12, "9s": 9, "2s": 1, "As": 1, "Ah": 1, "Ad": 1, "Ac": 1},
        "majority_points": 4, "sweep_scores_card_value": True, "minimum_deal_score": 0, "baazi_lead": 30,
        "satthi_points": 60, "floor_redeal_cards": ("Td", "9s"),
    }
    assert punjab.total_card_points == 30


def test_punjab_30_qasim_has_a_five_point_two_of_spades_no_majority_and_restricted_big_cards() -> None:
    qasim = PRESETS["punjab_30_qasim"]
    assert differences(qasim) == {
        "card_points": {"Td": 12, "9s": 9, "2s": 5, "As": 1, "Ah": 1, "Ad": 1, "Ac": 1},
        "sweep_scores_card_value": True, "minimum_deal_score": 0, "baazi_lead": 30, "satthi_points": 60,
        "floor_redeal_cards": ("Td", "9s"), "restricted_cards": ("Td", "9s"),
    }
    assert qasim.total_card_points == 30


def test_rules_from_json_reads_names_objects_and_defaults() -> None:
    assert rules_from_json(None) is STANDARD
    assert rules_from_json("karan") is PRESETS["karan"]
    assert rules_from_json(PRESETS["karan"]) is PRESETS["karan"]
    assert rules_from_json({}) == STANDARD
    custom = rules_from_json({"preset": "karan", "max_houses": 3, "restricted_cards": ["10d"]})
    assert custom.majority_points == 4 and custom.max_houses == 3 and custom.restricted_cards == ("Td",)
    assert rules_from_json({"baazi_lead": 150}).baazi_lead == 150
    assert rules_from_json({"card_points": {"10d": 10, "as": 1}}).card_points == {"Td": 10, "As": 1}


def test_custom_variants_from_toml_and_json_files(tmp_path: Path) -> None:
    toml = tmp_path / "house.toml"
    toml.write_text('preset = "karan"\nmax_houses = 3\nbaazi_lead = 150\nrestricted_cards = ["9s"]\n'
                    '[card_points]\nTd = 10\nAs = 1\n')
    rules = load_rules(str(toml))
    assert (rules.preset, rules.max_houses, rules.baazi_lead, rules.majority_points) == ("karan", 3, 150, 4)
    assert rules.card_points == {"Td": 10, "As": 1} and rules.total_card_points == 15
    assert rules.restricted_cards == ("9s",)
    js = tmp_path / "house.json"
    js.write_text(json.dumps({"preset": "punjab_30", "satthi_points": 0, "break_with_loose": True}))
    rules = load_rules(str(js))
    punjab = differences(PRESETS["punjab_30"])
    del punjab["satthi_points"]  # back to standard's 0
    assert differences(rules) == {**punjab, "break_with_loose": True}
    just_a_name = tmp_path / "named.json"
    just_a_name.write_text('"limited_houses"')
    assert load_rules(str(just_a_name)) is PRESETS["limited_houses"]
    for name, preset in PRESETS.items():
        assert load_rules(name) is preset


@pytest.mark.parametrize("bad", [
    {"max_houses": 1}, {"max_houses": -1}, {"max_houses": 2.5}, {"max_houses": True},
    {"baazi_lead": 0}, {"baazi_lead": "100"}, {"baazi_lead": False},
    {"nosuch": 1}, {"Max_Houses": 2},
    {"card_points": {"Xx": 3}}, {"card_points": {"Td": -1}}, {"card_points": ["Td"]}, {"card_points": {"Td": "x"}},
    {"sweep_points": -5}, {"bid_sweep_points": 2.5}, {"last_sweep_points": None}, {"majority_points": -4},
    {"minimum_deal_score": "9"}, {"satthi_points": -60},
    {"break_with_loose": "yes"}, {"break_with_loose": 1}, {"sweep_scores_card_value": "true"},
    {"preset": "nosuch"}, {"preset": 3},
    {"restricted_cards": ["5s"]}, {"restricted_cards": "Td"}, {"restricted_cards": ["Zz"]},
    {"floor_redeal_cards": ["Zz"]}, {"floor_redeal_cards": "Td"},
    "nosuch", 7, ["standard"],
])
def test_bad_rule_parameters_are_refused_in_one_line(bad: object) -> None:
    with pytest.raises(BadRulesError) as info:
        rules_from_json(bad)
    assert "\n" not in str(info.value) and str(info.value)
    assert isinstance(info.value, SeepError) and isinstance(info.value, ValueError)


def test_bad_rules_given_directly_are_refused() -> None:
    with pytest.raises(BadRulesError):
        Rules(max_houses=1)
    with pytest.raises(BadRulesError):
        Rules(card_points={"Kx": 1})
    with pytest.raises(BadRulesError):
        Rules(restricted_cards=("8s",))


def test_bad_rules_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(BadRulesError, match="no such file"):
        load_rules("nosuch")
    with pytest.raises(BadRulesError, match="cannot read"):
        load_rules(str(tmp_path / "missing.toml"))
    broken = tmp_path / "broken.toml"
    broken.write_text("max_houses = [")
    with pytest.raises(BadRulesError, match="not valid TOML"):
        load_rules(str(broken))
    broken_json = tmp_path / "broken.json"
    broken_json.write_text("{max_houses: 2")
    with pytest.raises(BadRulesError, match="not valid JSON"):
        load_rules(str(broken_json))
    wrong = tmp_path / "wrong.toml"
    wrong.write_text("max_houses = 1\n")
    with pytest.raises(BadRulesError, match="max_houses"):
        load_rules(str(wrong))
    unknown = tmp_path / "unknown.json"
    unknown.write_text('{"preset": "standard", "jokers": 2}')
    with pytest.raises(BadRulesError, match="jokers"):
        load_rules(str(unknown))


def test_to_json_writes_a_preset_by_name_and_a_variant_as_its_differences() -> None:
    for name, preset in PRESETS.items():
        assert preset.to_json() == name
        assert rules_from_json(preset.to_json()) == preset
    custom = rules_from_json({"preset": "karan", "max_houses": 3})
    assert custom.to_json() == {"preset": "karan", "max_houses": 3}
    custom = rules_from_json({"card_points": {"Td": 10}, "floor_redeal_cards": ["Ks"], "sweep_points": 40})
    assert custom.to_json() == {"preset": "standard", "card_points": {"Td": 10}, "floor_redeal_cards": ["Ks"],
                                "sweep_points": 40}


OVERRIDES = {
    "max_houses": st.sampled_from([0, 2, 3, 5]),
    "baazi_lead": st.integers(1, 500),
    "sweep_points": st.integers(0, 100),
    "bid_sweep_points": st.integers(0, 100),
    "last_sweep_points": st.integers(0, 100),
    "majority_points": st.integers(0, 10),
    "minimum_deal_score": st.integers(0, 20),
    "satthi_points": st.integers(0, 100),
    "break_with_loose": st.booleans(),
    "sweep_scores_card_value": st.booleans(),
    "floor_redeal_cards": st.lists(st.sampled_from(["Td", "9s", "Ks", "Ah"]), unique=True).map(tuple),
    "restricted_cards": st.lists(st.sampled_from(["Td", "9s", "Jc", "Kh"]), unique=True).map(tuple),
    "card_points": st.dictionaries(st.sampled_from(["As", "Td", "2s", "Kh", "9s"]), st.integers(0, 20)),
}


@settings(max_examples=examples(200), deadline=None)
@given(preset=st.sampled_from(list(PRESETS)), overrides=st.fixed_dictionaries({}, optional=OVERRIDES))
def test_any_variant_round_trips_through_json(preset: str, overrides: dict[str, Any]) -> None:
    rules = rules_from_json({"preset": preset, **overrides})
    for key, value in overrides.items():
        assert getattr(rules, key) == value
    written = json.loads(json.dumps(rules.to_json()))
    assert rules_from_json(written) == rules


# -- rules checked as a whole (issue 14, item 4: a rules file could make every deal redeal forever) ---------------


@pytest.mark.parametrize(("bad", "words"), [
    ({"floor_redeal_cards": [card_name(c) for c in range(52)]}, "at most 12 cards, not 52"),
    ({"floor_redeal_cards": [card_name(c) for c in range(13)]}, "at most 12 cards, not 13"),
    ({"floor_redeal_cards": ["Td", "td"]}, "floor_redeal_cards names Td twice"),
    ({"floor_redeal_cards": ["Td", "10d"]}, "floor_redeal_cards names Td twice"),
    ({"restricted_cards": ["Td", "TD"]}, "restricted_cards names Td twice"),
    ({"card_points": {"As": 1, "as": 2}}, "card_points names As twice"),
    ({"card_points": {"Td": 2.5}}, "whole numbers from 0 to 1000, not 2.5 for Td"),
    ({"card_points": {"Td": "3"}}, "not '3' for Td"),
    ({"card_points": {"Td": True}}, "not True for Td"),
    ({"card_points": {"Td": 10 ** 9}}, "from 0 to 1000"),
    ({"preset": None}, "preset must be a preset name"),
    ({"max_houses": 6}, "0 \\(no limit\\) or 2 to 5"),
    ({"baazi_lead": 10 ** 9}, "baazi_lead must be a whole number from 1 to 10000"),
    ({"sweep_points": 10 ** 9}, "sweep_points must be a whole number from 0 to 1000"),
    ({"bid_sweep_points": 1001}, "from 0 to 1000"),
    ({"satthi_points": 10 ** 6}, "from 0 to 1000"),
])
def test_rules_that_could_not_be_played_sanely_are_refused(bad: dict[str, Any], words: str) -> None:
    with pytest.raises(BadRulesError, match=words) as info:
        rules_from_json(bad)
    assert "\n" not in str(info.value)


def test_the_bounds_still_allow_every_sane_variant() -> None:
    rules = rules_from_json({"floor_redeal_cards": [f"{r}{s}" for r in "JQK" for s in "shdc"], "max_houses": 5,
                             "baazi_lead": 10000, "sweep_points": 1000, "card_points": {"td": 1000, "As": 0}})
    assert len(rules.floor_redeal_cards) == 12 and rules.card_points == {"Td": 1000, "As": 0}
