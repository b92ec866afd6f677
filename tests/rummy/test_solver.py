"""The exact hand solver against the brute-force reference (``reference.py``, written from the rules text), on
random, joker-rich and built hands under every preset and variants of every rule the search depends on; the
properties of its answers (hypothesis); the 14-card questions bots ask; and the conformance hands.

``TAASH_RUMMY_HANDS`` multiplies the number of hands compared (1 in CI; the README quotes a larger local run).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taash.packs import JOKER, parse_face
from taash.rummy.check import check_json
from taash.rummy.errors import BadHandError
from taash.rummy.rules import PRESETS, Rules
from taash.rummy.solver import best_discard, discard_values, hand_value, pure_hand_value, solve, take_value
from tests.examples import examples
from tests.rummy.helpers import VARIANTS, built_hand, check_solution, dealt_hand, joker_hand, most_copies, ref_rules
from tests.rummy.reference import reference_discard, reference_score

SCALE = max(1, int(os.environ.get("TAASH_RUMMY_HANDS", "1")))


def compare(hand: list[int], rules: Rules, wild: int) -> None:
    solution = solve(hand, rules, wild)
    check_solution(hand, solution, rules, wild)
    assert (solution.points, solution.valid) == reference_score(hand, ref_rules(rules), wild), (hand, wild)
    assert hand_value(hand, rules, wild) == solution.points
    assert pure_hand_value(hand, rules, wild) == solution.points  # the pure core's, whichever core is in use


# -- against the reference --------------------------------------------------------------------------------------

#: (how hands are made, hands per variant and seed): dealt hands are cheap to check, built ones are not.
KINDS = {"dealt": 100, "jokers": 20, "built": 12}


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_solver_equals_reference(variant: str, kind: str, seed: int) -> None:
    rules = VARIANTS[variant]
    rng = random.Random(f"{variant}-{kind}-{seed}")
    for n in range(KINDS[kind] * SCALE * (2 if variant in ("octro", "classic") else 1)):
        if kind == "dealt":
            hand, wild = dealt_hand(rng, rules, players=2 + n % 5)
        elif kind == "jokers":
            hand, wild = joker_hand(rng, rules, n % 7)
        else:
            hand, wild = built_hand(rng, rules)
        compare(hand, rules, wild)


@pytest.mark.parametrize("variant", ["octro", "classic"])
def test_best_discard_equals_reference(variant: str) -> None:
    rules = VARIANTS[variant]
    rng = random.Random(variant)
    for n in range(8 * SCALE):
        hand, wild = built_hand(rng, rules, size=14) if n % 2 else dealt_hand(rng, rules, size=14)
        discard, solution = best_discard(hand, rules, wild)
        check_solution([*hand[:hand.index(discard)], *hand[hand.index(discard) + 1:]], solution, rules, wild)
        assert (solution.points, solution.valid) == reference_discard(hand, ref_rules(rules), wild), (hand, wild)


def test_worked_example_a_pure_run_of_a_wild_card_as_itself() -> None:
    """R2: 4s 5s 6s with fives wild is a pure run, so with an impure second run the hand is valid."""
    hand = [parse_face(t) for t in ["4s", "5s", "6s", "9h", "Th", "JK", "Kc", "Kd", "Kh", "2c", "2d", "2h", "7c"]]
    assert not solve(hand, PRESETS["octro"], wild=4).valid  # no run of 4: octro needs one
    hand[-1] = parse_face("Jh")
    solution = solve(hand, PRESETS["octro"], wild=4)
    assert solution.valid
    no_r2 = VARIANTS["octro-no-R2"]
    assert not solve(hand, no_r2, wild=4).valid  # the five is only a joker: no pure run


def test_no_pure_run_means_every_card_counts() -> None:
    """Section 5: melds that do not meet the requirement save nothing."""
    hand = [parse_face(t) for t in ["Kc", "Kd", "Kh", "Qc", "Qd", "Qh", "9s", "9h", "9d", "3c", "3d", "3h", "2s"]]
    solution = solve(hand, PRESETS["octro"], wild=6)
    assert solution.points == 80 and not solution.valid and not solution.melds  # 3*10+30+27+9+2 = 98, capped
    classic = solve(hand, PRESETS["classic"], wild=6)
    assert classic.points == 80 and classic.unmatched == tuple(hand)


def test_cap_and_least_points() -> None:
    hand = [parse_face(t) for t in ["As", "2s", "3s", "4s", "5h", "6h", "7h", "Kc", "Kd", "9c", "Tc", "8d", "3h"]]
    solution = solve(hand, PRESETS["octro"], wild=11)
    # A-2-3-4 of spades and 5-6-7 of hearts meet octro's requirement; no joker: Kc Kd 9c Tc 8d 3h count.
    assert solution.points == 50 and not solution.valid


def test_bad_hands_are_refused() -> None:
    with pytest.raises(BadHandError):
        solve([1] * 12, PRESETS["octro"], 3)
    with pytest.raises(BadHandError):
        solve([1] * 13, PRESETS["octro"], 13)
    with pytest.raises(BadHandError):
        solve([53] * 13, PRESETS["octro"], 3)
    with pytest.raises(BadHandError):
        best_discard([1] * 13, PRESETS["octro"], 3)
    with pytest.raises(BadHandError):
        discard_values([1] * 14, PRESETS["octro"], 3, keep=7)


# -- the 14-card questions ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["octro", "classic", "octro-no-R2", "two-jokers-one-natural"])
def test_discard_values_and_take_value(variant: str) -> None:
    """Each discard's value is the 13 cards' least points; the best discard is the least of them and prefers a
    valid declaration; taking a card is worth the best discard that keeps it (R3)."""
    rules = VARIANTS[variant]
    rng = random.Random(variant)
    for n in range(60 * SCALE):
        hand, wild = built_hand(rng, rules, size=14) if n % 2 else joker_hand(rng, rules, n % 5, size=14)
        rest = {face: [*hand[:hand.index(face)], *hand[hand.index(face) + 1:]] for face in set(hand)}
        solved = {face: solve(cards, rules, wild) for face, cards in rest.items()}
        values = discard_values(hand, rules, wild)
        assert values == {face: s.points for face, s in solved.items()}
        discard, solution = best_discard(hand, rules, wild)
        assert (solution.points, solution.valid) == (solved[discard].points, solved[discard].valid)
        check_solution(rest[discard], solution, rules, wild)
        assert solution.points == min(values.values())
        assert solution.valid == any(s.valid for s in solved.values())
        taken = hand[-1]
        allowed = [f for f in rest if f != taken or hand.count(taken) > 1]
        assert take_value(hand[:-1], taken, rules, wild) == min(solved[f].points for f in allowed)
        kept = discard_values(hand, rules, wild, keep=taken)
        assert set(kept) == set(allowed)


def test_best_discard_tie_break() -> None:
    """Among discards leaving a valid declaration, the card of most points goes."""
    hand = [parse_face(t) for t in ["2s", "3s", "4s", "5s", "5h", "6h", "7h", "8h", "Kc", "Kd", "Kh", "9c", "9d", "9h"]]
    discard, solution = best_discard(hand, PRESETS["octro"], wild=10)
    # 2s, 5s, 5h or 8h leave a run of 3 beside a run of 4: the eight goes.
    assert solution.valid and discard == parse_face("8h")


# -- properties -----------------------------------------------------------------------------------------------------


@st.composite
def hands(draw: st.DrawFn, size: int = 13) -> tuple[list[int], str, int]:
    """A hand of ``size`` cards with 0 to 6 jokers, under one of the variants."""
    variant = draw(st.sampled_from(sorted(VARIANTS)))
    packs, printed = most_copies(VARIANTS[variant])
    wild = draw(st.integers(0, 12))
    jokers = [JOKER] * printed + [s * 13 + wild for s in range(4) for _ in range(packs)]
    naturals = [f for f in range(52) if f % 13 != wild for _ in range(packs)]
    k = draw(st.integers(0, 6))
    chosen = draw(st.lists(st.sampled_from(range(len(jokers))), unique=True, min_size=k, max_size=k))
    chosen_naturals = draw(st.lists(st.sampled_from(range(len(naturals))), unique=True, min_size=size - k,
                                    max_size=size - k))
    hand = [jokers[i] for i in chosen] + [naturals[i] for i in chosen_naturals]
    return draw(st.permutations(hand)), variant, wild


@settings(max_examples=examples(150), deadline=None)
@given(hands())
def test_property_solution_is_an_arrangement_of_the_hand(example: tuple[list[int], str, int]) -> None:
    hand, variant, wild = example
    rules = VARIANTS[variant]
    check_solution(hand, solve(hand, rules, wild), rules, wild)


@settings(max_examples=examples(60), deadline=None)
@given(hands())
def test_property_solver_equals_reference(example: tuple[list[int], str, int]) -> None:
    hand, variant, wild = example
    compare(hand, VARIANTS[variant], wild)


@settings(max_examples=examples(40), deadline=None)
@given(hands(size=14))
def test_property_best_discard_is_the_least_over_every_13_cards(example: tuple[list[int], str, int]) -> None:
    hand, variant, wild = example
    rules = VARIANTS[variant]
    _, solution = best_discard(hand, rules, wild)
    subsets = [solve([*hand[:i], *hand[i + 1:]], rules, wild) for i in range(14)]
    assert solution.points == min(s.points for s in subsets)
    assert solution.valid == any(s.valid for s in subsets)


@settings(max_examples=examples(60), deadline=None)
@given(hands(), st.randoms(use_true_random=False))
def test_property_order_and_suits_do_not_matter(example: tuple[list[int], str, int], rng: random.Random) -> None:
    """The hand's order, and renaming the suits, change nothing but the names of the cards."""
    hand, variant, wild = example
    rules = VARIANTS[variant]
    solution = solve(hand, rules, wild)
    shuffled = list(hand)
    rng.shuffle(shuffled)
    suits = list(range(4))
    rng.shuffle(suits)
    renamed = [f if f == JOKER else suits[f // 13] * 13 + f % 13 for f in shuffled]
    other = solve(renamed, rules, wild)
    assert (other.points, other.valid) == (solution.points, solution.valid)


# -- the conformance hands ------------------------------------------------------------------------------------------


def test_conformance_hands(conformance_dir: Path) -> None:
    """The 120 hand checks of an independent solver: valid and points agree, and every arrangement is sound."""
    inputs = [json.loads(line) for line in (conformance_dir / "rummy-hands.jsonl").read_text().splitlines()]
    expected = [json.loads(line) for line in
                (conformance_dir / "rummy-hands.expected.jsonl").read_text().splitlines()]
    assert len(inputs) == len(expected) == 120
    for doc, want in zip(inputs, expected, strict=True):
        got = check_json(doc)
        assert (got["valid"], got["points"]) == (want["valid"], want["points"]), doc
        rules = PRESETS[doc["rules"]]
        wild = "A23456789TJQK".index(doc["wild"])
        hand = [parse_face(c) for c in doc["hand"]]
        if got["discard"] is not None:
            hand.remove(parse_face(got["discard"]))
        solution = solve(hand, rules, wild)
        check_solution(hand, solution, rules, wild)
        assert (solution.points, solution.valid) == (want["points"], want["valid"])
        assert (solution.points, solution.valid) == reference_score(hand, ref_rules(rules), wild)


@pytest.mark.parametrize("variant", ["octro", "classic"])
def test_regression_ace_high_stretch_in_a_cluster_joined_by_sets(variant: str) -> None:
    """A suit's ace plays high after its king while other cards of the suit sit between: A, Q-K and 5-6-7 of
    spades in one cluster (A-3-5 of hearts with a joker joins them through sets of aces and of fives). The suit's
    cards must be read in rank order, or the ace is cut off from Q-K."""
    rules = VARIANTS[variant]
    hand = [parse_face(t) for t in ["As", "Qs", "Ks", "5s", "6s", "7s", "Ah", "3h", "5h", "JK", "9c", "9d", "Tc"]]
    for wild in (1, 7):
        compare(hand, rules, wild)
        compare(list(reversed(hand)), rules, wild)
    # Q-K-A and 5-6-7 of spades, JK-9-T of clubs: Ah (10), 3h, 5h and 9d are left.
    assert solve(hand, VARIANTS["classic"], 7).points == 10 + 3 + 5 + 9
