"""``taash replay``'s screen driven by keys: forwards, backwards, deal to deal, every hand shown, 80x24, ASCII."""

from __future__ import annotations

import asyncio

import pytest

from taash.cards import card_symbol, cards_of
from taash.seep.deal import Deal
from taash.seep.notation import play_from_json
from taash.seep.record import GameRecord, record_from_json
from taash.seep.rules import PRESETS
from taash.tui.seep.persons_match import PersonsMatch
from taash.tui.seep.replay import ReplayApp, Timeline
from tests.tui.driver import assert_fits, screen_text, screenshot


def a_record() -> GameRecord:
    """Two whole deals and the start of a third, the person taking the hints."""
    s = PersonsMatch(PRESETS["standard"], 4, "medium", 3, seed=12, name="Priya")
    while s.seen < 2 or len(s.deal.plays) < 5:
        if s.deal_over:
            s.next_deal()
        elif s.humans_turn():
            choice = s.hint()[0]
            s.bid(choice) if isinstance(choice, int) else s.play(choice)
        else:
            s.bot_step()
    return s.record()


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


def a_punjab_match() -> PersonsMatch:
    """A 2-player punjab_30 match of three deals at most (the person makes the first legal play, easy bots) whose
    first pack was dealt again, whose first deal is a Satthi, and with a baazi: found from the engine."""
    from taash.seep.deal import Phase

    for seed in range(500):
        s = PersonsMatch(PRESETS["punjab_30"], 2, "easy", 3, seed=seed)
        if not s.match.redeals:
            continue
        while True:
            while not s.deal_over:
                if s.humans_turn():
                    view = s.view()
                    s.bid(view.legal_bids()[0]) if view.phase is Phase.BID else s.play(view.legal_plays()[0])
                else:
                    s.bot_step()
            if s.over or len(s.results()) == 3 or 60 not in s.results()[0].score.card_points:
                break
            s.next_deal()
        results = s.results()
        if 60 in results[0].score.card_points and any(r.baazi is not None for r in results) and len(results) > 1:
            return s
    raise AssertionError("no seed under 500 gives such a match")


def test_the_replay_tells_redeals_the_second_half_satthi_majority_and_the_match_so_far() -> None:
    from taash.seep.describe import redeal_reason
    from taash.tui.seep.replay import redeals_of

    s = a_punjab_match()
    data = s.to_json()
    record = s.record()
    redeals = redeals_of(data)
    assert redeals[0] == tuple(s.match.dealt[0].redeals) and redeals[0]
    old = {**record.to_json(), "taash": {"seed": s.seed, "level": s.level, "baazis": s.baazis, "human": 0}}
    assert redeals_of(old)[: len(record.deals)] == redeals[: len(record.deals)]  # a save from before the tables
    assert redeals_of(record.to_json()) == []  # a record without a seed: nothing to tell
    timeline = Timeline(record, False, redeals)
    results = s.results()
    teams = timeline.teams

    async def run() -> list[list[str]]:
        app = ReplayApp(timeline, "p.json")
        screens = []
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screens.append(screen_text(app))
            await pilot.press(*["right"] * 24)
            screens.append(screen_text(app))
            await pilot.press("end")
            assert_fits(app)
            screens.append(screen_text(app))
            await pilot.press("down", "end")
            screens.append(screen_text(app))
        return screens

    start, half, end, second = ("\n".join(screen) for screen in asyncio.run(run()))
    for why in s.match.dealt[0].redeals:
        assert f" Dealt again: {redeal_reason(why)}" in start
    assert " hold 9s" not in start and " hold Td" not in start
    assert "Match before this deal: baazis 0:0, lead level (a baazi at 30)" in start
    assert "second half: 12 new cards each" in half and "second half" not in start
    satthi = teams[results[0].score.card_points.index(60)]
    assert f"A Satthi: {satthi} took all 30 card points, which score 60" in end
    first = results[0]
    assert f"After it: baazis {int(first.baazi == 0)}:{int(first.baazi == 1)}" in end
    if first.baazi is not None:
        assert f"a baazi to {teams[first.baazi]}" in end and "the count starts again" in end
    taken = results[1].score.cards_taken
    if 60 not in results[1].score.card_points and max(taken) > 26:
        more = taken.index(max(taken))
        assert f"{teams[more]} +4 card points for the most cards ({taken[more]} of 52)" in second
    won = [sum(r.baazi == k for r in results[:2]) for k in (0, 1)]
    lead = results[1].difference
    shown = "level" if lead == 0 else f"{teams[0 if lead > 0 else 1]} +{abs(lead)}"
    assert f"After it: baazis {won[0]}:{won[1]}, lead {shown}" in second


def test_the_replay_fits_the_smallest_terminal_and_asks_a_smaller_one_to_grow() -> None:
    from taash.tui.widgets import MIN_SIZE, TooSmallScreen

    record = a_record()
    timeline = Timeline(record)

    async def run() -> tuple[list[str], str]:
        app = ReplayApp(timeline, "r.json")
        async with app.run_test(size=MIN_SIZE) as pilot:
            await pilot.pause()
            for deal in range(len(timeline.deals)):
                for _ in timeline.deals[deal]:
                    assert_fits(app)
                    await pilot.press("right")
                await pilot.press("down")
            await pilot.resize_terminal(40, 10)
            await pilot.pause()
            assert isinstance(app.screen, TooSmallScreen)
            small = " ".join(" ".join(screen_text(app)).split())
            await pilot.press("up")  # nothing moves unseen
            assert app.deal_index == len(timeline.deals) - 1
            await pilot.resize_terminal(*MIN_SIZE)
            await pilot.pause()
            assert not isinstance(app.screen, TooSmallScreen)
            shown = screen_text(app)
            await pilot.press("q")
            await pilot.pause()
        assert not app.is_running
        return shown, small

    shown, small = asyncio.run(run())
    assert f"This terminal is 40x10: enlarge it to at least {MIN_SIZE[0]}x{MIN_SIZE[1]}" in small
    assert "q leaves" in small
    assert "deal 3/3" in shown[0]
