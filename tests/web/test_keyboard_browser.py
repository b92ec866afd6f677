"""Issue 29, "Accessible": a whole Seep deal and a whole Rummy deal played by the keyboard alone in Chromium (Tab to
reach a control, arrows along the hand, Enter, digits for a bid or a play; no click, no `focus()` by the test), with a
visible focus on whatever the keys reach; the plays offered and the other players' plays named for a screen reader
with their cards in words, one line per play in a polite live region.

The same needs as tests/web/test_browser.py (Debian's chromium, the playwright package); skipped without them.
"""

# ruff: noqa: F811 - the fixtures of tests/web/test_browser.py, imported, are the tests' arguments

from __future__ import annotations

import re
from typing import Any

from tests.web.test_browser import browser, pytestmark, server, tid, watch_errors  # noqa: F401 - the fixtures
from tests.web.test_rummy_browser import MY_TURN, after, hand_cards, version

try:
    from playwright.sync_api import Browser, Page
    from playwright.sync_api import expect as _expect
except ImportError:  # pragma: no cover - skipped by pytestmark
    pass

#: A card printed with its suit's symbol: what a screen reader's line must not hold (it says the card in words).
SYMBOL = re.compile("[\u2660\u2665\u2666\u2663]")
#: A card in words, as cards.js's cardWords names it.
CARD_WORDS = re.compile(r"\b(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
                        r"(spades|hearts|diamonds|clubs)\b|\bjoker\b")

def accessible_name(locator: Any) -> str:
    """The name Chromium gives the element for assistive technology (from its accessibility tree)."""
    first = locator.aria_snapshot().splitlines()[0]
    found = re.match(r"""- '?\w+ "(.*)"'?$""", first)
    assert found, first
    return found.group(1)


ACTIVE = "() => { const e = document.activeElement; return e ? (e.dataset.testid || '') : ''; }"


def focus_shows(page: Page) -> bool:
    """Whether the element the keys reached draws its focus (the site's :focus-visible outline)."""
    return bool(page.evaluate(
        "() => { const e = document.activeElement; if (!e || e === document.body) return false;"
        " const s = getComputedStyle(e); return e.matches(':focus-visible') && s.outlineStyle !== 'none'"
        " && parseFloat(s.outlineWidth) >= 2; }"))


def tab_to(page: Page, testid: str, most: int = 80) -> None:
    """Press Tab (no click, no script) until the control ``testid`` has the focus, and check that it shows it."""
    for _ in range(most):
        if page.evaluate(ACTIVE) == testid:
            assert focus_shows(page), f"{testid} has the focus but does not show it"
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {testid}")


def tab_into_hand(page: Page) -> None:
    """Tab until a card of the hand has the focus (the hand is one stop: its cards are reached by the arrows)."""
    for _ in range(80):
        if page.evaluate("() => Boolean(document.activeElement && document.activeElement.closest("
                         "\"[data-testid='hand']\") && document.activeElement.dataset.card)"):
            assert focus_shows(page), "a card of the hand has the focus but does not show it"
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the hand")


def choose_by_keys(page: Page, testid: str, value: str) -> None:
    """Tab to a <select> and walk its options by the arrows (a closed select changes by them) to ``value``."""
    tab_to(page, testid)
    select = tid(page, testid)
    page.keyboard.press("Home")
    for _ in range(20):
        if select.input_value() == value:
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"{testid} has no option {value}")


def table_by_keys(browser: Browser, url: str, game: str, errors: list[str]) -> Page:
    """A new desktop page, its errors watched, at a table of ``game`` started from the lobby by the keyboard alone."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(15000)
    watch_errors(page, errors, "keys")
    quick_play_by_keys(page, url, game)
    return page


def quick_play_by_keys(page: Page, url: str, game: str) -> None:
    """From the lobby by the keyboard: type a name, Enter; choose the game and two players; Enter on Play now."""
    page.goto(f"{url}/")
    tab_to(page, "name-input")
    page.keyboard.type("Asha")
    page.keyboard.press("Enter")
    _expect(tid(page, "quick-play")).to_be_visible()
    choose_by_keys(page, "game", game)
    choose_by_keys(page, "players", "2")
    if game == "seep":
        tab_to(page, "baazis")
        page.keyboard.press("Control+A")
        page.keyboard.type("0")  # a single deal
    else:
        choose_by_keys(page, "format", "points")
        choose_by_keys(page, "level", "medium")  # greedy bots: they drop only a hopeless first hand
    tab_to(page, "quick-play")
    page.keyboard.press("Enter")
    page.wait_for_url("**/t/*")
    _expect(tid(page, "hand")).to_be_visible()


def wait_turn_or_end(page: Page) -> bool:
    """Wait for the player's turn or the match's end; True when it is his turn. Its 30 s are the tests' only
    limit on a deal: a stall, not the deal's whole time (which measured the machine, two minutes on a loaded one)."""
    page.wait_for_function(f"() => document.body.dataset.status === 'finished' || ({MY_TURN})()", timeout=30000)
    return page.evaluate("() => document.body.dataset.status") != "finished"


