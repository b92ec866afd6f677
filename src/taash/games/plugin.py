"""A game as every layer of taash sees it: one :class:`GamePlugin`, registered once (:mod:`taash.games.registry`).

A plugin is data: the game's title and seats, and where each of its parts lives, as ``"module:attribute"`` paths
imported only when a layer first asks for that part (so the games layer imports no engine, and the web server
does not load a game's terminal screens). A part a game does not have is None: a game without a table adapter
seats no table, one without stake rules is not played for chips.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Where the package's own files are: a plugin's browser modules are paths under it (or absolute).
PACKAGE_DIR = Path(__file__).resolve().parents[1]


def load(where: str) -> Any:
    """The object a ``"module:attribute"`` path names, imported now (``"module"`` alone: the module)."""
    module, _, attribute = where.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attribute) if attribute else found


@dataclass(frozen=True, slots=True)
class GamePlugin:
    """Everything the layers above a game's engine need to know of it.

    ``players``: the player counts its tables seat, the lobby's default first; ``player_words``: how the lobby
    says a count where the number alone is not enough (``((4, "4 (two teams)"),)``). The browser's modules
    (``view``, ``replay_view``) are JavaScript files, as paths relative to the ``taash`` package's folder or
    absolute; the server serves each plugin's at ``/games/<name>/<file>`` (their folder: a view may import its
    neighbours)."""

    #: The registry's name (``"tictactoe"``): in URLs, records, the database and the command line.
    name: str
    #: The name people read (``"13-card Rummy"``).
    title: str
    players: tuple[int, ...]
    #: The engine's game factory, taking the game's settings as keyword arguments (:mod:`taash.games.api`).
    game: str
    #: The one family of exceptions the engine raises for what a person can get wrong (a ``ValueError``).
    errors: str | None = None
    #: The table adapter (:class:`taash.tables.adapter.TableGame`).
    tables: str | None = None
    #: The bots by name (``{"random": RandomBot, ...}``: classes taking ``(seed, **settings)``).
    bots: str | None = None
    #: The player-facing levels it offers, the easiest first, and the bot each seats (``(("easy", "random"),
    #: ...)``); every layer asks :func:`taash.games.registry.levels` (empty: no level, so no bot seats).
    levels: tuple[tuple[str, str], ...] = ()
    #: The level a table, a command or a save that names none plays at (one of :attr:`levels`).
    default_level: str = "medium"
    #: What each level's bot does, in a player's words: a ``{level: N_("...")}`` mapping (the terminal's help,
    #: the browser's level choice), translated where it is read.
    level_words: str | None = None
    #: Bots for measurement only that the arena hands the whole state (``(("cheat", "module:Class"),)``).
    full_information_bots: tuple[tuple[str, str], ...] = ()
    #: The terminal game (:class:`taash.cli.play_options.Screens`), ``taash play --game <name>``.
    screens: str | None = None
    #: The plain terminal game's words (:class:`taash.tui.plain.PlainWords`), ``taash play --plain``.
    plain: str | None = None
    #: The game's own commands (a Typer app), ``taash <name> ...``.
    command: str | None = None
    #: The browser's view of a table (``render``... as ``web/static/seep/view.js``) and of a replay's step.
    view: str | None = None
    replay_view: str | None = None
    #: The game's own HTTP endpoints (an ``APIRouter``), beside the generic ones.
    routes: str | None = None
    #: The counts a player's history totals (the table adapter's :class:`SeatResult` ``stats`` keys).
    stats: tuple[str, ...] = ()
    #: What a match is played for in chips (:class:`taash.web.stakes.StakeRules`); None: never for chips.
    stakes: str | None = None
    #: The PettingZoo environment (``raw_env``) and its Gymnasium id (``"taash/Seep-v0"``).
    env: str | None = None
    gymnasium_id: str | None = None
    #: The module that registers it with OpenSpiel as it is imported (by :mod:`taash.env.openspiel`).
    openspiel: str | None = None
    #: A load test's table (``taash web loadtest --game <name>``): its settings as ``POST /api/tables`` takes them.
    loadtest: tuple[tuple[str, Any], ...] = ()
    player_words: tuple[tuple[int, str], ...] = ()
    #: The learn page's lesson and rules in words (:class:`taash.learn.Lesson`), ``/learn/<name>``.
    lessons: str | None = None

    def part(self, which: str) -> Any:
        """One of the plugin's parts by field name (``"tables"``, ``"bots"``...), imported now; ``ValueError``
        in one line for a part the game does not have."""
        where = getattr(self, which)
        if where is None:
            raise ValueError(f"{self.title} has no {which.replace('_', ' ')}")
        return load(where)

    def file(self, which: str) -> Path | None:
        """The path on disk of one of the plugin's browser modules (``"view"``, ``"replay_view"``), or None."""
        where = getattr(self, which)
        return None if where is None else PACKAGE_DIR / where
