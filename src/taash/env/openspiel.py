"""taash's games as OpenSpiel games: importing this module registers every game whose plugin names an OpenSpiel
module (Seep's ``python_taash_seep``, :mod:`taash.env.seep_openspiel`; Rummy's ``python_taash_rummy``,
:mod:`taash.env.rummy_openspiel`) with :func:`pyspiel.register_game` (the ``openspiel`` extra: ``pip install
'taash[openspiel]'``).

>>> import pyspiel
>>> game = pyspiel.load_game("python_taash_seep", {"players": 2})
>>> game.num_distinct_actions(), game.observation_tensor_size()
(8793, 626)

The actions and the observation tensor are the PettingZoo environments' (:mod:`taash.env.seep`,
:mod:`taash.env.rummy`; ``docs/env.md``), and the engine behind them is the same. OpenSpiel's own parts:

* chance is explicit and happens once, at the start: the chance node draws the match's seed uniformly among
  ``seeds`` (the game's parameter), and the engine deals everything from that seed (the shuffles, Rummy's
  reshuffles of the discard pile). Nothing else is random;
* the information state is perfect recall: its string is the seat's compact observation after every move, with
  the move's index (every index is public: a Rummy declaration's index does not name its finish card); its tensor
  is the observation tensor and the faces the seat has held at some time in the deal (a summary, not the log);
* the returns are the games API's at the end of the match (:meth:`taash.games.api.State.returns`: Seep's single
  deal, each team's score margin; Rummy's points format, each loser pays the winner his points); zero-sum;
* a match longer than ``max_moves`` decisions (Rummy's deals have no bound of their own: the discard pile is
  shuffled into the stock again and again) stops there with every return 0. Seep's single deal is always 49.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from taash.env.aec import Encoding
from taash.games.api import Game, State
from taash.games.registry import plugins

#: How many seeds the chance node draws among unless set (each seed deals one match).
SEEDS = 10_000


def game_type(short_name: str, long_name: str, players: range, parameters: dict[str, Any]) -> pyspiel.GameType:
    """A taash game's OpenSpiel type (each game's module registers its own: its plugin's ``openspiel``)."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players.stop - 1,
        min_num_players=players.start,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class TaashGame(pyspiel.Game):  # type: ignore[misc]
    """A taash game in OpenSpiel: the games API's game, its encoding (the actions and the observation), the seeds
    the chance node draws among, and the most decisions a match may take."""

    def __init__(self, game_type: pyspiel.GameType, params: dict[str, Any], encoding: Encoding, seeds: int,
                 max_moves: int):
        if isinstance(seeds, bool) or not isinstance(seeds, int) or not 1 <= seeds <= 1_000_000:
            raise ValueError(f"seeds must be a whole number from 1 to 1,000,000, not {seeds!r}")
        self.taash: Game = encoding.game
        self.encoding = encoding
        self.seeds = seeds
        self.max_moves = max_moves
        most = float(self.taash.max_returns())
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.action_size,
            max_chance_outcomes=seeds,
            num_players=self.taash.players,
            min_utility=-most,
            max_utility=most,
            utility_sum=0.0,
            max_game_length=max_moves,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> TaashState:
        return TaashState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TaashObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return TaashObserver(self, perfect_recall)


@dataclass(frozen=True)
class _Parts:
    """What a state needs of its game (OpenSpiel hands states a game object without the Python attributes)."""

    taash: Game
    encoding: Encoding
    seeds: int
    max_moves: int

    def __deepcopy__(self, memo: dict[int, Any]) -> _Parts:
        """Shared by every state of the game: nothing in it changes."""
        return self


class _Match:
    """What changes in a match: the games API's state, each seat's log and cards held, the legal actions now.

    OpenSpiel clones a Python state by deep-copying its attributes one by one; this one copies itself with the
    engine's own clone (a deep copy of the engine's state would copy its caches too) and shares the views in the
    logs, which never change.
    """

    def __init__(self, players: int):
        self.state: State | None = None
        self.moves = 0
        #: Each seat's perfect-recall log: the moves (seat, action index) and the seat's view after each move (its
        #: lines are written when asked for: a play-out to the end of a deal never asks).
        self.logs: list[list[str | Any]] = [[] for _ in range(players)]
        #: Each seat's faces held at some time in the deal in progress (53 flags), and that deal's number.
        self.held = np.zeros((players, 53), np.float32)
        self.deal = 0
        self.legal: dict[int, Hashable] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Match:
        new = _Match.__new__(_Match)
        new.state = None if self.state is None else self.state.clone()
        new.moves = self.moves
        new.logs = [list(log) for log in self.logs]
        new.held = self.held.copy()
        new.deal = self.deal
        new.legal = self.legal
        return new


