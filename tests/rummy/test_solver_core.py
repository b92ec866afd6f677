"""The compiled hand solver (``taash.rummy._solver``) against the pure one, its reference: the same least points and
validity of every 13-card hand and of every discard of 14 cards, the same best discard (with the same arrangement
through :func:`best_discard`), and both against the brute-force reference on a smaller sample. The compiled
solver's own arrangements (:func:`compiled_solve`, what the web server shows) are sound and as good as the pure
solver's; among equally good groupings they may differ from it, and the tests say so.

Hands come from random deals, hands with 0 to 6 jokers and hands built from melds, under every test variant (the
two presets among them). ``TAASH_CORE_HANDS`` scales the sample (the default checks some 5,000 hands)::

    TAASH_CORE_HANDS=10 .venv/bin/python -m pytest -q -n 2 tests/rummy/test_solver_core.py

These tests skip (saying why) when the compiled solver is not in use; those about ``TAASH_PURE=1`` and a stale
build run either way. ``make test`` runs tests/rummy/test_solver.py again on the pure solver.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import types
from pathlib import Path

import pytest
from hypothesis import given, settings

import taash
import taash.rummy
from taash.packs import JOKER, parse_face
from taash.rummy import core
from taash.rummy import solver as S
from taash.rummy.core import CORE, compiled, solver_rules, source_hash
from taash.rummy.errors import BadHandError
from taash.rummy.rules import PRESETS, Rules
from tests.rummy.helpers import VARIANTS, built_hand, check_solution, dealt_hand, joker_hand, ref_rules
from tests.rummy.reference import reference_discard, reference_score
from tests.rummy.test_solver import hands

needs_compiled = pytest.mark.skipif(compiled is None, reason=f"the compiled solver is not in use: {CORE}")

SCALE = max(1, int(os.environ.get("TAASH_CORE_HANDS", "1")))


def a_hand(rng: random.Random, rules: Rules, n: int, size: int) -> tuple[list[int], int]:
    """The n-th hand of a sample: dealt (2 to 6 players' packs), with n % 7 jokers, or built from melds."""
    kind = n % 3
    if kind == 0:
        return dealt_hand(rng, rules, size=size, players=2 + n % 5)
    if kind == 1:
        return joker_hand(rng, rules, n // 3 % 7, size=size)
    return built_hand(rng, rules, size=size)


def pure_values(hand: list[int], rules: Rules, wild: int, keep: int | None) -> tuple[tuple[int, int, bool], ...]:
    """Each discard's points and validity as the pure solver finds them, in the compiled solver's form."""
    whole, after = S._discards(hand, rules, wild, keep)
    return tuple((face, points, valid) for face, (points, valid) in S._values_after(whole, after).items())


#: Hands per variant and core test, 13 and 14 cards (the presets get three times as many).
HANDS = {13: 300, 14: 80}


@needs_compiled
@pytest.mark.parametrize("size", [13, 14])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_compiled_solver_gives_the_pure_solvers_values(variant: str, size: int) -> None:
    assert compiled is not None
    rules = VARIANTS[variant]
    rng = random.Random(f"core-{variant}-{size}")
    checked = 0
    for n in range(HANDS[size] * SCALE * (3 if variant in ("octro", "classic") else 1)):
        hand, wild = a_hand(rng, rules, n, size)
        if size == 13:
            want = S._Hand(S._game(rules), hand, wild).value()
            assert compiled.hand_value(hand, wild, solver_rules(rules)) == want, (hand, wild)
            assert S.compiled_hand_value(hand, rules, wild) == S.pure_hand_value(hand, rules, wild) == want[0]
            solution = S.compiled_solve(hand, rules, wild)
            check_solution(hand, solution, rules, wild)
            assert (solution.points, solution.valid) == want
        else:
            keep = hand[n % 14] if n % 4 == 0 else None  # R3: the card just taken stays (unless twinned)
            got = compiled.discard_values(hand, wild, solver_rules(rules), -1 if keep is None else keep)
            assert got == pure_values(hand, rules, wild, keep), (hand, wild, keep)
            discard, solution = S.pure_best_discard(hand, rules, wild, keep)
            assert S.compiled_best_discard(hand, rules, wild, keep) == (discard, solution)
            shown_discard, shown = S.compiled_best_discard_shown(hand, rules, wild, keep)
            left = list(hand)
            left.remove(discard)
            assert shown_discard == discard
            check_solution(left, shown, rules, wild)
            assert (shown.points, shown.valid) == (solution.points, solution.valid)
            if keep is None:
                assert S.compiled_take_value(hand[:13], hand[13], rules, wild) == \
                    S.pure_take_value(hand[:13], hand[13], rules, wild)
        checked += 1
    assert checked >= HANDS[size]


@needs_compiled
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_compiled_solver_equals_the_reference(variant: str) -> None:
    """The brute-force reference (which shares nothing with either solver) on a smaller sample."""
    rules = VARIANTS[variant]
    rng = random.Random(f"core-reference-{variant}")
    for n in range(20 * SCALE):
        hand, wild = a_hand(rng, rules, n, 13)
        assert compiled is not None
        assert compiled.hand_value(hand, wild, solver_rules(rules)) == \
            reference_score(hand, ref_rules(rules), wild), (hand, wild)
    for n in range(3 * SCALE):
        hand, wild = a_hand(rng, rules, n, 14)
        _, solution = S.compiled_best_discard(hand, rules, wild)
        assert (solution.points, solution.valid) == reference_discard(hand, ref_rules(rules), wild), (hand, wild)


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(hands())
def test_property_compiled_value_is_the_pure_value(example: tuple[list[int], str, int]) -> None:
    hand, variant, wild = example
    rules = VARIANTS[variant]
    assert compiled is not None
    assert compiled.hand_value(hand, wild, solver_rules(rules)) == S._Hand(S._game(rules), hand, wild).value()


@needs_compiled
@settings(max_examples=100, deadline=None)
@given(hands(size=14))
def test_property_compiled_best_discard_is_the_pure_one(example: tuple[list[int], str, int]) -> None:
    hand, variant, wild = example
    rules = VARIANTS[variant]
    assert compiled is not None
    assert compiled.discard_values(hand, wild, solver_rules(rules), -1) == pure_values(hand, rules, wild, None)
    assert S.compiled_best_discard(hand, rules, wild) == S.pure_best_discard(hand, rules, wild)


@needs_compiled
def test_the_compiled_arrangement_may_group_otherwise_but_is_as_good() -> None:
    """What the web server shows (``shown_solve``): the compiled solver's arrangement. Where several groupings are
    best it may pick another than the pure solver's, with the same points and validity (the engine's scoring,
    the hand check, bots and records keep the pure solver's)."""
    assert S.shown_solve is S.compiled_solve and S.shown_best_discard is S.compiled_best_discard_shown
    octro = PRESETS["octro"]
    differ = 0
    rng = random.Random("shown")
    for n in range(300):
        hand, wild = a_hand(rng, octro, n, 13)
        pure, shown = S.solve(hand, octro, wild), S.compiled_solve(hand, octro, wild)
        check_solution(hand, shown, octro, wild)
        assert (shown.points, shown.valid) == (pure.points, pure.valid)
        differ += shown != pure
    assert 0 < differ < 300  # mostly the same, sometimes another grouping as good


@needs_compiled
def test_constructed_hands_on_both_solvers() -> None:
    """Hands chosen by hand: every joker, a valid hand with twins, no pure run, an ace high and low, R3's kept
    card the only one worth discarding."""
    octro, classic = PRESETS["octro"], PRESETS["classic"]
    cases: list[tuple[str, Rules, int, int | None]] = [
        ("JK JK JK JK 7s 7h 7d 7c 7s 7h 7d 7c JK", octro, 6, None),  # jokers and wild cards only
        ("JK JK JK JK 7s 7h 7d 7c 7s 7h 7d 7c JK As", classic, 6, None),
        ("As Ks Qs Js 2h 3h 4h 4h 5h 9c 9d 9c 9h", octro, 7, None),  # twins: two sets of nines, or a run
        ("As 2s 3s 4s Qh Kh Ah 9c 9d 9h 5c 6c 8c 7d", octro, 6, None),  # 7d wild fills 5-6-_-8 of clubs
        ("2c 4c 6c 8c Td Qd 3h 5h 7h 9h Js Ks As", classic, 1, None),  # nothing melds
        ("4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK Kc", octro, 7, parse_face("Kc")),
        ("4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK Kc", octro, 7, parse_face("JK")),
    ]
    for text, rules, wild, keep in cases:
        hand = [parse_face(t) for t in text.split()]
        if len(hand) == 13:
            assert S.compiled_hand_value(hand, rules, wild) == S.pure_hand_value(hand, rules, wild), text
            solution = S.compiled_solve(hand, rules, wild)
            check_solution(hand, solution, rules, wild)
            assert (solution.points, solution.valid) == (S.solve(hand, rules, wild).points,
                                                         S.solve(hand, rules, wild).valid)
        else:
            assert S.compiled_best_discard(hand, rules, wild, keep) == S.pure_best_discard(hand, rules, wild, keep)
            assert S.compiled_discard_values(hand, rules, wild, keep) == \
                S.pure_discard_values(hand, rules, wild, keep), text
    assert S.compiled_hand_value([JOKER] * 4 + [parse_face("7s")] * 9, octro, 6) == 0


@needs_compiled
@pytest.mark.parametrize("core_name", ["pure", "compiled"])
def test_conformance_hands_on_both_solvers(conformance_dir: Path, core_name: str) -> None:
    """The 120 hand checks of an independent solver, each 14-card one's best discard and arrangement the same."""
    best_discard = S.pure_best_discard if core_name == "pure" else S.compiled_best_discard
    hand_value = S.pure_hand_value if core_name == "pure" else S.compiled_hand_value
    inputs = [json.loads(line) for line in (conformance_dir / "rummy-hands.jsonl").read_text().splitlines()]
    expected = [json.loads(line) for line in
                (conformance_dir / "rummy-hands.expected.jsonl").read_text().splitlines()]
    for doc, want in zip(inputs, expected, strict=True):
        rules = PRESETS[doc["rules"]]
        wild = "A23456789TJQK".index(doc["wild"])
        hand = [parse_face(c) for c in doc["hand"]]
        if len(hand) == 14:
            discard, solution = best_discard(hand, rules, wild)
            assert (solution.points, solution.valid) == (want["points"], want["valid"]), doc
            assert (discard, solution) == S.pure_best_discard(hand, rules, wild)
        else:
            assert hand_value(hand, rules, wild) == want["points"], doc


@needs_compiled
def test_the_solver_uses_the_compiled_core_when_it_is_built() -> None:
    assert CORE == "compiled"
    assert S.hand_value is S.compiled_hand_value and S.best_discard is S.compiled_best_discard
    assert S.solve is not S.compiled_solve  # the engine, the hand check, bots and records keep the pure arrangement
    assert S.discard_values is S.compiled_discard_values and S.take_value is S.compiled_take_value


@needs_compiled
def test_bad_input_is_refused_the_same_on_both_solvers() -> None:
    octro = PRESETS["octro"]
    hand = [parse_face(t) for t in ["4s", "5s", "6s", "7s", "9h", "Th", "Jh", "Qc", "Qd", "Qh", "2c", "2d", "JK"]]
    for value in (S.pure_hand_value, S.compiled_hand_value):
        with pytest.raises(BadHandError, match="13 cards, not 12"):
            value(hand[:12], octro, 7)
        with pytest.raises(BadHandError, match=r"wild rank is 0 .* not 13"):
            value(hand, octro, 13)
        with pytest.raises(BadHandError, match="a card face is 0 to 52, not 53"):
            value([*hand[:12], 53], octro, 7)
    for best in (S.pure_best_discard, S.compiled_best_discard):
        with pytest.raises(BadHandError, match="the card taken is not in the hand"):
            best([*hand, parse_face("Kc")], octro, 7, parse_face("Ks"))
    assert compiled is not None
    with pytest.raises(ValueError, match="a hand here is 14 cards, not 13"):
        compiled.discard_values(hand, 7, solver_rules(octro), -1)
    with pytest.raises(ValueError, match="a card face is 0 to 52, not 60"):
        compiled.hand_value([*hand[:12], 60], 7, solver_rules(octro))
    with pytest.raises(ValueError, match="wild rank"):
        compiled.hand_value(hand, -1, solver_rules(octro))
    with pytest.raises(TypeError, match="9 numbers"):
        compiled.hand_value(hand, 7, (1, 2))
    with pytest.raises(ValueError, match="a hand here is 13 cards, not 12"):
        compiled.arrange(hand[:12], 7, solver_rules(octro))
    with pytest.raises(BadHandError, match="13 cards, not 14"):
        S.compiled_solve([*hand, 0], octro, 7)


def test_taash_pure_forces_the_pure_solver() -> None:
    """``TAASH_PURE=1``: the solver and the bench run on the pure core and say so (the compiled one built or not)."""
    env = {**os.environ, "TAASH_PURE": "1", "PYTHONPATH": str(Path(taash.__file__).resolve().parents[1])}
    code = ("from taash.rummy import core, solver; from taash.cli.rummy_bench import run_bench; "
            "print(core.CORE, core.compiled is None, solver.best_discard is solver.pure_best_discard, "
            "solver.hand_value is solver.pure_hand_value and solver.shown_solve is solver.solve, "
            "run_bench(repeats=1, hands=5, discards=2, warmup=0).core)")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["pure", "(TAASH_PURE=1)", "True", "True", "True", "pure", "(TAASH_PURE=1)"]


@needs_compiled
def test_the_compiled_solver_is_built_from_the_source_beside_it() -> None:
    assert compiled is not None
    assert source_hash(Path(core.__file__).with_name("_solver.c")) == compiled.SOURCE


def test_a_solver_built_from_other_source_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """A solver left over from an older _solver.c (an install not redone after a pull) might score hands otherwise
    than the pure one: the pure one runs, and says why."""
    stale = types.ModuleType("taash.rummy._solver")
    stale.SOURCE = "0000000000000000"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "taash.rummy._solver", stale)
    monkeypatch.setattr(taash.rummy, "_solver", stale, raising=False)
    monkeypatch.delenv("TAASH_PURE", raising=False)
    found, name = core._load()
    assert found is None and name.startswith("pure (the compiled solver was built from older source")
