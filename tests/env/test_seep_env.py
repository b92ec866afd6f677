"""Seep as a PettingZoo environment (``taash.env.seep_v0``): PettingZoo's own tests, the fixed action indices,
the observation hiding what the seat cannot see, and the rewards per deal."""

from __future__ import annotations

import random
from functools import partial

import pytest

pytest.importorskip("pettingzoo", reason="the env extra is not installed (pip install 'taash[env]')")
pytest.importorskip("gymnasium", reason="the env extra is not installed (pip install 'taash[env]')")

from taash.cards import names_of
from taash.env import seep_v0
from taash.env.seep import FIRST_PLAY, FIRST_THROW, OPTIONS, TARGETS, SeepEncoding, play_indices, raw_env
from taash.games.registry import make_game
from taash.seep.plays import ADD, BREAK, CAPTURE, ESTABLISH, THROW
from tests.env.common import hidden_cards_change_nothing, passes_pettingzoo_tests, play_randomly


@pytest.mark.parametrize(("players", "rules"), [(2, None), (4, None), (2, "punjab_30_qasim"),
                                                (4, "break_with_loose"), (4, "limited_houses")])
def test_pettingzoo_api_and_seed_tests_pass(players: int, rules: str | None) -> None:
    passes_pettingzoo_tests(partial(seep_v0.env, players=players, rules=rules), cycles=60)


def test_a_match_of_several_deals_passes_the_api_test_and_rewards_each_deal() -> None:
    passes_pettingzoo_tests(partial(seep_v0.env, players=2, baazis=1), cycles=200)
    env = raw_env(players=2, baazis=1)
    env.reset(seed=3)
    rng = random.Random(3)
    paid = 0
    while not env.state.is_over:
        env.step(rng.choice(sorted(env.legal_indices())))
        paid += any(env.rewards.values())
    results = env.state.match.results
    assert len(results) > 1 and paid == sum(r.score.score[0] != r.score.score[1] for r in results)


def test_the_action_indices_are_the_documented_ones() -> None:
    assert FIRST_THROW == 5 and FIRST_PLAY == 57 and TARGETS == 21
    assert SeepEncoding(make_game("seep", players=2)).action_size == 57 + 52 * 21 * OPTIONS  # type: ignore[arg-type]
    throw = (THROW, 12, 0, 0, 0)  # the king of spades
    capture = (CAPTURE, 12, 0, 0, 0b11)
    establish = (ESTABLISH, 8, 11, 0, 0b10)  # the nine of spades builds a house of 11
    add = (ADD, 8, 13, 0, 0)
    broken = (BREAK, 0, 10, 9, 0)  # the ace of spades breaks the house of 9 into 10
    indices = play_indices([throw, capture, establish, add, broken])
    assert indices == {
        5 + 12: throw,
        57 + (12 * 21 + 0) * OPTIONS: capture,
        57 + (8 * 21 + 1 + 11 - 9) * OPTIONS: establish,
        57 + (8 * 21 + 6 + 13 - 9) * OPTIONS: add,
        57 + (0 * 21 + 11) * OPTIONS: broken,
    }


def test_plays_of_one_card_at_one_target_take_the_next_indices_in_the_order_of_their_loose_cards() -> None:
    plays = [(CAPTURE, 12, 0, 0, m) for m in (0b1100, 0b0011, 0b0110)]
    assert play_indices(plays) == {57 + 12 * 21 * OPTIONS + k: (CAPTURE, 12, 0, 0, m)
                                   for k, m in enumerate((0b0011, 0b0110, 0b1100))}
    assert list(play_indices(plays, options=2).values()) == [(CAPTURE, 12, 0, 0, 0b0011), (CAPTURE, 12, 0, 0, 0b0110)]


@pytest.mark.parametrize("rules", ["standard", "break_with_loose", "punjab_30_qasim"])
def test_every_legal_play_of_random_deals_has_an_index_of_its_own_that_names_it(rules: str) -> None:
    env = raw_env(players=4, rules=rules, options=64)
    for seed in range(6):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while not env.state.is_over:
            legal = env.legal_indices()
            assert sorted(legal.values()) == sorted(env.state.legal_actions())
            assert all(0 <= i < env.encoding.action_size for i in legal)
            env.step(rng.choice(sorted(legal)))


