"""Seep for training at speed: :class:`SeepBatch` steps ``games`` single-deal matches at once inside the compiled
core, writing observations, action masks, rewards and done flags into NumPy arrays, with no Python per game.

Each game is :mod:`taash.env.seep_v0`'s environment with ``baazis=0``: the same action indices, the same
observation (``docs/env.md``), the same reward at the end of each deal (each seat's team's margin), and the same
deals from the same seeds: game ``i`` of ``SeepBatch(..., seed=s)`` deals the matches that ``seep_v0``'s
``env.reset(seed=s + i)`` and the ``env.reset()`` calls after it deal. A finished game starts its next match at
once (auto-reset): the observation written for it is the new match's first.

    batch = SeepBatch(1024, players=4, rules="standard", seed=7)
    observations, masks = batch.observations, batch.action_masks      # (1024, 626) float32, (1024, 8793) int8
    for _ in range(1000):
        actions = batch.random_actions()                              # or your policy, from the masks
        observations, masks, rewards, dones = batch.step(actions)     # rewards (1024, 4): per seat

The arrays are the batch's own, written again by every :meth:`SeepBatch.step` (read-only to the caller: copy what
you keep). Without the compiled core (``TAASH_PURE=1``, or no compiler at install) the same arrays come from the
Python engine through :class:`~taash.env.seep.SeepEncoding`, one game at a time (slow, but the same numbers).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any, Protocol

import numpy as np

from taash.env.seep import OPTIONS, SeepEncoding
from taash.seep.core import compiled, core_rules
from taash.seep.game import SeepState, make_game
from taash.seep.rules import Rules

#: splitmix64's constants (random_actions' generator, one per game).
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1, _MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_WORD = (1 << 64) - 1


class Games(Protocol):
    """What steps the games and writes the arrays: the compiled core's ``Batch`` or :class:`PureGames`."""

    def reset(self, seed: int | None) -> None: ...

    def step(self, actions: np.ndarray) -> None: ...

    def random_actions(self, out: np.ndarray) -> None: ...


class SeepBatch:
    """``games`` single-deal Seep matches stepped together (see the module's docstring).

    ``players`` 2 or 4; ``rules`` a preset name or rules object as ``seep_v0`` takes them; ``seed`` from 0 (game
    ``i`` plays from ``seed + i``); ``options`` as ``seep_v0``'s; ``pure`` forces the pure-Python games (the
    compiled core is used when it is built, as everywhere in taash).
    """

    def __init__(self, games: int, players: int = 4, rules: str | dict[str, Any] | Rules | None = None,
                 seed: int = 0, options: int = OPTIONS, pure: bool = False):
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise ValueError(f"games must be a whole number from 1, not {games!r}")
        self.encoding = SeepEncoding(make_game(players, rules, 0), options)
        self.games = games
        self.players = players
        self.action_size = self.encoding.action_size
        self.observation_size = self.encoding.observation_size
        self._observations = np.zeros((games, self.observation_size), dtype=np.float32)
        self._masks = np.zeros((games, self.action_size), dtype=np.int8)
        self._rewards = np.zeros((games, players), dtype=np.float32)
        self._dones = np.zeros(games, dtype=np.bool_)
        self._to_move = np.zeros(games, dtype=np.int32)
        arrays = (self._observations, self._masks, self._rewards, self._dones, self._to_move)
        self.core: Games
        if compiled is None or pure:
            self.core = PureGames(self.encoding, games, *arrays)
        else:
            self.core = compiled.Batch(core_rules(self.encoding.game.rules), games, players, options, *arrays)
        #: What each game's seat to act sees, one row per game (float32, ``docs/env.md``'s layout).
        self.observations = _read_only(self._observations)
        #: The legal actions of each game's seat to act (int8, ``seep_v0``'s action indices).
        self.action_masks = _read_only(self._masks)
        #: Each seat's reward from the last step (nonzero only where it ended a deal: the team's margin).
        self.rewards = _read_only(self._rewards)
        #: Whether the last step ended the game's match (its next match has started).
        self.dones = _read_only(self._dones)
        #: The seat to act in each game: whose observation and mask the rows hold.
        self.to_move = _read_only(self._to_move)
        self._actions = np.zeros(games, dtype=np.int64)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """A new match in every game: from ``seed`` (game ``i`` from ``seed + i``; random_actions' draws too),
        or each game's next match of its series when None. Returns the observations and the masks."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or not 0 <= seed <= _WORD - self.games + 1):
            raise ValueError(f"seed must be a whole number from 0 to 2**64 - games, not {str(seed)[:30]!r}")
        self.core.reset(seed)
        return self.observations, self.action_masks

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action in every game (a legal index of its mask each); returns the observations, the masks, the
        rewards and the done flags, all written in place. An illegal action raises ``ValueError`` and changes
        nothing."""
        given = np.asarray(actions)
        if given.shape != (self.games,) or given.dtype.kind not in "iu":
            raise ValueError(f"actions: {self.games} whole numbers, one per game (an array of shape "
                             f"({self.games},)), not an array of shape {given.shape} and type {given.dtype}")
        np.copyto(self._actions, given, casting="unsafe")
        if given.dtype.kind == "u" and (given > np.iinfo(np.int64).max).any():
            raise ValueError("an action is an index below the action space's size")
        self.core.step(self._actions)
        return self.observations, self.action_masks, self.rewards, self.dones

    def random_actions(self) -> np.ndarray:
        """A legal action of each game drawn uniformly, from each game's own generator (seeded by :meth:`reset`):
        a new array."""
        out = np.zeros(self.games, dtype=np.int64)
        self.core.random_actions(out)
        return out


