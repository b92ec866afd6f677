"""Player views: what a seat may see (section 7), and nothing else."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taash.rummy.deal import HAND, Action, Deal, Declare, Discard, Drop, Phase, Take
from taash.rummy.rules import PRESETS, Rules
from taash.rummy.view import view_of
from tests.rummy.deals import deal_for, faces, pack_for

OCTRO = PRESETS["octro"]
CLASSIC = PRESETS["classic"]


def random_turns(deal: Deal, rng: random.Random, steps: int) -> list[Action]:
    """Random drops, takes and discards (no declarations) while the deal lasts."""
    done: list[Action] = []
    for _ in range(steps):
        if deal.over or (deal.phase is Phase.TAKE and len(deal.in_play) == 2):
            break
        legal = deal.legal_actions()
        if deal.phase is Phase.TAKE:
            x = rng.random()
            action = legal[0] if x < 0.05 else Take("discard") if x < 0.35 else Take("stock")
        else:
            action = rng.choice([a for a in legal if not isinstance(a, Declare)])
        deal.act(action)
        done.append(action)
    return done


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([OCTRO, CLASSIC]), st.integers(2, 6), st.integers(0, 60))
def test_a_view_is_the_same_whatever_the_hidden_cards(seed: int, rules: Rules, players: int, steps: int) -> None:
    rng = random.Random(seed)
    dealer = rng.randrange(players)
    pack = pack_for(rules, players, dealer, seed=seed)
    a = Deal(rules, players, dealer, pack, random.Random(seed))
    actions = random_turns(a, rng, steps)
    seat = rng.randrange(players)
    n = players
    # What the seat has seen: the open and wild cards, every card on the pile, its own cards and draws.
    seen = {pack[HAND * n], pack[HAND * n + 1], *a.hands[seat]}
    draws = 0
    drawn_by_seat = set()
    for turn in a.turns:
        seen.update(f for f in (turn.discard, turn.drawn if turn.take == "discard" else None) if f is not None)
        if turn.take == "stock":
            assert not turn.reshuffled
            if turn.seat == seat:
                drawn_by_seat.add(HAND * n + 2 + draws)
                seen.add(pack[HAND * n + 2 + draws])
            draws += 1
    own = {i for i in range(HAND * n) if a.order[i % n] == seat}
    hidden = [i for i in range(len(pack)) if i not in own and i not in (HAND * n, HAND * n + 1)
              and i not in drawn_by_seat and pack[i] not in seen]
    pairs = [(i, j) for i, j in ((rng.choice(hidden), rng.choice(hidden)) for _ in range(5)) if pack[i] != pack[j]]
    other = list(pack)
    for i, j in pairs:
        other[i], other[j] = other[j], other[i]
    a = Deal(rules, players, dealer, pack, random.Random(seed))
    b = Deal(rules, players, dealer, other, random.Random(seed))
    assert view_of(a, seat) == view_of(b, seat)
    for action in actions:
        a.act(action)
        b.act(action)
        assert view_of(a, seat) == view_of(b, seat)
    if pairs:  # the swap is real: some hidden card lies elsewhere
        assert [a.hands, a.stock] != [b.hands, b.stock] or any(a.status[s].value == "dropped" for s in a.seats)


def test_a_view_shows_its_own_hand_and_the_public_table() -> None:
    deal = deal_for(OCTRO, 3, dealer=0, hands={1: "4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK"}, open_card="Kd",
                    wild_card="8c")
    deal.act(Take("discard"))
    deal.act(Discard(faces("2c")[0]))
    view = view_of(deal, 2)
    assert view.hand == tuple(sorted(deal.hands[2])) and view.hand_sizes == (13, 13, 13)
    assert view.pile == ((faces("2c")[0], 1),) and view.wild == 7 and view.wild_card == faces("8c")[0]
    assert view.turns[0].take == "discard" and view.turns[0].taken == faces("Kd")[0]
    assert view.stock_size == deal.stock_size and view.to_move == 2
    deal.act(Take("stock"))
    view = view_of(deal, 1)
    assert view.turns[-1].take == "stock" and view.turns[-1].taken is None  # another seat's stock card is hidden
    assert view.hand_sizes == (13, 13, 14)


def test_legal_actions_from_a_view_are_the_deals() -> None:
    rng = random.Random(3)
    for players in (2, 4, 6):
        deal = deal_for(CLASSIC, players, dealer=1, seed=players)
        for _ in range(80):
            if deal.over:
                break
            for seat in range(players):
                view = view_of(deal, seat)
                assert view.legal_actions() == (deal.legal_actions() if seat == deal.to_move else [])
            random_turns(deal, rng, 1)


def test_dropped_and_finish_cards_stay_hidden_and_hands_show_after_a_valid_declaration() -> None:
    winning = "4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK"
    deal = deal_for(OCTRO, 3, dealer=1, hands={0: winning}, wild_card="8c", stock_top="Ac")
    deal.act(Drop())  # seat 2
    view = view_of(deal, 0)
    assert view.hand_sizes[2] == 0 and view.status[2] == "dropped" and view.points[2] == 20
    deal.act(Take("stock"))
    groups = tuple(tuple(faces(g)) for g in ("4s 5s 6s 7s", "9h Th Jh", "Qc Qd Qh", "2c 2d JK"))
    deal.act(Declare(faces("Ac")[0], groups))
    view = view_of(deal, 1)
    assert view.phase is Phase.OVER and view.winner == 0 and view.turns[-1].declared == "valid"
    assert view.turns[-1].shown == groups and faces("Ac")[0] not in {f for g in view.turns[-1].shown for f in g}
    assert [s for s, _ in view.shown_hands] == [1] and view.points[1] is not None
    assert view.legal_actions() == []


def test_a_view_of_the_last_turns_is_the_whole_view_with_only_those_turns() -> None:
    deal = deal_for(PRESETS["octro"], 4, seed=3)
    rng = random.Random(4)
    while len(deal.turns) < 9 and deal.phase is not Phase.OVER:
        deal.act(rng.choice([a for a in deal.legal_actions() if not isinstance(a, (Drop, Declare))]))
    for seat in range(4):
        whole = view_of(deal, seat)
        for last in (1, 3, 9, 50):
            cut = view_of(deal, seat, last_turns=last)
            assert cut.turns == whole.turns[-last:]
            assert cut == dataclasses.replace(whole, turns=whole.turns[-last:])
    with pytest.raises(ValueError, match="at least 1"):
        view_of(deal, 0, last_turns=0)
