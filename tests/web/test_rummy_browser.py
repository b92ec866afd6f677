"""13-card Rummy in the browser (Chromium through Playwright): a person plays a whole points deal against bots on a
desktop and on a phone, arranging his groups (by a drag, by taps, by "arrange for me"), taking, discarding and
declaring or dropping; a reload mid-deal resumes with his groups as he left them.

The same needs as tests/web/test_browser.py (Debian's chromium, the playwright package); skipped without them.
"""

# ruff: noqa: F811 - the fixtures of tests/web/test_browser.py, imported, are the tests' arguments

from __future__ import annotations

import json
import re
import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any

from tests.web.server import TEST_CLOCK, Server, move_clock, served
from tests.web.test_browser import (  # noqa: F401 - the fixtures
    browser,
    killable,
    pytestmark,
    server,
    shoot,
    tid,
    watch_errors,
)

try:
    from playwright.sync_api import Browser, Page
    from playwright.sync_api import expect as _expect
except ImportError:  # pragma: no cover - skipped by pytestmark
    pass

#: The engine's kinds of a group, and "apart": a group of only the card chosen to discard or lay down.
KINDS = {"pure", "impure", "set", "free", "invalid", "apart"}


def new_rummy_table(page: Page, server: str, name: str, players: str = "2") -> None:
    """From the lobby: a name, then Rummy against the computer (medium bots) for one deal (points)."""
    page.goto(f"{server}/")
    tid(page, "name-input").fill(name)
    tid(page, "name-submit").click()
    rummy_quick_play(page, players)
    _expect(tid(page, "hand")).to_be_visible()
    _expect(page.locator(".brand span")).to_have_text("Rummy")


def rummy_quick_play(page: Page, players: str = "2") -> None:
    """From the lobby, named already: Rummy against the computer (medium bots) for one deal (points), up to its
    table's address (the deal may be over already: a medium bot drops a hopeless first hand)."""
    _expect(tid(page, "quick-play")).to_be_visible()
    tid(page, "game").select_option("rummy")
    _expect(tid(page, "format")).to_be_visible()
    _expect(tid(page, "baazis")).to_be_hidden()
    tid(page, "players").select_option(players)
    tid(page, "rules").select_option("octro")
    tid(page, "format").select_option("points")
    tid(page, "level").select_option("medium")  # greedy bots: they drop only a hopeless first hand
    tid(page, "quick-play").click()
    page.wait_for_url("**/t/*")


def hand_cards(page: Page) -> list[str]:
    return sorted(page.eval_on_selector_all("[data-testid='hand'] .group-cards .card",
                                            "es => es.map(e => e.dataset.card)"))


def labels(page: Page) -> list[str | None]:
    """Each group's kind once the engine has judged the groups now shown."""
    page.wait_for_function("() => ![...document.querySelectorAll(\"[data-testid^='group-label-']\")]"
                           ".some(e => e.textContent === '…')")
    kinds: list[str | None] = page.eval_on_selector_all("[data-testid='hand'] .group[data-kind]",
                                                        "es => es.map(e => e.dataset.kind)")
    return kinds


MY_TURN = ("() => document.body.dataset.pending !== '1' &&"
           " document.querySelector(\"[data-testid='turn-banner']\").textContent.startsWith('Your turn')")


def wait_my_turn(page: Page, timeout: float = 30000) -> None:
    page.wait_for_function(f"() => document.body.dataset.status === 'finished' || ({MY_TURN})()", timeout=timeout)


def version(page: Page) -> int:
    return int(page.evaluate("() => document.body.dataset.version"))


def after(page: Page, v: int) -> None:
    page.wait_for_function("v => Number(document.body.dataset.version) > v && document.body.dataset.pending !== '1'",
                           arg=v, timeout=10000)