def _read_only(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


def splitmix64(state: int) -> tuple[int, int]:
    """The next state and word of splitmix64 (what the compiled core's random_actions draws from)."""
    state = (state + _GOLDEN) & _WORD
    z = state
    z = ((z ^ (z >> 30)) * _MIX1) & _WORD
    z = ((z ^ (z >> 27)) * _MIX2) & _WORD
    return state, z ^ (z >> 31)


class PureGames:
    """The games on the Python engine, writing the same arrays as the compiled core's ``Batch`` (the fallback
    and the reference it is tested against)."""

    def __init__(self, encoding: SeepEncoding, games: int, observations: np.ndarray, masks: np.ndarray,
                 rewards: np.ndarray, dones: np.ndarray, to_move: np.ndarray):
        self.encoding = encoding
        self.observations, self.masks, self.rewards, self.dones, self.to_move = (
            observations, masks, rewards, dones, to_move)
        self.seeds = [random.Random() for _ in range(games)]
        self.choosers = [0] * games
        self.states: list[SeepState] = []
        self.legal: list[dict[int, Hashable]] = [{} for _ in range(games)]

    def reset(self, seed: int | None) -> None:
        games = len(self.seeds)
        if seed is not None:
            for i in range(games):
                self.seeds[i].seed(seed + i)
                self.choosers[i] = seed + i
        self.masks[:] = 0
        self.rewards[:] = 0
        self.dones[:] = False
        self.legal = [{} for _ in range(games)]
        self.states = [self._next_match(i) for i in range(games)]
        for i in range(games):
            self._write(i)

    def _next_match(self, i: int) -> SeepState:
        state = self.encoding.game.new_state(self.seeds[i].randrange(2**63))
        assert isinstance(state, SeepState)
        return state

    def _write(self, i: int) -> None:
        """Game ``i``'s observation, mask and seat to act."""
        state = self.states[i]
        self.masks[i, list(self.legal[i])] = 0
        self.legal[i] = dict(sorted(self.encoding.legal_indices(state).items()))
        self.masks[i, list(self.legal[i])] = 1
        self.observations[i] = self.encoding.observation(state, state.current_player)
        self.to_move[i] = state.current_player

    def step(self, actions: np.ndarray) -> None:
        chosen = []
        for i, action in enumerate(actions.tolist()):
            if action not in self.legal[i]:
                raise ValueError(f"game {i}: action {action} is not legal now (the legal ones are in its action mask)")
            chosen.append(self.legal[i][action])
        for i, action in enumerate(chosen):
            state = self.states[i]
            state.apply(action)
            self.rewards[i] = 0
            self.dones[i] = state.is_over
            if state.is_over:
                self.rewards[i] = self.encoding.deal_rewards(state, 0)
                self.states[i] = self._next_match(i)
            self._write(i)

    def random_actions(self, out: np.ndarray) -> None:
        if not all(self.legal):
            raise ValueError("no legal actions: reset() the batch first")
        for i, legal in enumerate(self.legal):
            self.choosers[i], word = splitmix64(self.choosers[i])
            out[i] = list(legal)[(word * len(legal)) >> 64]
