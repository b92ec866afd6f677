"""A person's page lists his uploaded offline matches apart from his matches at tables, each marked offline and
never rated (issue 31), in Chromium through Playwright; the same needs as tests/web/test_browser.py."""

# ruff: noqa: F811 - the fixtures of tests/web/test_browser.py, imported, are the tests' arguments

from __future__ import annotations

from taash.web.offline.engine import OfflineMatch
from tests.web.server import Person, Server
from tests.web.test_browser import browser, pytestmark, server, tid  # noqa: F401 - the fixtures
from tests.web.test_offline import played_out, setup

try:
    from playwright.sync_api import Browser
    from playwright.sync_api import expect as _expect
except ImportError:  # pragma: no cover - skipped by pytestmark
    pass


def test_the_persons_page_shows_his_offline_matches_apart_marked_offline(server: str, browser: Browser) -> None:
    priya = Person(Server(server, "", []), "Priya")
    me = priya.http.get("/api/me").json()["id"]
    page = browser.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/p/{me}")
    _expect(tid(page, "person-matches")).to_contain_text("No finished match yet")
    _expect(tid(page, "person-offline")).to_be_hidden()  # none uploaded: no section

    save = played_out(OfflineMatch(setup("seep", seed=3))).save()
    assert priya.post("/api/offline/matches", {"save": save}).status_code == 200
    page.reload()
    _expect(tid(page, "person-offline-match")).to_have_count(1)
    row = tid(page, "person-offline-match")
    _expect(row.locator("[data-testid='offline-mark']")).to_have_text("offline")
    _expect(row).to_contain_text("Seep")
    _expect(row).to_contain_text("not rated")
    _expect(row).to_contain_text("You")
    # ... and nowhere among his matches at tables or his statistics.
    _expect(tid(page, "person-matches")).to_contain_text("No finished match yet")
    _expect(tid(page, "person-stats")).to_be_hidden()
    assert errors == []
