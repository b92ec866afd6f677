"""The engine's legal plays equal those of the brute-force reference (``reference.py``, written from the rules text).

Compared on the conformance positions, on thousands of positions from random games of every preset and both player
counts, and on small positions built by hypothesis. Plays are compared as plays (kind, card, house, broken house,
loose cards used) and as outcomes (loose cards after, houses after, cards captured). Plays the engine does not list
are refused by :meth:`Deal.play`, which then changes nothing.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taash.cards import card_name, cards_of, mask_of, parse_card
from taash.seep.core import compiled
from taash.seep.deal import Deal, Phase
from taash.seep.errors import BadPositionError, IllegalPlayError
from taash.seep.notation import Position, check_loose_could_arise, position_from_json
from taash.seep.plays import ADD, BREAK, CAPTURE, ESTABLISH, KIND_NAMES, THROW, Play, pure_legal_plays
from taash.seep.rules import PRESETS, Rules
from taash.seep.values import VALUE
from tests.examples import examples
from tests.seep.reference import RefOutcome, RefPlay, Spot, reference_plays

PRESET_NAMES = list(PRESETS)


# -- translating between the engine and the reference ---------------------------------------------------------


def spot_of(pos: Position) -> Spot:
    return Spot(
        hand=frozenset(cards_of(pos.hand)),
        seat=pos.seat,
        players=pos.players,
        loose=frozenset(cards_of(pos.loose)),
        houses={v: (frozenset(cards_of(cards)), cem, frozenset(s for s in range(4) if owners >> s & 1))
                for v, (cards, cem, owners) in pos.houses.items()},
        bid=pos.bid,
        max_houses=pos.rules.max_houses,
        break_with_loose=pos.rules.break_with_loose,
        restricted=frozenset(cards_of(pos.restricted)),
    )


def ref_play_of(play: Play) -> RefPlay:
    kind, c, house, broken, loose = play
    return (KIND_NAMES[kind], c, house, broken, frozenset(cards_of(loose)))


def outcome_from_json(o: dict[str, Any]) -> RefOutcome:
    def cards(names: list[str]) -> frozenset[int]:
        return frozenset(parse_card(n) for n in names)

    houses = frozenset((h["value"], cards(h["cards"]), h["cemented"], frozenset(h["owners"])) for h in o["houses"])
    return (parse_card(o["play"]["card"]), cards(o["loose"]), houses, cards(o["captured"]))


def engine_plays(pos: Position) -> dict[RefPlay, RefOutcome]:
    plays = pos.legal_plays()
    assert len(set(plays)) == len(plays), "a play is listed twice"
    if compiled is not None:  # the pure core's list too, so the rerun on it (TAASH_PURE=1) may try fewer examples
        assert pure_legal_plays(pos.hand, pos.seat, pos.players, pos.loose, pos.houses, bid=pos.bid,
                                max_houses=pos.rules.max_houses, break_with_loose=pos.rules.break_with_loose,
                                restricted=pos.restricted) == plays, "the pure core lists other plays"
    out = {}
    for p in plays:
        o = pos.outcome(p)
        assert o["kind"] == KIND_NAMES[p[0]]
        outcome = outcome_from_json(o)
        assert o["sweep"] == (bool(outcome[3]) and not outcome[1] and not outcome[2])
        out[ref_play_of(p)] = outcome
    assert len(set(out.values())) == len(out), "two plays with one outcome"
    return out


def describe(pos: Position) -> str:
    return json.dumps(pos.to_json())


def assert_same_as_reference(pos: Position) -> None:
    got = engine_plays(pos)
    want = reference_plays(spot_of(pos))
    if got != want:
        missing = sorted(map(str, set(want) - set(got)))
        extra = sorted(map(str, set(got) - set(want)))
        wrong = sorted(str(p) for p in set(got) & set(want) if got[p] != want[p])
        raise AssertionError(
            f"position {describe(pos)}\nmissing (reference only): {missing}\nextra (engine only): {extra}\n"
            f"different outcomes: {wrong}")
    assert got, "every position has a legal play"


# -- (a) the conformance positions ------------------------------------------------------------------------------


def test_reference_agrees_with_the_engine_on_every_conformance_position(conformance_dir: Path) -> None:
    lines = (conformance_dir / "legal.jsonl").read_text().splitlines()
    assert lines
    for line in lines:
        assert_same_as_reference(position_from_json(json.loads(line)))


def test_reference_agrees_with_the_conformance_data_itself(conformance_dir: Path) -> None:
    """The reference is checked too: it must reproduce the independent implementation's expected outcomes."""
    positions = (conformance_dir / "legal.jsonl").read_text().splitlines()
    expected = (conformance_dir / "legal.expected.jsonl").read_text().splitlines()
    for n, (line, want) in enumerate(zip(positions, expected, strict=True), 1):
        ref = set(reference_plays(spot_of(position_from_json(json.loads(line)))).values())
        assert ref == {outcome_from_json(o) for o in json.loads(want)}, f"line {n}"


