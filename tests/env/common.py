"""What the environments' tests share: PettingZoo's own checks, run with every warning caught, and random play."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the env extra is not installed (pip install 'taash[env]')")
pytest.importorskip("gymnasium", reason="the env extra is not installed (pip install 'taash[env]')")

from pettingzoo.test import api_test, seed_test

from taash.env.aec import CardGameEnv

#: What PettingZoo's api_test says of every environment whose observation is a dict with an action mask unless the
#: environment is one of its own classic games (it lists those by name): the classic games' convention is ours.
DICT_OBSERVATION_NOTES = ("Observation is not a NumPy array",
                          "Observation space for each agent probably should be gymnasium.spaces.box")


def passes_pettingzoo_tests(make: Callable[[], Any], cycles: int) -> None:
    """PettingZoo's ``api_test`` and ``seed_test`` pass, and api_test has nothing to say but the dict notes."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make(), num_cycles=cycles)
    notes = {str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_NOTES)}
    assert not notes, notes
    seed_test(make, num_cycles=cycles)


def play_randomly(env: CardGameEnv, steps: int, rng: random.Random) -> None:
    """Up to ``steps`` random legal actions (fewer if the match ends)."""
    for _ in range(steps):
        if env.state.is_over:
            return
        env.step(rng.choice(sorted(env.legal_indices())))


def same_observation(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return bool((a["observation"] == b["observation"]).all() and (a["action_mask"] == b["action_mask"]).all())


def hidden_cards_change_nothing(env: CardGameEnv, rng: random.Random) -> int:
    """Each seat's observation is unchanged when the cards it cannot see are dealt again; returns how many of
    those redeals changed some other seat's observation vector (so the check is not empty; the other seats' masks
    are not asked for: a redeal may move a card a seat is known to hold, which its legal actions would refuse)."""
    changed = 0
    for seat, agent in enumerate(env.possible_agents):
        before = {a: env.observe(a) for a in env.possible_agents}
        state = env.state
        env.state = state.with_hidden_dealt_again(seat, rng)
        env._legal = None
        try:
            assert same_observation(env.observe(agent), before[agent]), f"{agent} sees the cards hidden from it"
            changed += any((env.encoding.observation(env.state, s) != before[a]["observation"]).any()
                           for s, a in enumerate(env.possible_agents) if a != agent)
        finally:
            env.state = state
            env._legal = None
    return changed
