"""Invariants over random matches of both player counts and every preset."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taash.cards import FULL_PACK, VALUE_MASK, card_name, mask_of, parse_card
from taash.seep.deal import Deal, Phase
from taash.seep.errors import IllegalPlayError, RecordError
from taash.seep.match import Match
from taash.seep.plays import BREAK, CAPTURE, ESTABLISH, THROW
from taash.seep.record import record_from_json, replay
from taash.seep.rules import PRESETS
from taash.seep.simulate import random_matches
from taash.seep.view import view_of

PRESET_NAMES = list(PRESETS)


def play_out(deal: Deal, rng: random.Random, check_every_play: bool = True) -> None:
    if deal.phase is Phase.BID:
        deal.make_bid(rng.choice(deal.legal_bids()))
    while not deal.over:
        legal = deal.legal_plays()
        assert legal, "a player with cards always has a legal play"
        deal.play(rng.choice(legal), check=check_every_play)
        deal.check_invariants()
        if deal.players == 2 and len(deal.plays) == 24:
            assert not deal.houses, "every house is taken by the end of the first half"


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 4]), preset=st.sampled_from(PRESET_NAMES))
def test_random_deals_keep_every_card_and_the_invariants(seed: int, players: int, preset: str) -> None:
    rules = PRESETS[preset]
    deal = Deal.shuffled(rules, players, seed % players, random.Random(seed))
    play_out(deal, random.Random(seed + 1))
    assert (not deal.houses and not deal.loose) or deal.last_capturer < 0
    assert deal.piles[0] | deal.piles[1] | deal.loose == FULL_PACK
    score = deal.score()
    total = rules.total_card_points
    if max(score.cards_taken) <= 26:  # the majority points go to nobody on 26-26
        total -= rules.majority_points
    points = sum(score.card_points)
    if rules.satthi_points and rules.satthi_points in score.card_points:
        assert sorted(score.card_points) == [0, rules.satthi_points]
    elif deal.last_capturer >= 0:
        assert points == total
    else:
        assert points <= total
    assert sum(score.cards_taken) == (52 if deal.last_capturer >= 0 else 52 - deal.loose.bit_count())


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 4]), preset=st.sampled_from(PRESET_NAMES))
def test_records_round_trip_through_json_and_replay(seed: int, players: int, preset: str) -> None:
    (sim,) = list(random_matches(PRESETS[preset], players, deals=3, seed=seed, baazis_to_win=1, matches=1))
    text = json.dumps(sim.record().to_json())
    results = replay(record_from_json(json.loads(text)))
    assert results == sim.match.results


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 4]))
def test_the_same_seed_gives_the_same_match(seed: int, players: int) -> None:
    a = list(random_matches(PRESETS["standard"], players, deals=2, seed=seed))
    b = list(random_matches(PRESETS["standard"], players, deals=2, seed=seed))
    assert [s.record().to_json() for s in a] == [s.record().to_json() for s in b]
    assert Match(PRESETS["standard"], players, seed).deal.deck == Match(PRESETS["standard"], players, seed).deal.deck


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 4]), preset=st.sampled_from(PRESET_NAMES))
def test_plays_not_listed_are_refused_and_change_nothing(seed: int, players: int, preset: str) -> None:
    rng = random.Random(seed)
    deal = Deal.shuffled(PRESETS[preset], players, 0, rng)
    deal.make_bid(rng.choice(deal.legal_bids()))
    for _ in range(rng.randrange(1, 40)):
        legal = set(deal.legal_plays())
        hand = deal.hands[deal.to_move]
        candidates = []
        for c in range(52):
            if hand >> c & 1:
                candidates += [(THROW, c, 0, 0, 0), (CAPTURE, c, 0, 0, deal.loose)]
                for v in range(9, 14):
                    candidates.append((ESTABLISH, c, v, 0, deal.loose & rng.getrandbits(52)))
                    for h in deal.houses:
                        candidates.append((BREAK, c, v, h, 0))
        candidates.append((THROW, next(c for c in range(52) if not hand >> c & 1), 0, 0, 0))
        for bad in candidates:
            if bad in legal:
                continue
            before = deal.clone()
            with pytest.raises(IllegalPlayError):
                deal.play(bad)
            assert (deal.hands, deal.loose, deal.houses, deal.plays, deal.piles) == \
                (before.hands, before.loose, before.houses, before.plays, before.piles)
        deal.play(rng.choice(sorted(legal)))
        if deal.over:
            break


def test_clone_is_independent() -> None:
    rng = random.Random(4)
    deal = Deal.shuffled(PRESETS["standard"], 4, 0, rng)
    deal.make_bid(deal.legal_bids()[0])
    copy = deal.clone()
    play_out(deal, rng)
    assert copy.plays == [] and copy.phase is Phase.PLAY
    play_out(copy, random.Random(9))
    assert copy.over


def test_a_deck_that_needs_a_redeal_is_refused() -> None:
    low = [c for c in range(52) if c % 13 + 1 <= 8][:4]
    deck = low + [c for c in range(52) if c not in low]
    with pytest.raises(RecordError, match="redone"):
        Deal(PRESETS["standard"], 4, 0, deck)
    deck = [parse_card("Ks")] + [c for c in range(52) if c != parse_card("Ks")]
    td = parse_card("Td")
    deck.remove(td)
    deck.insert(5, td)
    Deal(PRESETS["standard"], 4, 0, deck)
    with pytest.raises(RecordError, match="Td"):
        Deal(PRESETS["punjab_30"], 4, 0, deck)
    with pytest.raises(RecordError):
        Deal(PRESETS["standard"], 4, 0, deck[:51])


def test_shuffled_deals_never_need_a_redeal() -> None:
    rng = random.Random(1)
    for _ in range(200):
        deal = Deal.shuffled(PRESETS["punjab_30"], 4, 0, rng)
        assert deal.legal_bids()
        assert not {card_name(c) for c in deal.deck[4:8]} & {"Td", "9s"}


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 4]))
def test_a_view_holds_only_what_the_seat_may_see(seed: int, players: int) -> None:
    rng = random.Random(seed)
    deal = Deal.shuffled(PRESETS["standard"], players, 0, rng)
    for seat in range(players):
        view = view_of(deal, seat)
        assert view.loose == 0, "the floor is face down during the bid"
        assert view.hand == deal.hands[seat]
    deal.make_bid(rng.choice(deal.legal_bids()))
    while not deal.over:
        for seat in range(players):
            view = view_of(deal, seat)
            others = 0
            for s in range(players):
                if s != seat:
                    others |= deal.hands[s]
            visible = view.hand | view.loose
            for cards, _, _ in view.houses.values():
                visible |= cards
            assert not visible & others
            assert not view.hand & ~deal.hands[seat]
            assert view.hand_sizes == tuple(h.bit_count() for h in deal.hands)
            if seat == deal.to_move:
                assert sorted(view.legal_plays()) == sorted(deal.legal_plays())
            else:
                assert view.legal_plays() == []
        deal.play(rng.choice(deal.legal_plays()))


def test_card_masks_by_value() -> None:
    assert mask_of(parse_card(n) for n in ("9s", "9h", "9d", "9c")) == VALUE_MASK[9]


def test_unseen_cards_are_exactly_the_other_hands_and_the_undealt() -> None:
    rng = random.Random(8)
    for players in (2, 4):
        deal = Deal.shuffled(PRESETS["standard"], players, 1, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            for seat in range(players):
                hidden = 0
                for s in range(players):
                    if s != seat:
                        hidden |= deal.hands[s]
                dealt = 0
                for h in deal.hands:
                    dealt |= h
                undealt = FULL_PACK & ~dealt & ~deal.loose & ~deal.piles[0] & ~deal.piles[1]
                for cards, _, _ in deal.houses.values():
                    undealt &= ~cards
                assert view_of(deal, seat).unseen() == hidden | undealt
            deal.play(rng.choice(deal.legal_plays()))
