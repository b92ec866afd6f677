"""The batched Seep environment (``taash.env.seep_batch``): the same deals, observations, masks and rewards as the
PettingZoo environment step by step, the compiled core and the pure games writing the same arrays, auto-reset,
and bad input refused without changing anything."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the env extra is not installed (pip install 'taash[env]')")

from taash.env.seep import raw_env
from taash.env.seep_batch import SeepBatch, splitmix64
from taash.seep.core import compiled, core_rules
from taash.seep.rules import PRESETS

#: Steps of a deal: the bid and 48 plays.
DEAL_STEPS = 49


def arrays(batch: SeepBatch) -> tuple[np.ndarray, ...]:
    """Copies of everything the batch writes."""
    return tuple(a.copy() for a in (batch.observations, batch.action_masks, batch.rewards, batch.dones,
                                    batch.to_move))


@pytest.mark.parametrize(("players", "rules", "options"), [
    (2, "standard", 8), (4, "standard", 8), (2, "punjab_30_qasim", 8), (4, "break_with_loose", 8),
    (4, "limited_houses", 8), (2, "karan", 1),
])
def test_each_game_plays_the_pettingzoo_envs_deals_step_by_step(players: int, rules: str, options: int) -> None:
    games, seed, steps = 3, 11, 400
    batch = SeepBatch(games, players=players, rules=rules, seed=seed, options=options)
    envs = [raw_env(players=players, rules=rules, options=options) for _ in range(games)]
    for i, env in enumerate(envs):
        env.reset(seed=seed + i)
    rng = np.random.default_rng(seed)
    deals = 0
    for _ in range(steps):
        actions = []
        for i, env in enumerate(envs):
            seat = env.possible_agents.index(env.agent_selection)
            seen = env.observe(env.agent_selection)
            assert batch.to_move[i] == seat
            np.testing.assert_array_equal(batch.observations[i], seen["observation"])
            np.testing.assert_array_equal(batch.action_masks[i], seen["action_mask"])
            actions.append(int(rng.choice(np.flatnonzero(seen["action_mask"]))))
        batch.step(np.array(actions))
        for i, env in enumerate(envs):
            env.step(actions[i])
            rewards = np.array([env.rewards[agent] for agent in env.possible_agents], dtype=np.float32)
            np.testing.assert_array_equal(batch.rewards[i], rewards)
            assert batch.dones[i] == env.state.is_over
            if env.state.is_over:
                deals += 1
                env.reset()  # the next match of the series, as the batch's auto-reset
    assert deals == games * (steps // DEAL_STEPS)


@pytest.mark.skipif(compiled is None, reason="the compiled core is not in use")
@pytest.mark.parametrize("players", [2, 4])
def test_the_compiled_core_and_the_pure_games_write_the_same_arrays(players: int) -> None:
    fast = SeepBatch(4, players=players, rules="punjab_30", seed=3)
    pure = SeepBatch(4, players=players, rules="punjab_30", seed=3, pure=True)
    assert type(fast.core) is not type(pure.core)
    for _ in range(300):
        actions = fast.random_actions()
        np.testing.assert_array_equal(actions, pure.random_actions())
        fast.step(actions)
        pure.step(actions)
        for mine, theirs in zip(arrays(fast), arrays(pure), strict=True):
            np.testing.assert_array_equal(mine, theirs)


def test_every_game_ends_its_deal_after_the_bid_and_48_plays_and_starts_the_next() -> None:
    batch = SeepBatch(5, players=4, seed=1)
    for step in range(1, 3 * DEAL_STEPS + 1):
        observations, masks, rewards, dones = batch.step(batch.random_actions())
        assert dones.all() == (step % DEAL_STEPS == 0) and dones.any() == dones.all()
        if step % DEAL_STEPS:
            assert not rewards.any()
            continue
        assert (rewards[:, 0] == rewards[:, 2]).all() and (rewards[:, 0] == -rewards[:, 1]).all()
        assert rewards.any()
        bidding = observations[:, 597] == 1  # the phase: the next match starts with its bid
        assert bidding.all() and (masks[:, :5].sum(axis=1) == masks.sum(axis=1)).all()


def test_random_actions_are_legal_and_drawn_as_documented() -> None:
    batch = SeepBatch(8, players=2, seed=40)
    chooser = [40 + i for i in range(8)]
    for _ in range(100):
        actions = batch.random_actions()
        for i, action in enumerate(actions):
            legal = np.flatnonzero(batch.action_masks[i])
            chooser[i], word = splitmix64(chooser[i])
            assert action == legal[(word * len(legal)) >> 64]
        batch.step(actions)


def test_reset_with_a_seed_deals_again_and_without_one_deals_the_next_match() -> None:
    batch = SeepBatch(3, players=2, seed=9)
    first = arrays(batch)
    batch.step(batch.random_actions())
    batch.reset(9)
    for mine, theirs in zip(arrays(batch), first, strict=True):
        np.testing.assert_array_equal(mine, theirs)
    batch.reset()
    env = raw_env(players=2)
    env.reset(seed=9 + 2)
    env.reset()
    np.testing.assert_array_equal(batch.observations[2], env.observe(env.agent_selection)["observation"])


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    batch = SeepBatch(3, players=4, seed=5)
    twin = SeepBatch(3, players=4, seed=5)
    for _ in range(30):
        actions = batch.random_actions()
        batch.step(actions)
        twin.step(actions)
    before = arrays(batch)
    actions = batch.random_actions()
    wrong = actions.copy()
    wrong[1] = int(np.flatnonzero(batch.action_masks[1] == 0)[0])
    with pytest.raises(ValueError, match=f"game 1: action {wrong[1]} is not legal now"):
        batch.step(wrong)
    for mine, theirs in zip(arrays(batch), before, strict=True):
        np.testing.assert_array_equal(mine, theirs)
    batch.step(actions)
    twin.step(actions)
    for mine, theirs in zip(arrays(batch), arrays(twin), strict=True):
        np.testing.assert_array_equal(mine, theirs)


@pytest.mark.parametrize(("actions", "message"), [
    ([0, 0], "actions: 3 whole numbers"), (np.zeros(3, dtype=np.float32), "actions: 3 whole numbers"),
    (np.full(3, 2**63 + 5, dtype=np.uint64), "an action is an index"), ([-1, 0, 0], "game 0: action -1"),
])
def test_bad_actions_get_a_one_line_error(actions: object, message: str) -> None:
    batch = SeepBatch(3, players=2)
    with pytest.raises(ValueError, match=message):
        batch.step(actions)


@pytest.mark.parametrize(("settings", "message"), [
    ({"games": 0}, "games must be"), ({"games": True}, "games must be"), ({"seed": -1}, "seed must be"),
    ({"seed": 2**64}, "seed must be"), ({"players": 3}, "2 or 4 players"), ({"options": 0}, "options must be"),
])
def test_bad_settings_get_a_one_line_error(settings: dict[str, object], message: str) -> None:
    given: dict[str, object] = {"games": 2, **settings}
    with pytest.raises(ValueError, match=message):
        SeepBatch(**given)  # type: ignore[arg-type]


def test_the_arrays_are_read_only_to_the_caller() -> None:
    batch = SeepBatch(2)
    with pytest.raises(ValueError, match="read-only"):
        batch.action_masks[0, 0] = 1


@pytest.mark.skipif(compiled is None, reason="the compiled core is not in use")
def test_the_compiled_batch_refuses_arrays_of_the_wrong_size_or_type() -> None:
    assert compiled is not None
    right = [np.zeros((2, 626), np.float32), np.zeros((2, 8793), np.int8), np.zeros((2, 4), np.float32),
             np.zeros(2, np.bool_), np.zeros(2, np.int32)]
    for k, wrong in enumerate([np.zeros((2, 625), np.float32), np.zeros((2, 8793), np.uint8),
                               np.zeros((2, 4), np.float64), np.zeros(3, np.bool_), np.zeros(2, np.int64)]):
        given = [*right[:k], wrong, *right[k + 1:]]
        with pytest.raises(ValueError, match="a C-contiguous array of"):
            compiled.Batch(core_rules(PRESETS["standard"]), 2, 4, 8, *given)
    batch = compiled.Batch(core_rules(PRESETS["standard"]), 2, 4, 8, *right)
    with pytest.raises(ValueError, match="reset"):
        batch.random_actions(np.zeros(2, np.int64))


@pytest.mark.parametrize("seed", [2**32 - 1, 2**32, 2**40 + 3, 2**64 - 2])
def test_large_seeds_deal_as_python_seeds_them(seed: int) -> None:
    batch = SeepBatch(2 if seed < 2**64 - 2 else 1, players=2, seed=seed)
    for i in range(batch.games):
        env = raw_env(players=2)
        env.reset(seed=seed + i)
        np.testing.assert_array_equal(batch.observations[i], env.observe(env.agent_selection)["observation"])
