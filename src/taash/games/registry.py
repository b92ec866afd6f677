"""Games by name: each game is one :class:`~taash.games.plugin.GamePlugin`, registered here (the built-in games,
one call each, at the end of this module) or by a package of its own (an entry point in the ``taash.games``
group naming its plugin), or by the tests. Every other layer asks this registry; none names a game.

>>> game = make_game("seep", players=2)
>>> game.name, game.players
('seep', 2)
>>> plugin("rummy").title
'13-card Rummy'
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from importlib import metadata
from typing import Any

from taash.games.api import Game
from taash.games.plugin import GamePlugin, load
from taash.i18n import N_

#: The entry point group a separately installed game registers its plugin in (``name = "package.module:PLUGIN"``).
ENTRY_POINTS = "taash.games"
_PLUGINS: dict[str, GamePlugin] = {}
_FACTORIES: dict[str, Callable[..., Game]] = {}
_ERRORS: dict[str, type[ValueError]] = {}
_entry_points_read = False


def register(game: GamePlugin) -> None:
    """Make a game known under its name (replacing any other of that name: its parts are imported afresh)."""
    _PLUGINS[game.name] = game
    _FACTORIES.pop(game.name, None)
    _ERRORS.pop(game.name, None)


def _read_entry_points() -> None:
    """Register the plugins installed packages name in :data:`ENTRY_POINTS` (once; a broken one is logged and
    left out, so that one bad package does not stop every game)."""
    global _entry_points_read
    if _entry_points_read:
        return
    _entry_points_read = True
    for point in metadata.entry_points(group=ENTRY_POINTS):
        try:
            found = point.load()
        except Exception as e:
            logging.getLogger(__name__).warning("the game %s did not load: %s", point.name, e)
            continue
        if isinstance(found, GamePlugin) and found.name not in _PLUGINS:
            register(found)


def plugins() -> tuple[GamePlugin, ...]:
    """Every registered game, the default game first."""
    _read_entry_points()
    return tuple(_PLUGINS.values())


def plugin(name: str) -> GamePlugin:
    """A game's plugin by name; ``ValueError`` naming the known games for an unknown one."""
    _read_entry_points()
    if not isinstance(name, str) or name not in _PLUGINS:
        raise ValueError(f"unknown game {str(name)[:40]!r} (known: {', '.join(game_names())})")
    return _PLUGINS[name]


def game_names() -> tuple[str, ...]:
    """Every registered game's name, the default game first."""
    return tuple(p.name for p in plugins())


def default_game() -> str:
    """The game of a record, a table or a command that names none: the first registered."""
    return plugins()[0].name


def game_errors() -> tuple[type[ValueError], ...]:
    """Every registered game's family of errors (their engines are imported only now: the interfaces ask when one
    has been raised)."""
    for p in plugins():
        if p.errors is not None and p.name not in _ERRORS:
            _ERRORS[p.name] = load(p.errors)
    return tuple(_ERRORS.values())


def levels(name: str) -> dict[str, str]:
    """The player-facing levels a game offers, the easiest first, and the kind of bot each seats."""
    return dict(plugin(name).levels)


def check_level(name: str, level: object) -> str:
    """``level`` if the game offers it, else ``ValueError`` in one sentence naming the game's levels."""
    offered = levels(name)
    if not isinstance(level, str) or level not in offered:
        raise ValueError(f"the level must be one of {', '.join(offered) or 'none'} at {plugin(name).title}, "
                         f"not {str(level)[:40]!r}")
    return level


def level_words(name: str) -> dict[str, str]:
    """What each of a game's levels does, in English (the catalogue's msgids: translate as they are read)."""
    where = plugin(name).level_words
    return {} if where is None else dict(load(where))


def factory(name: str) -> Callable[..., Game]:
    """The factory of a game by name; ``ValueError`` naming the known games for an unknown one."""
    if name not in _FACTORIES:
        _FACTORIES[name] = load(plugin(name).game)
    return _FACTORIES[name]


def make_game(name: str, **settings: Any) -> Game:
    """A game by name with its settings (``players``, ``rules``, the match length: see each game's factory);
    ``ValueError`` for a setting the game does not take or a value it refuses."""
    made = factory(name)
    known = [p for p in inspect.signature(made).parameters]
    unknown = sorted(set(settings) - set(known))
    if unknown:
        raise ValueError(f"{name} takes no setting {unknown[0][:40]!r} (its settings: {', '.join(known)})")
    return made(**settings)


# -- the built-in games (the first is the default) -------------------------------------------------------------

register(GamePlugin(
    name="seep", title="Seep", players=(4, 2), player_words=((4, N_("4 (two teams)")),),
    game="taash.seep.game:make_game", errors="taash.seep.errors:SeepError",
    tables="taash.tables.seep:ADAPTER", bots="taash.bots.seep:BOTS",
    levels=(("easy", "random"), ("medium", "greedy"), ("hard", "heuristic"), ("learned", "learned"),
            ("expert", "ismcts")),
    level_words="taash.bots.seep:LEVEL_WORDS",
    full_information_bots=(("cheat", "taash.bots.seep.cheat:CheatBot"),),
    screens="taash.cli.seep_play:SCREENS", plain="taash.tui.seep.plain:WORDS", command="taash.cli.seep:app",
    view="web/static/seep/view.js", replay_view="web/static/seep/replay.js",
    stats=("sweeps", "baazis"), stakes="taash.web.seep_stakes:STAKES",
    env="taash.env.seep:raw_env", gymnasium_id="taash/Seep-v0", openspiel="taash.env.seep_openspiel",
    lessons="taash.learn.seep:LESSON",
    loadtest=(("players", 4), ("baazis", 20)),
))
register(GamePlugin(
    name="rummy", title="13-card Rummy", players=(2, 3, 4, 5, 6),
    game="taash.rummy.game:make_game", errors="taash.rummy.errors:RummyError",
    tables="taash.tables.rummy:ADAPTER", bots="taash.bots.rummy:BOTS",
    levels=(("easy", "random"), ("medium", "greedy"), ("hard", "heuristic"), ("expert", "ismcts")),
    level_words="taash.bots.rummy:LEVEL_WORDS",
    screens="taash.cli.rummy_play:SCREENS", plain="taash.tui.rummy.plain:WORDS", command="taash.cli.rummy:app",
    view="web/static/rummy/view.js", replay_view="web/static/rummy/replay.js", routes="taash.web.rummy_routes:router",
    stats=("valid_declarations", "drops", "wrong_declarations"), stakes="taash.web.rummy_stakes:STAKES",
    env="taash.env.rummy:raw_env", gymnasium_id="taash/Rummy-v0", openspiel="taash.env.rummy_openspiel",
    lessons="taash.learn.rummy:LESSON",
    loadtest=(("players", 6), ("format", "pool201")),
))
