"""Seep and Rummy as OpenSpiel games (``taash.env.openspiel``): OpenSpiel's own random-simulation test, the
parameters, and the observations hiding what the seat cannot see."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel", reason="the openspiel extra is not installed (pip install 'taash[openspiel]')")
pytest.importorskip("pettingzoo", reason="the env extra is not installed (pip install 'taash[env]')")

import pyspiel

import taash.env.openspiel  # noqa: F401 (registers the games)


@pytest.mark.parametrize(("name", "params"), [
    ("python_taash_seep", {"players": 2}),
    ("python_taash_seep", {"players": 4, "rules": "punjab_30_qasim"}),
    ("python_taash_rummy", {"players": 2}),
    ("python_taash_rummy", {"players": 6, "rules": "classic"}),
    ("python_taash_rummy", {"players": 3, "format": "pool101", "max_moves": 5000}),
])
def test_openspiels_random_simulation_test_passes(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_games_are_registered_with_their_parameters() -> None:
    seep = pyspiel.load_game("python_taash_seep", {"players": 2, "seeds": 50})
    assert seep.num_players() == 2 and seep.num_distinct_actions() == 8793 and seep.max_chance_outcomes() == 50
    assert seep.observation_tensor_size() == 626 and seep.information_state_tensor_size() == 626 + 53
    assert seep.max_game_length() == 49
    kind = seep.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    rummy = pyspiel.load_game("python_taash_rummy", {"players": 6})
    assert rummy.num_players() == 6 and rummy.num_distinct_actions() == 57 and rummy.observation_tensor_size() == 979
    assert rummy.max_utility() == 5 * 80 and rummy.min_utility() == -5 * 80


def test_the_chance_node_draws_the_seed_and_the_same_seed_deals_the_same_match() -> None:
    game = pyspiel.load_game("python_taash_seep", {"players": 2, "seeds": 20})
    a, b = game.new_initial_state(), game.new_initial_state()
    assert a.is_chance_node() and [p for _, p in a.chance_outcomes()] == [0.05] * 20
    a.apply_action(7)
    b.apply_action(7)
    assert a.observation_tensor(0) == b.observation_tensor(0) and a.legal_actions() == b.legal_actions()
    assert "7" not in a.information_state_string(1)  # the seed is not in what a seat knows


@pytest.mark.parametrize(("name", "players"), [("python_taash_seep", 4), ("python_taash_rummy", 4)])
def test_a_seats_observations_do_not_change_when_the_cards_hidden_from_it_are_dealt_again(
        name: str, players: int) -> None:
    game = pyspiel.load_game(name, {"players": players})
    rng = random.Random(3)
    state = game.new_initial_state()
    state.apply_action(11)
    for _ in range(9):
        state.apply_action(rng.choice([a for a in state.legal_actions() if a != 0] or state.legal_actions()))
    for seat in range(players):
        before = (state.observation_tensor(seat), state.observation_string(seat),
                  state.information_state_tensor(seat), state.information_state_string(seat))
        other = state.clone()
        other.match.state = state.state.with_hidden_dealt_again(seat, rng)
        other.match.legal = None
        assert (other.observation_tensor(seat), other.observation_string(seat), other.information_state_tensor(seat),
                other.information_state_string(seat)) == before


def test_a_rummy_match_longer_than_max_moves_stops_with_every_return_zero() -> None:
    game = pyspiel.load_game("python_taash_rummy", {"players": 2, "max_moves": 3})
    state = game.new_initial_state()
    state.apply_action(2)
    while not state.is_terminal():
        state.apply_action(next(a for a in state.legal_actions() if a != 0))  # never drop
    assert state.returns() == [0.0, 0.0] and state.history()[1:] and len(state.history()) == 4


def test_bad_parameters_are_refused_in_one_sentence() -> None:
    with pytest.raises(ValueError, match="seeds"):
        pyspiel.load_game("python_taash_seep", {"seeds": 0})
    with pytest.raises(ValueError, match="2 or 4 players"):
        pyspiel.load_game("python_taash_seep", {"players": 3})
    with pytest.raises(ValueError, match="max_moves"):
        pyspiel.load_game("python_taash_rummy", {"max_moves": 0})
