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
#: ``name -> "module:class"``: the one family of exceptions each game's engine raises for what a person can get wrong
#: (each says what in a sentence; one with ``illegal`` true is a record that breaks the rules, not a malformed one).
_KNOWN_ERRORS: dict[str, str] = {
    "seep": "taash.seep.errors:SeepError",
    "rummy": "taash.rummy.errors:RummyError",
}
_ERRORS: dict[str, type[ValueError]] = {}


def register(name: str, factory: Callable[..., Game], errors: type[ValueError] | None = None) -> None:
    """Make a game known under ``name`` (replacing any other of that name), with its family of errors if it has
    one of its own."""
    _FACTORIES[name] = factory
    if errors is not None:
        _ERRORS[name] = errors


def game_errors() -> tuple[type[ValueError], ...]:
    """Every registered game's family of errors (their engines are imported only now: the interfaces ask when one
    has been raised)."""
    for name, where in _KNOWN_ERRORS.items():
        if name not in _ERRORS:
            module, _, attribute = where.partition(":")
            _ERRORS[name] = getattr(importlib.import_module(module), attribute)
    return tuple(_ERRORS.values())


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
