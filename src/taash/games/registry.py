"""Games by name. Each game's adapter is found by an import path, so nothing is imported until it is asked for and
no engine imports the games layer; tests may register games of their own.

>>> game = make_game("seep", players=2)
>>> game.name, game.players
('seep', 2)
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from taash.games.api import Game

#: ``name -> "module:factory"``: the factory takes the game's settings as keyword arguments.
_KNOWN: dict[str, str] = {
    "seep": "taash.seep.game:make_game",
    "rummy": "taash.rummy.game:make_game",
}
_FACTORIES: dict[str, Callable[..., Game]] = {}


def register(name: str, factory: Callable[..., Game]) -> None:
    """Make a game known under ``name`` (replacing any other of that name)."""
    _FACTORIES[name] = factory


def game_names() -> list[str]:
    """Every registered game's name."""
    return sorted({*_KNOWN, *_FACTORIES})


def factory(name: str) -> Callable[..., Game]:
    """The factory of a game by name; ``ValueError`` naming the known games for an unknown one."""
    if name in _FACTORIES:
        return _FACTORIES[name]
    if name not in _KNOWN:
        raise ValueError(f"unknown game {name[:40]!r} (known: {', '.join(game_names())})")
    module, _, attribute = _KNOWN[name].partition(":")
    made: Callable[..., Game] = getattr(importlib.import_module(module), attribute)
    _FACTORIES[name] = made
    return made


def make_game(name: str, **settings: Any) -> Game:
    """A game by name with its settings (``players``, ``rules``, the match length: see each game's factory);
    ``ValueError`` for a setting the game does not take or a value it refuses."""
    made = factory(name)
    known = [p for p in inspect.signature(made).parameters]
    unknown = sorted(set(settings) - set(known))
    if unknown:
        raise ValueError(f"{name} takes no setting {unknown[0][:40]!r} (its settings: {', '.join(known)})")
    return made(**settings)