def seep_turn_by_keys(page: Page) -> None:
    """A bid by its digit; else the arrows to a playable card, Enter, and the digit of its first play."""
    v = version(page)
    if page.locator("[data-testid^='bid-']").count():
        page.keyboard.press("1")
    else:
        tab_into_hand(page)
        for _ in range(13):
            if page.evaluate("() => document.activeElement.classList.contains('playable')"):
                break
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        option = tid(page, "play-option").first
        _expect(option).to_be_visible(timeout=5000)
        # The play is named with its cards in words ("Capture two of spades and nine of spades with ...").
        name = accessible_name(option)
        assert CARD_WORDS.search(name) and not SYMBOL.search(name), name
        page.keyboard.press("1")
    after(page, v)


def check_announced(page: Page) -> None:
    """The live region holds a few lines, each another player's play with its cards in words."""
    region = tid(page, "announce")
    assert region.get_attribute("aria-live") == "polite"
    lines = region.locator("p").all_inner_texts()
    assert 1 <= len(lines) <= 4, lines
    assert not any(SYMBOL.search(line) for line in lines), lines
    assert any(CARD_WORDS.search(line) for line in lines), lines
    assert not any(line.startswith("Asha") for line in lines), lines  # her own moves are not told back to her


def finish_by_keys(page: Page) -> None:
    """The deal's score sheet takes the focus: Enter on Continue; the match is over."""
    _expect(tid(page, "score-sheet")).to_be_visible(timeout=15000)
    page.wait_for_function(f"() => ({ACTIVE})() === 'continue'")
    page.keyboard.press("Enter")
    _expect(tid(page, "match-over")).to_be_visible()


def test_a_whole_seep_deal_by_the_keyboard_alone(server: str, browser: Browser) -> None:
    errors: list[str] = []
    page = table_by_keys(browser, server, "seep", errors)
    turns = 0
    while wait_turn_or_end(page):
        seep_turn_by_keys(page)
        turns += 1
        if turns == 3:
            check_announced(page)
    assert turns >= 12  # a deal of twelve cards each: every one played by the keys (and the bid, if Asha's)
    check_announced(page)
    finish_by_keys(page)
    assert not errors, errors


def rummy_turn_by_keys(page: Page, drop: bool) -> None:
    """Tab to Take from the stock, Enter; Tab to Arrange for me, Enter (the solver sets its discard apart, chosen);
    then Declare if the engine calls the groups valid, else Discard. ``drop``: drop instead (the page asks first;
    its dialog takes the focus)."""
    v = version(page)
    if drop:
        tab_to(page, "drop")
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => ({ACTIVE})() === 'drop-confirm'")
        page.keyboard.press("Enter")
        after(page, v)
        return
    tab_to(page, "take-stock")
    name = accessible_name(tid(page, "take-discard"))
    assert CARD_WORDS.search(name) and not SYMBOL.search(name), name  # "Take queen of clubs"
    page.keyboard.press("Enter")
    after(page, v)
    assert len(hand_cards(page)) == 14
    # The hand is reached by Tab and walked by the arrows; Enter picks a card up and Escape puts it back.
    tab_into_hand(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    _expect(page.locator("[data-testid='hand'] .card.selected")).to_have_count(1)
    page.keyboard.press("Escape")
    _expect(page.locator("[data-testid='hand'] .card.selected")).to_have_count(0)
    tab_to(page, "arrange")
    page.keyboard.press("Enter")
    _expect(page.locator("[data-testid='hand'] .card.selected")).to_have_count(1)
    v = version(page)
    if tid(page, "hand-points").inner_text().startswith("A valid declaration"):
        tab_to(page, "declare")
        page.keyboard.press("Enter")
        tab_to(page, "declare-confirm")
        page.keyboard.press("Enter")
    else:
        tab_to(page, "discard")
        name = accessible_name(tid(page, "discard"))
        assert name.startswith("Discard ") and CARD_WORDS.search(name), name
        page.keyboard.press("Enter")
    after(page, v)


def test_a_whole_rummy_deal_by_the_keyboard_alone(server: str, browser: Browser) -> None:
    errors: list[str] = []
    for _ in range(6):  # a medium bot drops a hopeless hand at its first turn (the first drop): then another table
        page = table_by_keys(browser, server, "rummy", errors)
        turns = 0
        while wait_turn_or_end(page):
            rummy_turn_by_keys(page, drop=turns >= 4)
            turns += 1
        if turns >= 2:
            break
        page.context.close()
    assert turns >= 2, "six deals in a row ended before the player's second turn"
    lines = tid(page, "announce").locator("p").all_inner_texts()
    assert lines and not any(SYMBOL.search(line) for line in lines), lines
    finish_by_keys(page)
    assert not errors, errors
