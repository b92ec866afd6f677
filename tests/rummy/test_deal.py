"""One deal: dealing order, the wild joker, turns, drops, R3, declarations, the reshuffle (R4), timeouts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taash.packs import JOKER
from taash.rummy.deal import Deal, Declare, Discard, Drop, Phase, Status, Take, sorted_pack
from taash.rummy.errors import BadHandError, IllegalTurnError
from taash.rummy.rules import PRESETS, rules_from_json
from taash.rummy.scoring import least_points
from tests.rummy.deals import deal_for, faces, pack_for

OCTRO = PRESETS["octro"]
CLASSIC = PRESETS["classic"]
WINNING = "4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK"  # wild 8: valid with any 14th card as the finish card


def snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything that changes in a deal."""
    return (repr(deal.hands), repr(deal.pile), repr(deal.stock), repr(deal.status), repr(deal.points),
            repr(deal.turns), repr(deal.shown), deal.to_move, deal.phase, repr(sorted(deal.has_taken)),
            repr(deal.timeouts), deal.winner, deal.rng.getstate())


def test_cards_are_dealt_one_at_a_time_from_the_dealers_left_then_open_wild_and_stock() -> None:
    pack = sorted_pack(OCTRO, 3)
    random.Random(1).shuffle(pack)
    deal = Deal(OCTRO, 3, 1, pack, random.Random(0))
    assert deal.order == (2, 0, 1) and deal.to_move == 2
    assert deal.hands[2] == pack[0:39:3] and deal.hands[0] == pack[1:39:3] and deal.hands[1] == pack[2:39:3]
    assert deal.pile == [(pack[39], None)] and deal.wild_card == pack[40]
    assert deal.stock[-1] == pack[41] and deal.stock[0] == pack[-1] and deal.stock_size == 108 - 41


def test_the_wild_card_is_out_of_play_and_a_printed_joker_makes_aces_wild() -> None:
    deal = deal_for(OCTRO, 2, wild_card="JK")
    assert deal.wild_card == JOKER and deal.wild == 0
    deal = deal_for(OCTRO, 2, wild_card="5h")
    assert deal.wild == 4
    everything = [f for h in deal.hands.values() for f in h] + [f for f, _ in deal.pile] + deal.stock
    assert len(everything) == 107  # the wild card is in no hand, pile or stock


def test_packs_follow_the_rules_for_each_player_count() -> None:
    assert len(deal_for(OCTRO, 3).pack) == 108 and len(deal_for(OCTRO, 4).pack) == 162
    assert len(deal_for(CLASSIC, 6).pack) == 106
    with pytest.raises(BadHandError, match="3 packs"):
        Deal(OCTRO, 4, 0, sorted_pack(OCTRO, 3), random.Random(0))
    pack = sorted_pack(OCTRO, 2)
    pack[0] = pack[1]  # one card twice too often
    with pytest.raises(BadHandError):
        Deal(OCTRO, 2, 0, pack, random.Random(0))
    with pytest.raises(BadHandError, match="dealer"):
        Deal(OCTRO, 3, 2, sorted_pack(OCTRO, 2), random.Random(0), seats=(0, 1))


def test_a_turn_takes_then_discards_and_play_goes_clockwise() -> None:
    deal = deal_for(OCTRO, 3, dealer=0, open_card="Kd", stock_top="3h")
    assert deal.legal_actions() == [Drop(), Take("stock"), Take("discard")]
    deal.act(Take("stock"))
    assert deal.phase is Phase.DISCARD and len(deal.hands[1]) == 14 and deal.hands[1][-1] == faces("3h")[0]
    with pytest.raises(IllegalTurnError, match="now discard one"):
        deal.act(Drop())
    deal.act(Discard(faces("3h")[0]))
    assert deal.to_move == 2 and deal.pile[-1] == (faces("3h")[0], 1)
    assert {type(a) for a in deal.legal_actions()} == {Drop, Take}


def test_first_drop_costs_20_and_middle_drop_40() -> None:
    deal = deal_for(OCTRO, 3, dealer=0)
    deal.act(Drop())
    assert deal.points[1] == 20 and deal.status[1] is Status.DROPPED and deal.hands[1] == []
    deal.act(Take("stock"))
    deal.act(Discard(deal.hands[2][0]))
    deal.act(Take("stock"))
    deal.act(Discard(deal.hands[0][0]))
    deal.act(Drop())
    assert deal.points[2] == 40
    assert deal.over and deal.winner == 0 and not deal.declared
    result = deal.result()
    assert result.points == (0, 20, 40) and result.dropped == (1, 2) and result.winner == 0


