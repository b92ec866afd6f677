"""``taash play`` in Hindi and Punjabi: the full-screen game's every line (the status, the seats, the floor, the
options, the messages, the log, the score sheet, the footer's key names) is a message of the catalogue, read on the
80x24 screen as a person sees it; and the replay's footer too. English stays as it was (the other tests of the
terminal pin its words)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from taash.i18n import _, use
from taash.seep.rules import PRESETS
from taash.tables.adapter import adapter
from taash.tables.match import TableMatch
from taash.tui.rummy.app import DeclareScreen, RummyApp
from taash.tui.seep.app import SeepApp
from taash.tui.seep.persons_match import PersonsMatch
from taash.tui.seep.replay import ReplayApp, Timeline
from taash.tui.widgets import HelpScreen, SheetScreen
from tests.tui import test_replay
from tests.tui.driver import choose, policy, screen_text, settle
from tests.tui.test_rummy_app import follow_hints
from tests.tui.test_rummy_app import settle as rummy_settle

SCRIPTS = {"hi": re.compile(r"[\u0900-\u097f]"), "pa": re.compile(r"[\u0a00-\u0a7f]")}
#: English words a person could read on the screens (the game's own words Indian players say in English, the
#: keys' names and the rules' preset names aside).
ENGLISH = re.compile(r"\b(the|is|of|to|and|you|your|us|them|they|deal|deals|bid|bids|play|plays|card|cards|floor|"
                     r"hand|captured|score|sweeps?|waiting|thinking|over|wins?|continue|scroll|dealer|partner|lead|"
                     r"baazis|hint|undo|save|quit|back|start|end|turn|help|stock|discard|pile|take|drop|declare|"
                     r"points?|pts?|total|valid|first|come|rules|bots|medium|easy|single|higher|loose|house|"
                     r"cemented|owners?)\b", re.IGNORECASE)


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    use("en")


def english_in(screen: str) -> list[str]:
    """The English words of ``screen``, its file paths and the commands it names (``taash play --resume``) aside."""
    return ENGLISH.findall(re.sub(r"\S*/\S*|taash( \w+)*( --resume)?", "", screen))


def test_a_seep_match_in_hindi_and_punjabi_shows_no_english_word(tmp_path: Path) -> None:
    for lang in ("hi", "pa"):
        use(lang)
        seen = asyncio.run(a_seep_deal(tmp_path / f"{lang}.json"))
        for where, screen in seen.items():
            assert SCRIPTS[lang].search(screen), (lang, where, screen)
            assert not english_in(screen), (lang, where, english_in(screen), screen)
        assert "\u2190\u2192" in seen["bid"]  # the keys' own signs stay


async def a_seep_deal(save: Path) -> dict[str, str]:
    """The screens of one deal of Seep: the bid, a play with a hint and an undo, the help, the score sheet."""
    app = SeepApp(PersonsMatch(PRESETS["standard"], 4, "medium", 1, seed=11, name=_("You")), save, delay=0)
    seen = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        seen["bid"] = "\n".join(screen_text(app))
        await choose(pilot, app, policy(app.session))
        seen["play"] = "\n".join(screen_text(app))
        await pilot.press("h")
        seen["hint"] = "\n".join(screen_text(app))
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        seen["help's footer"] = screen_text(app)[-1]
        await pilot.press("escape")
        await played_out(pilot, app)
        assert isinstance(app.screen, SheetScreen)
        seen["sheet"] = "\n".join(screen_text(app))
        await pilot.press("q")
        await pilot.pause()
    seen["leaving"] = str(app.return_value)
    return seen


async def played_out(pilot: Pilot[str], app: SeepApp) -> None:
    """Play the deal to its end, with one undo on the way."""
    undone = False
    while app.is_running and not isinstance(app.screen, SheetScreen):
        await choose(pilot, app, policy(app.session))
        if app.session.view().plays_made >= 20 and not undone:
            undone = True
            await pilot.press("u")
            screen = "\n".join(screen_text(app))
            assert "Undone" not in screen and ("वापस लिया" in screen or "ਵਾਪਸ ਲਿਆ" in screen), screen
            await settle(pilot, app)


def test_a_rummy_deal_in_hindi_shows_no_english_word(tmp_path: Path) -> None:
    use("hi")

    async def run() -> dict[str, str]:
        game = adapter("rummy")
        session = TableMatch(game, game.settings(2, "octro", "points", "medium", False), 0,
                             [_("You"), "Asha (bot)"])
        app = RummyApp(session, tmp_path / "r.json", delay=0)
        seen = {}
        async with app.run_test(size=(80, 24)) as pilot:
            await rummy_settle(pilot, app)
            seen["take"] = "\n".join(screen_text(app))
            await pilot.press("1")
            await rummy_settle(pilot, app)
            seen["discard"] = "\n".join(screen_text(app))
            await pilot.press("2")
            assert isinstance(app.screen, DeclareScreen)
            seen["declare"] = "\n".join(screen_text(app))
            await pilot.press("n")
            await follow_hints(pilot, app)
            assert isinstance(app.screen, SheetScreen)
            seen["sheet"] = "\n".join(screen_text(app))
            await pilot.press("enter")
            await pilot.pause()
        seen["leaving"] = str(app.return_value)
        return seen

    async def a_pool() -> str:
        game = adapter("rummy")
        session = TableMatch(game, game.settings(3, "octro", "pool101", "medium", False), 5,
                             [_("You"), "Asha (bot)", "Dev (bot)"])
        app = RummyApp(session, tmp_path / "p.json", delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await rummy_settle(pilot, app)
            return "\n".join(screen_text(app))

    seen = asyncio.run(run())
    seen["pool"] = asyncio.run(a_pool())
    for where, screen in seen.items():
        assert SCRIPTS["hi"].search(screen), (where, screen)
        assert not english_in(screen) and not re.search(r"\dpts?\b", screen), (where, english_in(screen), screen)
    assert "▶आप 13 0 अंक" in seen["pool"]


@pytest.mark.parametrize("lang", ["hi", "pa"])
def test_the_replays_footer_names_its_keys_in_the_language(lang: str) -> None:
    use(lang)
    app = ReplayApp(Timeline(test_replay.a_record()), "r.json")

    async def run() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return screen_text(app)[-1]

    footer = asyncio.run(run())
    keys_named = re.sub(r"\b(home|end) ", "", footer)  # the keys' own names (Home, End) stay
    assert SCRIPTS[lang].search(footer) and not english_in(keys_named), footer
    assert ("चाल" if lang == "hi" else "ਚਾਲ") in footer and "←→" in footer


def test_english_footers_are_as_they_were() -> None:
    app = ReplayApp(Timeline(test_replay.a_record()), "r.json")

    async def run() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return screen_text(app)[-1]

    footer = asyncio.run(run())
    assert all(word in footer for word in ("play", "deal", "start", "end", "quit")), footer
