"""The small interface every game of the package offers to generic code: simulations, conformance tests, arenas.

In the manner of OpenSpiel: a game is a factory (:class:`Game`) holding the fixed parameters; a state
(:class:`GameState`) holds what changes, lists its legal actions, applies one, clones itself and round-trips
through JSON. Actions are whatever hashable value the game uses (a Seep play is a tuple; a bid is an int).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol


class GameState(Protocol):
    """One game in progress."""

    @property
    def current_player(self) -> int:
        """The seat to act (meaningless once the game is over)."""

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> Sequence[Hashable]:
        """Every action the current player may take now (never empty until the game is over)."""

    def apply(self, action: Hashable) -> None:
        """Take an action; an illegal one raises ``ValueError`` and changes nothing."""

    def clone(self) -> GameState:
        """An independent copy that plays on exactly like the original."""

    def returns(self) -> list[float]:
        """Each seat's result once the game is over (zero-sum between teams where the game has teams)."""

    def to_json(self) -> Any:
        """Everything needed to rebuild the state with :meth:`Game.state_from_json`."""

    def key(self) -> Hashable:
        """A value equal for two states exactly when they are the same position (for round-trip checks)."""


class Game(Protocol):
    """A game's static parameters and its states."""

    name: str
    players: int

    def new_state(self, seed: int) -> GameState:
        """A fresh game, all chance decided by ``seed``."""

    def state_from_json(self, data: Any) -> GameState: ...

    def max_returns(self) -> float:
        """The largest absolute value a return can take."""
