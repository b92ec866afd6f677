"""The terminal game driven by key presses through a whole deal: the bid, a house built and taken, a sweep,
a hint, undo, save and quit, resume, and the score sheet."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from rich.console import Group
from rich.text import Text
from textual.widgets import Static

from taash.cards import cards_of
from taash.play.session import Session
from taash.seep.deal import Phase
from taash.seep.plays import ESTABLISH
from taash.seep.rules import PRESETS
from taash.tui.app import SeepApp, SheetScreen
from tests.tui.driver import choose, options, policy, settle, text


def blocked_bid_card(session: Session) -> int | None:
    """A card of the person's bid-play hand that has no legal play, if any."""
    view = session.view()
    usable = {p[1] for p in view.legal_plays()}
    return next((c for c in cards_of(view.hand) if c not in usable), None)


def first_deal_has_everything(seed: int) -> bool:
    """Whether, with the scripted person, deal 1 of this seed has all the test looks for."""
    s = Session(PRESETS["standard"], 4, "medium", 1, seed=seed)
    if s.deal.bidder != 0:
        return False
    built = blocked = False
    while not s.deal_over:
        if s.humans_turn():
            choice = policy(s)
            if isinstance(choice, int):
                s.bid(choice)
                blocked = blocked_bid_card(s) is not None
            else:
                built |= choice[0] == ESTABLISH
                s.play(choice)
        else:
            s.bot_step()
    texts = [e.text for e in s.log]
    taken = any(t.split(": ")[1].startswith("Capture the") for t in texts if ": " in t)
    return built and blocked and taken and any(e.sweep for e in s.log)


def a_seed() -> int:
    return next(seed for seed in range(500) if first_deal_has_everything(seed))


async def play_until_saved(seed: int, save: Path, seen: list[str]) -> dict[str, object]:
    app = SeepApp(Session(PRESETS["standard"], 4, "medium", 1, seed=seed), save, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        s = app.session
        # The bid, on the first four cards, while the floor lies face down.
        assert s.deal.phase is Phase.BID and "face down" in text(app, "#floor")
        assert all(o.split(". ", 1)[1].startswith("Bid ") for o in options(app))
        await choose(pilot, app, policy(s))
        assert "You bid" in text(app, "#log")
        turns = 1
        while not s.deal_over and turns < 7:
            seen.append(text(app, "#log"))
            choice = policy(s)
            if turns == 2:  # a hint names a play and highlights it
                await pilot.press("h")
                assert text(app, "#message").startswith(" Hint: ")
            if turns == 3:  # undo takes back the person's play and the bots' replies; the same play then
                before = s.to_json()  # gives the same game again
                await choose(pilot, app, choice)
                await pilot.press("u")
                await settle(pilot, app)
                assert "Undone" in text(app, "#message") and s.to_json() == before
            await choose(pilot, app, choice)
            turns += 1
        seen.append(text(app, "#log"))
        await pilot.press("q")  # save and quit
        await pilot.pause()
    assert not app.is_running and app.return_value is not None and "Saved to" in app.return_value
    return json.loads(save.read_text())


async def resume_and_finish(save: Path, seen: list[str]) -> tuple[str, str | None]:
    app = SeepApp(Session.load(save), save, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        s = app.session
        while not isinstance(app.screen, SheetScreen):
            assert s.humans_turn()
            seen.append(text(app, "#log"))
            await choose(pilot, app, policy(s))
        seen.append(text(app, "#log"))
        sheet = app.screen.query_one(Static).content
        assert isinstance(sheet, Group)
        head = sheet.renderables[0]
        assert isinstance(head, Text)
        sheet_text = head.plain
        await pilot.press("enter")
        await settle(pilot, app)
        status = text(app, "#status") if app.is_running else ""
    return sheet_text + status, app.return_value


def test_a_whole_deal_through_the_keyboard(tmp_path: Path) -> None:
    seed = a_seed()
    save = tmp_path / "match.json"
    seen: list[str] = []
    saved = asyncio.run(play_until_saved(seed, save, seen))
    assert saved["format"] == "seep-record/1" and saved["taash"]["seed"] == seed  # type: ignore[index]
    plays_saved = len(saved["deals"][0]["plays"])  # type: ignore[index]
    assert plays_saved > 20

    after, result = asyncio.run(resume_and_finish(save, seen))
    assert after.startswith("Deal 1 is over: card points")
    log = "\n".join(seen)
    assert "You: Build a" in log  # a house built by the person
    assert "Capture the" in log  # a house captured
    assert "a sweep" in log
    final = json.loads(save.read_text()) if result else None
    if result is not None:  # the deal won a baazi: the match is over and its record saved
        assert "Match over" in result and final is not None
        assert len(final["deals"][0]["plays"]) == 48
    else:
        assert "deal 2" in after


def test_an_unusable_card_says_why(tmp_path: Path) -> None:
    seed = a_seed()

    async def run() -> list[str]:
        app = SeepApp(Session(PRESETS["standard"], 4, "medium", 1, seed=seed), tmp_path / "m.json", delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await choose(pilot, app, policy(app.session))
            card = blocked_bid_card(app.session)
            assert card is not None
            target = cards_of(app.session.view().hand).index(card)
            while app.cursor != target:
                await pilot.press("right")
            return options(app)

    shown = asyncio.run(run())
    assert len(shown) == 1 and shown[0].startswith("No play with") and "bid play must use the bid" in shown[0]
