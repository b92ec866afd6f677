"""A PettingZoo AEC environment over any game of the games API (:mod:`taash.games.api`), given the game's
:class:`Encoding`: its fixed action indices, its observation of one seat's view, and its rewards per deal.

The conventions are PettingZoo's classic card games': agents ``player_0`` .. ``player_{n-1}`` (the seats), a
``Discrete`` action space, observations ``{"observation": float32 vector, "action_mask": int8 vector}`` where the
mask is all zeros for every agent but the one to act, and :func:`wrap` adds the wrappers that ``env()`` of a
classic game adds (an illegal action ends the game with ``illegal_reward`` for its author). An episode is one
match of the game (a single deal by default); rewards arrive at the end of each deal.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any, ClassVar, Protocol

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from taash.games.api import Game, State

#: An observation as PettingZoo's classic games give it.
Observation = dict[str, np.ndarray]
#: What an illegal action costs its author under :func:`wrap` (PettingZoo's classic games use -1).
ILLEGAL_REWARD = -1.0


class Encoding(Protocol):
    """What the environment needs of one game: the fixed action indices, the observation, the rewards per deal."""

    @property
    def game(self) -> Game: ...

    @property
    def action_size(self) -> int:
        """How many action indices there are (the ``Discrete`` space)."""

    @property
    def observation_size(self) -> int:
        """The length of the observation vector (every feature lies in ``[0, 1]``)."""

    def legal_indices(self, state: State) -> dict[int, Hashable]:
        """The legal actions of the seat to act, by index (the engine's actions, each at its fixed index)."""

    def observation(self, state: State, seat: int) -> np.ndarray:
        """What ``seat`` sees of ``state``, as a float32 vector: made from ``state.view(seat)`` and the match's
        public score alone."""

    def deals_over(self, state: State) -> int:
        """How many deals of the match have been scored."""

    def deal_rewards(self, state: State, deal: int) -> list[float]:
        """Each seat's reward for the scored deal ``deal`` (from 0)."""

    def render(self, state: State) -> str:
        """The table in text, as the seat to act sees it."""

    def describe(self, view: Any) -> str:
        """What a seat sees of the table (its view, from ``state.view(seat)``), in a few lines of text."""


class CardGameEnv(AECEnv):  # type: ignore[misc]
    """One match of a taash game as a PettingZoo AEC environment (see the module's docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"], "name": "taash", "is_parallelizable": False, "render_fps": 1,
    }

    def __init__(self, encoding: Encoding, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {', '.join(self.metadata['render_modes'])}, "
                             f"not {str(render_mode)[:20]!r}")
        self.encoding = encoding
        self.render_mode = render_mode
        players = encoding.game.players
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        size = encoding.observation_size
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low=0.0, high=1.0, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(encoding.action_size,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(encoding.action_size) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.state: State = encoding.game.new_state(self._seeds.randrange(2**63))
        self._legal: dict[int, Hashable] | None = None

    # -- the spaces --------------------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the episode -------------------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match: dealt from ``seed`` when given, else from the next seed of the last one given."""
        if seed is not None:
            self._seeds.seed(seed)
        self.state = self.encoding.game.new_state(self._seeds.randrange(2**63))
        self._legal = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]

    def legal_indices(self) -> dict[int, Hashable]:
        """The legal actions of the agent to act, by index (worked out once per turn)."""
        if self._legal is None:
            self._legal = {} if self.state.is_over else self.encoding.legal_indices(self.state)
        return self._legal

    def observe(self, agent: str) -> Observation:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.encoding.action_size, dtype=np.int8)
        if agent == self.agent_selection and not self.state.is_over:
            mask[list(self.legal_indices())] = 1
        return {"observation": self.encoding.observation(self.state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
            raise ValueError(f"an action is an index from 0 to {self.encoding.action_size - 1}, not {action!r}")
        legal = self.legal_indices()
        index = int(action)
        if index not in legal:
            raise ValueError(f"action {index} is not legal for {agent} now (the legal ones are in the action mask)")
        self.play(legal[index])

    def play(self, action: Hashable) -> None:
        """Apply one of the engine's legal actions for the agent to act (the single-agent wrapper's bots use
        this), then hand out the rewards of a deal it ends."""
        self._cumulative_rewards[self.agent_selection] = 0.0
        self._clear_rewards()
        deals = self.encoding.deals_over(self.state)
        self.state.apply(action)
        self._legal = None
        scored = self.encoding.deals_over(self.state)
        for deal in range(deals, scored):
            for agent, reward in zip(self.possible_agents, self.encoding.deal_rewards(self.state, deal), strict=True):
                self.rewards[agent] += reward
        if self.state.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.state.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table in text as the seat to act sees it: printed (``human``) or returned (``ansi``)."""
        if self.render_mode is None:
            return None
        text = self.encoding.render(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no process)."""


def wrap(raw: CardGameEnv) -> AECEnv:
    """``raw`` wrapped as PettingZoo's classic ``env()`` wraps its games: an illegal action ends the game with
    :data:`ILLEGAL_REWARD` for its author, an index out of the space is refused, and the AEC order is enforced."""
    env = wrappers.TerminateIllegalWrapper(raw, illegal_reward=ILLEGAL_REWARD)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
