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


def test_every_part_of_the_built_in_games_is_where_its_plugin_says() -> None:
    """A plugin's parts are paths imported late: a wrong one would surface only when a layer asks. Each is
    imported here (the OpenSpiel modules need the optional extra, and register with OpenSpiel when imported)."""
    fields = ("game", "errors", "tables", "bots", "screens", "plain", "command", "routes", "stakes", "env")
    for game in (registry.plugin("seep"), registry.plugin("rummy")):
        for field in fields:
            if getattr(game, field) is not None:
                assert game.part(field) is not None, (game.name, field)
        for which in ("view", "replay_view"):
            path = game.file(which)
            assert path is not None and path.is_file(), (game.name, which)
        assert game.part("tables").title == game.title
        assert set(game.part("tables").player_counts) == set(game.players)


def test_the_registry_says_the_default_game_and_refuses_an_unknown_one() -> None:
    assert registry.game_names()[:2] == ("seep", "rummy") and registry.default_game() == "seep"
    with pytest.raises(ValueError, match=r"^unknown game 'chess' \(known: seep, rummy"):
        registry.plugin("chess")
    with pytest.raises(ValueError, match="Tic-tac-toe has no stakes"):
        PLUGIN.part("stakes")


def test_an_installed_package_registers_its_game_by_an_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    class Point:
        def __init__(self, name: str, found: object):
            self.name, self.found = name, found

        def load(self) -> object:
            if isinstance(self.found, Exception):
                raise self.found
            return self.found

    points = [Point("tictactoe", PLUGIN), Point("broken", ImportError("no module named broken"))]
    monkeypatch.setattr(registry, "_PLUGINS", dict(registry._PLUGINS))
    monkeypatch.setattr(registry, "_entry_points_read", False)
    monkeypatch.setattr(registry.metadata, "entry_points",
                        lambda group: points if group == registry.ENTRY_POINTS else [])
    assert registry.game_names()[-1] == "tictactoe"  # after the built-in games; the broken one left out
    assert registry.plugin("tictactoe") is PLUGIN and "broken" not in registry.game_names()
