"""The games layer: the API every game offers (:mod:`~taash.games.api`), the registry of games by name
(:mod:`~taash.games.registry`) and the generic conformance checks every game passes
(:mod:`~taash.games.conformance`)."""

from taash.games.api import Action, ActionCodec, Game, State, View
from taash.games.registry import game_names, make_game, register

__all__ = ["Action", "ActionCodec", "Game", "State", "View", "game_names", "make_game", "register"]
