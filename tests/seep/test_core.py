"""The compiled core (``taash.seep._core``) against the pure engine, its reference: the same legal plays in the
same order, the same deals from the same random draws, the same deal at the end of a play-out.

Positions come from random deals of every preset and both player counts: ``TAASH_CORE_DEALS`` deals per preset and
player count (default 800: 460,800 positions in all, under a minute on one core). Locally, for millions::

    TAASH_CORE_DEALS=1800 .venv/bin/python -m pytest -q -n 2 tests/seep/test_core.py

These tests skip (saying why) when the compiled core is not in use; the one about ``TAASH_PURE=1`` runs either way.
"""

from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

import taash
import taash.seep
import taash.seep.deal
import taash.seep.simulate
from taash.cards import mask_of
from taash.cli.seep_bench import pure_random_deals
from taash.seep import core
from taash.seep.core import CORE, compiled, core_rules, set_state, source_hash, state_of
from taash.seep.deal import Deal
from taash.seep.errors import IllegalPlayError
from taash.seep.match import Match
from taash.seep.notation import position_from_json
from taash.seep.plays import CAPTURE, legal_plays, pure_legal_plays
from taash.seep.rules import PRESETS
from taash.seep.simulate import random_matches

needs_compiled = pytest.mark.skipif(compiled is None, reason=f"the compiled core is not in use: {CORE}")
CASES = [(preset, players) for preset in PRESETS for players in (2, 4)]
DEALS = int(os.environ.get("TAASH_CORE_DEALS", "800"))


def final_state(deal: Deal) -> tuple[Any, ...]:
    """Everything a deal holds, the floor's facts and the house summary included."""
    return (deal.plays, deal.piles, deal.sweeps, deal.last_capturer, deal.loose, deal.floor[:3], deal.houses,
            deal.house_bits, deal.uncemented, deal.owned_by, deal.hands, deal.restricted, deal.to_move, deal.phase,
            deal.score())


def pure_play_out(deal: Deal, rng: random.Random) -> None:
    while not deal.over:
        legal = deal.pure_legal_plays()
        deal.play(legal[rng.randrange(len(legal))], check=False)


