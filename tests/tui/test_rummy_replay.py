"""``taash replay``'s screen for a 13-card Rummy record, by keys: turn by turn, deal by deal, every hand shown as
the engine has it, the totals before and after each deal, 80x24, ASCII."""

from __future__ import annotations

import asyncio

import pytest

from taash.packs import face_symbol
from taash.rummy.record import GameRecord, positions, record_from_json
from taash.tables.adapter import adapter
from taash.tables.match import TableMatch
from taash.tui.rummy.replay import RummyReplayApp, Timeline
from tests.tui.driver import assert_fits, screen_text, screenshot, text

SIZE = (80, 24)


def a_record(finished: bool = True) -> GameRecord:
    """A pool 101 match of three bots (the first player named Priya), whole or cut short in its second deal."""
    game = adapter("rummy")
    s = TableMatch(game, game.settings(3, "octro", "pool101", "medium", False), 5, ["Priya", "Asha (bot)", "Dev (bot)"])
    while not s.over and (finished or s.finished_deals() < 1 or len(s.moves) % 7):
        bot, view = s.bot_choice("medium")
        s.move(None, game.action_to(bot.choose(view)))
    return record_from_json(s.record())


def hand_text(faces: list[int]) -> str:
    return " ".join(face_symbol(f) for f in sorted(faces, key=lambda f: (f // 13, f % 13)))


def test_every_turn_of_every_deal_shows_the_engines_position() -> None:
    record = a_record()
    timeline = Timeline(record)
    expected = list(positions(record))
    assert sum(len(steps) for steps in timeline.deals) == len(expected)

    async def run() -> None:
        app = RummyReplayApp(timeline, "r.json")
        async with app.run_test(size=SIZE) as pilot:
            seen = 0
            for deal_index, steps in enumerate(timeline.deals):
                for j in range(len(steps)):
                    i, turn, deal = expected[seen]
                    assert (i, turn) == (deal_index, j) == (app.deal_index, app.step_index)
                    where = text(app, "#where")
                    assert f"deal {i + 1}/{len(timeline.deals)} · turn {j}/{len(steps) - 1}" in where
                    hands = text(app, "#hands")
                    for seat, hand in deal.hands.items():
                        if hand and seat not in deal.shown:
                            assert hand_text(hand) in hands, (i, j, seat)
                    top = face_symbol(deal.pile[-1][0])
                    assert f"Discard {top} · Stock {deal.stock_size}" in text(app, "#table")
                    if j and deal.turns[-1].discard is not None:
                        assert f"discards {face_symbol(deal.turns[-1].discard)}" in text(app, "#said")
                    if j == 0:
                        assert "deals; the open card is" in text(app, "#said")
                    assert_fits(app)
                    await pilot.press("right")
                    seen += 1
                assert "The deal is over" in text(app, "#said") and "After it" in text(app, "#match")
                await pilot.press("down")
            assert "wins the match" in text(app, "#match")
            assert any("out of the pool" in line for line in screen_text(app))
            screenshot(app, "rummy-replay")
            await pilot.press("up", "end")
            assert app.step_index == len(timeline.deals[app.deal_index]) - 1
            await pilot.press("home")
            assert app.step_index == 0
            await pilot.press("left")
            assert app.step_index == 0
            await pilot.press("q")

    asyncio.run(run())


@pytest.mark.parametrize("ascii_only", [False, True])
def test_an_unfinished_record_and_plain_ascii(ascii_only: bool) -> None:
    timeline = Timeline(a_record(finished=False), ascii_only)

    async def run() -> None:
        app = RummyReplayApp(timeline, "r.json", ascii_only)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("down", "end")
            assert "(unfinished)" in text(app, "#where")
            shown = "\n".join(screen_text(app))
            assert_fits(app)
            if ascii_only:
                assert not any(s in shown for s in "♠♥♦♣")

    asyncio.run(run())
