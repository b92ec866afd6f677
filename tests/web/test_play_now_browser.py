"""Play now in the browser (Chromium through Playwright): two people press it in the lobby with the same settings
and both land at the same table; one of them first presses and cancels, and the waiting line says how it stands.

The same needs as tests/web/test_browser.py (Debian's chromium, the playwright package); skipped without them.
"""

# ruff: noqa: F811 - the fixtures of tests/web/test_browser.py, imported, are the tests' arguments

from __future__ import annotations

import httpx

from tests.web.test_browser import (  # noqa: F401 - the fixtures
    browser,
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


def lobby(browser: Browser, server: str, name: str, errors: list[str]) -> Page:
    """A new person in the lobby, with a name, Seep for two, a single deal, waiting up to 2 minutes for people."""
    page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
    page.set_default_timeout(10000)
    watch_errors(page, errors, name)
    page.goto(f"{server}/")
    tid(page, "name-input").fill(name)
    tid(page, "name-submit").click()
    _expect(tid(page, "play-now")).to_be_visible()
    tid(page, "players").select_option("2")
    tid(page, "baazis").fill("0")
    tid(page, "play-now-wait").select_option("120")
    return page


def test_two_people_press_play_now_and_land_at_the_same_table(server: str, browser: Browser) -> None:
    errors: list[str] = []
    a = lobby(browser, server, "Priya", errors)
    b = lobby(browser, server, "Ravi", errors)

    tid(a, "play-now").click()
    _expect(tid(a, "play-now-status")).to_contain_text("Waiting for players: 1 of 2 here")
    _expect(tid(a, "play-now-status")).to_contain_text("bots fill the empty seats in")
    _expect(tid(a, "play-now")).to_be_disabled()
    shoot(a, "play-now-waiting")
    tid(a, "play-now-cancel").click()  # cancelled: the queue is empty again, and the button is back
    _expect(tid(a, "play-now-waiting")).to_be_hidden()
    _expect(tid(a, "play-now")).to_be_enabled()

    tid(b, "play-now").click()
    _expect(tid(b, "play-now-status")).to_contain_text("1 of 2 here")  # alone: Priya cancelled
    tid(a, "play-now").click()
    a.wait_for_url("**/t/*")
    b.wait_for_url("**/t/*")
    assert a.url == b.url
    table = httpx.get(f"{server}/api/tables/{a.url.rstrip('/').rsplit('/', 1)[-1]}").json()
    assert table["status"] == "playing" and [s["name"] for s in table["seats"]] == ["Ravi", "Priya"]
    _expect(a.locator("main")).to_contain_text("Priya (you)")
    _expect(b.locator("main")).to_contain_text("Ravi (you)")
    shoot(b, "play-now-matched")
    assert errors == []