class TaashState(pyspiel.State):  # type: ignore[misc]
    """A match: a chance node draws its seed, then the engine plays the seats' actions by their indices."""

    def __init__(self, game: TaashGame):
        super().__init__(game)
        self.game = _Parts(game.taash, game.encoding, game.seeds, game.max_moves)
        self.match = _Match(game.taash.players)

    @property
    def state(self) -> State | None:
        """The games API's state of the match (None before the chance node deals it)."""
        return self.match.state

    # -- OpenSpiel's API ----------------------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        if self.state is None or self.is_terminal() or player != self.state.current_player:
            return []
        return sorted(self.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.game.seeds
        return [(seed, p) for seed in range(self.game.seeds)]

    def _apply_action(self, action: int) -> None:
        match = self.match
        if match.state is None:
            state = match.state = self.game.taash.new_state(action)
        else:
            state = match.state
            actor = state.current_player
            state.apply(self.legal()[action])
            match.moves += 1
            match.legal = None
            for log in match.logs:
                log.append(f"{actor}:{action}")
        deals = self.game.encoding.deals_over(state)
        if deals != match.deal:
            match.deal = deals
            match.held.fill(0.0)
        for seat, log in enumerate(match.logs):
            view: Any = state.view(seat)
            log.append(view)
            match.held[seat, _faces(view.hand)] = 1.0

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal the match of seed {action}"
        if self.state is not None and not self.is_terminal() and action in self.legal():
            view = self.state.view(self.state.current_player)
            return f"{action}: {self.game.taash.codec.describe(view, self.legal()[action])}"
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self.state is not None and (self.state.is_over or self.match.moves >= self.game.max_moves)

    def returns(self) -> list[float]:
        if self.state is None or not self.state.is_over:
            return [0.0] * self.game.taash.players
        return [float(r) for r in self.state.returns()]

    def __str__(self) -> str:
        if self.state is None:
            return "the match is not dealt yet"
        return self.game.encoding.render(self.state)

    # -- what the observer reads ---------------------------------------------------------------------------------

    def legal(self) -> dict[int, Hashable]:
        """The legal actions of the seat to act, by index."""
        if self.match.legal is None:
            assert self.state is not None
            self.match.legal = self.game.encoding.legal_indices(self.state)
        return self.match.legal

    def observation_string(self, seat: int) -> str:
        """What ``seat`` sees now, on one line (its view; the match's seed is not in it)."""
        if self.state is None:
            return ""
        return self.line(self.state.view(seat))

    def line(self, view: Any) -> str:
        """A view in one line of text."""
        return " / ".join(text.strip() for text in self.game.encoding.describe(view).splitlines())


def _faces(hand: int | tuple[int, ...]) -> list[int]:
    """The faces of a hand: Seep's card mask or Rummy's tuple of faces."""
    return list(hand) if isinstance(hand, tuple) else [c for c in range(52) if hand >> c & 1]


class TaashObserver:
    """OpenSpiel's Python observer: the observation tensor (the PettingZoo environments'), and for the
    information state, that tensor and the faces the seat has held at some time in the deal in progress."""

    def __init__(self, game: TaashGame, perfect_recall: bool):
        self.game = game
        self.perfect_recall = perfect_recall
        size = game.encoding.observation_size + (53 if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TaashState, player: int) -> None:
        self.tensor.fill(0.0)
        if state.state is None:
            return
        size = self.game.encoding.observation_size
        self.tensor[:size] = self.game.encoding.observation(state.state, player)
        if self.perfect_recall:
            self.tensor[size:] = state.match.held[player]

    def string_from(self, state: TaashState, player: int) -> str:
        if self.perfect_recall:
            log = state.match.logs[player]
            return "\n".join(entry if isinstance(entry, str) else state.line(entry) for entry in log)
        return state.observation_string(player)


for _game in plugins():  # each game's module registers its game with OpenSpiel as it is imported
    if _game.openspiel is not None:
        _game.part("openspiel")
