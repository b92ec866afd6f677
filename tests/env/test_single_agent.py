"""The Gymnasium single-agent environment: Gymnasium's own checker passes, taash bots play the other seats, the
learner's reward is its seat's deal reward, and an illegal action ends the episode."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the env extra is not installed (pip install 'taash[env]')")
pytest.importorskip("pettingzoo", reason="the env extra is not installed (pip install 'taash[env]')")

import gymnasium
from gymnasium.utils.env_checker import check_env

from taash.env.single_agent import SingleAgentEnv


@pytest.mark.parametrize(("game", "settings"), [("seep", {"players": 2}), ("seep", {"players": 4, "seat": 1}),
                                                ("rummy", {"players": 2}), ("rummy", {"players": 6, "seat": 5})])
def test_gymnasiums_env_checker_passes(game: str, settings: dict[str, int]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(SingleAgentEnv(game, opponents="greedy", **settings))
    notes = {str(w.message) for w in caught if "alternative render modes" not in str(w.message)}
    assert not notes, notes


def test_the_registered_ids_make_the_environments_and_pass_the_checker_with_their_render_modes(
        capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("taash/Seep-v0", "taash/Rummy-v0"):
        env = gymnasium.make(name, players=2, opponents="random")
        check_env(env.unwrapped)
    assert "seat" in capsys.readouterr().out  # the human render mode printed the table


def run_episode(env: SingleAgentEnv, seed: int) -> tuple[float, int]:
    """Random masked actions to the end of the match: the summed reward and the steps taken."""
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        assert observation["action_mask"].any()
        assert env.aec.state.current_player == env.seat  # the bots played every other seat
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, done, truncated, info = env.step(action)
        assert not truncated and not info
        total += reward
        steps += 1
    return total, steps


@pytest.mark.parametrize(("game", "settings"), [("seep", {"players": 4, "seat": 2, "baazis": 1}),
                                                ("rummy", {"players": 3, "seat": 1, "format": "pool101"})])
def test_the_learners_rewards_add_up_to_its_seats_deal_rewards(game: str, settings: dict[str, int]) -> None:
    env = SingleAgentEnv(game, opponents="greedy", **settings)
    for seed in range(2):
        total, steps = run_episode(env, seed)
        encoding, state = env.aec.encoding, env.aec.state
        expected = sum(encoding.deal_rewards(state, d)[env.seat] for d in range(encoding.deals_over(state)))
        assert steps and total == expected


def test_the_same_seed_plays_the_same_match() -> None:
    a, b = SingleAgentEnv("seep", players=4, opponents="heuristic"), SingleAgentEnv("seep", players=4,
                                                                                      opponents="heuristic")
    assert run_episode(a, 3) == run_episode(b, 3)
    assert a.aec.state.key() == b.aec.state.key()


def test_each_other_seat_may_have_a_bot_of_its_own() -> None:
    env = SingleAgentEnv("rummy", players=3, seat=0, opponents=["random", "heuristic"])
    env.reset(seed=1)
    assert {s: type(bot).__name__ for s, bot in env.bots.items()} == {1: "RandomBot", 2: "HeuristicBot"}


def test_an_action_the_mask_does_not_allow_ends_the_episode_with_the_illegal_reward() -> None:
    env = SingleAgentEnv("seep", players=2, illegal_reward=-5)
    observation, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done, info) == (-5.0, True, {"illegal_action": True})
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_bad_settings_are_refused_in_one_sentence() -> None:
    with pytest.raises(ValueError, match="no environment for the game"):
        SingleAgentEnv("chess")
    with pytest.raises(ValueError, match="seat"):
        SingleAgentEnv("seep", players=2, seat=2)
    with pytest.raises(ValueError, match="unknown bot"):
        SingleAgentEnv("seep", opponents="grandmaster")
    with pytest.raises(ValueError, match="one bot for every other seat"):
        SingleAgentEnv("seep", players=4, opponents=["random", "greedy"])