def test_r3_the_card_taken_from_the_discard_pile_stays_but_its_twin_may_go() -> None:
    deal = deal_for(OCTRO, 2, dealer=0, hands={1: "Kd"}, open_card="Qs")
    deal.act(Take("discard"))
    qs, kd = faces("Qs Kd")
    assert Discard(qs) not in deal.legal_actions() and Discard(kd) in deal.legal_actions()
    before = snapshot(deal)
    with pytest.raises(IllegalTurnError, match="R3"):
        deal.act(Discard(qs))
    assert snapshot(deal) == before
    twin = deal_for(OCTRO, 2, dealer=0, hands={1: "Qs"}, open_card="Qs")
    twin.act(Take("discard"))
    twin.act(Discard(qs))  # the other Qs, the one dealt
    free = deal_for(rules_from_json({"keep_taken_discard": False}), 2, dealer=0, open_card="Qs")
    free.act(Take("discard"))
    assert Discard(qs) in free.legal_actions()


def test_a_valid_declaration_ends_the_deal_and_the_others_score_their_best_arrangement() -> None:
    other = "Ks Kh Kd 2h 3h 4h 5h 9c 9d Tc Jc Qc 7d"
    deal = deal_for(OCTRO, 3, dealer=2, hands={0: WINNING, 1: other}, wild_card="8c", stock_top="Ac")
    ac = faces("Ac")[0]
    deal.act(Take("stock"))
    groups = tuple(tuple(faces(g)) for g in ("4s 5s 6s 7s", "9h Th Jh", "Qc Qd Qh", "2c 2d JK"))
    deal.act(Declare(ac, groups))
    assert deal.over and deal.declared and deal.winner == 0
    assert deal.points[1] == least_points(faces(other), OCTRO, 7) == 16  # Ks Kh Kd, 2-5h, 9c-Qc: 9d 7d left
    assert deal.points[2] == least_points(deal.hands[2], OCTRO, 7)
    assert deal.result().points[0] == 0 and deal.legal_actions() == []
    with pytest.raises(IllegalTurnError, match="over"):
        deal.act(Drop())


def test_a_wrong_declaration_costs_80_and_play_goes_on() -> None:
    deal = deal_for(OCTRO, 3, dealer=2, wild_card="8c")
    deal.act(Take("stock"))
    hand = deal.hands[0]
    deal.act(Declare(hand[0], (tuple(hand[1:]),)))
    assert deal.points[0] == 80 and deal.status[0] is Status.WRONG and not deal.over
    assert deal.to_move == 1 and deal.hands[0] == []
    deal.act(Drop())
    assert deal.over and deal.winner == 2 and deal.result().points == (80, 20, 0)


def test_a_declaration_must_show_exactly_the_hand_but_the_finish_card() -> None:
    deal = deal_for(OCTRO, 2, dealer=1, hands={0: WINNING}, wild_card="8c", stock_top="Ac")
    with pytest.raises(IllegalTurnError, match="take a card"):
        deal.act(Declare(0, ()))
    deal.act(Take("stock"))
    ac = faces("Ac")[0]
    good = tuple(tuple(faces(g)) for g in ("4s 5s 6s 7s", "9h Th Jh", "Qc Qd Qh", "2c 2d JK"))
    before = snapshot(deal)
    for finish, groups in ((faces("Kd")[0], good), (ac, good[:3]), (ac, (*good, (ac,))), (ac, (*good, ()))):
        with pytest.raises(IllegalTurnError):
            deal.act(Declare(finish, groups))
        assert snapshot(deal) == before
    deal.act(Declare(ac, good))
    assert deal.winner == 0


def test_r4_when_the_stock_runs_out_the_discard_pile_but_its_top_becomes_the_stock() -> None:
    deal = deal_for(CLASSIC, 6, dealer=0)
    while deal.stock:
        deal.act(Take("stock"))
        deal.act(Discard(deal.hands[deal.to_move][-1]))
    pile = [f for f, _ in deal.pile]
    same = deal.clone()
    deal.act(Take("stock"))
    assert deal.turns[-1].reshuffled and deal.pile == [same.pile[-1]]
    assert sorted([*deal.stock, deal.turns[-1].drawn]) == sorted(pile[:-1])
    same.act(Take("stock"))  # the deal's own random stream: the same new stock
    assert same.stock == deal.stock


