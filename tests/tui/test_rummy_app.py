"""The Rummy terminal game driven by key presses, read back from the 80x24 screen as a person sees it: a whole
points deal against a bot to a valid declaration and the score sheet, a wrong declaration offered and taken back,
a pool match's sheet between deals with running totals, a hint, undo, save and resume, and bots that think on a
thread while the screen answers keys."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from taash.packs import face_symbol
from taash.rummy.deal import Discard, Drop, Phase, Take
from taash.tables.adapter import adapter
from taash.tables.match import TableMatch
from taash.tui.rummy.app import DeclareScreen, RummyApp
from taash.tui.rummy.text import CARD_LETTERS, with_symbols
from taash.tui.widgets import SheetScreen
from tests.tui.driver import assert_fits, screen_text, screenshot, text

SIZE = (80, 24)


def new_session(players: int = 2, fmt: str = "points", seed: int = 0, level: str = "medium") -> TableMatch:
    game = adapter("rummy")
    names = ["You", "Asha (bot)", "Dev (bot)", "Vikram (bot)", "Meera (bot)", "Kabir (bot)"][:players]
    return TableMatch(game, game.settings(players, "octro", fmt, level, False), seed, names)


async def settle(pilot: Pilot[str], app: RummyApp) -> None:
    """Wait until the person is to move, or a score sheet is up, or the app has stopped."""
    for _ in range(3000):
        await pilot.pause(0.005)
        if not app.is_running or isinstance(app.screen, SheetScreen) or app.humans_turn():
            return
    raise AssertionError("the bots never handed the turn back")


async def press_for(pilot: Pilot[str], app: RummyApp, action: Any) -> None:
    """Press the keys that make ``action`` (a declaration is confirmed), then wait for the bots."""
    if isinstance(action, Take):
        await pilot.press("1" if action.source == "stock" else "2")
    elif isinstance(action, Drop):
        await pilot.press("3")
    else:
        card = action.card if isinstance(action, Discard) else action.finish
        index = app.shown_cards().index(card)
        await pilot.press(CARD_LETTERS[index])
        assert app.cursor == index
        if isinstance(action, Discard):
            await pilot.press("1")
        else:
            await pilot.press("2")
            assert isinstance(app.screen, DeclareScreen)
            assert "A valid declaration" in "\n".join(screen_text(app))
            await pilot.press("y")
    await settle(pilot, app)


async def follow_hints(pilot: Pilot[str], app: RummyApp, moves: int = 10_000) -> int:
    """The person takes the hard bot's hint, by keys, ``moves`` times or until a score sheet; how many made."""
    made = 0
    await settle(pilot, app)
    while made < moves and app.is_running and not isinstance(app.screen, SheetScreen):
        action, _ = app.session.hint(0, "hard")
        await press_for(pilot, app, action)
        assert_fits(app)
        made += 1
    return made


