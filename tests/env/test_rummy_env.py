"""13-card Rummy as a PettingZoo environment (``taash.env.rummy_v0``): PettingZoo's own tests, the fixed action
indices, the observation hiding what the seat cannot see, and the rewards per deal."""

from __future__ import annotations

import random
from functools import partial

import pytest

pytest.importorskip("pettingzoo", reason="the env extra is not installed (pip install 'taash[env]')")
pytest.importorskip("gymnasium", reason="the env extra is not installed (pip install 'taash[env]')")

from taash.env import rummy_v0
from taash.env.rummy import ACTIONS, DECLARE, action_index, raw_env
from taash.packs import JOKER, parse_face
from taash.rummy.deal import Declare, Discard, Drop, Take
from tests.env.common import hidden_cards_change_nothing, passes_pettingzoo_tests, play_randomly


@pytest.mark.parametrize(("players", "rules", "fmt"), [(2, None, "points"), (6, None, "points"),
                                                       (2, "classic", "points"), (6, "classic", "pool101"),
                                                       (3, None, "deals2")])
def test_pettingzoo_api_and_seed_tests_pass(players: int, rules: str | None, fmt: str) -> None:
    passes_pettingzoo_tests(partial(rummy_v0.env, players=players, rules=rules, format=fmt), cycles=60)


def test_the_action_indices_are_the_documented_ones() -> None:
    assert ACTIONS == 57 and DECLARE == 56
    assert action_index(Drop()) == 0 and action_index(Take("stock")) == 1 and action_index(Take("discard")) == 2
    assert action_index(Discard(parse_face("As"))) == 3 and action_index(Discard(JOKER)) == 55
    assert action_index(Declare(parse_face("Kc"), ())) == 56
    with pytest.raises(ValueError, match="not a Rummy action"):
        action_index("drop")


def keep_playing(env: rummy_v0.raw_env, rng: random.Random) -> None:
    """A legal action that is not a drop when there is one (random drops end deals before anything happens)."""
    legal = env.legal_indices()
    choices = [i for i in sorted(legal) if i != 0] or sorted(legal)
    env.step(DECLARE if DECLARE in legal else rng.choice(choices))


@pytest.mark.parametrize(("players", "rules"), [(2, "octro"), (4, "classic"), (6, "octro")])
def test_every_legal_action_of_random_deals_has_an_index_of_its_own_that_names_it(players: int, rules: str) -> None:
    env = raw_env(players=players, rules=rules)
    for seed in range(3):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while not env.state.is_over:
            legal = env.legal_indices()
            assert sorted(map(repr, legal.values())) == sorted(map(repr, env.state.legal_actions()))
            keep_playing(env, rng)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_seats_observation_does_not_change_when_the_cards_hidden_from_it_are_dealt_again(players: int) -> None:
    env = raw_env(players=players)
    rng = random.Random(players)
    changed = 0
    for seed in range(3):
        env.reset(seed=seed)
        for steps in (0, 1, 2, 15, 30):
            for _ in range(steps):
                if not env.state.is_over:
                    keep_playing(env, rng)
            if env.state.is_over:
                break
            changed += hidden_cards_change_nothing(env, rng)
    assert changed


def test_the_observation_lays_out_the_seats_view_as_documented() -> None:
    env = raw_env(players=3)
    env.reset(seed=5)
    rng = random.Random(5)
    for _ in range(7):
        keep_playing(env, rng)
    seat = 1
    view = env.state.view(seat)
    observation = env.observe(f"player_{seat}")["observation"]
    parts, at = {}, 0
    for name, length in env.encoding.LAYOUT:
        parts[name] = observation[at:at + length]
        at += length
    assert at == len(observation) == env.encoding.observation_size
    assert round(float(parts["hand"].sum()) * 4) == len(view.hand)
    assert all(parts["hand"][face] > 0 for face in view.hand)
    assert parts["pile_top"][view.pile[-1][0]] == 1.0 and parts["wild_rank"][view.wild] == 1.0
    assert parts["to_move"][(view.to_move - seat) % 3] == 1.0


def test_the_rewards_of_a_deal_are_minus_the_points_each_seat_scored() -> None:
    env = raw_env(players=4)
    env.reset(seed=6)
    rng = random.Random(6)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while not env.state.is_over:
        play_randomly(env, 1, rng)
        for agent, reward in env.rewards.items():
            totals[agent] += reward
    points = env.state.match.results[0].points.points
    assert totals == {f"player_{s}": -float(points[s] or 0) for s in range(4)}
    assert any(totals.values()) and totals[f"player_{env.state.match.winner}"] == 0


def test_a_pool_match_rewards_every_deal_and_ends_when_one_seat_is_left() -> None:
    env = raw_env(players=3, format="pool101")
    env.reset(seed=9)
    rng = random.Random(9)
    rewarded = 0
    while not env.state.is_over:
        play_randomly(env, 1, rng)
        rewarded += any(env.rewards.values())
    assert rewarded == len(env.state.match.results) > 1


def test_an_illegal_action_is_refused_in_one_sentence_and_changes_nothing() -> None:
    env = raw_env(players=2)
    env.reset(seed=4)
    before = env.state.key()
    for bad in (DECLARE, 3, -1, None, 2.5):
        with pytest.raises(ValueError, match=r"legal|index"):
            env.step(bad)  # type: ignore[arg-type]
        assert env.state.key() == before


def test_render_shows_the_table_as_the_seat_to_act_sees_it() -> None:
    env = raw_env(players=2, render_mode="ansi")
    env.reset(seed=8)
    text = env.render()
    assert text is not None and f"seat {env.state.current_player}" in text and "wild:" in text


def test_bad_settings_are_refused_in_one_sentence() -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        raw_env(players=7)
    with pytest.raises(ValueError, match="format"):
        raw_env(format="pool99")
