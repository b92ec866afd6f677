"""Variant rules (section 7) and rule parameters."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from taash.seep.deal import Deal
from taash.seep.errors import BadRulesError
from taash.seep.plays import BREAK, CAPTURE, ESTABLISH, THROW
from taash.seep.rules import PRESETS, Rules, load_rules, rules_from_json
from tests.seep.helpers import card, mask, position


def test_break_with_loose_example_of_rules_7_4() -> None:
    houses = [{"value": 11, "cards": ["5c", "6d"], "cemented": False, "owners": [1]}]
    play = (BREAK, card("Kc"), 13, 11, mask("2s"))
    standard = position(hand=["Kc", "Kd"], loose=["2s"], houses=houses)
    assert play not in standard.legal_plays()
    variant = position(rules="break_with_loose", hand=["Kc", "Kd"], loose=["2s"], houses=houses)
    assert play in variant.legal_plays()
    assert variant.outcome(play)["houses"] == [
        {"value": 13, "cards": ["2s", "6d", "5c", "Kc"], "cemented": True, "owners": [0]}]
    one_king = position(rules="break_with_loose", hand=["Kc", "5d"], loose=["2s"], houses=houses)
    assert play not in one_king.legal_plays(), "he must keep a king"


def test_limited_houses_never_allows_a_third_house() -> None:
    houses = [{"value": 9, "cards": ["5c", "4d"], "cemented": False, "owners": [1]},
              {"value": 10, "cards": ["6c", "4h"], "cemented": False, "owners": [3]}]
    pos = position(rules="limited_houses", hand=["5s", "Ks"], loose=["8h"], houses=houses)
    assert not [p for p in pos.legal_plays() if p[0] == ESTABLISH]
    free = position(hand=["5s", "Ks"], loose=["8h"], houses=houses)
    assert (ESTABLISH, card("5s"), 13, 0, mask("8h")) in free.legal_plays()
    rng = random.Random(3)
    for _ in range(30):
        deal = Deal.shuffled(PRESETS["limited_houses"], 4, 0, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            deal.play(rng.choice(deal.legal_plays()))
            assert len(deal.houses) <= 2


def test_qasim_restricted_ten_of_diamonds_only_throws_or_builds_its_own_house() -> None:
    # Holding the ten of diamonds before any ten-house: it captures nothing and goes into no larger house.
    pos = position(rules="punjab_30_qasim", hand=["Td", "Th", "2c"], loose=["3s", "7h"])
    td = [p for p in pos.legal_plays() if p[1] == card("Td")]
    assert (THROW, card("Td"), 0, 0, 0) in td
    assert (ESTABLISH, card("Td"), 10, 0, mask("3s", "7h")) in td  # cemented at once, holding another ten
    assert not [p for p in td if p[0] == CAPTURE]
    # The ten of hearts captures as usual.
    assert (CAPTURE, card("Th"), 0, 0, mask("3s", "7h")) in pos.legal_plays()


def test_qasim_first_ten_house_only_by_the_holder_of_the_ten_of_diamonds() -> None:
    # Another player holds the ten of diamonds (it is in nobody's view here): no ten-house may be built.
    pos = position(rules="punjab_30_qasim", hand=["3c", "Th"], loose=["7h"])
    assert not [p for p in pos.legal_plays() if p[0] == ESTABLISH and p[2] == 10]
    released = position(rules="punjab_30_qasim", hand=["3c", "Th"], loose=["7h"], restricted=["9s"])
    assert (ESTABLISH, card("3c"), 10, 0, mask("7h")) in released.legal_plays()


def test_qasim_release_after_the_ten_house_is_built() -> None:
    rng = random.Random(2)
    for _ in range(40):
        deal = Deal.shuffled(PRESETS["punjab_30_qasim"], 4, 0, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            before = set(deal.houses)
            deal.play(rng.choice(deal.legal_plays()))
            if 10 in deal.houses and 10 not in before:
                assert not deal.restricted & mask("Td")


def test_karan_scores_majority_and_a_bid_sweep_of_50() -> None:
    karan = PRESETS["karan"]
    assert karan.total_card_points == 100 and karan.bid_sweep_points == 50 and karan.majority_points == 4
    assert PRESETS["standard"].total_card_points == 100
    assert PRESETS["punjab_30"].total_card_points == 30
    assert PRESETS["punjab_30_qasim"].total_card_points == 30


@pytest.mark.parametrize(("preset", "points"), [("punjab_30", 11), ("standard", 25), ("karan", 50)])
def test_a_sweep_by_the_bid_play_scores_by_the_variant(preset: str, points: int) -> None:
    top = [card(n) for n in ("Js", "2h", "3h", "4h", "5c", "6c", "2d", "9h")]
    deal = Deal(PRESETS[preset], 4, 3, top + [c for c in range(52) if c not in top])
    deal.make_bid(11)
    sweep = (CAPTURE, card("Js"), 0, 0, mask("5c", "6c", "2d", "9h"))
    assert [p for p in deal.legal_plays() if p[0] == CAPTURE] == [sweep]
    deal.play(sweep)
    assert deal.sweeps == [(0, 0, points)]


def test_custom_variant_from_toml_and_json(tmp_path: Path) -> None:
    toml = tmp_path / "house.toml"
    toml.write_text('preset = "karan"\nmax_houses = 3\nbaazi_lead = 150\n')
    rules = load_rules(str(toml))
    assert rules.max_houses == 3 and rules.baazi_lead == 150 and rules.majority_points == 4
    js = tmp_path / "house.json"
    js.write_text(json.dumps({"preset": "standard", "card_points": {"Td": 10, "As": 1}}))
    assert load_rules(str(js)).total_card_points == 11
    assert rules_from_json(rules.to_json()) == rules
    for name, preset in PRESETS.items():
        assert rules_from_json(preset.to_json()) == preset
        assert preset.to_json() == name


@pytest.mark.parametrize("bad", [
    {"max_houses": 1}, {"baazi_lead": 0}, {"nosuch": 1}, {"card_points": {"Xx": 3}}, {"sweep_points": -5},
    {"break_with_loose": "yes"}, {"preset": "nosuch"}, {"restricted_cards": ["5s"]},
])
def test_bad_rule_parameters_are_refused(bad: dict) -> None:
    with pytest.raises(BadRulesError):
        rules_from_json(bad)


def test_bad_rules_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(BadRulesError, match="no such file"):
        load_rules("nosuch")
    with pytest.raises(BadRulesError, match="cannot read"):
        load_rules(str(tmp_path / "missing.toml"))
    broken = tmp_path / "broken.toml"
    broken.write_text("max_houses = [")
    with pytest.raises(BadRulesError, match="not valid TOML"):
        load_rules(str(broken))


def test_rules_default_is_standard() -> None:
    assert Rules() == PRESETS["standard"]
