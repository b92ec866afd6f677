"""The terminal game's help (``?``), in both games: its keys, how the rules in play score, what each level does,
and every parameter of the rules (a rules file's too); over the match, which stays where it was, its keys asleep
until Escape."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from textual.pilot import Pilot

from taash.games.registry import levels
from taash.seep.rules import PRESETS as SEEP_PRESETS
from taash.tables.adapter import adapter
from taash.tables.match import TableMatch
from taash.tui.rummy.app import RummyApp
from taash.tui.seep.app import SeepApp
from taash.tui.seep.persons_match import PersonsMatch as SeepSession
from taash.tui.shell import MatchShell
from taash.tui.widgets import HelpScreen
from tests.tui.driver import screen_text

SIZE = (80, 24)


async def wait_for_person(pilot: Pilot[str], app: MatchShell) -> None:
    for _ in range(3000):
        await pilot.pause(0.005)
        session = getattr(app, "session", None)
        person = session.humans_turn() if isinstance(session, SeepSession) else app.humans_turn()  # type: ignore[attr-defined]
        if person:
            return
    raise AssertionError("the bots never handed the turn back")


def help_of(app: MatchShell) -> str:
    assert isinstance(app.screen, HelpScreen)
    return str(app.screen.text)


def test_seep_help_tells_keys_scoring_levels_and_every_rule_of_a_custom_variant(tmp_path: Path) -> None:
    asyncio.run(seep_help(tmp_path))


async def seep_help(tmp_path: Path) -> None:
    rules = dataclasses.replace(SEEP_PRESETS["karan"], baazi_lead=150, max_houses=3)
    app = SeepApp(SeepSession(rules, 4, "medium", 1, seed=4), tmp_path / "m.json", delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_person(pilot, app)
        moves = len(app.session.table.moves)
        await pilot.press("question_mark")
        text = help_of(app)
        for said in ("Keys", "a hint", "A running lead of 150 points wins a baazi", "4 more to the team",
                     "max_houses: 3", "baazi_lead: 150", "The rules in play: karan", "The coach",
                     "what the expert (the hard bot) would do", "Each deal explained", "This game speaks English",
                     "--lang (en, hi, pa)"):
            assert said in text, said
        for level in levels("seep"):
            assert f"{level}: " in text
        await pilot.press("1", "enter", "h")  # asleep under the help: nothing is played, no hint is asked
        assert isinstance(app.screen, HelpScreen) and len(app.session.table.moves) == moves
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        assert any("?" in line and "help" in line for line in screen_text(app))  # the footer offers it


def test_rummy_help_tells_the_declaration_drops_and_the_format(tmp_path: Path) -> None:
    asyncio.run(rummy_help(tmp_path))


async def rummy_help(tmp_path: Path) -> None:
    game = adapter("rummy")
    session = TableMatch(game, game.settings(3, "classic", "pool201", "hard", False), 2, ["You", "Asha", "Dev"])
    app = RummyApp(session, tmp_path / "r.json", delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_person(pilot, app)
        await pilot.press("question_mark")
        text = help_of(app)
        for said in ("at least 2 runs (1 of them pure)", "aces 10", "Pool 201", "wrong declaration 80",
                     "The rules in play: classic", "long_run: no", "hard: weighs what its hand could become",
                     "The coach", "Each deal explained", "--lang (en, hi, pa)"):
            assert said in text, said
        await pilot.press("question_mark")
        assert not isinstance(app.screen, HelpScreen)
