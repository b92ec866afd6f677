"""The proof that a game plugs in by one registration: the tests' tic-tac-toe (``tests/games/tictactoe_plugin.py``,
registered by the server process the test starts, never by ``src/``) is offered by the lobby, played to its end by
two people in two browsers at a real table, and replayed. Driven through Chromium with Playwright (skipped without
it, as tests/web/test_browser.py)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.server import chromium, served
from tests.web.test_browser import CHROMIUM, HAVE_PLAYWRIGHT, watch_errors

if HAVE_PLAYWRIGHT:
    from playwright.sync_api import Browser, Page
    from playwright.sync_api import expect as _expect

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium (apt-get install chromium)"),
    pytest.mark.skipif(not HAVE_PLAYWRIGHT, reason="the playwright Python package is not installed"),
]

#: ``taash serve`` with tic-tac-toe registered first (the one line a game needs), as a test server runs it.
WITH_TICTACTOE = """
from tests.games.tictactoe_plugin import register_tictactoe
register_tictactoe()
from taash.cli.main import run
run()
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("tictactoe")
    with served(tmp, "tictactoe.db", bot_delay=0.02, launcher=("-c", WITH_TICTACTOE)) as running:
        yield running.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


def tid(page: Page, testid: str):  # type: ignore[no-untyped-def]
    return page.locator(f"[data-testid='{testid}']")


def named(page: Page, url: str, name: str) -> None:
    page.goto(url)
    tid(page, "name-input").fill(name)
    tid(page, "name-submit").click()


def test_the_server_offers_the_registered_game_and_serves_its_view(server: str) -> None:
    games = httpx.get(f"{server}/api/games").json()
    tictactoe = next(g for g in games if g["name"] == "tictactoe")
    assert games[0]["name"] != "tictactoe"  # the built-in default game stays first
    assert tictactoe["title"] == "Tic-tac-toe" and tictactoe["players"] == [[2, "2"]]
    assert tictactoe["view"] == "/games/tictactoe/view.js"
    module = httpx.get(f"{server}{tictactoe['view']}")
    assert module.status_code == 200 and "javascript" in module.headers["content-type"]
    assert "export function render" in module.text
    for wrong in ("/games/tictactoe/nosuch.js", "/games/tictactoe/..%2Ftictactoe_plugin.py", "/games/chess/view.js"):
        assert httpx.get(f"{server}{wrong}").status_code == 404, wrong
    stake = httpx.get(f"{server}/api/stakes/hold", params={"game": "tictactoe", "players": 2, "stake": 10})
    assert stake.status_code == 400 and "not played for chips" in stake.json()["detail"], stake.text


def test_two_people_play_tictactoe_to_its_end_in_two_browsers(server: str, browser: Browser) -> None:
    errors: list[str] = []
    a_ctx, b_ctx = browser.new_context(), browser.new_context()
    try:
        a, b = a_ctx.new_page(), b_ctx.new_page()
        for who, page in (("A", a), ("B", b)):
            page.set_default_timeout(10000)
            watch_errors(page, errors, who)
        named(a, f"{server}/", "Asha")
        _expect(tid(a, "create-table")).to_be_visible()
        tid(a, "game").select_option("tictactoe")
        _expect(tid(a, "players")).to_have_value("2")
        tid(a, "create-table").click()
        a.wait_for_url("**/t/*")
        _expect(a.locator(".brand span")).to_have_text("Tic-tac-toe")
        _expect(tid(a, "seat-0")).to_contain_text("Asha (you)")
        invite = tid(a, "invite-link").get_attribute("href")
        assert invite
        named(b, invite if invite.startswith("http") else f"{server}{invite}", "Bela")
        b.wait_for_url("**/t/*")
        tid(b, "sit-1").click()
        _expect(tid(a, "seat-1")).to_contain_text("Bela")
        tid(a, "start").click()

        marks = 0
        stall = time.monotonic() + 30  # a stall check, not a deadline for the whole game: 30 s without a mark
        while not all(tid(p, "match-over").is_visible() for p in (a, b)):
            assert time.monotonic() < stall, f"the game stalled after {marks} marks"
            for page in (a, b):
                squares = page.locator("[data-testid^='square-']:enabled")
                if tid(page, "turn-banner").text_content() == "Your turn" and squares.count():
                    version = int(page.evaluate("() => document.body.dataset.version"))
                    squares.first.click()
                    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=version)
                    marks += 1
                    stall = time.monotonic() + 30
            time.sleep(0.05)
        assert 5 <= marks <= 9
        for page in (a, b):
            _expect(tid(page, "winner")).to_have_text(re.compile(r"^(Asha wins|Bela wins|A draw)\.$"))
            _expect(tid(page, "log")).to_contain_text("takes square")
        said = tid(a, "winner").text_content() or ""
        assert said == (tid(b, "winner").text_content() or "")

        tid(b, "replay-link").click()
        b.wait_for_url("**/r/*")
        _expect(b.locator(".brand span")).to_have_text("Tic-tac-toe")
        _expect(tid(b, "replay-said")).to_contain_text("moves first")
        tid(b, "replay-last").click()
        _expect(tid(b, "replay-step")).to_have_text(f"play {marks}/{marks}")
        filled = [tid(b, f"replay-square-{i}").text_content() for i in range(9)]
        assert sum(mark in ("X", "O") for mark in filled) == marks
    finally:
        a_ctx.close()
        b_ctx.close()
    assert not errors, errors


def test_the_registered_game_has_a_leaderboard_and_a_page_for_its_players(server: str, browser: Browser) -> None:
    """Generic pages list every registered game by its title."""
    page = browser.new_page()
    try:
        page.goto(f"{server}/leaderboard")
        _expect(tid(page, "board-tictactoe")).to_contain_text("Tic-tac-toe")
    finally:
        page.close()


def test_the_module_path_stays_inside_the_games_folder() -> None:
    from tests.games.tictactoe_plugin import PLUGIN

    view = PLUGIN.file("view")
    assert view is not None and view.is_file() and view.parent == Path(__file__).resolve().parents[1] / "games" \
        / "tictactoe_client"
