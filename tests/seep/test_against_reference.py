"""The engine's legal plays equal a brute-force enumeration written from the rules text, on many positions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taash.cards import cards_of
from taash.seep.deal import Deal
from taash.seep.notation import Position
from taash.seep.plays import House, legal_plays
from taash.seep.rules import PRESETS
from tests.seep.reference import Outcome, reference_outcomes


def engine_outcomes(hand: int, seat: int, players: int, loose: int, houses: dict[int, House], bid: int,
                    preset: str) -> set[Outcome]:
    rules = PRESETS[preset]
    pos = Position(rules, players, seat, hand, loose, dict(houses), bid)
    out = set()
    plays = legal_plays(hand, seat, players, loose, houses, bid, rules.max_houses, rules.break_with_loose)
    assert len(set(plays)) == len(plays), "a play listed twice"
    for p in plays:
        o = pos.outcome(p)
        from taash.cards import parse_card
        hs = frozenset((h["value"], frozenset(parse_card(x) for x in h["cards"]), h["cemented"],
                        frozenset(h["owners"])) for h in o["houses"])
        out.add((p[1], frozenset(parse_card(x) for x in o["loose"]), hs,
                 frozenset(parse_card(x) for x in o["captured"])))
    assert len(out) == len(plays), "two plays with one outcome"
    return out


def reference(hand: int, seat: int, players: int, loose: int, houses: dict[int, House], bid: int,
              preset: str) -> set[Outcome]:
    rules = PRESETS[preset]
    ref_houses = {v: (frozenset(cards_of(c)), cem, frozenset(s for s in range(4) if o >> s & 1))
                  for v, (c, cem, o) in houses.items()}
    return reference_outcomes(frozenset(cards_of(hand)), seat, players, frozenset(cards_of(loose)), ref_houses,
                              bid, rules.max_houses, rules.break_with_loose)


def game_positions(preset: str, players: int, seed: int, deals: int, max_loose: int = 6):
    rng = random.Random(seed)
    rules = PRESETS[preset]
    for i in range(deals):
        deal = Deal.shuffled(rules, players, i % players, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            p = deal.to_move
            if deal.loose.bit_count() <= max_loose:
                yield deal.hands[p], p, players, deal.loose, dict(deal.houses), (0 if deal.plays else deal.bid)
            deal.play(rng.choice(deal.legal_plays()), check=False)


@pytest.mark.parametrize(("preset", "players"), [
    ("standard", 4), ("standard", 2), ("limited_houses", 4), ("break_with_loose", 4), ("break_with_loose", 2),
    ("karan", 4),
])
def test_engine_matches_brute_force_on_game_positions(preset: str, players: int) -> None:
    n = 0
    for hand, seat, np_, loose, houses, bid in game_positions(preset, players, seed=hash(preset) % 1000 + players,
                                                                 deals=25):
        assert engine_outcomes(hand, seat, np_, loose, houses, bid, preset) == \
            reference(hand, seat, np_, loose, houses, bid, preset), (hand, seat, loose, houses, bid)
        n += 1
    assert n > 100


# Small positions built by hypothesis: a few loose cards, houses that are valid, any hand.
@st.composite
def small_positions(draw):
    players = draw(st.sampled_from([2, 4]))
    seat = draw(st.integers(0, players - 1))
    deck = draw(st.permutations(range(52)))
    houses: dict[int, House] = {}
    for v in draw(st.sets(st.sampled_from(range(9, 14)), max_size=3)):
        # an ordinary house: two cards adding to v, or a cemented one: a card of v plus such a pair
        pair = None
        for a in range(len(deck)):
            for b in range(a + 1, len(deck)):
                if deck[a] % 13 + deck[b] % 13 + 2 == v and deck[a] % 13 + 1 != v:
                    pair = (deck[a], deck[b])
                    break
            if pair:
                break
        if not pair:
            continue
        cards = (1 << pair[0]) | (1 << pair[1])
        cemented = draw(st.booleans())
        if cemented:
            extra = next((c for c in deck if c % 13 + 1 == v and c not in pair), None)
            if extra is None:
                continue
            cards |= 1 << extra
        owner_seats = draw(st.sets(st.integers(0, players - 1), min_size=1, max_size=2))
        owners = 0
        teams = set()
        for s in sorted(owner_seats):
            if s % 2 in teams or (not cemented and owners):
                continue
            teams.add(s % 2)
            owners |= 1 << s
        houses[v] = (cards, cemented, owners)
        deck = [c for c in deck if not cards >> c & 1]
    used = 0
    for h in houses.values():
        used |= h[0]
    rest = [c for c in deck if not used >> c & 1 and c % 13 + 1 not in houses]
    n_loose = draw(st.integers(0, 5))
    loose = 0
    for c in rest[:n_loose]:
        loose |= 1 << c
    pool = [c for c in deck if not (used | loose) >> c & 1]
    n_hand = draw(st.integers(1, 5))
    hand = 0
    for c in pool[:n_hand]:
        hand |= 1 << c
    # I2 for the seat to move: give it a card of each house it owns
    for v, (_, _, owners) in houses.items():
        if owners >> seat & 1 and not any(c % 13 + 1 == v for c in cards_of(hand)):
            extra = next((c for c in pool if c % 13 + 1 == v and not hand >> c & 1), None)
            if extra is None:
                houses[v] = (houses[v][0], houses[v][1], owners & ~(1 << seat) or (1 << ((seat + 1) % players)))
            else:
                hand |= 1 << extra
    preset = draw(st.sampled_from(["standard", "limited_houses", "break_with_loose"]))
    return hand, seat, players, loose, houses, preset


@settings(max_examples=1000, deadline=None)
@given(small_positions())
def test_engine_matches_brute_force_on_generated_positions(case) -> None:
    hand, seat, players, loose, houses, preset = case
    if PRESETS[preset].max_houses and len(houses) > PRESETS[preset].max_houses:
        return
    assert engine_outcomes(hand, seat, players, loose, houses, 0, preset) == \
        reference(hand, seat, players, loose, houses, 0, preset)
