"""No bot reads hidden cards: other hidden hands that fit the same public information never change a decision."""

from __future__ import annotations

import random

import pytest

from taash.bots import make_bot
from taash.cards import cards_of, mask_of
from taash.games.registry import levels
from taash.seep.deal import Deal
from taash.seep.errors import RecordError
from taash.seep.rules import PRESETS
from taash.seep.view import view_of


def reshuffle_hidden(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """A copy of ``deal`` where the cards ``seat`` cannot see are dealt again among the same places."""
    other = deal.clone()
    hidden_seats = [s for s in range(deal.players) if s != seat]
    pool = [c for s in hidden_seats for c in cards_of(deal.hands[s])]
    rng.shuffle(pool)
    for s in hidden_seats:
        n = deal.hands[s].bit_count()
        other.hands[s] = mask_of(pool[:n])
        pool = pool[n:]
    return other


def redealt_for_the_bidder(deal: Deal, rng: random.Random) -> Deal:
    """Another deal whose bidder sees, at the bid, exactly what he sees in ``deal``: every card he cannot see
    (the rest of his hand, the others', the floor where it is still face down, the stock) dealt again."""
    bidder = deal.to_move
    for shown in (4, 8):  # his four cards; and the floor, if the view shows it before the bid
        for _ in range(50):
            rest = deal.deck[shown:]
            rng.shuffle(rest)
            try:
                other = Deal(deal.rules, deal.players, deal.dealer, deal.deck[:shown] + rest)
            except RecordError:  # a pack that would be dealt again
                continue
            if view_of(other, bidder) == view_of(deal, bidder) and other.deck != deal.deck:
                return other
    raise AssertionError("no other deal looks the same to the bidder")


#: The bots the levels seat that decide without searching (the search, ``ismcts``, has its own tests below).
PLAIN_BOTS = ["random", "greedy", "heuristic", "learned"]


def test_every_seep_level_seats_a_bot_these_tests_check() -> None:
    """A level added to Seep's plugin must seat a bot checked here: none reaches a player unchecked."""
    assert set(levels("seep").values()) <= {*PLAIN_BOTS, "ismcts"}


@pytest.mark.parametrize("bot_name", [*PLAIN_BOTS, "ismcts:iterations=6,candidates=3"])
@pytest.mark.parametrize(("players", "preset"), [(4, "standard"), (2, "standard"), (4, "punjab_30")])
def test_hidden_cards_never_change_a_bid(bot_name: str, players: int, preset: str) -> None:
    rng = random.Random(hash(("bid", bot_name, players, preset)) % 10_000)
    for d in range(12):
        deal = Deal.shuffled(PRESETS[preset], players, d % players, rng)
        other = redealt_for_the_bidder(deal, rng)
        bidder = deal.to_move
        first = make_bot(bot_name, 99).choose_bid(view_of(deal, bidder))
        second = make_bot(bot_name, 99).choose_bid(view_of(other, bidder))
        assert first == second


@pytest.mark.parametrize("bot_name", PLAIN_BOTS)
@pytest.mark.parametrize(("players", "preset"), [(4, "standard"), (2, "standard"), (4, "punjab_30"),
                                                 (4, "limited_houses"), (2, "break_with_loose")])
def test_hidden_cards_never_change_a_decision(bot_name: str, players: int, preset: str) -> None:
    rng = random.Random(hash((bot_name, players, preset)) % 10_000)
    checked = 0
    for d in range(8):
        deal = Deal.shuffled(PRESETS[preset], players, d % players, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            seat = deal.to_move
            other = reshuffle_hidden(deal, seat, rng)
            assert view_of(other, seat) == view_of(deal, seat)
            first = make_bot(bot_name, 99).choose_play(view_of(deal, seat))
            second = make_bot(bot_name, 99).choose_play(view_of(other, seat))
            assert first == second
            checked += 1
            deal.play(rng.choice(deal.legal_plays()))
    assert checked > 100


SEARCH_SPECS = ["ismcts:iterations=6,candidates=3", "ismcts:iterations=6,candidates=3,guesses=2",
                "ismcts:iterations=6,candidates=3,guesses=2,temperature=6",
                "ismcts:iterations=4,candidates=2,guesses=1,rollout=heuristic",
                "ismcts:iterations=6,candidates=3,rollout=counted", "ismcts:iterations=6,candidates=3,rollout=lite",
                "ismcts:iterations=6,candidates=3,rollout=sharp", "ismcts:iterations=6,candidates=3,rollout=model",
                "ismcts:iterations=4,candidates=2,guesses=1,opponent=lite"]


@pytest.mark.parametrize("spec", SEARCH_SPECS)
@pytest.mark.parametrize(("players", "preset"), [(4, "standard"), (2, "standard"), (4, "punjab_30_qasim")])
def test_hidden_cards_never_change_a_search(spec: str, players: int, preset: str) -> None:
    """The search bot with each of its settings (the opponent model's weighting of guesses included): its
    guesses come from the view and its seed alone, so another deal of the hidden cards changes nothing."""
    rng = random.Random(hash((spec, players, preset)) % 10_000)
    checked = 0
    for d in range(2):
        deal = Deal.shuffled(PRESETS[preset], players, d % players, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            seat = deal.to_move
            if len(deal.legal_plays()) > 1 and len(deal.plays) % 3 == 1:
                other = reshuffle_hidden(deal, seat, rng)
                first = make_bot(spec, 99)
                second = make_bot(spec, 99)
                assert first.choose_play(view_of(deal, seat)) == second.choose_play(view_of(other, seat))
                assert first.last_stats == second.last_stats  # type: ignore[attr-defined]
                checked += 1
            deal.play(rng.choice(deal.legal_plays()))
    assert checked > 10


def test_bots_are_deterministic_for_a_seed() -> None:
    deal = Deal.shuffled(PRESETS["standard"], 4, 0, random.Random(5))
    for name in ("random", "greedy", "heuristic"):
        assert make_bot(name, 3).choose_bid(view_of(deal, deal.to_move)) == \
            make_bot(name, 3).choose_bid(view_of(deal, deal.to_move))


def test_unknown_bot_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nosuch", 1)