def play_turn(page: Page, end: str | None = None) -> None:
    """Take from the stock, let the solver arrange the 14 cards (it sets its discard apart, chosen), then declare
    when the engine says the rest is valid, else discard. ``end``: "drop" drops instead, "declare" declares
    whatever the groups (a wrong declaration puts a player out: with two players, the deal is over)."""
    if end == "drop":
        button = tid(page, "drop")
        _expect(button).to_contain_text(re.compile(r"Drop \((20|40) points\)"))
        v = version(page)
        button.click()
        tid(page, "drop-confirm").click()  # the page's own dialog asks first
        after(page, v)
        return
    v = version(page)
    tid(page, "take-stock").click()
    after(page, v)
    assert len(hand_cards(page)) == 14
    tid(page, "arrange").click()
    kinds = labels(page)
    # The solver's discard is set apart in a group of its own, chosen; the 13 others are judged without it.
    assert set(kinds) <= KINDS and kinds[-1] == "apart" and "apart" not in kinds[:-1], kinds
    points = tid(page, "hand-points").inner_text()
    valid = points.startswith("A valid declaration")
    if valid or end == "declare":
        tid(page, "declare").click()
        dialog = tid(page, "declare-dialog")
        _expect(dialog).to_be_visible()
        assert dialog.locator(".card[data-card]").count() == 13  # the finish card is laid down, not shown
        _expect(tid(page, "declare-verdict")).to_contain_text("A valid declaration" if valid else "Not a valid")
        shoot(page, "rummy-declare")
        v = version(page)
        tid(page, "declare-confirm").click()
        after(page, v)
        _expect(tid(page, "verdict")).to_contain_text("a valid declaration!" if valid else "declares wrongly")
        return
    v = version(page)
    _expect(tid(page, "discard")).to_be_enabled()
    tid(page, "discard").click()
    after(page, v)
    assert len(hand_cards(page)) == 13


def play_the_deal(page: Page, end_after: int, end: str) -> int:
    """Turns until the deal (a points match: one deal) is over, ending it by ``end`` after ``end_after`` turns;
    returns the turns played."""
    turns = 0
    while True:
        wait_my_turn(page)
        if page.evaluate("() => document.body.dataset.status") == "finished":
            return turns
        play_turn(page, end if turns >= end_after else None)
        turns += 1


def mid_deal(browser: Browser, server: str, name: str, turns: int, errors: list[str]) -> Page:
    """A page at its seat's turn after it has played ``turns`` turns of a new deal against the computer. A deal
    that ends first (a bot's declaration, or the seat's own when the solver finds one valid) is left and another
    table played, five at most: the tests that take a deal in progress otherwise passed on finding none, or timed
    out on a "Take" button that a finished deal no longer shows."""
    for _ in range(5):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.set_default_timeout(10000)
        watch_errors(page, errors, name)
        new_rummy_table(page, server, name)
        for played in range(turns + 1):
            wait_my_turn(page)
            if page.evaluate("() => document.body.dataset.status") == "finished":
                break
            if played == turns:
                return page
            play_turn(page)
        page.context.close()
    raise AssertionError(f"five deals in a row ended before the seat's turn {turns + 1}")


def play_on(page: Page) -> None:
    """The seat's next turn, or the deal's end if it comes first (a bot declared): the deal goes on either way."""
    wait_my_turn(page)
    if page.evaluate("() => document.body.dataset.status") == "finished":
        _expect(tid(page, "score-sheet")).to_be_visible()
    else:
        play_turn(page)


def check_result(page: Page) -> None:
    _expect(tid(page, "score-sheet")).to_be_visible(timeout=15000)
    _expect(tid(page, "score-sheet")).to_contain_text("Deal 1")
    shoot(page, "rummy-sheet")
    tid(page, "continue").click()
    _expect(tid(page, "match-over")).to_be_visible()
    _expect(tid(page, "winner")).to_contain_text("wins")
    _expect(tid(page, "total-0")).to_be_visible()


