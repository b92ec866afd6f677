"""The terminal game driven by key presses through whole deals, read back from the 80x24 screen as a person sees
it: the bid, a house built and taken, a sweep, a hint, undo, save and quit, resume, the score sheet, the end of
a match, the 2-player second half, a redeal, plain ASCII."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import OptionList

from taash.cards import card_symbol, cards_of
from taash.seep.deal import Phase, card_points
from taash.seep.describe import HOUSE_NAMES, describe_outcome, no_play_reason
from taash.seep.plays import ESTABLISH, Play
from taash.seep.record import record_of
from taash.seep.rules import PRESETS
from taash.seep.view import PlayerView
from taash.tui.seep.app import SeepApp
from taash.tui.seep.persons_match import Event, PersonsMatch
from taash.tui.seep.render import floor_lines
from taash.tui.shell import LOG_LINES
from taash.tui.widgets import SheetScreen
from tests.tui.driver import (
    assert_fits,
    choose,
    options,
    policy,
    press_choice,
    screen_text,
    screenshot,
    settle,
    text,
)

STANDARD = PRESETS["standard"]
#: The lines of the main screen that say where the game stands (the message and the log aside).
STATE = ("#status", "#score", "#seats", "#floor", "#piles", "#hand")


def blocked_bid_card(session: PersonsMatch) -> int | None:
    """A card of the person's bid-play hand that has no legal play, if any."""
    view = session.view()
    usable = {p[1] for p in view.legal_plays()}
    return next((c for c in cards_of(view.hand) if c not in usable), None)


@dataclass
class Story:
    """What deal 1 of a seed holds when the scripted person plays it."""

    house: int = 0  # the value of a house the person built, saw on the floor as his, and that was then captured
    blocked: bool = False  # a card of the bid-play hand has no legal play
    sweep: bool = False  # a sweep before the last play

    @property
    def complete(self) -> bool:
        return bool(self.house and self.blocked and self.sweep)


def story(seed: int, players: int = 4) -> Story:
    s = PersonsMatch(STANDARD, players, "medium", 2, seed=seed)
    found = Story()
    if s.deal.bidder != 0:
        return found
    built: set[int] = set()  # values of the person's houses seen on the floor as his at his next turn
    just_built = 0
    while not s.deal_over:
        houses = set(s.deal.houses)
        if s.humans_turn():
            view = s.view()
            if just_built and just_built in view.houses and view.houses[just_built][2] & 1:
                built.add(just_built)
            just_built = 0
            choice = policy(s)
            if isinstance(choice, int):
                s.bid(choice)
                found.blocked = blocked_bid_card(s) is not None
                continue
            if choice[0] == ESTABLISH:
                just_built = choice[2]
            event = s.play(choice)
        else:
            event = s.bot_step()
        for v in built & houses:
            if v not in s.deal.houses and f": Capture the {HOUSE_NAMES[v]} house" in event.text:
                found.house = v
        found.sweep |= event.sweep and len(s.deal.plays) < 48
    return found


def a_seed(players: int = 4) -> int:
    """The first seed whose deal 1 has a bid by the person, a house of his built and captured, and a sweep."""
    return next(seed for seed in range(500) if story(seed, players).complete)


def state(app: SeepApp) -> list[str]:
    return [text(app, widget) for widget in STATE]


#: Pictures taken of the first screen that shows each of these (only once per test session).
PICTURES = {" house (": "2-house", "a sweep!": "3-sweep", "Second half": "6-second-half"}


async def decide(pilot, app: SeepApp, screens: list[list[str]]) -> None:  # type: ignore[no-untyped-def]
    """One decision of the scripted person, with the screen checked and kept first."""
    assert_fits(app)
    screen = screen_text(app)
    screens.append(screen)
    for words, name in list(PICTURES.items()):
        if words in "\n".join(screen):
            screenshot(app, name)
            del PICTURES[words]
    await choose(pilot, app, policy(app.session))