def test_the_action_mask_is_the_legal_indices_for_the_seat_to_act_and_zeros_for_the_others() -> None:
    env = raw_env(players=4)
    env.reset(seed=5)
    play_randomly(env, 9, random.Random(5))
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        expected = set(env.legal_indices()) if agent == env.agent_selection else set()
        assert set(mask.nonzero()[0]) == expected


@pytest.mark.parametrize(("players", "rules"), [(2, "standard"), (4, "standard"), (4, "punjab_30_qasim")])
def test_a_seats_observation_does_not_change_when_the_cards_hidden_from_it_are_dealt_again(
        players: int, rules: str) -> None:
    env = raw_env(players=players, rules=rules)
    rng = random.Random(1)
    changed = 0
    for seed in range(4):
        env.reset(seed=seed)
        for steps in (0, 1, 7, 20):  # the bid, the bid play, then play; other hands change under it
            play_randomly(env, steps, rng)
            if env.state.is_over:
                break
            changed += hidden_cards_change_nothing(env, rng)
    assert changed  # the other seats' observations did change: their hands were dealt again


def test_the_observation_lays_out_the_seats_view_as_documented() -> None:
    env = raw_env(players=2)
    env.reset(seed=11)
    play_randomly(env, 5, random.Random(11))
    view = env.state.view(0)
    observation = env.observe("player_0")["observation"]
    parts, at = {}, 0
    for name, length in env.encoding.LAYOUT:
        parts[name] = observation[at:at + length]
        at += length
    assert at == len(observation) == env.encoding.observation_size
    assert {int(c) for c in parts["hand"].nonzero()[0]} == {c for c in range(52) if view.hand >> c & 1}
    assert {int(c) for c in parts["loose"].nonzero()[0]} == {c for c in range(52) if view.loose >> c & 1}
    assert {int(c) for c in parts["unseen"].nonzero()[0]} == {c for c in range(52) if view.unseen() >> c & 1}
    assert list(parts["phase"]) == [0.0, 1.0] and parts["bid"][view.bid - 9] == 1.0
    assert parts["to_move"][(view.to_move - 0) % 2] == 1.0


def test_the_rewards_of_a_deal_are_each_teams_point_difference() -> None:
    env = raw_env(players=4)
    env.reset(seed=2)
    rng = random.Random(2)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while not env.state.is_over:
        env.step(rng.choice(sorted(env.legal_indices())))
        for agent, reward in env.rewards.items():
            totals[agent] += reward
    a, b = env.state.match.results[0].score.score
    assert totals == {"player_0": a - b, "player_1": b - a, "player_2": a - b, "player_3": b - a}
    assert all(env.terminations.values())


def test_an_illegal_action_is_refused_in_one_sentence_and_changes_nothing() -> None:
    env = raw_env(players=2)
    env.reset(seed=4)
    before = env.state.key()
    illegal = next(i for i in range(env.encoding.action_size) if i not in env.legal_indices())
    for bad in (illegal, -1, "3", None, True):
        with pytest.raises(ValueError, match=r"legal|index"):
            env.step(bad)  # type: ignore[arg-type]
        assert env.state.key() == before


def test_the_wrapped_env_ends_the_game_on_an_illegal_action_as_pettingzoos_classic_games_do() -> None:
    env = seep_v0.env(players=2)
    env.reset(seed=4)
    mask = env.observe(env.agent_selection)["action_mask"]
    cheat = env.agent_selection
    env.step(int((mask == 0).nonzero()[0][0]))
    assert all(env.terminations.values()) and env.rewards[cheat] == -1


def test_render_shows_the_table_as_the_seat_to_act_sees_it() -> None:
    env = raw_env(players=2, render_mode="ansi")
    env.reset(seed=8)
    text = env.render()
    assert text is not None and "seat" in text and "hand:" in text
    hand = env.state.view(env.state.current_player).hand
    other = env.state.view(1 - env.state.current_player).hand
    assert all(name in text for name in names_of(hand))
    assert not any(name in text.split("hand:")[1] for name in names_of(other))


def test_bad_settings_are_refused_in_one_sentence() -> None:
    with pytest.raises(ValueError, match="2 or 4 players"):
        raw_env(players=3)
    with pytest.raises(ValueError, match="options"):
        raw_env(options=0)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")