# -- (b) positions of random games -------------------------------------------------------------------------------


def position_of(deal: Deal) -> Position:
    p = deal.to_move
    return Position(deal.rules, deal.players, p, deal.hands[p], deal.loose, dict(deal.houses),
                    0 if deal.plays else deal.bid, deal.restricted)


def builder_choice(rng: random.Random, legal: list[Play]) -> Play:
    """A random play that builds often, so that floors with several houses come up."""
    builds = [p for p in legal if p[0] in (ESTABLISH, ADD, BREAK)]
    if builds and rng.random() < 0.6:
        return rng.choice(builds)
    return rng.choice(legal)


def game_positions(rules: Rules, players: int, seed: int, deals: int):
    rng = random.Random(seed)
    for i in range(deals):
        deal = Deal.shuffled(rules, players, i % players, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            yield position_of(deal)
            deal.play(builder_choice(rng, deal.legal_plays()))


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_reference_agrees_with_the_engine_on_random_game_positions(preset: str, players: int) -> None:
    n = houses_seen = 0
    deals = examples(40)
    for pos in game_positions(PRESETS[preset], players, seed=1000 * players + PRESET_NAMES.index(preset), deals=deals):
        assert_same_as_reference(pos)
        n += 1
        houses_seen += len(pos.houses) >= 2
    assert n == deals * 48 and houses_seen > deals * 5 // 2


# -- (c) small positions built by hypothesis ---------------------------------------------------------------------


def could_arise(loose: list[int], rules: Rules) -> list[int]:
    """The loose cards in order, less each one that would make a floor that cannot arise in play (positions with
    such floors are refused: ``check_loose_could_arise``)."""
    kept: list[int] = []
    for c in loose:
        try:
            check_loose_could_arise(mask_of([*kept, c]), rules)
        except BadPositionError:
            continue
        kept.append(c)
    return kept


@st.composite
def json_positions(draw: st.DrawFn) -> dict[str, Any]:
    """A valid protocol position: houses that add up, owners one per team, I1, and I2 for the player to move."""
    preset = draw(st.sampled_from(PRESET_NAMES))
    rules = PRESETS[preset]
    players = draw(st.sampled_from([2, 4]))
    seat = draw(st.integers(0, players - 1))
    used: set[int] = set()

    def take(v: int) -> int | None:
        free = [c for c in range(52) if VALUE[c] == v and c not in used]
        if not free:
            return None
        c = free[draw(st.integers(0, len(free) - 1))]
        used.add(c)
        return c

    def take_values(values: list[int]) -> list[int] | None:
        before = set(used)
        got = [take(v) for v in values]
        if None in got:
            used.clear()
            used.update(before)
            return None
        return [c for c in got if c is not None]

    bid_play = draw(st.integers(0, 5)) == 0
    houses: list[dict[str, Any]] = []
    if not bid_play:
        limit = rules.max_houses or 4
        for v in sorted(draw(st.sets(st.integers(9, 13), max_size=limit))):
            shape = draw(st.sampled_from(["pair", "triple", "own-card", "two-pairs"]))
            a = draw(st.integers(1, v - 1))
            if shape == "pair":
                values, cemented = [a, v - a], False
            elif shape == "triple":
                if v - a < 2:
                    continue
                b = draw(st.integers(1, v - a - 1))
                values, cemented = [a, b, v - a - b], False
            elif shape == "own-card":
                values, cemented = [v, a, v - a], True
            else:
                b = draw(st.integers(1, v - 1))
                values, cemented = [a, v - a, b, v - b], True
            cards = take_values(values)
            if cards is None:
                continue
            if cemented:
                owners = sorted(draw(st.sets(st.integers(0, players - 1), min_size=1, max_size=2)))
                if len(owners) == 2 and owners[0] % 2 == owners[1] % 2:
                    owners = owners[:1]
            else:
                owners = [draw(st.integers(0, players - 1))]
            houses.append({"value": v, "cards": [card_name(c) for c in cards], "cemented": cemented,
                           "owners": owners})
    house_values = {h["value"] for h in houses}
    floor_values = [v for v in draw(st.lists(st.integers(1, 13), max_size=4 if bid_play else 8))
                    if v not in house_values]
    loose = could_arise([c for c in (take(v) for v in floor_values) if c is not None], rules)
    # Small cards break houses and build, big ones (often two of a value) keep houses: both come often.
    hand_values = draw(st.lists(st.one_of(st.integers(1, 13), st.integers(1, 4), st.integers(9, 13)),
                                min_size=1, max_size=8))
    if bid_play:
        hand_values = [*hand_values[:3], draw(st.integers(9, 13))]
    hand = []
    for name in rules.restricted_cards:  # Qasim: the player to move often holds a restricted card
        c = parse_card(name)
        if c not in used and VALUE[c] not in house_values and draw(st.booleans()):
            used.add(c)
            hand.append(c)
    hand += [c for c in (take(v) for v in hand_values) if c is not None]
    hand = hand[:12]
    for h in houses:  # I2 for the player to move
        if seat in h["owners"] and not any(VALUE[c] == h["value"] for c in hand):
            c = take(h["value"])
            if c is None:
                h["owners"].remove(seat)
                if not h["owners"]:
                    h["owners"] = [(seat + 1) % players]
            else:
                hand.append(c)
    if not hand:
        hand = [c for c in (take(v) for v in range(1, 14)) if c is not None][:1]
    out: dict[str, Any] = {
        "rules": preset, "players": players, "seat": seat, "hand": [card_name(c) for c in hand],
        "loose": [card_name(c) for c in loose], "houses": houses, "bid": None,
    }
    if bid_play:
        out["bid"] = draw(st.sampled_from(sorted({VALUE[c] for c in hand if VALUE[c] >= 9})))
    if rules.restricted_cards:
        placed = set(loose) | {parse_card(n) for h in houses for n in h["cards"]}
        out["restricted"] = [
            name for name in rules.restricted_cards
            if parse_card(name) not in placed and VALUE[parse_card(name)] not in house_values and draw(st.booleans())
        ]
    return out


@settings(max_examples=examples(3000), deadline=None)
@given(json_positions())
def test_reference_agrees_with_the_engine_on_generated_positions(data: dict[str, Any]) -> None:
    pos = position_from_json(data)
    assert_same_as_reference(pos)
    again = position_from_json(json.loads(json.dumps(pos.to_json())))
    assert sorted(again.legal_plays()) == sorted(pos.legal_plays()), "a position round-trips through JSON"


@st.composite
def breakable_positions(draw: st.DrawFn) -> dict[str, Any]:
    """Positions made for breaks: another seat's ordinary house, small loose cards, big cards in hand, and often
    a second house to merge into (rules 5.4, 5.5 item 3, 5.6 and, under ``break_with_loose``, 7.4)."""
    preset = draw(st.sampled_from(["break_with_loose", "break_with_loose", "standard", "limited_houses"]))
    players = draw(st.sampled_from([2, 4]))
    seat = draw(st.integers(0, players - 1))
    deck = draw(st.permutations(range(52)))
    pool = list(deck)

    def take(v: int) -> int | None:
        c = next((c for c in pool if VALUE[c] == v), None)
        if c is not None:
            pool.remove(c)
        return c

    h = draw(st.integers(9, 12))
    a = draw(st.integers(1, h - 1))
    others = [s for s in range(players) if s != seat]
    owner = draw(st.sampled_from(others))
    houses = [{"value": h, "cards": [take(a), take(h - a)], "cemented": False, "owners": [owner]}]
    n = draw(st.integers(h + 1, 13))
    if draw(st.booleans()):  # a house of the new value is already there: the break merges into it
        b = draw(st.integers(1, n - 1))
        cards = [take(b), take(n - b)]
        cemented = draw(st.booleans())
        if cemented:
            cards.append(take(n))
        owners = [draw(st.integers(0, players - 1))]
        if cemented and players == 4 and draw(st.booleans()):
            owners.append((owners[0] + 1) % 4)
        houses.append({"value": n, "cards": cards, "cemented": cemented, "owners": sorted(owners)})
    house_values = {x["value"] for x in houses}
    loose_values = [n - h, *draw(st.lists(st.integers(1, 8), max_size=4))]
    loose = could_arise([c for c in (take(v) for v in loose_values if v not in house_values) if c is not None],
                        PRESETS[preset])
    hand_values = [n] * draw(st.integers(0, 2)) + [n - h] * draw(st.integers(0, 1)) + draw(
        st.lists(st.integers(1, 13), min_size=1, max_size=4))
    hand = [c for c in (take(v) for v in hand_values) if c is not None] or [pool.pop()]
    for x in houses:  # I2 for the player to move
        if seat in x["owners"] and not any(VALUE[c] == x["value"] for c in hand):
            c = take(x["value"])
            if c is None:
                x["owners"] = [s for s in x["owners"] if s != seat] or [others[0]]
            else:
                hand.append(c)
    for x in houses:
        x["cards"] = [card_name(c) for c in x["cards"] if c is not None]
    houses = [x for x in houses if len(x["cards"]) >= 2 and (x["cemented"] or
              sum(VALUE[parse_card(c)] for c in x["cards"]) == x["value"])]
    if any(x["cemented"] and len(x["cards"]) < 3 for x in houses):
        houses = houses[:1]
    return {"rules": preset, "players": players, "seat": seat, "hand": [card_name(c) for c in hand],
            "loose": [card_name(c) for c in loose], "houses": houses}


@settings(max_examples=examples(1200), deadline=None)
@given(breakable_positions())
def test_reference_agrees_with_the_engine_on_positions_made_for_breaks(data: dict[str, Any]) -> None:
    assert_same_as_reference(position_from_json(data))


# -- plays that are not listed are refused ------------------------------------------------------------------------


def snapshot(deal: Deal) -> tuple[Any, ...]:
    return (tuple(deal.hands), deal.loose, tuple(sorted(deal.houses.items())), tuple(deal.piles), tuple(deal.plays),
            tuple(deal.sweeps), deal.to_move, deal.phase, deal.bid, deal.last_capturer, deal.restricted)


def candidates(deal: Deal, rng: random.Random, legal: list[Play]) -> list[Play]:
    """Plays a careless player might try: random ones, and near misses of the legal ones."""
    hand = cards_of(deal.hands[deal.to_move])
    loose = cards_of(deal.loose)
    out: list[Play] = []
    for _ in range(12):
        c = rng.choice(hand) if rng.random() < 0.9 else rng.randrange(52)
        m = mask_of(x for x in loose if rng.random() < 0.5)
        if rng.random() < 0.1:
            m |= 1 << rng.randrange(52)
        kind = rng.choice([CAPTURE, THROW, ESTABLISH, ADD, BREAK])
        house = rng.choice([0, 9, 10, 11, 12, 13, *deal.houses])
        broken = rng.choice([0, *deal.houses]) if kind == BREAK else 0
        out.append((kind, c, house, broken, m))
    for p in rng.sample(legal, min(4, len(legal))):
        kind, c, house, broken, m = p
        out.append((kind, c, house, broken, m ^ (1 << rng.randrange(52))))
        out.append(((kind + rng.randrange(1, 5)) % 5, c, house, broken, m))
        out.append((kind, c, rng.choice([h for h in range(9, 14) if h != house]), broken, m))
        out.append((kind, rng.choice([x for x in range(52) if x != c]), house, broken, m))
    return out


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("preset", ["standard", "limited_houses", "break_with_loose", "punjab_30_qasim"])
def test_plays_not_listed_are_refused_and_change_nothing(preset: str, players: int) -> None:
    rng = random.Random(players * 7 + len(preset))
    refused = 0
    for i in range(4):
        deal = Deal.shuffled(PRESETS[preset], players, i % players, rng)
        with pytest.raises(IllegalPlayError):
            deal.play((THROW, cards_of(deal.hands[deal.to_move])[0], 0, 0, 0))  # before the bid
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            legal = deal.legal_plays()
            want = set(reference_plays(spot_of(position_of(deal))))
            listed = set(legal)
            for bad in candidates(deal, rng, legal):
                assert (bad in listed) == (ref_play_of(bad) in want), bad
                if bad in listed:
                    continue
                before = snapshot(deal)
                with pytest.raises(IllegalPlayError):
                    deal.play(bad)
                assert snapshot(deal) == before, f"a refused play changed the deal: {bad}"
                refused += 1
            deal.play(builder_choice(rng, legal))
        with pytest.raises(IllegalPlayError):
            deal.play(legal[0])  # the deal is over
        assert deal.phase is Phase.OVER
    assert refused > 1000

