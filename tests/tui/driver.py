"""Driving the terminal game as a person would: key presses only, through Textual's pilot."""

from __future__ import annotations

from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from taash.cards import cards_of
from taash.play.session import Session
from taash.seep.deal import Phase
from taash.seep.plays import CAPTURE, ESTABLISH, Play
from taash.tui.app import SeepApp, SheetScreen


def text(app: SeepApp, widget_id: str) -> str:
    """The plain text of one of the screen's lines."""
    content = app.query_one(widget_id, Static).content
    return content.plain if isinstance(content, Text) else Text.from_markup(str(content)).plain


def options(app: SeepApp) -> list[str]:
    ol = app.query_one(OptionList)
    return [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]


def policy(session: Session) -> Play | int:
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
    await settle(pilot, app)
