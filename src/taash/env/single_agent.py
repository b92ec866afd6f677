"""A Gymnasium single-agent environment: one seat of a taash game learns, taash bots play every other seat.

>>> env = SingleAgentEnv("seep", players=2, opponents="greedy")
>>> observation, info = env.reset(seed=7)
>>> sorted(observation), int(env.action_space.n)
(['action_mask', 'observation'], 8793)

The observation and the actions are those of the game's PettingZoo environment (:mod:`taash.env.seep_v0`,
:mod:`taash.env.rummy_v0`; ``docs/env.md``), the action mask included; the reward of a step is what the learner's
seat was given for the deals that ended since its last action (its team's, in the 4-player Seep game, where its
partner is a bot). An action the mask does not allow ends the episode with ``illegal_reward``, as PettingZoo's
classic games do. A match the learner has no turn in (two-player Rummy where the other seat drops at once) is
skipped: reset deals the next one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from taash.bots.base import Bot, make_bot
from taash.env.aec import ILLEGAL_REWARD, CardGameEnv, Observation
from taash.games.registry import default_game, plugin, plugins

#: Matches dealt at most by one reset while looking for one the learner plays in.
_MOST_SKIPPED = 1000


def raw_env(game: str, **settings: Any) -> CardGameEnv:
    """The PettingZoo environment of ``game`` by name, with its settings (``ValueError`` for an unknown game)."""
    known = [p.name for p in plugins() if p.env is not None]
    if game not in known:
        raise ValueError(f"no environment for the game {str(game)[:40]!r} (known: {', '.join(known)})")
    made: CardGameEnv = plugin(game).part("env")(**settings)
    return made


class SingleAgentEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """``seat`` of ``game`` learns; ``opponents`` (one bot spec for every other seat, or one per other seat in
    seat order: ``"greedy"``, ``"expert"``, ``"ismcts:iterations=50"``...) play the rest. ``settings`` go to the
    game's environment (``players``, ``rules``, ``baazis`` or ``format``...)."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's instance field)

    def __init__(self, game: str | None = None, seat: int = 0, opponents: str | Sequence[str] = "greedy",
                 illegal_reward: float = ILLEGAL_REWARD, render_mode: str | None = None, **settings: Any):
        self.game = game = default_game() if game is None else game
        self.aec = raw_env(game, render_mode=render_mode, **settings)
        players = len(self.aec.possible_agents)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be a whole number from 0 to {players - 1}, not {seat!r}")
        others = [s for s in range(players) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others) or not all(isinstance(spec, str) for spec in specs):
            raise ValueError(f"opponents is one bot for every other seat or a list of {len(others)} bots")
        for spec in specs:
            make_bot(spec, 0, game)  # an unknown bot or setting is refused now, in one sentence
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self.specs = dict(zip(others, specs, strict=True))
        self.bots: dict[int, Bot] = {}
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._done = True

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Observation,
                                                                                                    dict[str, Any]]:
        """A new match (from ``seed`` when given), played by the bots up to the learner's first turn."""
        super().reset(seed=seed)
        for _ in range(_MOST_SKIPPED):
            deal_seed = int(self.np_random.integers(2**62))
            self.aec.reset(seed=deal_seed)
            picks = random.Random(deal_seed)
            self.bots = {s: make_bot(spec, picks.randrange(2**62), self.game) for s, spec in self.specs.items()}
            self._play_others()
            if not self.aec.state.is_over:
                self._done = False
                return self.aec.observe(self.agent), {}
        raise RuntimeError(f"the learner had no turn in {_MOST_SKIPPED} matches in a row")

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset() first")
        legal = self.aec.legal_indices()
        if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer) or int(action) not in legal:
            self._done = True
            return self.aec.observe(self.agent), self.illegal_reward, True, False, {"illegal_action": True}
        carried = self.aec._cumulative_rewards[self.agent]  # given by the bots' actions before this turn
        self.aec.play(legal[int(action)])
        self._play_others()
        reward = float(carried + self.aec._cumulative_rewards[self.agent])
        self.aec._cumulative_rewards[self.agent] = 0.0
        self._done = self.aec.state.is_over
        return self.aec.observe(self.agent), reward, self._done, False, {}

    def _play_others(self) -> None:
        """The bots act until it is the learner's turn or the match is over."""
        state = self.aec.state
        while not state.is_over and state.current_player != self.seat:
            seat = state.current_player
            self.aec.play(self.bots[seat].choose(state.view(seat)))

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


#: Gymnasium's names for the learner's environments: ``gymnasium.make("taash/Seep-v0", players=2)`` once this
#: module is imported.
GYMNASIUM_IDS = {p.gymnasium_id: p.name for p in plugins() if p.env is not None and p.gymnasium_id is not None}
for _id, _game in GYMNASIUM_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(_id, entry_point="taash.env.single_agent:SingleAgentEnv", kwargs={"game": _game})
