"""The learn pages and the table's learning aids in Chromium through Playwright: each game's learn page drawn with
the client's cards, its first deal played step by step with every move checked by the server's engine (a refused
one showing the engine's reason), the lobby's links to it, and at a table the coach's answer, a card that cannot
be played saying why, and the learn link.

The same needs as tests/web/test_browser.py (Debian's chromium, the playwright package); skipped without them.
"""

# ruff: noqa: F811 - the fixtures of tests/web/test_browser.py, imported, are the tests' arguments

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.server import running_server
from tests.web.test_browser import ARTIFACTS, browser, pytestmark, tid, watch_errors  # noqa: F401 - the fixtures

try:
    from playwright.sync_api import Browser, Page
    from playwright.sync_api import expect as _expect
except ImportError:  # pragma: no cover - skipped by pytestmark
    pass

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server for the learn pages' tests (they make no table: the pages ask the engine, nothing is kept)."""
    with running_server(tmp_path_factory.mktemp("server"), bot_delay=0.05) as s:
        yield s.url


@pytest.fixture
def table_server(tmp_path: Path) -> Iterator[str]:
    """A server of the test's own for a table against bots (a loaded machine's first deal took over 20 s: no
    other test's table left to its bots on the same server)."""
    with running_server(tmp_path, bot_delay=0.05) as s:
        yield s.url


@pytest.mark.parametrize("game", ["seep", "rummy"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_learn_page_and_its_first_deal(server: str, browser: Browser, game: str, viewport: dict[str, int]) -> None:
    """Every step's position is drawn with cards; every move offered is tried: the page says the engine's verdict,
    word for word what the API says, a refusal with the engine's reason."""
    page = browser.new_context(viewport=viewport).new_page()
    errors: list[str] = []
    watch_errors(page, errors, game)
    page.goto(f"{server}/")
    tid(page, f"lobby-learn-{game}").click()
    page.wait_for_function("() => document.body !== null && document.body.dataset.ready === '1'")
    assert page.url.endswith(f"/learn/{game}")
    _expect(tid(page, "learn-title")).to_have_text("Learn Seep" if game == "seep" else "Learn 13-card Rummy")
    assert tid(page, "learn-about").locator("p").count() >= 3
    steps = tid(page, "learn-steps").locator("> li")
    assert steps.count() == 5
    api = httpx.get(f"{server}/api/learn/{game}").json()
    assert tid(page, "learn-presets").locator("dt").count() == len(api["presets"])
    for index, step in enumerate(api["steps"]):
        item = tid(page, f"step-{index}")
        assert item.locator("[data-testid^='hand-'] svg, [data-testid='hand'] svg").count() >= len(
            step["position"]["hand"])
        verdicts = []
        for i, option in enumerate(step["options"]):
            tried = {"step": index, "action": option["action"]}
            want = httpx.post(f"{server}/api/learn/{game}/step", json=tried).json()
            tid(page, f"try-{index}-{i}").click()
            said = tid(page, f"verdict-{index}")
            _expect(said).to_have_text(words(("Refused: " if want["verdict"] == "refused" else "") + want["said"]))
            _expect(said).to_have_attribute("data-verdict", want["verdict"])
            verdicts.append(want["verdict"])
        assert "right" in verdicts
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"learn-{game}-{viewport['width']}.png"), full_page=True)
    assert not errors, errors


def words(text: str) -> str:
    """As the page shows the server's words (common.js ``words``): a ten as "10"."""
    return re.sub(r"\bT([\u2660\u2665\u2666\u2663])", r"10\1", text)


def quick_table(page: Page, server: str, game: str) -> str:
    """A guest in this page's browser plays the computer: the table's id. Rummy's bot is ``medium`` (greedy: it
    drops only when nothing else is legal): an ``easy`` one plays at random, and dropped at its first turn, before
    the guest's, in one table in six (the deal, and a points match with it, was then over)."""
    assert page.request.post(f"{server}/api/guest", data={"name": "Lata"}).ok
    body = {"game": game, "players": 2, "level": "medium" if game == "rummy" else "easy"}
    body.update({"format": "points"} if game == "rummy" else {"baazis": 0})
    r = page.request.post(f"{server}/api/quick", data=body)
    assert r.ok, r.text()
    table_id: str = r.json()["id"]
    return table_id


