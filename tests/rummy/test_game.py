"""Rummy behind the games API: a turn out of time is applied like an action, kept in the state's JSON and read
back, but never legal and never read from a player."""

from __future__ import annotations

import pytest

from taash.rummy.deal import Timeout
from taash.rummy.errors import BadHandError
from taash.rummy.game import RummyCodec, make_game


def test_a_timeout_is_applied_kept_in_the_json_and_read_back_but_never_a_players_move() -> None:
    game = make_game(players=2)
    state = game.new_state(seed=5)
    seat = state.current_player
    stock_card = state.match.deal.stock[-1]
    hand = sorted(state.match.deal.hands[seat])
    assert Timeout() not in state.legal_actions()
    state.apply(Timeout())
    deal = state.match.deal
    assert sorted(deal.hands[seat]) == hand and deal.pile[-1] == (stock_card, seat) and deal.timeouts[seat] == 1
    data = state.to_json()
    assert data["actions"] == [{"timeout": True}] and data["record"]["deals"][0]["turns"][0]["timeout"] is True
    again = game.state_from_json(data)
    assert again.key() == state.key()
    with pytest.raises(BadHandError):
        RummyCodec().from_json(state.view(state.current_player), {"timeout": True})
