"""A tiny second game, used only by the tests: proof that the games layer is generic (no cards, no teams of two,
no chance but the seed choosing who starts). Actions are the squares 0..8."""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


@dataclass(frozen=True)
class BoardView:
    seat: int
    to_move: int
    board: tuple[int, ...]
    over: bool

    def legal_actions(self) -> list[int]:
        if self.over or self.seat != self.to_move:
            return []
        return [i for i, mark in enumerate(self.board) if mark < 0]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "to_move": self.to_move, "board": list(self.board), "over": self.over}


class Codec:
    def to_json(self, action: Hashable) -> int:
        assert isinstance(action, int)
        return action

    def from_json(self, view: BoardView, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int) or not 0 <= data < 9:
            raise ValueError("a square is 0 to 8")
        return data

    def describe(self, view: BoardView, action: Hashable) -> str:
        return f"Mark square {action}"


class TicTacToeState:
    def __init__(self, first: int, seed: int):
        self.board = [-1] * 9
        self.to_move = first
        self.seed = seed
        self.moves: list[int] = []

    def winner(self) -> int | None:
        for a, b, c in LINES:
            if self.board[a] >= 0 and self.board[a] == self.board[b] == self.board[c]:
                return self.board[a]
        return None

    @property
    def current_player(self) -> int:
        return self.to_move

    @property
    def is_over(self) -> bool:
        return self.winner() is not None or all(mark >= 0 for mark in self.board)

    def legal_actions(self) -> list[int]:
        return [] if self.is_over else [i for i, mark in enumerate(self.board) if mark < 0]

    def apply(self, action: Hashable) -> None:
        if isinstance(action, bool) or action not in self.legal_actions():
            raise ValueError(f"square {action!r} cannot be marked now")
        assert isinstance(action, int)
        self.board[action] = self.to_move
        self.moves.append(action)
        self.to_move = 1 - self.to_move

    def clone(self) -> TicTacToeState:
        new = TicTacToeState(self.to_move, self.seed)
        new.board = self.board[:]
        new.moves = self.moves[:]
        return new

    def returns(self) -> list[float]:
        w = self.winner()
        return [0.0, 0.0] if w is None else [1.0 if s == w else -1.0 for s in (0, 1)]

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "moves": list(self.moves)}

    def key(self) -> Hashable:
        return tuple(self.board), self.to_move

    def tallies(self) -> dict[str, tuple[int, ...]]:
        return {}

    def view(self, seat: int) -> BoardView:
        return BoardView(seat, self.to_move, tuple(self.board), self.is_over)

    def with_hidden_dealt_again(self, seat: int, rng: random.Random) -> TicTacToeState:
        return self.clone()


class TicTacToe:
    name = "tictactoe"
    players = 2
    codec = Codec()

    def team_of(self, seat: int) -> int:
        return seat

    def new_state(self, seed: int) -> TicTacToeState:
        return TicTacToeState(random.Random(seed).randrange(2), seed)

    def state_from_json(self, data: Any) -> TicTacToeState:
        if not isinstance(data, dict) or not isinstance(data.get("seed"), int) or not isinstance(data.get("moves"),
                                                                                                 list):
            raise ValueError("a tic-tac-toe state is {'seed': ..., 'moves': [...]}")
        state = self.new_state(data["seed"])
        for move in data["moves"]:
            state.apply(move)
        return state

    def max_returns(self) -> float:
        return 1.0


def make_game() -> TicTacToe:
    return TicTacToe()
