"""A tournament in Chromium through Playwright: made from the tournaments page, registered for with its button,
its standings shown live until it ends, and listed on the player's page. The same needs as
tests/web/test_browser.py (Debian's chromium, the playwright package); skipped without them."""

# ruff: noqa: F811 - the fixtures of tests/web/test_browser.py, imported, are the tests' arguments
from __future__ import annotations

from pathlib import Path

from tests.web.server import Person, running_server
from tests.web.test_browser import browser, pytestmark, tid, watch_errors  # noqa: F401 - the fixtures

try:
    from playwright.sync_api import Browser
    from playwright.sync_api import expect as _expect
except ImportError:  # pragma: no cover - skipped by pytestmark
    pass


def test_a_tournament_made_and_entered_in_the_browser_shows_its_standings_to_the_end(
        tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path, away_seconds=0.0, extra=("--turn-seconds", "0")) as server:
        errors: list[str] = []
        page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
        page.set_default_timeout(30000)
        watch_errors(page, errors, "entrant")
        page.goto(f"{server.url}/")
        tid(page, "name-input").fill("Asha")
        tid(page, "name-submit").click()
        _expect(tid(page, "tournaments")).to_be_visible()
        tid(page, "tournaments").click()
        page.wait_for_url("**/tournaments")
        form = tid(page, "tournament-form")
        form.locator("input[name=name]").fill("Browser <b>cup</b>")
        form.locator("input[name=capacity]").fill("2")
        form.locator("button[type=submit]").click()
        page.wait_for_url("**/tournaments/*")
        _expect(tid(page, "tournament")).to_contain_text("Browser <b>cup</b>")  # escaped, not markup
        tid(page, "register").click()
        _expect(tid(page, "withdraw")).to_be_visible()
        tournament = page.url.rsplit("/", 1)[1]
        other = Person(server, "Bela")
        assert other.post(f"/api/tournaments/{tournament}/register").status_code == 200
        _expect(tid(page, "tournament-status")).to_contain_text("finished", timeout=90000)
        _expect(tid(page, "standing")).to_have_count(2)
        _expect(tid(page, "tournament-match")).to_have_count(1)
        me = page.evaluate("async () => (await (await fetch('/api/me')).json()).id")
        page.goto(f"{server.url}/p/{me}")
        _expect(tid(page, "person-tournament")).to_contain_text("Browser <b>cup</b>")
        assert errors == []


def test_the_tournament_chat_shows_an_entrants_line_escaped_to_another_and_not_to_a_watcher(
        tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path) as server:
        errors: list[str] = []
        asha = Person(server, "Asha")
        made = asha.post("/api/tournaments", {"name": "Chatty", "game": "seep", "baazis": 0, "capacity": 4})
        tournament = made.json()["id"]
        pages = {}
        for name in ("Watcher", "Asha", "Bela"):  # the watcher first: he sees the others register, pushed
            page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
            page.set_default_timeout(30000)
            watch_errors(page, errors, name)
            page.goto(f"{server.url}/")
            tid(page, "name-input").fill(name)
            tid(page, "name-submit").click()
            _expect(tid(page, "tournaments")).to_be_visible()
            page.goto(f"{server.url}/tournaments/{tournament}")
            if name != "Watcher":
                tid(page, "register").click()
                _expect(tid(page, "withdraw")).to_be_visible()
            pages[name] = page
        _expect(pages["Watcher"].get_by_text("2 of 4 entrants")).to_be_visible()  # pushed: no reload
        tid(pages["Asha"], "chat-input").fill("<img src=x onerror=alert(1)> hello")
        tid(pages["Asha"], "chat-send").click()
        _expect(tid(pages["Bela"], "chat-text")).to_have_text("<img src=x onerror=alert(1)> hello")
        _expect(tid(pages["Bela"], "chat-lines").locator("img")).to_have_count(0)
        tid(pages["Watcher"], "chat-input").fill("just watching")
        tid(pages["Watcher"], "chat-send").click()
        _expect(tid(pages["Watcher"], "chat-text")).to_have_text("just watching")
        _expect(tid(pages["Bela"], "chat-text")).to_have_count(1)  # the watchers talk apart
        assert errors == []
