"""``taash replay``'s screen driven by keys: forwards, backwards, deal to deal, every hand shown, 80x24, ASCII."""

from __future__ import annotations

import asyncio

import pytest

from taash.cards import card_symbol, cards_of
from taash.play.session import Session
from taash.seep.deal import Deal
from taash.seep.notation import play_from_json
from taash.seep.record import GameRecord, record_from_json
from taash.seep.rules import PRESETS
from taash.tui.replay import ReplayApp, Timeline
from tests.tui.driver import assert_fits, screen_text, screenshot


def a_record() -> GameRecord:
    """Two whole deals and the start of a third, the person taking the hints."""
    s = Session(PRESETS["standard"], 4, "medium", 3, seed=12, name="Priya")
    while len(s.past) < 2 or len(s.deal.plays) < 5:
        if s.deal_over:
            s.next_deal()
        elif s.humans_turn():
            choice = s.hint()[0]
            s.bid(choice) if isinstance(choice, int) else s.play(choice)
        else:
            s.bot_step()
    return record_from_json(s.to_json())


def position(record: GameRecord, deal: int, plays: int) -> Deal:
    """The deal ``deal`` of the record after ``plays`` plays, worked out here from the record alone."""
    d = record.deals[deal]
    position = Deal(record.rules, record.players, d.dealer, list(d.deck))
    position.make_bid(d.bid)
    for raw in d.plays[:plays]:
        position.play(raw if isinstance(raw, tuple) else play_from_json(raw, position.houses))
    return position


def hands_shown(screen: list[str], names: list[str]) -> list[str]:
    """The cards on the line of each seat."""
    out = []
    for name in names:
        line = next(line for line in screen if line[2:].startswith(name))
        out.append(line[2 + 14:].strip())
    return out


def expected_hands(deal: Deal, ascii_only: bool) -> list[str]:
    return [" ".join(card_symbol(c, ascii_only) for c in cards_of(h)) or "none" for h in deal.hands]


@pytest.mark.parametrize("ascii_only", [False, True])
def test_stepping_forwards_and_backwards_shows_every_hand(ascii_only: bool) -> None:
    record = a_record()
    timeline = Timeline(record, ascii_only)
    names = timeline.names
    assert names[0] == "Priya" and len(timeline.deals) == 3

    async def run() -> None:
        app = ReplayApp(timeline, "r.json", ascii_only)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()

            async def at(deal: int, plays: int, keys: list[str]) -> list[str]:
                await pilot.press(*keys)
                screen = screen_text(app)
                assert_fits(app)
                assert screen[0].split()[2:6] == ["deal", f"{deal + 1}/3", "|" if ascii_only else "·", "play"]
                assert f"play {plays}/{len(record.deals[deal].plays)}" in screen[0]
                assert hands_shown(screen, names) == expected_hands(position(record, deal, plays), ascii_only)
                if ascii_only:
                    assert "\n".join(screen).isascii()
                return screen

            start = await at(0, 0, [])
            assert any(" bids " in line for line in start)  # the bid, on the bidder's four cards
            await at(0, 5, ["right"] * 5)
            back = await at(0, 3, ["left"] * 2)
            assert any(line.startswith(f" {names[(record.deals[0].dealer + 3) % 4]}: ") for line in back)
            end = await at(0, 48, ["end"])
            score = position(record, 0, 48).score()
            assert any(line.startswith(f" Deal score {score.score[0]} : {score.score[1]} ") for line in end)
            screenshot(app, "7-replay-end" + "-ascii" * ascii_only)
            await at(0, 48, ["right"])  # the end stays the end
            await at(1, 0, ["down"])
            await at(1, 48, ["end"])
            await at(2, 0, ["down"])
            await at(2, 5, ["end"])  # the deal in progress when the record was saved
            await at(2, 5, ["down"])  # no deal after the last
            await at(1, 0, ["up"])
            await at(1, 0, ["left"])  # no play before the first
            await at(0, 0, ["pageup", "home"])
            await pilot.press("q")
            await pilot.pause()
        assert not app.is_running

    asyncio.run(run())


def test_names_in_a_record_are_text_not_markup() -> None:
    record = a_record()
    data = record.to_json()
    data["names"] = ["[bold]x[/]", "[/]", "Someone with a very long name", "D"]
    timeline = Timeline(record_from_json(data))

    async def run() -> list[str]:
        app = ReplayApp(timeline, "[/]odd.json")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert_fits(app)
            return screen_text(app)

    screen = "\n".join(asyncio.run(run()))
    assert "[bold]x[/]" in screen and "[/]odd.json" in screen and "Someone with." in screen