def test_a_person_plays_a_whole_rummy_deal_on_a_desktop(server: str, browser: Browser) -> None:
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(10000)
    watch_errors(page, errors, "desk")
    new_rummy_table(page, server, "Ravi")
    wait_my_turn(page)
    # The stock, the wild joker under it, the open discard; thirteen cards in groups, each labelled by the engine.
    _expect(tid(page, "stock")).to_contain_text("Stock")
    _expect(tid(page, "wild-card")).to_contain_text("Wild joker")
    assert len(hand_cards(page)) == 13 and set(labels(page)) <= KINDS
    _expect(tid(page, "hand-points")).to_contain_text("points if someone declared now")
    # Sorting by rank, then by suit, keeps the cards.
    cards = hand_cards(page)
    tid(page, "sort-rank").click()
    assert hand_cards(page) == cards
    tid(page, "sort-suit").click()
    assert hand_cards(page) == cards
    # A drag: the first group's first card onto the last group.
    groups = page.locator("[data-testid='hand'] .group:not(.new-group)")
    before = groups.count()
    moved = groups.first.locator(".card").first.get_attribute("data-card")
    first_size = groups.first.locator(".card").count()
    groups.first.locator(".card").first.drag_to(tid(page, "new-group"))
    after_groups = page.locator("[data-testid='hand'] .group:not(.new-group)")
    assert after_groups.count() == before + (0 if first_size == 1 else 1)
    assert after_groups.last.locator(".card").first.get_attribute("data-card") == moved
    assert hand_cards(page) == cards and set(labels(page)) <= KINDS
    shoot(page, "rummy-table-desktop")
    turns = play_the_deal(page, end_after=10, end="drop")
    assert turns >= 1  # seat 0 moves first
    check_result(page)
    # The replay: every turn of the deal, every hand shown, and the record to download.
    tid(page, "replay-link").click()
    page.wait_for_url("**/r/*")
    _expect(tid(page, "replay-said")).to_contain_text("Deal 1")
    _expect(tid(page, "replay-hand-0")).to_contain_text("Ravi")
    assert page.locator("[data-testid='replay-hand-1'] .card[data-card]").count() == 13  # the bot's hand, shown
    tid(page, "replay-next").click()
    _expect(tid(page, "replay-step")).to_contain_text("turn 1/")
    tid(page, "replay-last").click()
    _expect(tid(page, "replay-result")).to_contain_text("Deal 1 over")
    shoot(page, "rummy-replay")
    record = page.request.get(server + (tid(page, "download").get_attribute("href") or ""))
    assert record.ok and record.json()["deals"]
    ctx.close()
    assert not errors, errors


def test_a_person_plays_a_whole_rummy_deal_on_a_phone_by_taps(server: str, browser: Browser) -> None:
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.set_default_timeout(10000)
    watch_errors(page, errors, "phone")
    new_rummy_table(page, server, "Tara")
    wait_my_turn(page)
    # A tap on a card, then on "New group": the card moves there and the groups are judged again.
    cards = hand_cards(page)
    first = page.locator("[data-testid='hand'] .group-cards .card").first
    card = first.get_attribute("data-card")
    first.tap(position={"x": 4, "y": 20})  # the hand overlaps its cards: a tap on the card's visible edge
    _expect(page.locator("[data-testid='hand'] .card.selected")).to_have_count(1)
    tid(page, "move-to-new").tap()
    groups = page.locator("[data-testid='hand'] .group:not(.new-group)")
    assert groups.last.locator(".card").first.get_attribute("data-card") == card
    assert hand_cards(page) == cards and set(labels(page)) <= KINDS
    # Nothing is wider than the phone.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    shoot(page, "rummy-table-phone")
    turns = play_the_deal(page, end_after=3, end="declare")
    assert turns >= 1
    check_result(page)
    ctx.close()
    assert not errors, errors


def test_a_reload_mid_deal_resumes_with_the_groups_as_they_were(server: str, browser: Browser) -> None:
    errors: list[str] = []
    page = mid_deal(browser, server, "Meena", 1, errors)
    # By the keys: → to the second card (or the next without a twin), Enter picks it up, Shift+→ moves it to the
    # next group.
    tid(page, "sort-suit").click()
    page.locator("[data-testid='hand'] .card[tabindex='0']").focus()
    page.keyboard.press("ArrowRight")
    card = page.evaluate("() => document.activeElement.dataset.card")
    while hand_cards(page).count(card) > 1:  # a twin (two packs): another card, so that it is found where it goes
        page.keyboard.press("ArrowRight")
        card = page.evaluate("() => document.activeElement.dataset.card")
    page.keyboard.press("Enter")
    _expect(page.locator("[data-testid='hand'] .card.selected")).to_have_count(1)
    group_of = ("c => [...document.querySelectorAll(\"[data-testid='hand'] .group:not(.new-group)\")]"
                ".findIndex(g => [...g.querySelectorAll('.card')].some(e => e.dataset.card === c))")
    before = page.evaluate(group_of, card)
    alone = page.locator("[data-testid='hand'] .group:not(.new-group)").nth(before).locator(".card").count() == 1
    page.keyboard.press("Shift+ArrowRight")
    assert page.evaluate(group_of, card) == before + (0 if alone else 1)  # a group left empty goes
    tid(page, "sort-rank").click()
    shape: Any = page.eval_on_selector_all("[data-testid='hand'] .group:not(.new-group)",
                                           "es => es.map(g => [...g.querySelectorAll('.card')]"
                                           ".map(c => c.dataset.card))")
    v = version(page)
    page.reload()
    _expect(tid(page, "hand")).to_be_visible()
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=v)
    again = page.eval_on_selector_all("[data-testid='hand'] .group:not(.new-group)",
                                      "es => es.map(g => [...g.querySelectorAll('.card')].map(c => c.dataset.card))")
    assert again == shape
    play_on(page)
    page.context.close()
    assert not errors, errors


