"""The registry names each game's family of errors, so the interfaces turn any game's refusal into its sentence."""

from __future__ import annotations

from dataclasses import replace

import pytest

from taash.games import registry
from taash.games.registry import game_errors, register
from taash.rummy.errors import RummyError
from taash.seep.errors import SeepError
from tests.games.tictactoe_plugin import PLUGIN


class TicTacToeError(ValueError):
    """The test game's own refusals."""


def test_the_known_games_errors_are_named() -> None:
    assert {SeepError, RummyError} <= set(game_errors())


def test_a_registered_game_brings_its_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_PLUGINS", dict(registry._PLUGINS))
    monkeypatch.setattr(registry, "_FACTORIES", dict(registry._FACTORIES))
    monkeypatch.setattr(registry, "_ERRORS", dict(registry._ERRORS))
    assert TicTacToeError not in game_errors()
    register(replace(PLUGIN, errors="tests.games.test_registry:TicTacToeError"))
    assert TicTacToeError in game_errors()
    assert "tictactoe" in registry.game_names()