def test_a_whole_points_deal_by_keys_to_a_valid_declaration_and_the_score_sheet(tmp_path: Path) -> None:
    async def run() -> None:
        session = new_session(seed=0)
        app = RummyApp(session, tmp_path / "m.json", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            screen = "\n".join(screen_text(app))
            view = app.view()
            assert "Wild joker" in screen and f"Stock {view.stock_size}" in screen
            assert face_symbol(view.pile[-1][0]) in text(app, "#table")
            assert "Your hand" in screen and "1. Take the top card of the stock" in screen
            assert f"3. Drop (first drop: {view.first_drop} points)" in screen
            screenshot(app, "rummy-take")
            made = await follow_hints(pilot, app)
            assert made > 4
            assert isinstance(app.screen, SheetScreen)
            sheet = "\n".join(screen_text(app))
            assert "Deal 1 is over: You win with a valid declaration" in sheet
            assert "You win the match!" in sheet and "total" in sheet
            result = app.match.results[-1].points
            assert result.winner == 0 and result.declared
            assert str(result.points[1]) in sheet
            assert_fits(app)
            screenshot(app, "rummy-sheet")
            await pilot.press("enter")
            await pilot.pause()
            assert not app.is_running
        assert "Match over" in (app.return_value or "")
        saved = json.loads((tmp_path / "m.json").read_text())
        assert saved["game"] == "rummy" and saved["record"]["game"] == "rummy"
        assert saved["record"]["scores"]["winner"] == 0

    asyncio.run(run())


def test_a_wrong_declaration_is_shown_as_not_valid_and_can_be_taken_back(tmp_path: Path) -> None:
    async def run() -> None:
        app = RummyApp(new_session(seed=3), tmp_path / "m.json", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("1")  # take from the stock
            await settle(pilot, app)
            assert app.view().phase is Phase.DISCARD
            assert "2. Declare, laying" in "\n".join(screen_text(app))
            assert "NOT valid: it would cost 80 points" in "\n".join(screen_text(app))
            await pilot.press("b", "2")
            assert isinstance(app.screen, DeclareScreen)
            shown = "\n".join(screen_text(app))
            assert "NOT a valid declaration: it costs 80 points" in shown
            assert_fits(app)
            moves = list(app.session.moves)
            await pilot.press("left", "1", "u", "h", "c")  # the game's keys wait while the confirmation is up
            assert app.session.moves == moves and isinstance(app.screen, DeclareScreen) and app.cursor == 1
            await pilot.press("n")
            assert not isinstance(app.screen, DeclareScreen)
            assert app.session.moves == moves and app.view().phase is Phase.DISCARD

    asyncio.run(run())


def test_a_pool_match_shows_the_running_totals_between_deals_and_goes_on(tmp_path: Path) -> None:
    async def run() -> None:
        app = RummyApp(new_session(players=3, fmt="pool101", seed=5), tmp_path / "m.json", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await follow_hints(pilot, app)
            assert isinstance(app.screen, SheetScreen)
            sheet = "\n".join(screen_text(app))
            assert "Pool 101: a total of 101 puts a player out" in sheet
            assert "Enter: the next deal" in sheet
            totals = app.match.totals
            assert all(str(t) in sheet for t in totals)
            assert_fits(app)
            await pilot.press("enter")
            await settle(pilot, app)
            assert not isinstance(app.screen, SheetScreen)
            assert "deal 2" in text(app, "#status")
            assert all(f"{t}pt" in text(app, "#seats") for t in totals)  # the running totals stay in sight

    asyncio.run(run())


def test_hint_names_the_hard_bots_choice_and_highlights_it(tmp_path: Path) -> None:
    async def run() -> None:
        app = RummyApp(new_session(seed=0), tmp_path / "m.json", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("1")
            await settle(pilot, app)
            action, reason = app.session.hint(0, "hard")
            await pilot.press("h")
            assert text(app, "#message").strip() == f"Hint: {with_symbols(reason)}"
            assert face_symbol(action.card) in text(app, "#message")  # type: ignore[union-attr]
            assert isinstance(action, Discard)
            assert app.shown_cards()[app.cursor] == action.card
            moves = len(app.session.moves)
            await pilot.press("enter")  # the highlighted choice is the hint's
            await settle(pilot, app)
            assert app.session.moves[moves] == app.session.game.action_to(action)

    asyncio.run(run())


def test_undo_takes_back_the_last_move_and_the_bots_replies(tmp_path: Path) -> None:
    async def run() -> None:
        app = RummyApp(new_session(players=3, seed=5), tmp_path / "m.json", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("u")
            assert "Nothing to undo yet" in text(app, "#message")
            await follow_hints(pilot, app, 3)  # take, discard, take
            moves = list(app.session.moves)
            assert app.view().phase is Phase.DISCARD
            await pilot.press("u")
            await settle(pilot, app)
            assert "Undone" in text(app, "#message")
            assert app.view().phase is Phase.TAKE and app.humans_turn()
            assert app.session.moves == moves[:-1]
            await pilot.press("u")  # the discard, and the bots' turns after it
            await settle(pilot, app)
            last_own = max(i for i, s in enumerate(app.session.movers) if s == 0) if 0 in app.session.movers else -1
            assert app.session.moves == moves[:len(app.session.moves)]
            assert app.view().phase is Phase.DISCARD and last_own == len(app.session.moves) - 1

    asyncio.run(run())


def test_save_and_resume_go_on_from_the_same_position(tmp_path: Path) -> None:
    async def run() -> None:
        path = tmp_path / "m.json"
        app = RummyApp(new_session(players=4, fmt="deals2", seed=9), path, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await follow_hints(pilot, app, 5)
            await pilot.press("s")
            assert f"Saved to {path}" in text(app, "#message")
            shown = {part: text(app, part) for part in ("#status", "#seats", "#table", "#hand")}
            moves = list(app.session.moves)
            await pilot.press("q")
            await pilot.pause()
            assert not app.is_running
        assert "Resume with: taash rummy play --resume" in (app.return_value or "")
        session, people = TableMatch.load(path)
        assert people == [0] and session.moves == moves
        again = RummyApp(session, path, delay=0)
        async with again.run_test(size=SIZE) as pilot:
            await settle(pilot, again)
            assert {part: text(again, part) for part in shown} == shown
            await follow_hints(pilot, again, 2)
            assert len(again.session.moves) > len(moves)

    asyncio.run(run())


def test_the_screen_answers_keys_while_a_bot_thinks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot's choice is made on a thread: while it thinks, the screen saves and draws."""
    release = threading.Event()

    async def run() -> None:
        session = new_session(seed=2)
        original = session.bot_choice

        def slow_choice(level: str) -> Any:
            bot, view = original(level)
            choose = bot.choose

            class Slow:
                name = bot.name

                def choose(self, v: Any) -> Any:
                    release.wait(10)
                    return choose(v)

                def explain(self, v: Any, a: Any) -> str:
                    return bot.explain(v, a)

            return Slow(), view

        monkeypatch.setattr(session, "bot_choice", slow_choice)
        app = RummyApp(session, tmp_path / "m.json", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            if app.humans_turn():
                await pilot.press("1")
                await pilot.press(CARD_LETTERS[0], "1")
            for _ in range(100):
                await pilot.pause(0.01)
                if app.thinking is not None:
                    break
            assert app.thinking == 1
            assert "Asha is thinking" in "\n".join(screen_text(app))
            await pilot.press("s")
            assert (tmp_path / "m.json").exists() and "Saved to" in text(app, "#message")
            release.set()
            await settle(pilot, app)
            assert app.thinking is None

    try:
        asyncio.run(run())
    finally:
        release.set()


def test_six_players_fit_80x24_through_a_whole_deal(tmp_path: Path) -> None:
    """Six seats, the longest log lines (a deal's points for six), the running totals: every line fits."""
    async def run() -> None:
        app = RummyApp(new_session(players=6, fmt="pool201", seed=8), tmp_path / "m.json", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await follow_hints(pilot, app)  # assert_fits after each of the person's moves
            assert isinstance(app.screen, SheetScreen)
            assert_fits(app)
            await pilot.press("enter")
            await settle(pilot, app)
            assert_fits(app)
            log = text(app, "#log").splitlines()
            assert log and log[-1] in {second for line in app.session.log[-5:] for second in
                                       _wrapped(line)}  # the newest line is in sight
            screenshot(app, "rummy-six")

    asyncio.run(run())


def _wrapped(line: str) -> set[str]:
    from rich.console import Console
    from rich.text import Text

    from taash.tui.rummy.text import second_person

    return {t.plain for t in Text(second_person(line)).wrap(Console(width=80), 80)}


def test_a_bot_that_fails_is_replaced_by_the_engines_first_legal_move(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    async def run() -> None:
        session = new_session(seed=2)
        original = session.bot_choice

        def broken(level: str) -> Any:
            bot, view = original(level)
            monkeypatch.setattr(bot, "choose", lambda v: 1 / 0)
            return bot, view

        monkeypatch.setattr(session, "bot_choice", broken)
        app = RummyApp(session, tmp_path / "m.json", delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await follow_hints(pilot, app, 4)
            assert 1 in app.session.movers  # the bot's turns were played

    asyncio.run(run())


@pytest.mark.parametrize("size", [(60, 18), (80, 24)])
def test_plain_ascii_and_a_smaller_terminal(tmp_path: Path, size: tuple[int, int]) -> None:
    async def run() -> None:
        app = RummyApp(new_session(players=4, seed=6), tmp_path / "m.json", delay=0, ascii_only=True)
        async with app.run_test(size=size) as pilot:
            await follow_hints(pilot, app, 6)
            await pilot.press("h")
            shown = "\n".join(screen_text(app))
            assert "Your hand" in shown and "Wild joker" in shown
            assert not any(s in shown for s in "♠♥♦♣←→⏎▶…"), shown
            assert_fits(app)
        small = RummyApp(new_session(seed=6), tmp_path / "m.json", delay=0)
        async with small.run_test(size=(50, 16)) as pilot:
            await pilot.pause()
            assert "enlarge it to at least 60x18" in " ".join(" ".join(screen_text(small)).split())
            await pilot.press("1")  # nothing is played unseen
            assert small.session.moves == [] or 0 not in small.session.movers

    asyncio.run(run())