def test_a_server_killed_mid_deal_comes_back_with_the_deal_as_it_was(killable: Server, browser: Browser) -> None:
    """``kill -9`` of the server mid-deal and a restart: the page reconnects by itself, the hand and the discard
    pile are as they were, and the deal goes on."""
    errors: list[str] = []
    page = mid_deal(browser, killable.url, "Kiran", 2, errors)
    cards = hand_cards(page)
    top = tid(page, "pile-top").get_attribute("data-card")
    v = version(page)
    killable.kill()
    _expect(tid(page, "reconnecting")).to_be_visible()
    killable.start()
    _expect(tid(page, "reconnecting")).to_be_hidden(timeout=20000)
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=v)
    assert hand_cards(page) == cards and tid(page, "pile-top").get_attribute("data-card") == top
    play_on(page)
    page.context.close()
    # While the server was down, the browser logged its refused reconnection attempts: expected.
    assert not [e for e in errors if "ERR_CONNECTION_REFUSED" not in e], errors


def test_two_people_at_one_private_rummy_table(server: str, browser: Browser) -> None:
    """One creates a private table of three, the other joins by its code; a bot fills the third seat; each of
    the two sees his own thirteen cards, never the other's, and plays his turn."""
    errors: list[str] = []
    a_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    b_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    a, b = a_ctx.new_page(), b_ctx.new_page()
    for page, who in ((a, "a"), (b, "b")):
        page.set_default_timeout(10000)
        watch_errors(page, errors, who)
    a.goto(f"{server}/")
    tid(a, "name-input").fill("Anil")
    tid(a, "name-submit").click()
    tid(a, "game").select_option("rummy")
    tid(a, "players").select_option("3")
    tid(a, "level").select_option("medium")
    tid(a, "public").uncheck()
    tid(a, "create-table").click()
    a.wait_for_url("**/t/*")
    _expect(tid(a, "invite-code")).to_have_text(re.compile(r"\w{4,}"))  # once the table's state has come
    code = tid(a, "invite-code").inner_text()
    b.goto(f"{server}/")
    tid(b, "name-input").fill("Bina")
    tid(b, "name-submit").click()
    tid(b, "join-code").fill(code)
    tid(b, "join-submit").click()
    b.wait_for_url("**/t/*")
    tid(b, "sit-1").click()
    _expect(tid(a, "seat-1")).to_contain_text("Bina")
    tid(a, "fill-bots").click()
    tid(a, "start").click()
    for page in (a, b):
        _expect(tid(page, "hand")).to_be_visible()
        assert len(hand_cards(page)) == 13
    assert hand_cards(a) != hand_cards(b)
    assert b.locator("[data-testid='seat-box-0'] .card[data-card]").count() == 0  # Anil's cards: never
    played = {"a": 0, "b": 0}
    deadline = time.monotonic() + 40
    while min(played.values()) < 2 and time.monotonic() < deadline:
        for who, page in (("a", a), ("b", b)):
            if page.evaluate("() => document.body.dataset.status") == "finished":
                played[who] = 2  # a bot declared: the match is over
            elif page.evaluate(MY_TURN):
                play_turn(page)
                played[who] += 1
        a.wait_for_timeout(50)
    assert min(played.values()) >= 2, played
    a_ctx.close()
    b_ctx.close()
    assert not errors, errors


#: ``taash`` whose bots take the stock's card and discard at once, never drop nor declare (what
#: tests/web/test_hub_timer.py's ``plain_bot`` does in-process): a deal that lasts, whatever the table's seed; its
#: hub reads the test's clock (tests.web.server.TEST_CLOCK).
PLAIN_BOTS = TEST_CLOCK + """
from taash.rummy.deal import Discard, Take
from taash.tables.table import BotTurn

def action(turn):
    legal = turn.view.legal_actions()
    move = Take("stock") if Take("stock") in legal else next(a for a in legal if isinstance(a, Discard))
    return turn.game.action_to(move)

BotTurn.action = action
from taash.cli.main import run
run()
"""