@needs_compiled
@pytest.mark.parametrize(("preset", "players"), CASES)
def test_compiled_legal_plays_are_the_pure_ones_in_the_same_order(preset: str, players: int) -> None:
    """Every position of random deals: the compiled lists equal the pure lists, order included; and a play-out in
    C from the first position of each deal ends where the pure engine's play of the same draws ends."""
    rules = PRESETS[preset]
    rng = random.Random(f"{preset}/{players}")
    positions = 0
    for i in range(DEALS):
        deal = Deal.shuffled(rules, players, i % players, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        if i % 8 == 0:
            seed = rng.randrange(1 << 30)
            by_c, by_python = deal.clone(), deal.clone()
            c_rng, python_rng = random.Random(seed), random.Random(seed)
            state, (out,) = compiled.play_out(by_c.core_state(), state_of(c_rng), 1, True, True)
            set_state(c_rng, state)
            by_c.take_play_out(out)
            pure_play_out(by_python, python_rng)
            assert final_state(by_c) == final_state(by_python), f"{preset}, {players} players, deal {i}"
            assert out[4] == (*by_python.score().card_points, *by_python.score().sweep_points,
                              *by_python.score().cards_taken)
            assert c_rng.getstate() == python_rng.getstate()
        while not deal.over:
            p = deal.to_move
            args = (deal.hands[p], p, players, deal.loose, deal.houses, 0 if deal.plays else deal.bid,
                    rules.max_houses, rules.break_with_loose, deal.restricted)
            want = pure_legal_plays(*args)
            assert compiled.legal_plays(*args) == want, f"{preset}, {players} players, deal {i}: {args}"
            # the deal's own paths: through the compiled core, and through the pure one with its floor facts
            assert deal.legal_plays() == deal.pure_legal_plays() == want
            positions += 1
            deal.play(want[rng.randrange(len(want))], check=False)
    assert positions == DEALS * 48


@needs_compiled
@pytest.mark.parametrize(("preset", "players"), CASES)
def test_compiled_random_deals_are_the_pure_ones(preset: str, players: int) -> None:
    """The bench's random deals played in C: the same plays made, the same scores and the same random state after
    as the pure loop drawing from the same generator."""
    rules = PRESETS[preset]
    c_rng, python_rng = random.Random(7), random.Random(7)
    plays, state, scores = compiled.random_deals(core_rules(rules), players, 60, state_of(c_rng), True)
    set_state(c_rng, state)
    want = []
    for i in range(60):
        deal = Deal.shuffled(rules, players, i % players, python_rng)
        bids = deal.legal_bids()
        deal.make_bid(bids[int(python_rng.random() * len(bids))])
        while not deal.over:
            legal = deal.pure_legal_plays()
            deal.play(legal[int(python_rng.random() * len(legal))], check=False)
        s = deal.score()
        want.append((*s.card_points, *s.sweep_points, *s.cards_taken))
    assert scores == want
    assert plays == 60 * 48
    assert c_rng.getstate() == python_rng.getstate()


@needs_compiled
def test_the_bench_plays_the_same_deals_on_both_cores() -> None:
    from taash.cli.seep_bench import random_deals

    rules = PRESETS["standard"]
    c_rng, python_rng = random.Random(3), random.Random(3)
    assert random_deals(40, c_rng, rules) == pure_random_deals(40, python_rng, rules) == 40 * 48
    assert c_rng.random() == python_rng.random()


@needs_compiled
def test_play_outs_from_one_position_each_start_there() -> None:
    """``count`` play-outs from one position: the k-th is the pure play-out from that position with the draws
    left by the ones before it."""
    rules = PRESETS["standard"]
    rng = random.Random(5)
    deal = Deal.shuffled(rules, 4, 0, rng)
    deal.make_bid(deal.legal_bids()[0])
    for _ in range(20):
        deal.play(deal.legal_plays()[0], check=False)
    c_rng, python_rng = random.Random(9), random.Random(9)
    state, outs = compiled.play_out(deal.core_state(), state_of(c_rng), 5, True, False)
    assert len(outs) == 5
    for out in outs:
        assert out[0] is None  # plays not kept
        copy = deal.clone()
        pure_play_out(copy, python_rng)
        s = copy.score()
        assert out[1] == tuple(copy.piles) and out[4] == (*s.card_points, *s.sweep_points, *s.cards_taken)
    set_state(c_rng, state)
    assert c_rng.getstate() == python_rng.getstate()


@needs_compiled
def test_every_conformance_position_has_the_same_plays_on_both_cores(conformance_dir: Path) -> None:
    """The conformance positions (test_conformance checks the core in use against the expected outcomes; here the
    pure core gives the very same lists)."""
    lines = (conformance_dir / "legal.jsonl").read_text().splitlines()
    assert lines
    for n, line in enumerate(lines, 1):
        pos = position_from_json(json.loads(line))
        args = (pos.hand, pos.seat, pos.players, pos.loose, pos.houses, pos.bid, pos.rules.max_houses,
                pos.rules.break_with_loose, pos.restricted)
        assert compiled.legal_plays(*args) == pure_legal_plays(*args), f"line {n}"
        assert pos.legal_plays() == pure_legal_plays(*args), f"line {n}"


@needs_compiled
def test_the_engine_uses_the_compiled_core_when_it_is_built() -> None:
    assert CORE == "compiled"
    assert legal_plays is compiled.legal_plays


@needs_compiled
def test_bad_input_to_the_compiled_core_raises_a_clear_error() -> None:
    with pytest.raises(TypeError, match="missing argument 'loose'"):
        compiled.legal_plays(1, 0, 4)
    with pytest.raises(ValueError, match="52 bits"):
        compiled.legal_plays(1 << 60, 0, 4, 0, {})
    with pytest.raises(ValueError, match="a bid is 9 to 13"):
        compiled.bid_plays(1, 2, 3, 0)
    with pytest.raises(ValueError, match="625 integers"):
        compiled.random_deals(core_rules(PRESETS["standard"]), 4, 1, (1, 2, 3))
    with pytest.raises(ValueError, match="2 or 4 players"):
        compiled.random_deals(core_rules(PRESETS["standard"]), 3, 1, state_of(random.Random(1)))


def test_taash_pure_forces_the_pure_core() -> None:
    """``TAASH_PURE=1``: the engine and the bench run on the pure core and say so (the compiled one built or not)."""
    env = {**os.environ, "TAASH_PURE": "1", "PYTHONPATH": str(Path(taash.__file__).resolve().parents[1])}
    code = ("from taash.seep import core, plays; from taash.cli.seep_bench import run_bench; "
            "print(core.CORE, core.compiled is None, plays.legal_plays is plays.pure_legal_plays, "
            "run_bench(repeats=1, deals=2, warmup=0).core)")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["pure", "(TAASH_PURE=1)", "True", "True", "pure", "(TAASH_PURE=1)"]


@needs_compiled
def test_the_compiled_core_is_built_from_the_source_beside_it() -> None:
    assert source_hash(Path(core.__file__).with_name("_core.c")) == compiled.SOURCE


def test_a_core_built_from_other_source_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """A core left over from an older _core.c (an install not redone after a pull) would answer for other rules
    than the pure engine's: the engine runs on its pure core and says why."""
    stale = types.ModuleType("taash.seep._core")
    stale.SOURCE = "0000000000000000"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "taash.seep._core", stale)
    monkeypatch.setattr(taash.seep, "_core", stale, raising=False)
    monkeypatch.delenv("TAASH_PURE", raising=False)
    found, name = core._load()
    assert found is None and name.startswith("pure (the compiled core was built from older source")


