"""A match in play at a table: its state, every move made, the log in words, and bots for any seat.

Both the web server's tables and the terminal's sessions play through a :class:`Session`. It knows a game only
through the game's table adapter and the games API: a move is a message (``{"type": "play", ...}``), read by the
adapter in the context of the state, checked by the engine, and said in words for the log. Each bot is seeded from
the match's seed and the position, so the same match and the same choices always give the same game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from taash.bots.base import Bot, make_bot
from taash.games.api import Action, State, View
from taash.tables.adapter import Dealt, Settings, TableError, TableGame

JSON = Any
#: Lines of the log a session keeps.
LOG_KEPT = 64


class Session:
    """One match of ``settings`` dealt from ``seed``, with seat names for the log."""

    def __init__(self, game: TableGame, settings: Settings, seed: int, names: Sequence[str],
                 dealt: Sequence[Dealt] = ()):
        self.game = game
        self.settings = settings
        self.seed = seed
        self.names = list(names)
        self.state: State = game.new_state(settings, seed, dealt)
        #: Every move made, as messages, in order: the match is its seed and these.
        self.moves: list[dict[str, JSON]] = []
        self.log: list[str] = []
        self.note(*game.opening(self.state, self.names))

    # -- the match ----------------------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.is_over

    def to_move(self) -> int | None:
        """The seat to act, or None once the match is over."""
        return None if self.state.is_over else self.state.current_player

    def view(self, seat: int) -> View:
        return self.state.view(seat)

    def finished_deals(self) -> int:
        return self.game.finished_deals(self.state)

    def read(self, seat: int | None, message: Mapping[str, JSON]) -> Action:
        """The action ``message`` names for the seat to move (``TableError`` if it is not that seat's turn, or the
        message names no legal action); changes nothing."""
        if self.state.is_over:
            raise TableError("the match is over", "over")
        to_move = self.state.current_player
        if seat is not None and seat != to_move:
            raise TableError("it is not your turn", "not_your_turn")
        action = self.game.action_from(self.state, to_move, message)
        trial = self.state.clone()
        try:
            trial.apply(action)
        except ValueError as e:
            raise TableError(f"that is not legal here: {e}", "illegal") from None
        return action

    def move(self, seat: int | None, message: Mapping[str, JSON]) -> list[str]:
        """Make the move ``message`` names for the seat to move (``seat`` None: whoever it is, for a bot or the
        server); returns the log's new lines."""
        action = self.read(seat, message)
        return self.make(action)

    def make(self, action: Action) -> list[str]:
        """Make a checked action of the seat to move; returns the log's new lines."""
        seat = self.state.current_player
        before = self.game.remember(self.state)
        self.state.apply(action)
        self.moves.append(self.game.action_to(action))
        lines = self.game.said(self.state, before, seat, action, self.names)
        self.note(*lines)
        return lines

    def note(self, *lines: str) -> None:
        """Add lines to the log (in words, for everyone: nothing only one seat may know)."""
        self.log.extend(lines)
        del self.log[:-LOG_KEPT]

    # -- bots ---------------------------------------------------------------------------------------------------

    def bot(self, seat: int, level: str) -> Bot:
        """A bot of ``level`` for ``seat``, seeded by the match's seed and the position."""
        key = f"{self.seed}/{len(self.moves)}/{seat}/{level}"
        return make_bot(level, random.Random(key).randrange(2**32), game=self.game.name)

    def bot_choice(self, level: str) -> tuple[Bot, View]:
        """A bot for the seat to move and that seat's view: an independent snapshot, so the bot may think in
        another thread while the match goes on."""
        seat = self.state.current_player
        return self.bot(seat, level), self.state.clone().view(seat)

    def first_legal(self) -> dict[str, JSON]:
        """The engine's first legal action for the seat to move, as a message (when a bot fails)."""
        return self.game.action_to(self.state.legal_actions()[0])

    def hint(self, seat: int, level: str) -> tuple[Action, str]:
        """What a bot of ``level`` would do in ``seat``'s place, with its one-line reason."""
        if self.to_move() != seat:
            raise TableError("it is not your turn", "not_your_turn")
        bot = self.bot(seat, level)
        view = self.state.view(seat)
        action = bot.choose(view)
        return action, bot.explain(view, action)

    # -- records ------------------------------------------------------------------------------------------------

    def dealt(self) -> list[Dealt]:
        return self.game.dealt(self.state)

    def record(self) -> JSON:
        return self.game.record(self.state, self.names)
