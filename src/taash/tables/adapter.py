"""What a game gives the tables layer: its settings, the log's words, and the JSON its client draws.

An adapter is the only place where a table meets a game's own modules; the table itself, the web server and the
terminal know a game only through :class:`TableGame` and the games API (:mod:`taash.games.api`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from taash.fairness import Fairness
from taash.games.api import Action, State
from taash.games.registry import default_game, plugin, plugins
from taash.i18n import _

JSON = Any

#: The type of the server's own action when a person's time for a turn has run out (a game's
#: :meth:`TableGame.timeout_action`): in a table's log like any action, never a client's to send.
TIMEOUT = "timeout"


class TableError(Exception):
    """An action a table refuses; ``code`` says what kind (``not_your_turn``, ``illegal``, ``bad``, ...)."""

    def __init__(self, message: str, code: str = "bad"):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Dealt:
    """How one deal was dealt, as a table stores it (never sent to anyone): the dealer, the pack in the protocol's
    card names (top card first), and the game's notes on it (Seep: why the pack was shuffled again)."""

    dealer: int
    pack: str
    notes: str = "[]"


@dataclass(frozen=True, slots=True)
class Settings:
    """What a table's creator chose: the game, its players, rules and match length, the bots' level, and whether
    the lobby lists it. ``rules`` is the game's rules object; ``length`` the game's match length (Seep: baazis to
    win, 0 a single deal; Rummy: the format's name)."""

    game: str = field(default_factory=default_game)
    players: int = 4
    rules: Any = None
    length: int | str = 1
    level: str = "medium"
    public: bool = True
    extra: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How a finished match went for one seat: whether it won (with its partner, in a game of partners), its
    result (the games API's return: +1/-1 for a match, the points won or lost in a game of points), the points
    it scored over the match, and the game's own counts (Seep: sweeps, baazis; Rummy: drops, declarations)."""

    team: int
    won: bool
    result: float
    points: int
    stats: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Remembered:
    """What an adapter notes of a state just before an action, to say afterwards what the action did."""

    data: Any


class TableGame(Protocol):
    """A game as the tables layer sees it."""

    name: str
    title: str
    player_counts: tuple[int, ...]
    #: The rules presets, the default first.
    presets: tuple[str, ...]
    #: The match formats, the default first (empty: the game's match length is a number, Seep's baazis).
    formats: tuple[str, ...]
    #: The fields of a move's message besides its ``type`` (what a table is given and stores of it).
    move_fields: tuple[str, ...]

    def settings(self, players: int, rules: JSON, length: JSON, level: str, public: bool) -> Settings:
        """Settings read and checked (``TableError`` naming the first bad one)."""

    def rules_json(self, settings: Settings) -> JSON:
        """The rules as the lobby and the database hold them (a preset's name, or the parameters)."""

    def new_state(self, settings: Settings, seed: int, dealt: Sequence[Dealt] = (),
                  fairness: Fairness | None = None) -> State:
        """A new match; deals already dealt before (``dealt``) are dealt the same way again. With ``fairness``
        every card dealt comes from it (:mod:`taash.fairness`) rather than from ``seed``."""

    def dealt(self, state: State) -> list[Dealt]:
        """How each deal of the match so far was dealt (empty for a game whose seed is enough)."""

    def action_from(self, state: State, seat: int, message: Mapping[str, JSON]) -> Action:
        """The action a client's message names, checked legal now by the engine, without changing anything
        (``TableError`` with code ``malformed`` or ``illegal``)."""

    def action_to(self, action: Action) -> dict[str, JSON]:
        """The message naming ``action`` (what :meth:`action_from` reads)."""

    def move_types(self) -> tuple[str, ...]:
        """The ``type`` of every message that is a move of the game (``bid``, ``play``; ``take``, ``discard``...)."""

    def clears_score(self, message: Mapping[str, JSON]) -> bool:
        """Whether this move takes the last finished deal's score off the table (Seep: the first play)."""

    def ends_turn(self, message: Mapping[str, JSON]) -> bool:
        """Whether this move ends its maker's turn, so that the turn timer starts again (Seep: every bid and play;
        Rummy: all but a take, the discard that follows it being the same turn's)."""

    def timeout_action(self, state: State) -> Action | None:
        """The rule book's move for the seat to move when his time for the turn has run out (Rummy: the stock's
        card taken and discarded for him, the third in a row a drop), as an action the state applies and
        :meth:`action_to` names ``{"type": TIMEOUT}``; None where the game has none, or none can be made now (a
        bot then plays the lapsed turn, as at Seep)."""

    def remember(self, state: State) -> Remembered:
        """What :meth:`said` needs of the state before an action."""

    def said(self, state: State, before: Remembered, seat: int, action: Action, names: Sequence[str]) -> list[str]:
        """The log's lines for ``action`` by ``seat`` (``state`` after it): the move in words for everyone, then
        what it ended (a deal's score, the match), then how the next deal begins. Nothing only one seat may know."""

    def opening(self, state: State, names: Sequence[str]) -> list[str]:
        """The log's lines as the match begins."""

    def summary(self, settings: Settings) -> dict[str, JSON]:
        """The settings as the lobby shows them, beside the seats."""

    def public(self, state: State, names: Sequence[str], last_shown: bool) -> dict[str, JSON]:
        """``{"score": ..., "deal": ...}``: what every connection is told alike (face-up cards only); the last
        finished deal's result shown when ``last_shown``."""

    def seat_part(self, state: State, seat: int | None, deal: dict[str, JSON]) -> dict[str, JSON]:
        """``deal`` (from :meth:`public`) with what ``seat`` alone may see added (None: a spectator)."""

    def finished_deals(self, state: State) -> int:
        """How many deals of the match are over (a table shows the last one's score until the next move)."""

    def seat_results(self, state: State) -> list[SeatResult]:
        """Each seat's result of a finished match, for its players' history and the leaderboards."""

    def split_terms(self, state: State) -> dict[int, int]:
        """Who may share the prize if the players left agree to split the match now, and by what weights
        (:mod:`taash.tables.split`); ``TableError`` (code ``no_split``) in one line where the game or the match
        allows no split."""

    def record(self, state: State, names: Sequence[str]) -> JSON:
        """The match's record in the game's protocol, with its scores (for download once the match is over)."""

    def replay(self, state: State, names: Sequence[str]) -> JSON:
        """Every step of the match, each hand shown, for the replay page (once the match is over)."""

    def verify(self, record: JSON) -> list[str]:
        """Check a fairly dealt match's record (as :meth:`record` writes it): its rules, its secret against its
        commitment, and every deal against the secret; one line per deal (``TableError`` in one line for the
        first thing wrong)."""


def adapter(game: str) -> TableGame:
    """The adapter of ``game`` (``TableError`` for a game no table seats)."""
    try:
        found: TableGame = plugin(game).part("tables")
    except ValueError:
        raise TableError(_("no tables for the game {game} (games: {games})", game=repr(str(game)[:40]),
                           games=", ".join(game_names()))) from None
    return found


def game_names() -> tuple[str, ...]:
    """The games tables seat (the registry's that have a table adapter), the default game first."""
    return tuple(p.name for p in plugins() if p.tables is not None)