def test_no_stock_to_take_when_the_pile_cannot_refill_it() -> None:
    deal = deal_for(OCTRO, 2, dealer=0)
    deal.stock.clear()
    assert Take("stock") not in deal.legal_actions()
    with pytest.raises(IllegalTurnError, match="stock is empty"):
        deal.act(Take("stock"))


def test_a_timed_out_turn_takes_the_stock_card_and_discards_it_and_three_in_a_row_drop() -> None:
    deal = deal_for(OCTRO, 3, dealer=0, stock_top="3h 4h 5h 6h 7h 8h 9h")
    deal.timeout()
    turn = deal.turns[-1]
    assert turn.timeout and turn.take == "stock" and turn.discard == turn.drawn == faces("3h")[0]
    assert deal.timeouts[1] == 1 and len(deal.hands[1]) == 13
    deal.act(Take("stock"))
    deal.act(Discard(deal.hands[2][0]))
    deal.act(Take("stock"))
    deal.act(Discard(deal.hands[0][0]))
    deal.timeout()
    for _ in range(2):
        deal.act(Take("stock"))
        deal.act(Discard(deal.hands[deal.to_move][0]))
    deal.timeout()
    assert deal.status[1] is Status.DROPPED and deal.points[1] == 40 and deal.turns[-1].timed_out_drop


def test_a_normal_turn_resets_the_timeouts() -> None:
    deal = deal_for(OCTRO, 2, dealer=0)
    deal.timeout()
    deal.timeout()
    assert deal.timeouts == {0: 1, 1: 1}
    deal.act(Take("stock"))
    deal.act(Discard(deal.hands[1][0]))
    assert deal.timeouts[1] == 0


def test_a_timeout_after_taking_from_the_pile_discards_another_card() -> None:
    deal = deal_for(OCTRO, 2, dealer=0, open_card="Qs")
    deal.act(Take("discard"))
    deal.timeout()
    assert deal.turns[-1].discard != faces("Qs")[0] and deal.turns[-1].timeout


def test_clone_is_independent() -> None:
    deal = deal_for(OCTRO, 4, dealer=3)
    copy_ = deal.clone()
    deal.act(Take("stock"))
    assert copy_.phase is Phase.TAKE and len(copy_.hands[0]) == 13 and copy_.turns == []
    copy_.act(Drop())
    assert deal.status[0] is Status.IN


def test_a_deal_of_some_seats_skips_the_others() -> None:
    pack = pack_for(OCTRO, 5, dealer=3, seats=(1, 3))
    deal = Deal(OCTRO, 5, 3, pack, random.Random(0), seats=(1, 3))
    assert deal.order == (1, 3) and len(deal.pack) == 108 and set(deal.hands) == {1, 3}
    deal.act(Drop())
    assert deal.result().points == (None, 20, None, 0, None)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([OCTRO, CLASSIC]), st.integers(2, 6))
def test_illegal_actions_change_nothing_and_legal_ones_are_accepted(seed: int, rules: object, players: int) -> None:
    rng = random.Random(seed)
    deal = deal_for(rules, players, dealer=rng.randrange(players), seed=seed)  # type: ignore[arg-type]
    probes = [Drop(), Take("stock"), Take("discard"), Discard(JOKER), Discard(rng.randrange(52)),
              Declare(rng.randrange(53), ())]
    for _ in range(40):
        if deal.over:
            break
        legal = deal.legal_actions()
        before = snapshot(deal)
        for probe in probes:
            if probe in legal:
                continue
            with pytest.raises(IllegalTurnError):
                deal.act(probe)
            assert snapshot(deal) == before
        choice = legal[rng.randrange(len(legal))]
        if isinstance(choice, Drop) and rng.random() < 0.9:
            choice = legal[1]
        deal.act(choice)
        hands = sum(len(h) for h in deal.hands.values())
        holding = sum(status in (Status.IN, Status.DECLARED) for status in deal.status.values())  # a declarer too
        assert hands == 13 * holding + (deal.phase is Phase.DISCARD)


def test_an_action_with_a_card_that_is_not_a_face_is_refused_in_words() -> None:
    deal = deal_for(OCTRO, 2, dealer=0)
    deal.act(Take("stock"))
    with pytest.raises(IllegalTurnError, match="no 'Ks'"):
        deal.act(Discard("Ks"))  # type: ignore[arg-type]
    with pytest.raises(IllegalTurnError, match="no 99"):
        deal.act(Declare(99, ()))