@needs_compiled
@pytest.mark.parametrize("players", [2, 4])
def test_simulated_matches_are_the_same_on_both_cores(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``taash seep simulate``'s random matches (each play-out wholly in C): the same records, results and final
    deals as with the pure core in its place."""

    def run() -> list[Any]:
        out = []
        for sim in random_matches(PRESETS["punjab_30_qasim"], players, 60, seed=4):
            m = sim.match
            out.append((sim.record().to_json(), m.results, m.baazis, final_state(m.deal), m.rng.getstate()))
        return out

    compiled_run = run()
    monkeypatch.setattr(taash.seep.deal, "compiled", None)
    monkeypatch.setattr(taash.seep.simulate, "compiled", None)
    assert run() == compiled_run


@needs_compiled
def test_a_match_scores_a_play_out_only_once_it_is_over() -> None:
    match = Match(PRESETS["standard"], 4, seed=1)
    match.make_bid(match.legal_bids()[0])
    with pytest.raises(IllegalPlayError, match="not over"):
        match.played_out()
    assert not match.results


@needs_compiled
def test_a_collection_while_the_plays_are_made_into_tuples_changes_no_answer() -> None:
    """Making the tuples may run the garbage collector, and whatever it runs (here a gc callback) may ask for
    legal plays again: the answer being made is not changed by that."""
    args = (mask_of([14, 27, 40, 2, 15, 28]), 0, 4, mask_of([0, 13, 1, 26]), {}, 0, 0, False, 0)
    other = (mask_of([12, 25]), 1, 4, mask_of([8]), {}, 0, 0, False, 0)
    want = pure_legal_plays(*args)
    assert len(want) == 21 and all(play[0] == CAPTURE for play in want)

    def ask(phase: str, info: dict[str, int]) -> None:
        compiled.legal_plays(*other)

    threshold = gc.get_threshold()
    gc.callbacks.append(ask)
    gc.set_threshold(1)  # a collection at nearly every new container
    try:
        kept = []  # kept alive, so that new tuples are new objects (not reused ones), which the collector counts
        for _ in range(100):
            kept.append(compiled.legal_plays(*args))
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.remove(ask)
    assert all(got == want for got in kept)


@needs_compiled
def test_the_compiled_core_hands_back_the_play_tuples_it_made_before() -> None:
    """A play's tuple is made once and handed back whenever the play is legal again (tuples are immutable), so
    that a list of plays costs little more than finding them; equal to the pure engine's all the same."""
    args = (mask_of([14, 27, 40, 2, 15, 28]), 0, 4, mask_of([0, 13, 1, 26]), {}, 0, 0, False, 0)
    first, again = compiled.legal_plays(*args), compiled.legal_plays(*args)
    assert first == again == pure_legal_plays(*args)
    assert first is not again and all(a is b for a, b in zip(first, again, strict=True))


@needs_compiled
def test_a_play_tuple_pushed_out_of_the_compiled_cores_table_lives_on_where_it_is_held() -> None:
    """The table of play tuples keeps at most 32,768: plays of positions enough to fill it many times over push
    out the first position's tuples, which live on unchanged in the list that holds them; asked again, the
    position's plays are new tuples, equal to the pure ones."""
    args = (mask_of([14, 27, 40, 2, 15, 28]), 0, 4, mask_of([0, 13, 1, 26]), {}, 0, 0, False, 0)
    want = pure_legal_plays(*args)
    held = compiled.legal_plays(*args)
    rules = PRESETS["standard"]
    rng = random.Random(7)
    distinct: set[tuple[int, ...]] = set()
    while len(distinct) < 200_000:
        deal = Deal.shuffled(rules, 4, 0, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            legal = deal.legal_plays()
            distinct.update(legal)
            deal.play(legal[rng.randrange(len(legal))], check=False)
    assert held == want
    again = compiled.legal_plays(*args)
    assert again == want and not all(a is b for a, b in zip(held, again, strict=True))


@needs_compiled
@pytest.mark.parametrize(("mask", "error", "message"), [
    (-1, ValueError, "52 bits"), (1 << 52, ValueError, "52 bits"), (1 << 200, ValueError, "52 bits"),
    ("1", TypeError, "integer"), (1.0, TypeError, "integer"),
])
def test_a_bad_card_mask_is_refused_in_one_line(mask: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        compiled.legal_plays(mask, 0, 4, 0, {})
    with pytest.raises(error, match=message):
        compiled.legal_plays(1, 0, 4, mask, {})
    with pytest.raises(error, match=message):
        compiled.plays_of(1, 0, 0, 0, 0, (0, 0, 0, 0), 0, False, mask)


class _Mask(int):
    """An int subclass: the compiled core reads plain ints directly and everything else through the C API."""


@needs_compiled
def test_arguments_read_directly_or_through_the_api_give_the_same_plays() -> None:
    """The compiled core reads a plain int of one or two digits, and True and False, directly (legal_plays' common
    case); any other int or flag (a subclass, a bool for an int, 1 for True) must give the very same plays, and a
    bad one the same one-line error."""
    rules = PRESETS["standard"]
    rng = random.Random(11)
    checked = 0
    for i in range(40):
        deal = Deal.shuffled(rules, 4, i % 4, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            p = deal.to_move
            bid = 0 if deal.plays else deal.bid
            plain = (deal.hands[p], p, 4, deal.loose, deal.houses, bid, 0, False, deal.restricted)
            houses = {_Mask(w): (_Mask(c), 1 if cemented else 0, _Mask(o))
                      for w, (c, cemented, o) in deal.houses.items()}
            other = (_Mask(deal.hands[p]), _Mask(p), 4, _Mask(deal.loose), houses, _Mask(bid), False, 0,
                     _Mask(deal.restricted))
            want = pure_legal_plays(*plain)
            assert compiled.legal_plays(*plain) == compiled.legal_plays(*other) == want
            if deal.plays:
                assert compiled.plays_of(deal.hands[p], _Mask(p), deal.loose, deal.house_bits, deal.uncemented,
                                         deal.owned_by, _Mask(0), 0, deal.restricted) == want
            checked += 1
            deal.play(want[rng.randrange(len(want))], check=False)
    assert checked == 40 * 48
    with pytest.raises(ValueError, match=r"seat 0\.\.3"):
        compiled.legal_plays(1, -1, 4, 0, {})
    with pytest.raises(ValueError, match=r"seat 0\.\.3"):
        compiled.legal_plays(1, 1 << 40, 4, 0, {})
    with pytest.raises(ValueError, match=r"house is value 9\.\.13"):
        compiled.legal_plays(1, 0, 4, 0, {-1: (0, True, 1)})
    with pytest.raises(TypeError, match="integer"):
        compiled.legal_plays(1, 0, 4, 0, {9: (0, True, "1")})
    with pytest.raises(ZeroDivisionError):
        compiled.legal_plays(1, 0, 4, 0, {}, 0, 0, _Falsy())


class _Falsy:
    """A flag whose truth cannot be told."""

    def __bool__(self) -> bool:
        raise ZeroDivisionError