def test_the_turn_timer_shows_the_extra_time_and_a_turn_out_of_time(tmp_path: Path, browser: Browser) -> None:
    """The countdown shows the turn's seconds and the extra time beside, then the extra time alone; when both run
    out the page says what was discarded for him, his seat is marked, and the third in a row drops him. The bot
    opposite never declares nor drops (PLAIN_BOTS): a medium bot could win the deal before his third timeout (about
    one deal in thirty), and the test would see no drop.

    Both clocks move only when the test says: the server's (TEST_CLOCK), and the page's (Playwright's): with 2 s
    turns on real clocks, a loaded machine's page came after the first turn's seconds, or looked after them, and
    never saw the extra time beside them (it is spent once, on that turn)."""
    errors: list[str] = []
    with served(tmp_path, "browser.db", "--turn-seconds", "20", "--extra-seconds", "20", bot_delay=0,
                launcher=("-c", PLAIN_BOTS)) as server:
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.set_default_timeout(15000)
        page.clock.install()
        watch_errors(page, errors, "timer")
        new_rummy_table(page, server.url, "Tara")
        wait_my_turn(page)
        timer = tid(page, "turn-timer")
        _expect(timer).to_contain_text("s extra time), then a card is taken from the stock and discarded for you")
        page.clock.fast_forward(21_000)  # the page's countdown: the turn's own seconds are gone, the extra time runs
        _expect(timer).to_contain_text(re.compile(r"^Extra time: \d+ s left to play, then a card is taken"))
        run_out(page, server)
        _expect(tid(page, "timed-out")).to_contain_text(re.compile(r"^Your time ran out: \S+ was discarded for you"))
        _expect(tid(page, "seat-box-0")).to_contain_text("ran out of time")
        shoot(page, "rummy-timed-out")
        run_out(page, server)
        run_out(page, server)
        _expect(tid(page, "log")).to_contain_text("dropped after three turns out of time")
        _expect(tid(page, "timed-out")).to_contain_text("you are dropped for running out of time")
    assert not errors, errors
    with closing(sqlite3.connect(tmp_path / "browser.db")) as db:  # the server's moves: the bot's, and his timeouts
        made = [json.loads(body) for (body,) in db.execute("SELECT body FROM actions WHERE guest IS NULL")]
    assert sum(1 for a in made if a["type"] == "timeout") == 3
    assert all(a["type"] in ("timeout", "discard") or a == {"type": "take", "from": "stock"} for a in made), made


def run_out(page: Page, server: Server) -> None:
    """At the seat's turn, move the server's clock on a minute (PLAIN_BOTS): the turn runs out, and the server
    plays it for him."""
    wait_my_turn(page)
    v = version(page)
    move_clock(server)
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v)


def test_two_people_left_in_a_pool_split_the_prize_by_its_buttons(server: str, browser: Browser) -> None:
    """At a Pool 101 table of two, one proposes a split and the other accepts it: the match ends, split."""
    errors: list[str] = []
    pages = []
    for name in ("Anil", "Bina"):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.set_default_timeout(10000)
        watch_errors(page, errors, name)
        page.goto(f"{server}/")
        tid(page, "name-input").fill(name)
        tid(page, "name-submit").click()
        pages.append(page)
    a, b = pages
    tid(a, "game").select_option("rummy")
    tid(a, "players").select_option("2")
    tid(a, "format").select_option("pool101")
    tid(a, "public").uncheck()
    tid(a, "create-table").click()
    a.wait_for_url("**/t/*")
    _expect(tid(a, "invite-code")).to_have_text(re.compile(r"\w{4,}"))
    tid(b, "join-code").fill(tid(a, "invite-code").inner_text())
    tid(b, "join-submit").click()
    b.wait_for_url("**/t/*")
    tid(b, "sit-1").click()
    _expect(tid(a, "seat-1")).to_contain_text("Bina")
    tid(a, "start").click()
    _expect(tid(b, "hand")).to_be_visible()
    tid(a, "split-propose").click()
    _expect(tid(a, "split-decline")).to_contain_text("Withdraw")
    tid(b, "split-accept").click()
    for page in (a, b):
        _expect(page.locator("body")).to_have_attribute("data-status", "finished")
    assert not errors, errors
