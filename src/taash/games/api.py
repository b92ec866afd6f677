"""The games API: what every game of the package offers to generic code (bots, arena, tables, terminal, web).

In the manner of OpenSpiel's Game/State/Observer split and pgx's shipped ``api_test``:

- a :class:`Game` is a small factory holding the fixed parameters (rules, number of players, match length) and
  making states; all chance of a state comes from the seed it was made with;
- a :class:`State` holds what changes: whose turn it is, the legal actions, applying one, cloning, the returns at the
  end, a JSON form that rebuilds it, and each seat's :class:`View`;
- a :class:`View` is what one seat may see, and nothing more: bots and interfaces are only ever handed views;
- an :class:`ActionCodec` turns actions into the game's protocol JSON and back, and into a sentence for people.

Actions are whatever hashable value the game uses (a Seep bid is an ``int``, a play a small tuple). Engines do not
import this module: they satisfy these protocols by shape, and their adapters are registered by name in
:mod:`taash.games.registry`.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol

#: An action of some game: any hashable value (the game's codec reads and writes it).
Action = Hashable
#: A JSON document.
JSON = Any


class View(Protocol):
    """What one seat may see of a state: everything public and the seat's own cards, nothing hidden."""

    @property
    def seat(self) -> int: ...

    @property
    def to_move(self) -> int:
        """The seat to act now."""

    def legal_actions(self) -> Sequence[Action]:
        """The seat's legal actions when it is to act (empty otherwise)."""

    def to_json(self) -> JSON:
        """The whole view as JSON (what a client of this seat is sent)."""


class State(Protocol):
    """One match in progress."""

    @property
    def current_player(self) -> int:
        """The seat to act (meaningless once the match is over)."""

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> Sequence[Action]:
        """Every action the current player may take now (never empty until the match is over)."""

    def apply(self, action: Action) -> None:
        """Take an action; an illegal one raises ``ValueError`` and changes nothing."""

    def clone(self) -> State:
        """An independent copy that plays on exactly like the original."""

    def returns(self) -> list[float]:
        """Each seat's result once the match is over (zero-sum between teams)."""

    def to_json(self) -> JSON:
        """Everything needed to rebuild the state with :meth:`Game.state_from_json` (the game record)."""

    def key(self) -> Hashable:
        """A value equal for two states exactly when they are the same position (for round-trip checks)."""

    def tallies(self) -> dict[str, tuple[int, ...]]:
        """Counts per team that the arena reports beside the returns (Seep: baazis won); may be empty."""

    def view(self, seat: int) -> View:
        """What ``seat`` may see now."""

    def with_hidden_dealt_again(self, seat: int, rng: random.Random) -> State:
        """A copy where the cards ``seat`` cannot see are dealt again among the same hidden places.

        Public information and ``seat``'s own cards are unchanged, so ``seat``'s view must be too: the generic
        conformance test checks that views and bots depend on nothing hidden. A game without hidden information
        returns a plain clone.
        """


class ActionCodec(Protocol):
    """Actions in the game's protocol JSON, and in words."""

    def to_json(self, action: Action) -> JSON: ...

    def from_json(self, view: Any, data: JSON) -> Action:
        """The action ``data`` names, read in the context of ``view`` (the game's own :class:`View`; ``ValueError``
        if it names none)."""

    def describe(self, view: Any, action: Action) -> str:
        """One sentence for people, as seen by ``view``'s seat before the action."""


class Game(Protocol):
    """A game's static parameters and its states."""

    @property
    def name(self) -> str:
        """The registry name (``"seep"``)."""

    @property
    def players(self) -> int: ...

    @property
    def codec(self) -> ActionCodec: ...

    def team_of(self, seat: int) -> int:
        """The team a seat plays for (partners share a team; in a game of singles each seat is its own)."""

    def new_state(self, seed: int) -> State:
        """A fresh match, all chance decided by ``seed``: the same seed deals the same cards."""

    def state_from_json(self, data: JSON) -> State:
        """A state from :meth:`State.to_json` (``ValueError`` for anything that is not one)."""

    def max_returns(self) -> float:
        """The largest absolute value a return can take."""