async def offers_exactly_the_legal_plays(pilot, app: SeepApp) -> None:  # type: ignore[no-untyped-def]
    """Walk the cursor over the whole hand: each card offers its legal plays, in words, and nothing else; a card
    with none says why in the engine's words."""
    view = app.session.view()
    legal = view.legal_plays()
    offered = []
    hand, start = cards_of(view.hand), app.cursor
    for k in range(len(hand)):
        card = hand[(start + k) % len(hand)]
        assert app.cursor == hand.index(card)
        mine = [p for p in legal if p[1] == card]
        shown = options(app)
        assert app.choices == mine
        if mine:
            assert shown == [f"{n}. {describe_outcome(view, p)}" for n, p in enumerate(mine, 1)]
        else:
            assert shown == [f"No play with {card_symbol(card)}: {no_play_reason(view, card)}"]
        offered.extend(app.choices)
        await pilot.press("right")
    assert sorted(offered) == sorted(legal) and app.cursor == start  # all of them, once; the cursor went round


async def play_until_saved(seed: int, save: Path, screens: list[list[str]]) -> tuple[list[str], dict[str, object]]:
    app = SeepApp(PersonsMatch(STANDARD, 4, "medium", 2, seed=seed), save, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        s = app.session
        # The bid, on the first four cards, while the floor lies face down; a hint for it highlights its choice.
        screen = "\n".join(screen_text(app))
        assert s.deal.phase is Phase.BID and "4 cards face down until you bid" in screen
        assert len(cards_of(s.view().hand)) == 4 and all(o.split(". ", 1)[1].startswith("Bid ") for o in options(app))
        screenshot(app, "1-bid")
        await pilot.press("h")
        hinted, _ = s.hint()
        assert text(app, "#message").startswith(" Hint: Bid ")
        assert app.query_one(OptionList).highlighted == app.choices.index(hinted)
        await decide(pilot, app, screens)
        assert any(line.startswith("You bid ") for line in screen_text(app))
        turns = 1
        while turns < 7:
            if turns in (1, 4):  # every card in turn: what the screen offers is exactly the engine's legal plays
                await offers_exactly_the_legal_plays(pilot, app)
            if turns == 2:  # a hint names a play, puts the cursor on its card and highlights it
                await pilot.press("h")
                hinted, reason = s.hint()
                assert isinstance(hinted, tuple)
                assert text(app, "#message") == f" Hint: {reason}"
                assert app.cursor == cards_of(s.view().hand).index(hinted[1])
                assert app.query_one(OptionList).highlighted == app.choices.index(hinted)
            if turns == 3:  # undo takes back the person's play and the bots' replies, screen and all
                before, shown = s.to_json(), state(app)
                await choose(pilot, app, policy(s))
                assert s.to_json() != before
                await pilot.press("u")
                await settle(pilot, app)
                assert text(app, "#message").startswith(" Undone") and s.to_json() == before and state(app) == shown
            await decide(pilot, app, screens)
            turns += 1
        screens.append(screen_text(app))
        shown = state(app)
        await pilot.press("q")  # save and quit
        await pilot.pause()
    assert not app.is_running and app.return_value is not None and "Saved to" in app.return_value
    return shown, json.loads(save.read_text())


async def resume_and_finish(save: Path, shown: list[str], screens: list[list[str]]) -> list[str]:
    app = SeepApp(PersonsMatch.load(save), save, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        s = app.session
        assert state(app) == shown  # the same game on the same screen
        while not isinstance(app.screen, SheetScreen):
            assert s.humans_turn()
            await decide(pilot, app, screens)
        # The score sheet: the deal's result, its last plays, a row per deal, what Enter does; all in sight.
        assert_fits(app)
        screenshot(app, "4-score-sheet")
        sheet = screen_text(app)
        r = s.results()[-1]
        us, them = r.score.score
        assert sheet[0] == (f" Deal 1 is over: Us {us}, Them {them} (card points {r.score.card_points[0]}:"
                            f"{r.score.card_points[1]}, sweeps {r.score.sweep_points[0]}:{r.score.sweep_points[1]})")
        row = next(line.split() for line in sheet if line.split()[:1] == ["1"])
        assert row[1:5] == [s.who(r.dealer), f"{r.score.card_points[0]}:{r.score.card_points[1]}",
                            f"{r.score.sweep_points[0]}:{r.score.sweep_points[1]}", f"{us}:{them}"]
        assert any("Baazis: Us 0, Them 0 (first to 2 wins)" in line for line in sheet) or r.baazi is not None
        assert any("Enter: the next deal" in line for line in sheet)
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.is_running and not isinstance(app.screen, SheetScreen)
        return screen_text(app)


def test_a_whole_deal_through_the_keyboard(tmp_path: Path) -> None:
    seed = a_seed()
    save = tmp_path / "match.json"
    screens: list[list[str]] = []
    shown, saved = asyncio.run(play_until_saved(seed, save, screens))
    assert saved["kind"] == "taash-session" and saved["game"] == "seep" and saved["seed"] == seed
    assert len(saved["record"]["deals"][0]["plays"]) > 20  # type: ignore[index]

    after = asyncio.run(resume_and_finish(save, shown, screens))
    assert "deal 2" in after[0] and any(line.startswith("Deal 2: ") for line in after)

    seen = ["\n".join(screen) for screen in screens]
    v = story(seed).house
    name = HOUSE_NAMES[v]
    built = next(i for i, screen in enumerate(seen) if f"You: Build a {name} house" in screen)
    owned = next(i for i, screen in enumerate(seen) if i > built and f"{name.capitalize()} house ({v}):" in screen
                 and ("owner: You" in screen or "owners: You" in screen))
    assert any(f"Capture the {name} house" in screen for screen in seen[owned:])
    swept = next(i for i, screen in enumerate(seen) if "a sweep!" in screen)
    assert any(re.search(r" sweeps? \+", line) for line in screens[swept] if line.startswith(" Captured:"))


def test_an_unusable_card_says_why(tmp_path: Path) -> None:
    seed = a_seed()

    async def run() -> list[str]:
        app = SeepApp(PersonsMatch(STANDARD, 4, "medium", 1, seed=seed), tmp_path / "m.json", delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await choose(pilot, app, policy(app.session))
            card = blocked_bid_card(app.session)
            assert card is not None
            target = cards_of(app.session.view().hand).index(card)
            while app.cursor != target:
                await pilot.press("right")
            assert_fits(app)
            return options(app)

    shown = asyncio.run(run())
    assert len(shown) == 1 and shown[0].startswith("No play with") and "bid play must use the bid" in shown[0]


def test_a_single_deal_in_plain_ascii_to_the_end_of_the_match(tmp_path: Path) -> None:
    """Nothing but ASCII on the screen, hints and score sheet included; the match ends after its one deal."""
    save = tmp_path / "one.json"

    async def run() -> tuple[SeepApp, list[str]]:
        app = SeepApp(PersonsMatch(STANDARD, 4, "hard", 0, seed=a_seed(), ascii_only=True), save, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            while not isinstance(app.screen, SheetScreen):
                await pilot.press("h")
                screen = "\n".join(screen_text(app))
                assert screen.isascii() and "Hint: " in screen, screen
                assert_fits(app)
                hinted, _ = app.session.hint()
                await choose(pilot, app, hinted)
            screenshot(app, "5-ascii-end-of-match")
            sheet = screen_text(app)
            assert "\n".join(sheet).isascii()
            await pilot.press("enter")
            await pilot.pause()
        return app, sheet

    app, sheet = asyncio.run(run())
    winner = app.session.match.winner()
    verdict = "A draw." if winner is None else ("You win the deal!" if winner == 0 else "They win the deal.")
    assert any(line.strip() == verdict for line in sheet)
    assert any("Enter: leave" in line for line in sheet)
    assert not app.is_running and app.return_value is not None and app.return_value.startswith("Match over")
    saved = json.loads(save.read_text())
    assert len(saved["record"]["deals"]) == 1 and len(saved["record"]["deals"][0]["plays"]) == 48


def test_two_players_second_half_and_quitting_from_the_score_sheet(tmp_path: Path) -> None:
    save = tmp_path / "two.json"

    async def first() -> list[list[str]]:
        app = SeepApp(PersonsMatch(STANDARD, 2, "medium", 2, seed=3), save, delay=0)
        screens = []
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            while not isinstance(app.screen, SheetScreen):
                await decide(pilot, app, screens)
            assert_fits(app)
            await pilot.press("q")  # from the score sheet: save and quit
            await pilot.pause()
        assert app.return_value is not None and "Saved to" in app.return_value
        return screens

    screens = asyncio.run(first())
    seen = ["\n".join(screen) for screen in screens]
    halves = [i for i, screen in enumerate(seen) if "Second half: 12 new cards each" in screen]
    assert halves and all(" cards to come" in screen for screen in seen[: halves[0]])
    assert all(" cards to come" not in screen for screen in seen[halves[0]:])

    async def resumed() -> list[str]:
        app = SeepApp(PersonsMatch.load(save), save, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            assert isinstance(app.screen, SheetScreen)  # the deal was over: its sheet again
            await pilot.press("enter")
            await settle(pilot, app)
            return screen_text(app)

    assert "deal 2" in asyncio.run(resumed())[0]


def test_a_redeal_is_told_on_the_screen(tmp_path: Path) -> None:
    seed = next(seed for seed in range(300) if PersonsMatch(STANDARD, 4, seed=seed).match.redeals)

    async def run() -> list[str]:
        app = SeepApp(PersonsMatch(STANDARD, 4, seed=seed), tmp_path / "r.json", delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            return screen_text(app)

    assert any(line.startswith("Dealt again: the bidder's first four cards hold no card above 8")
               for line in asyncio.run(run()))


def test_a_redeal_for_a_floor_card_shows_the_card_as_every_card_is_shown(tmp_path: Path) -> None:
    punjab = PRESETS["punjab_30"]
    seed = next(seed for seed in range(500)
                if any("floor" in p for p in PersonsMatch(punjab, 4, seed=seed).match.redeals))

    async def run(ascii_only: bool) -> str:
        app = SeepApp(PersonsMatch(punjab, 4, seed=seed, ascii_only=ascii_only), tmp_path / "r.json", delay=30)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return "\n".join(screen_text(app))

    shown, plain = asyncio.run(run(False)), asyncio.run(run(True))
    assert "Dealt again: the first floor cards hold 9♠" in shown or "the first floor cards hold T♦" in shown
    assert "hold 9s" not in shown and "hold Td" not in shown
    assert "Dealt again: the first floor cards hold 9s" in plain or "the first floor cards hold Td" in plain


def test_your_name_shows_and_your_partner_is_named_as_in_the_record(tmp_path: Path) -> None:
    session = PersonsMatch(STANDARD, 4, "medium", 1, seed=4, name="Priya")

    async def run() -> tuple[str, str]:
        app = SeepApp(session, tmp_path / "p.json", delay=30)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert_fits(app)
            return text(app, "#seats"), "\n".join(screen_text(app))

    seats, screen = asyncio.run(run())
    assert session.record().names == ["Priya", "Asha (bot)", "Dev (bot)", "Vikram (bot)"]
    assert "Priya" in seats and "Dev (partner)" in seats and "Asha " in seats and "Vikram " in seats, seats
    assert "Partner" not in screen
    assert session.who(2) == "Dev" and session.who(0) == "You"  # in sentences: "You bid 11", "Dev: Throw 7♣"


def test_names_from_a_record_are_shown_as_they_are(tmp_path: Path) -> None:
    """A resumed record's names are text, not markup, and long ones are shortened to fit."""
    s = PersonsMatch(STANDARD, 4, seed=4)
    data = record_of(s.match, ["Me", "[bold]Ann[/]", "[/]", "A very long name indeed, far too long"]).to_json()
    resumed = PersonsMatch.from_json(data)

    async def run() -> list[str]:
        app = SeepApp(resumed, tmp_path / "n.json", delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            assert_fits(app)
            return screen_text(app)

    screen = "\n".join(asyncio.run(run()))
    assert "[bold]Ann[/]" in screen and "A very long." in screen


def test_the_newest_plays_stay_in_sight_however_long(tmp_path: Path) -> None:
    async def run() -> list[str]:
        app = SeepApp(PersonsMatch(STANDARD, 4, seed=4), tmp_path / "l.json", delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            for i in range(3):
                app.session.log.append(Event(f"long {i} " + "word " * 40))
            app.session.log.append(Event("the newest line"))
            app.redraw()
            await pilot.pause()
            assert_fits(app)
            return screen_text(app)

    screen = asyncio.run(run())
    newest = screen.index("the newest line")
    assert screen[newest + 1].startswith(" Your hand")
    assert all(line.startswith(("long 2", "word ")) for line in screen[newest - LOG_LINES + 1: newest])


def test_a_long_match_keeps_the_newest_rows_of_the_score_sheet_in_sight(tmp_path: Path) -> None:
    s = PersonsMatch(STANDARD, 4, "easy", 20, seed=2)
    while True:
        while not s.deal_over:
            if s.humans_turn():
                view = s.view()
                s.bid(view.legal_bids()[0]) if view.phase is Phase.BID else s.play(view.legal_plays()[0])
            else:
                s.bot_step()
        if len(s.results()) == 16:
            break
        s.next_deal()

    async def run() -> tuple[list[str], list[str]]:
        app = SeepApp(s, tmp_path / "long.json", delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            assert isinstance(app.screen, SheetScreen)
            assert_fits(app)
            newest = screen_text(app)
            await pilot.press(*["up"] * 16)  # up to the first deals and the column heads
            return newest, screen_text(app)

    sheet, top = asyncio.run(run())
    assert any(line.split()[:2] == ["#", "dealer"] for line in top) and any(line.split()[:1] == ["1"] for line in top)
    assert not any(line.split()[:2] == ["#", "dealer"] for line in sheet)
    rows = [line.split()[0] for line in sheet if line.split()[:1] and line.split()[0].isdigit()]
    assert rows[-1] == "16" and len(rows) < 16  # the newest rows; the older ones scroll out of sight
    assert sheet[0].startswith(" Deal 16 is over: ") and any("Enter: the next deal" in line for line in sheet)


def test_a_satthi_is_named_on_the_score_sheet(tmp_path: Path) -> None:
    """punjab_30: a team that takes all 30 card points scores 60; the sheet says so in words, and its column of
    card points says points."""
    punjab = PRESETS["punjab_30"]
    for seed in range(500):
        s = PersonsMatch(punjab, 2, "easy", 0, seed=seed)
        while not s.deal_over:
            if s.humans_turn():
                view = s.view()
                s.bid(view.legal_bids()[0]) if view.phase is Phase.BID else s.play(view.legal_plays()[0])
            else:
                s.bot_step()
        if 60 in s.results()[0].score.card_points:
            break
    else:
        raise AssertionError("no Satthi under seed 500")

    async def run() -> list[str]:
        app = SeepApp(s, tmp_path / "s.json", delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            assert isinstance(app.screen, SheetScreen)
            assert_fits(app)
            return screen_text(app)

    sheet = asyncio.run(run())
    who = "Us" if s.results()[0].score.card_points[0] == 60 else "Them"
    assert sheet[1] == f"   A Satthi: {who} took all 30 card points, which score 60"
    assert any(line.split()[:2] == ["card", "pts"] for line in sheet)  # not "cards": those are points


def test_whose_turn_and_the_floor_as_the_person_sees_them(tmp_path: Path) -> None:
    """The seat to move is marked; owners are You or a name; the captured piles add up."""
    seed = a_seed()

    async def run() -> None:
        app = SeepApp(PersonsMatch(STANDARD, 4, "medium", 1, seed=seed), tmp_path / "t.json", delay=30)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            s = app.session
            assert s.humans_turn() and "▶You " in text(app, "#seats")
            while s.humans_turn():  # the bid, then the bid play
                await press_choice(pilot, app, policy(s))
                await pilot.pause()
            waiting = s.who(s.deal.to_move)  # the bots wait 30 seconds: the screen says whose turn it is
            assert f"▶{waiting} " in text(app, "#seats") and options(app) == [f"Waiting for {waiting}…"]
            cards = s.view().initial_floor
            lines = floor_lines(0, {13: (cards, True, 0b0101)}, s.who, 4, False)
            assert Text.from_markup(lines[1]).plain.endswith("cemented, owners: You, Dev")  # as in the record
            lines = floor_lines(0, {13: (cards, False, 0b1000)}, s.who, 4, False)
            assert Text.from_markup(lines[1]).plain.endswith("ordinary, owner: Vikram")
            us, them = s.view().captured()
            assert text(app, "#piles") == (f" Captured: Us {us.bit_count()} cards {card_points(STANDARD, us)} pts | "
                                           f"Them {them.bit_count()} cards {card_points(STANDARD, them)} pts")

    asyncio.run(run())


def test_expert_bots_think_on_a_thread_while_the_screen_answers(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The search bot (level expert) thinks away from the screen: "Asha is thinking…" shows, keys still work
    meanwhile (a save, an undo whose stale answer is dropped), and the deal is played to its end."""
    import time

    import taash.tables.match
    from taash.bots.base import Bot, make_bot

    class Slow:
        """The search with a small budget, slowed so the test sees it think."""

        def __init__(self, seed: int):
            self.bot = make_bot("ismcts:iterations=3,candidates=3", seed)
            self.name = "ismcts"

        def choose_bid(self, view: PlayerView) -> int:
            return self.bot.choose_bid(view)

        def choose_play(self, view: PlayerView) -> Play:
            time.sleep(0.25)
            return self.bot.choose_play(view)

        def choose(self, view: PlayerView) -> int | Play:
            return self.choose_bid(view) if view.phase is Phase.BID else self.choose_play(view)

        def explain(self, view: PlayerView, play: Play) -> str:
            return self.bot.explain(view, play)

    def bots(level: str, seed: int, game: str = "seep") -> Bot | Slow:
        return Slow(seed) if level == "expert" else make_bot(level, seed, game=game)

    monkeypatch.setattr(taash.tables.match, "make_bot", bots)
    save = tmp_path / "expert.json"

    async def run() -> tuple[SeepApp, bool, bool]:
        app = SeepApp(PersonsMatch(STANDARD, 4, "expert", 0, seed=a_seed()), save, delay=0)
        saw_thinking = undone_while_thinking = False
        async with app.run_test(size=(80, 24)) as pilot:
            deadline = time.monotonic() + 120
            while not isinstance(app.screen, SheetScreen):
                assert time.monotonic() < deadline, "the deal did not end"
                if app.session.humans_turn() and app.thinking is None:
                    await choose_quickly(pilot, app)
                    continue
                await pilot.pause(0.02)
                if app.thinking is not None and "is thinking…" in "\n".join(screen_text(app)):
                    if not saw_thinking:  # the first time: keys work while the bot thinks
                        await pilot.press("s")
                        await pilot.pause()
                        assert "Saved to" in text(app, "#message") and save.exists()
                    elif not undone_while_thinking and app.session.can_undo():
                        plays = len(app.session.deal.plays)
                        await pilot.press("u")
                        await pilot.pause()
                        assert len(app.session.deal.plays) < plays and app.thinking is None
                        undone_while_thinking = True
                    saw_thinking = True
            await pilot.press("enter")
            await pilot.pause()
        return app, saw_thinking, undone_while_thinking

    async def choose_quickly(pilot: Pilot[str], app: SeepApp) -> None:
        await press_choice(pilot, app, policy(app.session))

    app, saw_thinking, undone = asyncio.run(run())
    assert saw_thinking and undone and not app.is_running
    saved = json.loads(save.read_text())
    assert len(saved["record"]["deals"]) == 1 and len(saved["record"]["deals"][0]["plays"]) == 48


@pytest.mark.parametrize(("players", "ascii_only"), [(4, False), (2, True)])
def test_a_whole_deal_at_the_smallest_terminal_that_works(tmp_path: Path, players: int, ascii_only: bool) -> None:
    """At MIN_SIZE every line of the play screen and of the score sheet has room, wrapped where it must be, from
    the bid to the sheet; the log gives way first and still shows the newest play."""
    from taash.tui.widgets import MIN_SIZE

    async def run() -> list[str]:
        session = PersonsMatch(STANDARD, players, "medium", 1, seed=a_seed(), ascii_only=ascii_only)
        app = SeepApp(session, tmp_path / "small.json", delay=0)
        async with app.run_test(size=MIN_SIZE) as pilot:
            await settle(pilot, app)
            while not isinstance(app.screen, SheetScreen):
                assert_fits(app)
                screen = screen_text(app)
                assert screen[0].startswith(" Deal 1 ") and any(line.startswith(" Your hand") for line in screen)
                newest = plain_log(app.session.log[-1].text, ascii_only)
                assert any(line.startswith(newest[:MIN_SIZE[0] - 1]) for line in screen), (newest, screen)
                await choose(pilot, app, policy(app.session))
            assert_fits(app)
            return screen_text(app)

    sheet = asyncio.run(run())
    assert sheet[0].startswith(" Deal 1 is over: ") and any("Enter: " in line for line in sheet)


def plain_log(text: str, ascii_only: bool) -> str:
    from taash.tui.widgets import plain

    return plain(text, ascii_only)


@pytest.mark.parametrize("size", [(40, 10), (59, 24), (80, 17)])
def test_a_terminal_too_small_is_asked_to_grow_and_the_game_comes_back(tmp_path: Path,
                                                                      size: tuple[int, int]) -> None:
    """Below MIN_SIZE the screen says what size is needed and nothing is played unseen; grown, the game is back
    where it was; q still saves and quits."""
    from taash.tui.widgets import MIN_SIZE, TooSmallScreen

    async def run() -> tuple[list[str], list[str], str | None]:
        app = SeepApp(PersonsMatch(STANDARD, 4, "medium", 1, seed=a_seed()), tmp_path / "grow.json", delay=0)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            assert isinstance(app.screen, TooSmallScreen)
            small = screen_text(app)
            before = app.session.to_json()
            await pilot.press("1", "right", "h", "u", "enter")  # nothing happens unseen
            assert app.session.to_json() == before and isinstance(app.screen, TooSmallScreen)
            await pilot.resize_terminal(*MIN_SIZE)
            await pilot.pause()
            assert not isinstance(app.screen, TooSmallScreen)
            assert_fits(app)
            grown = screen_text(app)
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert isinstance(app.screen, TooSmallScreen)
            await pilot.press("q")
            await pilot.pause()
        return small, grown, app.return_value

    small, grown, message = asyncio.run(run())
    words = " ".join(" ".join(small).split())
    assert f"This terminal is {size[0]}x{size[1]}: enlarge it to at least {MIN_SIZE[0]}x{MIN_SIZE[1]}" in words
    assert any(line.startswith(" Your hand") for line in grown)
    assert message is not None and message.startswith("Saved to") and (tmp_path / "grow.json").exists()
