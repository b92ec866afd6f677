"""The test-only tic-tac-toe (:mod:`tests.games.tictactoe`) as a whole taash game: its table adapter, its plain
terminal words, its bots and its browser modules (``tictactoe_client/``), in one :class:`GamePlugin` that only the
tests register (:func:`register_tictactoe`). Nothing in ``src/`` knows it: it is the proof that a game plugs in by
one registration (``docs/adding-a-game.md`` walks through it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from taash.bots.random_bot import RandomBot
from taash.fairness import Fairness
from taash.games.api import Action, State
from taash.games.plugin import GamePlugin
from taash.games.registry import levels, register
from taash.tables.adapter import Dealt, Remembered, SeatResult, Settings, TableError
from taash.tables.match import TableMatch
from taash.tui.plain import Choice
from tests.games.tictactoe import TicTacToe, TicTacToeState

JSON = Any
#: The marks, by seat.
MARKS = ("X", "O")
HERE = Path(__file__).resolve().parent


def _state(state: State) -> TicTacToeState:
    assert isinstance(state, TicTacToeState)
    return state


def _winner_line(state: TicTacToeState, names: Sequence[str]) -> str:
    winner = state.winner()
    return "A draw" if winner is None else f"{names[winner]} wins: three {MARKS[winner]} in a row"


class TicTacToeTables:
    """Tic-tac-toe's :class:`~taash.tables.adapter.TableGame`: a match is one game; the table's seed says who
    plays X and moves first."""

    name = "tictactoe"
    title = "Tic-tac-toe"
    player_counts = (2,)
    presets = ("standard",)
    formats: tuple[str, ...] = ()
    move_fields = ("square",)

    def settings(self, players: int, rules: JSON, length: JSON, level: str, public: bool) -> Settings:
        if players != 2:
            raise TableError("tic-tac-toe is for 2 players")
        if rules not in (None, "standard"):
            raise TableError(f"tic-tac-toe has one rule set, standard, not {str(rules)[:40]!r}")
        if length != 1:
            raise TableError("a match of tic-tac-toe is one game (baazis 1)")
        if level not in levels(self.name):
            raise TableError(f"no level {str(level)[:40]!r}")
        return Settings(self.name, players, "standard", 1, level, public)

    def rules_json(self, settings: Settings) -> JSON:
        return "standard"

    def summary(self, settings: Settings) -> dict[str, JSON]:
        return {"rules": "standard", "baazis": 1}

    def new_state(self, settings: Settings, seed: int, dealt: Sequence[Dealt] = (),
                  fairness: Fairness | None = None) -> State:
        return TicTacToe().new_state(seed)

    def dealt(self, state: State) -> list[Dealt]:
        return []

    def move_types(self) -> tuple[str, ...]:
        return ("mark",)

    def action_from(self, state: State, seat: int, message: Mapping[str, JSON]) -> Action:
        if message.get("type") != "mark":
            raise TableError(f"unknown action {str(message.get('type'))[:40]!r}")
        square = message.get("square")
        if isinstance(square, bool) or not isinstance(square, int) or not 0 <= square < 9:
            raise TableError("a square is a whole number from 0 to 8", "malformed")
        if square not in state.legal_actions():
            raise TableError(f"square {square + 1} is taken", "illegal")
        return square

    def action_to(self, action: Action) -> dict[str, JSON]:
        return {"type": "mark", "square": action}

    def clears_score(self, message: Mapping[str, JSON]) -> bool:
        return False

    def ends_turn(self, message: Mapping[str, JSON]) -> bool:
        return True

    def timeout_action(self, state: State) -> Action | None:
        return None

    def remember(self, state: State) -> Remembered:
        return Remembered(None)

    def said(self, state: State, before: Remembered, seat: int, action: Action, names: Sequence[str]) -> list[str]:
        assert isinstance(action, int)
        lines = [f"{names[seat]} takes square {action + 1}"]
        if state.is_over:
            lines.append(_winner_line(_state(state), names))
        return lines

    def opening(self, state: State, names: Sequence[str]) -> list[str]:
        first = _state(state).to_move
        return [f"{names[first]} plays X and moves first"]

    def finished_deals(self, state: State) -> int:
        return int(state.is_over)

    def public(self, state: State, names: Sequence[str], last_shown: bool) -> dict[str, JSON]:
        board = _state(state)
        winner = board.winner()
        marks = [None if m < 0 else MARKS[(m - self.first(board)) % 2] for m in board.board]
        return {"score": {"winner": winner, "deals": [], "last": None, "draw": board.is_over and winner is None},
                "deal": {"board": marks, "x": self.first(board), "to_move": None if board.is_over else board.to_move,
                         "legal": []}}

    @staticmethod
    def first(board: TicTacToeState) -> int:
        """The seat that moved first (X)."""
        return board.to_move if len(board.moves) % 2 == 0 else 1 - board.to_move

    def seat_part(self, state: State, seat: int | None, deal: dict[str, JSON]) -> dict[str, JSON]:
        if seat is not None and deal["to_move"] == seat:
            deal["legal"] = list(state.legal_actions())
        return deal

    def split_terms(self, state: State) -> dict[int, int]:
        raise TableError("tic-tac-toe has no prize pool to split: play the game out", "no_split")

    def seat_results(self, state: State) -> list[SeatResult]:
        winner = _state(state).winner()
        returns = state.returns()
        return [SeatResult(seat, winner == seat, returns[seat], int(winner == seat), {}) for seat in (0, 1)]

    def record(self, state: State, names: Sequence[str]) -> JSON:
        return {"game": self.name, "names": list(names), **_state(state).to_json()}

    def replay(self, state: State, names: Sequence[str]) -> JSON:
        board = _state(state)
        again = TicTacToe().new_state(board.seed)
        steps = [{"board": [None] * 9, "said": self.opening(again, names)[0]}]
        for square in board.moves:
            seat = again.to_move
            again.apply(square)
            steps.append({"board": [None if m < 0 else MARKS[(m - self.first(board)) % 2] for m in again.board],
                          "said": f"{names[seat]} takes square {square + 1}"})
        return {"game": self.name, "players": 2, "rules": "standard", "names": list(names),
                "deals": [{"steps": steps}]}

    def verify(self, record: JSON) -> list[str]:
        raise TableError("tic-tac-toe deals no cards: there is nothing to verify", "unfair")


class TicTacToeWords:
    """Tic-tac-toe's words for the plain terminal game."""

    def situation(self, session: TableMatch, seat: int) -> list[str]:
        board = _state(session.state)
        first = TicTacToeTables.first(board)
        cells = [str(i + 1) if m < 0 else MARKS[(m - first) % 2] for i, m in enumerate(board.board)]
        return [f"You play {MARKS[(seat - first) % 2]}.", *(" ".join(cells[r * 3:r * 3 + 3]) for r in range(3))]

    def choices(self, session: TableMatch, seat: int) -> list[Choice]:
        return [Choice(f"Mark square {s + 1}", {"type": "mark", "square": s}) for s in session.state.legal_actions()]

    def result(self, session: TableMatch) -> list[str]:
        return [_winner_line(_state(session.state), session.names) + "."]


ADAPTER = TicTacToeTables()
WORDS = TicTacToeWords()
BOTS: dict[str, type[Any]] = {"random": RandomBot}
PLUGIN = GamePlugin(
    name="tictactoe", title="Tic-tac-toe", players=(2,),
    game="tests.games.tictactoe:make_game", tables="tests.games.tictactoe_plugin:ADAPTER",
    bots="tests.games.tictactoe_plugin:BOTS", levels=(("easy", "random"), ("medium", "random")),
    plain="tests.games.tictactoe_plugin:WORDS",
    view=str(HERE / "tictactoe_client" / "view.js"), replay_view=str(HERE / "tictactoe_client" / "replay.js"),
)


def register_tictactoe() -> None:
    """Make tic-tac-toe known to every layer (the one line a game needs)."""
    register(PLUGIN)