def wait_my_turn(page: Page) -> bool:
    """Wait for the seat's turn, or for the match to end first (then False): 60 s, the wait of a whole deal."""
    page.wait_for_function("() => document.body.dataset.status === 'finished' || ("
                           "document.body.dataset.pending !== '1' && document.querySelector("
                           "\"[data-testid='turn-banner']\").textContent.startsWith('Your turn'))", timeout=60000)
    return page.evaluate("() => document.body.dataset.status") != "finished"


def first_turn(table_server: str, browser: Browser, errors: list[str], game: str,
               viewport: dict[str, int], wanted: Callable[[Page], bool] = lambda page: True) -> Page:
    """A page at its seat's first turn at a new table of ``game`` against the computer, where ``wanted`` holds.
    A deal the bot ends before the guest's turn (a greedy Rummy bot declaring at once, very rarely), or one
    ``wanted`` refuses, is left: another guest plays a new table, eight at most."""
    for _ in range(8):
        page = browser.new_context(viewport=viewport).new_page()
        watch_errors(page, errors, game)
        table_id = quick_table(page, table_server, game)
        page.goto(f"{table_server}/t/{table_id}")
        if wait_my_turn(page) and wanted(page):
            return page
        page.context.close()
    raise AssertionError(f"eight {game} deals in a row gave no first turn as wanted")


def no_twin_of_the_pile_top(page: Page) -> bool:
    """Whether the discard pile's top card has no twin in the hand. Two decks deal about one hand in eight the
    twin, and then R3 lets the taken card go (its twin is the same card), so nothing is marked
    (tests/rummy/test_deal.py's R3 test)."""
    top = tid(page, "pile-top").get_attribute("data-card")
    return page.locator(f"[data-testid='hand'] [data-card='{top}']").count() == 0


def test_at_a_rummy_table_the_coach_answers_and_the_card_just_taken_says_why(
        table_server: str, browser: Browser) -> None:
    errors: list[str] = []
    page = first_turn(table_server, browser, errors, "rummy", DESKTOP, no_twin_of_the_pile_top)
    assert tid(page, "learn-link").get_attribute("href") == "/learn/rummy"
    tid(page, "coach").click()
    _expect(tid(page, "coach-said")).to_have_text(re.compile(r"^Coach: (Take|Drop)"), timeout=20000)
    version = int(page.evaluate("() => document.body.dataset.version"))
    tid(page, "discard-pile").click()
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=version)
    taken = page.locator("[data-testid='hand'] [data-why-not]")
    _expect(taken).to_have_count(1, timeout=20000)  # CI is loaded: the take can come late
    assert "(R3)" in (taken.get_attribute("title") or "")
    taken.click()
    _expect(tid(page, "why-not")).to_contain_text("was just taken from the discard pile")
    tid(page, "coach").click()
    _expect(tid(page, "coach-said")).to_have_text(re.compile(r"^Coach: (Discard|Declare)"), timeout=20000)
    assert not errors, errors


def test_at_a_seep_table_the_coach_answers_the_bid_or_the_play(table_server: str, browser: Browser) -> None:
    errors: list[str] = []
    page = first_turn(table_server, browser, errors, "seep", PHONE)
    assert tid(page, "learn-link").get_attribute("href") == "/learn/seep"
    tid(page, "coach").click()
    bidding = page.locator("[data-testid^='bid-']").count() > 0  # the bidder may be the bot: then a play
    coached = re.compile(r"^Coach: Bid (9|1[0-3])\b" if bidding else r"^Coach: (Capture|Throw|Build|Put|Break) ")
    _expect(tid(page, "coach-said")).to_have_text(coached, timeout=20000)
    assert not errors, errors


def test_after_a_rummy_deal_the_score_sheet_says_where_the_points_came_from(
        table_server: str, browser: Browser) -> None:
    """A two-player deal ended by a drop: the sheet explains each seat's points (the dropper's cost, the winner's
    0)."""
    errors: list[str] = []
    page = first_turn(table_server, browser, errors, "rummy", PHONE)
    tid(page, "drop").click()
    tid(page, "drop-confirm").click()
    explained = tid(page, "explained")
    _expect(explained).to_be_visible(timeout=20000)
    _expect(explained).to_contain_text(re.compile(r"Lata dropped: \d+ points\."))
    _expect(explained).to_contain_text("was the last one left in the deal: 0 points.")
    assert not errors, errors
