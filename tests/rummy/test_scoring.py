"""The engine's scorer (least points, R8) against the conformance hands and the shortcut-free reference."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taash.packs import JOKER, parse_face, parse_rank
from taash.rummy.melds import declaration_valid, hand_points
from taash.rummy.rules import PRESETS, Rules, rules_from_json
from taash.rummy.scoring import find_declaration, least_points, valid_arrangement
from tests.rummy.deals import faces
from tests.rummy.plain_scorer import _Search, isolated
from tests.rummy.scoring_reference import reference_least_points

OCTRO = PRESETS["octro"]
CLASSIC = PRESETS["classic"]
VARIANTS = [OCTRO, CLASSIC, rules_from_json({"preset": "classic", "min_natural_cards": 1}),
            rules_from_json({"wild_as_natural": False, "runs_required": 3, "pure_runs_required": 2})]


def conformance_hands(conformance_dir: Path) -> list[tuple[list[int], Rules, int, dict[str, object]]]:
    hands = (conformance_dir / "rummy-hands.jsonl").read_text().splitlines()
    expected = (conformance_dir / "rummy-hands.expected.jsonl").read_text().splitlines()
    out = []
    for line, want in zip(hands, expected, strict=True):
        q = json.loads(line)
        out.append(([parse_face(c) for c in q["hand"]], rules_from_json(q.get("rules", "octro")),
                     parse_rank(q["wild"]), json.loads(want)))
    return out


def test_the_conformance_hands_score_as_the_independent_solver_says(conformance_dir: Path) -> None:
    for hand, rules, wild, want in conformance_hands(conformance_dir):
        if len(hand) == 13:
            points = least_points(hand, rules, wild)
            valid = valid_arrangement(hand, rules, wild) is not None
        else:
            points = min(least_points(hand[:i] + hand[i + 1:], rules, wild) for i in range(14))
            valid = find_declaration(hand, rules, wild) is not None
        assert (valid, points) == (want["valid"], want["points"]), (hand, rules.preset, wild)


def test_worked_examples() -> None:
    assert least_points(faces("4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK"), OCTRO, 7) == 0
    # no pure run: every card counts (jokers 0)
    assert least_points(faces("4s 5s JK 7s 9h Th JK Qc Qd Qh 2c 2d 3c"), OCTRO, 7) == 72
    # two runs, one pure, but no run of 4 (octro): everything counts; classic needs no long run
    hand = faces("4s 5s 6s 9h Th JK Qc Qd Qs 2c 2d 3c 7d")
    assert least_points(hand, OCTRO, 7) == hand_points(hand, OCTRO, 7)
    assert least_points(hand, CLASSIC, 7) == 2 + 2 + 3 + 7  # 2c 2d 3c 7d left


def random_hand(rng: random.Random, wild: int) -> list[int]:
    hand: list[int] = []
    while len(hand) < 13:
        x = rng.random()
        if x < 0.08:
            hand.append(JOKER)
        elif x < 0.16:
            hand.append(rng.randrange(4) * 13 + wild)
        elif x < 0.6:
            suit, start = rng.randrange(4), rng.randrange(11)
            hand += [suit * 13 + (start + k) % 13 for k in range(rng.randrange(1, 5))]
        else:
            hand.append(rng.randrange(52))
    return hand[:13]


def test_least_points_agrees_with_the_reference_on_random_hands() -> None:
    rng = random.Random(15)
    checked = 0
    while checked < 25:
        wild = rng.randrange(13)
        hand = random_hand(rng, wild)
        if sum(1 for f in hand if f == JOKER or f % 13 == wild) > 3:
            continue
        rules = VARIANTS[checked % len(VARIANTS)]
        assert least_points(hand, rules, wild) == reference_least_points(hand, rules, wild), (hand, rules, wild)
        checked += 1


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(VARIANTS))
def test_a_found_arrangement_is_a_valid_declaration_of_the_hand(seed: int, rules: Rules) -> None:
    rng = random.Random(seed)
    wild = rng.randrange(13)
    hand = random_hand(rng, wild)
    groups = valid_arrangement(hand, rules, wild)
    if groups is not None:
        assert sorted(f for g in groups for f in g) == sorted(hand)
        assert declaration_valid(groups, rules, wild)
        assert least_points(hand, rules, wild) == 0
    fourteen = [*hand, rng.randrange(53)]
    found = find_declaration(fourteen, rules, wild)
    if found is not None:
        finish, groups = found
        assert sorted([finish, *(f for g in groups for f in g)]) == sorted(fourteen)
        assert declaration_valid(groups, rules, wild)
    elif groups is not None:
        pytest.fail("13 cards make a valid declaration, so 14 with them do")


@pytest.mark.parametrize("rules", [OCTRO, CLASSIC])
def test_points_are_capped_at_max_points(rules: Rules) -> None:
    hand = faces("Ks Qh Jd Tc 9s 8h Kd Qc Jh Ts 9c 8d 7s")
    assert least_points(hand, rules, wild=2) == 80


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(VARIANTS))
def test_the_isolated_cards_shortcut_loses_no_declaration(seed: int, rules: Rules) -> None:
    rng = random.Random(seed)
    wild = rng.randrange(13)
    fourteen = [*random_hand(rng, wild), rng.randrange(53)]
    alone = isolated(fourteen, rules, wild)
    search = _Search(rules, wild, strict=True)
    for finish in set(fourteen):
        rest = list(fourteen)
        rest.remove(finish)
        if search.best(rest) is not None:  # a valid declaration without the shortcut
            assert len(alone) == 0 or alone == [finish]
            assert find_declaration(fourteen, rules, wild) is not None
