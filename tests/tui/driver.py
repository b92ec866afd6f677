"""Driving the terminal game as a person would: key presses only, through Textual's pilot; and reading the
screen back as the person sees it (the 80x24 text, and SVG screenshots under ``tests/tui/artifacts/``)."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from rich.text import Text
from textual.app import App
from textual.containers import ScrollableContainer
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from taash.cards import cards_of
from taash.seep.deal import Phase
from taash.seep.plays import CAPTURE, ESTABLISH, Play
from taash.tui.seep.app import SeepApp
from taash.tui.seep.persons_match import PersonsMatch
from taash.tui.widgets import SheetScreen

ARTIFACTS = Path(__file__).parent / "artifacts"


def text(app: SeepApp, widget_id: str) -> str:
    """The plain text of one of the screen's lines."""
    content = app.query_one(widget_id, Static).content
    return content.plain if isinstance(content, Text) else Text.from_markup(str(content)).plain


def options(app: SeepApp) -> list[str]:
    ol = app.query_one(OptionList)
    return [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]


def screen_text(app: App[object]) -> list[str]:
    """The terminal's lines as the person sees them now (what is cut off or covered does not appear)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, force_terminal=True,
                      color_system=None, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    lines = console.export_text().split("\n")[:height]
    assert len(lines) == height
    return [line.rstrip() for line in lines]


def assert_fits(app: App[object]) -> None:
    """Every line of text on the screen has room for all of its content: nothing is cut off at the bottom of
    its box, and the screen itself is no wider or taller than the terminal."""
    width, height = app.size
    for widget in app.screen.query(Static):
        region = widget.content_region
        if not region.width:
            continue
        needed = widget.get_content_height(app.size, app.size, region.width)
        assert needed <= region.height, (widget.id, region, str(widget.content))
        if isinstance(widget.parent, ScrollableContainer):  # it may run on below: its box must be on the screen
            region = widget.parent.region
        assert region.right <= width and region.bottom <= height, (widget.id, region)


def screenshot(app: App[object], name: str) -> Path:
    """An SVG picture of the screen, for people to look at (the folder is not kept in git)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return Path(app.save_screenshot(f"{name}.svg", str(ARTIFACTS)))


def policy(session: PersonsMatch) -> Play | int:
    """The scripted person: bids the highest value, builds a house whenever he can, takes houses, else the hint."""
    view = session.view()
    if view.phase is Phase.BID:
        return view.legal_bids()[-1]
    plays = view.legal_plays()
    for p in plays:
        if p[0] == ESTABLISH:
            return p
    for p in plays:
        if p[0] == CAPTURE and p[1] % 13 + 1 in view.houses:
            return p
    return session.hint()[0]


async def settle(pilot: Pilot[str], app: SeepApp) -> None:
    """Wait until the person is to move, or a score sheet is up, or the app has stopped."""
    for _ in range(2000):
        await pilot.pause()
        if not app.is_running or isinstance(app.screen, SheetScreen) or app.session.humans_turn():
            return
    raise AssertionError("the bots never handed the turn back")


async def choose(pilot: Pilot[str], app: SeepApp, choice: Play | int) -> None:
    """Make ``choice`` with the keys, then wait for the bots."""
    await press_choice(pilot, app, choice)
    await settle(pilot, app)


async def press_choice(pilot: Pilot[str], app: SeepApp, choice: Play | int) -> None:
    """Press the keys that make ``choice``: arrows to its card, then its number (or arrows and Enter)."""
    session = app.session
    view = session.view()
    if isinstance(choice, int):
        index = view.legal_bids().index(choice)
    else:
        cards = cards_of(view.hand)
        target = cards.index(choice[1])
        while app.cursor != target:
            await pilot.press("right" if app.cursor < target else "left")
        index = [p for p in view.legal_plays() if p[1] == choice[1]].index(choice)
    assert app.choices[index] == choice  # what the screen offers under that number is the play meant
    if index < 9:
        await pilot.press(str(index + 1))
    else:
        app.query_one(OptionList).highlighted = 0
        await pilot.press(*["down"] * index, "enter")
