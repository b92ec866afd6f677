"""What a seat knows of the hidden hands (ismcts.hand_requirements and its facts), and deals that fit it."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from taash.bots.seep.inference import (
    _replayed,
    bid_facts,
    hand_requirements,
    owner_facts,
    proven_voids,
    restricted_facts,
)
from taash.bots.seep.ismcts import deal_hidden, determinise
from taash.cards import FULL_PACK, cards_of, mask_of, parse_card
from taash.seep.deal import Deal
from taash.seep.plays import ADD, BREAK, ESTABLISH, THROW, apply_play, legal_plays
from taash.seep.rules import PRESETS
from taash.seep.values import VALUE, VALUE_MASK
from taash.seep.view import PlayerView, view_of

CASES = [(4, "standard"), (2, "standard"), (4, "punjab_30_qasim"), (2, "punjab_30_qasim"), (4, "limited_houses"),
         (4, "break_with_loose")]


def builder_first(deal: Deal, rng: random.Random) -> None:
    """A play that makes houses often (so that the facts about owners get exercised), else a random one."""
    legal = deal.legal_plays()
    builds = [p for p in legal if p[0] in (ESTABLISH, ADD, BREAK)]
    deal.play(rng.choice(builds if builds and rng.random() < 0.6 else legal))


def positions(players: int, preset: str, deals: int, seed: int) -> Iterator[Deal]:
    """Every position of some deals played by a builder-loving random policy."""
    rng = random.Random(seed)
    for d in range(deals):
        deal = Deal.shuffled(PRESETS[preset], players, d % players, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            yield deal
            builder_first(deal, rng)


@pytest.mark.parametrize(("players", "preset"), CASES)
def test_every_requirement_holds_in_the_real_deal(players: int, preset: str) -> None:
    checked = 0
    for deal in positions(players, preset, 12, players * 31 + len(preset)):
        for seat in range(players):
            view = view_of(deal, seat)
            requirements = hand_requirements(view)
            for s, cards in requirements:
                assert s != seat and cards and not cards & ~view.unseen()
                assert deal.hands[s] & cards, f"seat {s} was required to hold one of {cards_of(cards)}"
                checked += 1
            for s, void in enumerate(proven_voids(view, requirements)):
                assert not deal.hands[s] & void
    assert checked > 100


@pytest.mark.parametrize(("players", "preset"), CASES)
def test_determinisations_make_every_past_play_legal(players: int, preset: str) -> None:
    """The requirements are complete: in a determinised deal every play of the history was legal (after the bid
    play, whose hand of four cards the deck does not keep), and every owner held a card of his house."""
    rng = random.Random(players * 7 + len(preset))
    rules = PRESETS[preset]
    checked = 0
    for deal in positions(players, preset, 6, players * 13 + len(preset)):
        view = view_of(deal, deal.to_move)
        world = determinise(view, rng)
        first = 24 if players == 2 and view.plays_made >= 24 else 1
        for index, seat, play, before, _, restricted in _replayed(view):
            if index < first or seat == view.seat:
                continue
            later = mask_of(p[1] for i, (s, p) in enumerate(view.history) if s == seat and i >= index)
            hand = world.hands[seat] | later
            loose = _loose_before(view, index)
            assert play in legal_plays(hand, seat, players, loose, before, 0, rules.max_houses,
                                       rules.break_with_loose, restricted), f"play {index} by seat {seat}"
            checked += 1
    assert checked > 100


def _loose_before(view: PlayerView, index: int) -> int:
    loose = view.initial_floor
    houses: dict[int, tuple[int, bool, int]] = {}
    for seat, play in view.history[:index]:
        loose, _ = apply_play(play, seat, view.players, loose, houses)
    return loose


def test_restricted_cards_are_released_as_the_engine_releases_them() -> None:
    for deal in positions(4, "punjab_30_qasim", 6, 5):
        view = view_of(deal, deal.to_move)
        restricted = mask_of(parse_card(c) for c in view.rules.restricted_cards)
        for _, _, play, _, _, before in _replayed(view):
            restricted = before
            if play[0] == THROW:
                restricted &= ~(1 << play[1])
            elif play[0] in (ESTABLISH, BREAK):
                restricted &= ~VALUE_MASK[play[2]]
        assert restricted == deal.restricted


def _first(players: int, preset: str, seed: int, found: Callable[[Deal, PlayerView], bool]) -> tuple[Deal, PlayerView]:
    for deal in positions(players, preset, 200, seed):
        for seat in range(players):
            view = view_of(deal, seat)
            if found(deal, view):
                return deal, view
    raise AssertionError("no such position in 200 deals")


def test_bidder_still_holds_the_bid_value_until_he_plays_one() -> None:
    def found(deal: Deal, view: PlayerView) -> bool:
        bidder = deal.bidder
        return (view.seat != bidder and view.plays_made > 4
                and not any(s == bidder and VALUE[p[1]] == deal.bid for s, p in view.history))

    deal, view = _first(4, "standard", 1, found)
    assert bid_facts(view) == [(deal.bidder, VALUE_MASK[deal.bid], -1)]
    # The requirement, or a narrower one of the same seat that implies it.
    assert any(s == deal.bidder and not c & ~VALUE_MASK[deal.bid] for s, c in hand_requirements(view))
    assert deal.hands[deal.bidder] & VALUE_MASK[deal.bid]


def test_owner_keeps_a_card_of_his_house_after_losing_it() -> None:
    """An owner whose house was taken, and who has played no card of its value since, still holds one."""

    def found(deal: Deal, view: PlayerView) -> bool:
        houses = {v for v, (_, _, owners) in view.houses.items()}
        for index, seat, _, _, after, _ in _replayed(view):
            for v, (_, _, owners) in after.items():
                if (seat != view.seat and owners >> seat & 1 and v not in houses and
                        not any(s == seat and i > index and VALUE[p[1]] == v for i, (s, p) in enumerate(view.history))
                        and VALUE_MASK[v] & view.unseen()):
                    return True
        return False

    deal, view = _first(4, "standard", 2, found)
    facts = owner_facts(view)
    gone = [(s, c) for s, c, _ in facts if not any(VALUE_MASK[v] == c for v in view.houses)]
    assert gone
    requirements = hand_requirements(view)
    assert any(s == gs and not c & ~gc for s, c in requirements for gs, gc in gone)
    for s, c in requirements:
        assert deal.hands[s] & c


def test_first_house_of_a_restricted_value_pins_the_card_to_its_builder() -> None:
    def found(deal: Deal, view: PlayerView) -> bool:
        return bool(restricted_facts(view)) and view.seat != restricted_facts(view)[0][0]

    deal, view = _first(4, "punjab_30_qasim", 3, found)
    seat, card, _ = restricted_facts(view)[0]
    assert card.bit_count() == 1
    if card & view.unseen():
        assert (seat, card) in hand_requirements(view)
        assert deal.hands[seat] & card
        voids = proven_voids(view)
        assert all(voids[s] & card for s in range(4) if s not in (seat, view.seat))


def test_legality_only_grows_with_the_hand() -> None:
    """Why no play proves a void: any play legal with a hand stays legal with more cards in it."""
    rng = random.Random(11)
    for preset in ("standard", "punjab_30_qasim", "limited_houses", "break_with_loose"):
        rules = PRESETS[preset]
        for deal in positions(4, preset, 4, 17):
            seat = deal.to_move
            hand = deal.hands[seat]
            free = [c for c in cards_of(FULL_PACK & ~hand & ~deal.loose) if not any(
                h[0] >> c & 1 for h in deal.houses.values())]
            extra = mask_of(rng.sample(free, min(len(free), rng.randrange(1, 4))))
            bid = 0 if deal.plays else deal.bid
            small = set(legal_plays(hand, seat, 4, deal.loose, deal.houses, bid, rules.max_houses,
                                    rules.break_with_loose, deal.restricted))
            big = set(legal_plays(hand | extra, seat, 4, deal.loose, deal.houses, bid, rules.max_houses,
                                  rules.break_with_loose, deal.restricted))
            assert small <= big


def test_contradictory_requirements_never_hang() -> None:
    deal = Deal.shuffled(PRESETS["standard"], 4, 0, random.Random(4))
    deal.make_bid(deal.legal_bids()[0])
    deal.play(deal.legal_plays()[0])
    view = view_of(deal, deal.to_move)
    unseen = view.unseen()
    other = (view.seat + 1) % 4
    # Twelve requirements of one card each for a seat, plus one it cannot meet with the cards left.
    pinned = cards_of(unseen)[:view.hand_sizes[other] + 1]
    impossible = [(other, 1 << c) for c in pinned]
    hands, rest = deal_hidden(view, random.Random(1), impossible)
    assert [h.bit_count() for h in hands] == list(view.hand_sizes)
    assert (hands[other] & mask_of(pinned)).bit_count() == view.hand_sizes[other]
    placed = 0
    for h in hands:
        assert not placed & h
        placed |= h
    assert placed | mask_of(rest) == unseen | view.hand


def test_requirements_are_met_even_when_rare() -> None:
    """A requirement random deals seldom meet (a seat must hold one exact card) is met by the search fallback."""
    deal = Deal.shuffled(PRESETS["standard"], 4, 0, random.Random(9))
    deal.make_bid(deal.legal_bids()[0])
    deal.play(deal.legal_plays()[0])
    view = view_of(deal, deal.to_move)
    cards = cards_of(view.unseen())
    seats = [s for s in range(4) if s != view.seat]
    required = [(seats[k % 3], 1 << c) for k, c in enumerate(cards[:9])]
    for seed in range(20):
        hands, _ = deal_hidden(view, random.Random(seed), required)
        assert all(hands[s] & c for s, c in required)
