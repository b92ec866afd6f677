"""The replay page's "Verify fairness" button (Chromium through Playwright): the server checks the record against
its fair dealing and the page shows its word on every deal. The same needs as tests/web/test_browser.py."""

# ruff: noqa: F811 - the fixtures of tests/web/test_browser.py, imported, are the tests' arguments

from __future__ import annotations

import httpx

from tests.web.server import until_finished
from tests.web.test_browser import browser, pytestmark, server, tid, watch_errors  # noqa: F401 - the fixtures

try:
    from playwright.sync_api import Browser
    from playwright.sync_api import expect as _expect
except ImportError:  # pragma: no cover - skipped by pytestmark
    pass


def test_the_replay_page_verifies_every_deal_of_a_finished_match(server: str, browser: Browser) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        assert http.post("/api/guest", json={"name": "Host"}).status_code == 200
        table = http.post("/api/tables", json={"players": 2, "baazis": 0, "level": "easy", "seat": None}).json()
        tid_ = table["id"]
        assert http.post(f"/api/tables/{tid_}/bots").status_code == 200
        assert http.post(f"/api/tables/{tid_}/start").status_code == 200
        until_finished(http, tid_)
        deals = len(http.get(f"/api/tables/{tid_}/record").json()["deals"])
        commitment = http.get(f"/api/tables/{tid_}/record").json()["fairness"]["commitment"]
    page = browser.new_page()
    errors: list[str] = []
    watch_errors(page, errors, "replay")
    page.goto(f"{server}/r/{tid_}")
    _expect(tid(page, "replay-step")).to_be_visible()
    _expect(tid(page, "fairness")).to_be_hidden()
    tid(page, "verify").click()
    _expect(tid(page, "fairness-result")).to_contain_text("the dealing was fair")
    _expect(tid(page, "fairness-deal")).to_have_count(deals)
    _expect(tid(page, "fairness-deal").first).to_contain_text("Deal 1: ")
    _expect(tid(page, "fairness")).to_contain_text(commitment)
    assert not errors, errors
