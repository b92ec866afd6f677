"""The frame both games' screens share (taash.tui.shell): key names in ASCII, and every app standing in it."""

from __future__ import annotations

from textual.binding import Binding

from taash.tui.rummy.app import RummyApp
from taash.tui.rummy.replay import RummyReplayApp
from taash.tui.seep.app import SeepApp
from taash.tui.seep.replay import ReplayApp
from taash.tui.shell import GameApp, MatchShell, ReplayShell


def test_key_names_turn_to_ascii_only_where_asked() -> None:
    plain, ascii_only = GameApp[None](), GameApp[None](ascii_only=True)
    cases = {"←→ a-p": "Left/Right a-p", "⏎ 1-3": "Enter 1-3", "⏎ 1-9": "Enter/1-9", "↑↓": "Up/Down", "⏎": "Enter",
             "h": "h"}
    for shown, words in cases.items():
        binding = Binding("x", "noop", "x", key_display=shown)
        assert ascii_only.get_key_display(binding) == words
        assert plain.get_key_display(binding) == shown


def test_both_games_stand_in_the_shared_frame() -> None:
    assert issubclass(SeepApp, MatchShell) and issubclass(RummyApp, MatchShell)
    assert issubclass(ReplayApp, ReplayShell) and issubclass(RummyReplayApp, ReplayShell)
    assert next(b.description for b in ReplayShell.bindings("play") if b.show) == "play"
