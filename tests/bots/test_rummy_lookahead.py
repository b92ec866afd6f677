"""The expectimax over the next card (``taash.bots.rummy.lookahead``): the faces a seat may draw, the levels and
worths of hands against a reference written from the docstring with the pure solver, live draws against dead
ones, and the expert playing by it at two players."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import pytest

from taash.bots import make_bot
from taash.bots.rummy.heuristic import HeuristicBot
from taash.bots.rummy.inference import knowledge
from taash.bots.rummy.ismcts import IsmctsBot
from taash.bots.rummy.lookahead import Lookahead, LookaheadPolicy, drawable
from taash.games import make_game
from taash.packs import parse_face
from taash.rummy.deal import Discard, Phase, Take, sorted_pack
from taash.rummy.game import RummyState
from taash.rummy.melds import is_joker
from taash.rummy.progress import NO_PURE_RUN, RUN_MISSING
from taash.rummy.rules import PRESETS, Rules
from taash.rummy.solver import pure_discard_values, solve
from taash.rummy.view import PlayerView

OCTRO = PRESETS["octro"]


def faces(text: str) -> list[int]:
    return [parse_face(t) for t in text.split()]


def _reference_level(cards: list[int], rules: Rules, wild: int, late: float) -> float:
    """The best level of 14 cards, straight from the docstring, by the pure solver."""
    cap = rules.max_points
    one = replace(rules, runs_required=1, pure_runs_required=1, long_run=False, max_points=1000)
    none = replace(rules, runs_required=0, pure_runs_required=0, long_run=False, max_points=1000)
    best = float("inf")
    for card in set(cards):
        strict = pure_discard_values(cards, rules, wild)[card]
        relaxed = min(strict, min(pure_discard_values(cards, one, wild)[card], cap) + RUN_MISSING,
                      min(pure_discard_values(cards, none, wild)[card], cap) + NO_PURE_RUN)
        best = min(best, (1 - late) * relaxed + late * strict)
    return best


@pytest.mark.parametrize("late", [0.0, 0.4, 1.0])
def test_a_hands_worth_is_the_mean_best_level_over_the_faces_it_may_draw(late: float) -> None:
    hand = faces("5h 6h 9c 9d Ks Qd 2s 3s 7c Ah Jd 8s 4c")
    draws = Counter(faces("4h 7h 7h 9s Kd 3h JK 2d"))
    look = Lookahead(OCTRO, 10, draws, late)
    total = sum(draws.values())
    expected = sum(count / total * _reference_level([*hand, face], OCTRO, 10, late) for face, count in draws.items())
    assert look.worth(hand) == pytest.approx(expected)
    assert look.after_draw(hand, parse_face("7h")) < look.after_draw(hand, parse_face("Kd"))


def test_a_valid_hand_is_worth_nothing_whatever_comes() -> None:
    hand = faces("4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK")
    assert solve(hand, OCTRO, 7).valid
    look = Lookahead(OCTRO, 7, Counter(faces("Kd 3h 9c 9c As")), 0.5)
    assert look.worth(hand) == 0.0


def test_a_draw_whose_cards_are_all_seen_is_worth_nothing_and_a_live_one_is() -> None:
    # Two like draws, 5-6 of hearts and 5-6 of clubs, the rest of the hand the same: with the clubs' 4s and 7s all
    # seen, only the hearts can come, and the hand that keeps the hearts is worth more (measures less).
    hand = faces("5h 6h 5c 6c Ks Qd 9s Jd 2s Td 8s 3d Kh As")
    live = Counter(faces("4h 4h 7h 7h Ac 2h 9d Qs Jc Tc 3c"))
    look = Lookahead(OCTRO, 3, live)  # fours are jokers: no card of the hand
    without = {card: look.worth([c for i, c in enumerate(hand) if i != hand.index(card)])
               for card in faces("5h 5c")}
    assert without[parse_face("5c")] < without[parse_face("5h")]
    # The clubs' cards live instead: the other way round.
    look = Lookahead(OCTRO, 3, Counter(faces("4c 4c 7c 7c Ac 2h 9d Qs Jc Tc 3c")))
    without = {card: look.worth([c for i, c in enumerate(hand) if i != hand.index(card)])
               for card in faces("5h 5c")}
    assert without[parse_face("5h")] < without[parse_face("5c")]


def _mid_deal(seed: int, turns: int, phase: Phase) -> RummyState | None:
    """A 2-player state some turns into a deal of heuristic players, in ``phase`` (None: the deal ended first)."""
    state = make_game("rummy", players=2).new_state(seed)
    assert isinstance(state, RummyState)
    bots = [make_bot("heuristic", s, game="rummy") for s in range(2)]
    while len(state.match.deal.turns) < turns or state.match.deal.phase is not phase:
        seat = state.current_player
        state.apply(bots[seat].choose(state.view(seat)))
        if state.match.deal.over:
            return None
    return state


def test_the_faces_it_may_draw_are_those_unseen_less_what_the_opponent_is_known_to_hold() -> None:
    states = [s for s in (_mid_deal(seed, 10, Phase.TAKE) for seed in range(8)) if s is not None]
    assert len(states) >= 4
    for state in states:
        view = state.view(state.current_player)
        may = drawable(view)
        held = Counter(f for _, _, known in knowledge(view).opponents for f in known)
        seen = Counter(view.hand) + Counter(f for f, _ in view.pile) + Counter([view.wild_card])
        pack = Counter(sorted_pack(view.rules, 2))
        assert may + held + seen == pack
        # What is hidden from the seat, the opponent's hand and the stock, is where the drawable faces lie.
        deal = state.match.deal
        other = 1 - view.seat
        assert +(may + held) == Counter(deal.hands[other]) + Counter(deal.stock)


@pytest.mark.parametrize(("players", "deals"), [(2, 4), (6, 1)])
def test_the_expert_takes_and_discards_by_the_lookahead_and_says_why_in_one_line(players: int, deals: int) -> None:
    policy = LookaheadPolicy(HeuristicBot())
    differs = 0
    for seed in range(deals):
        state = make_game("rummy", players=players).new_state(seed)
        heuristic = HeuristicBot()
        while not state.is_over:
            seat = state.current_player
            view = state.view(seat)
            bot = IsmctsBot(seed, iterations=2, drops=0)
            action = bot.choose(view)
            assert not bot.last_stats  # no play-outs chose it
            if isinstance(action, Take) and view.pile and Take("stock") in view.legal_actions():
                assert (action == Take("discard")) is policy.takes_open_card(view)
            elif isinstance(action, Discard):
                assert action.card == policy.discard_order(view)[0][0]
            reason = bot.explain(view, action)
            assert reason and "\n" not in reason
            joker_on_top = bool(view.pile) and is_joker(view.pile[-1][0], view.wild)
            if isinstance(action, Discard) or (isinstance(action, Take) and view.pile and not joker_on_top):
                assert re.search(r"\d+\.\d", reason), reason  # the worths, not the heuristic's words
            differs += action != heuristic.choose(view)
            state.apply(action)
    assert differs > 0


def _policy_at(phase: Phase) -> tuple[LookaheadPolicy, PlayerView, Lookahead]:
    """The policy, a view six turns into a deal at ``phase``, and the view's lookahead."""
    state = _mid_deal(3, 6, phase)
    assert state is not None
    view = state.view(state.current_player)
    policy = LookaheadPolicy(HeuristicBot())
    return policy, view, policy.lookahead(view)


def test_the_open_card_is_taken_when_it_beats_the_stocks_worth() -> None:
    policy, view, look = _policy_at(Phase.TAKE)
    top = view.pile[-1][0]
    taken = min(look.levels([*view.hand, top], top).values())
    assert policy.takes_open_card(view) is (taken < look.worth(view.hand) - policy.take_margin)
    assert LookaheadPolicy(HeuristicBot(), take_margin=-1000).takes_open_card(view)
    assert not is_joker(top, view.wild)
    assert not LookaheadPolicy(HeuristicBot(), take_margin=1000).takes_open_card(view)


def test_past_its_deadline_it_ranks_the_discards_by_their_levels_now() -> None:
    policy, view, look = _policy_at(Phase.DISCARD)
    hurried = policy.discard_order(view, deadline=0.0)
    keep = view.taken_from_pile if view.rules.keep_taken_discard else None
    assert {c for c, _ in hurried} == set(look.levels(view.hand, keep))
    assert [s for _, s in hurried] == sorted(s for _, s in hurried)
    card, score = hurried[0]
    assert score == pytest.approx(look.levels(view.hand)[card] + policy.heuristic.danger(view, card))
    assert len(policy.discard_order(view)) == policy.candidates
