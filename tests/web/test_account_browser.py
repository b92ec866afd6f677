"""Accounts on the lobby page, through Chromium (skipped as tests/web/test_browser.py is, without it): claim a name,
log in to it from another browser, a wrong password, log out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.web.test_browser import HAVE_PLAYWRIGHT, browser, pytestmark, server, tid, watch_errors

if TYPE_CHECKING:
    from playwright.sync_api import Browser
if HAVE_PLAYWRIGHT:
    from playwright.sync_api import expect as _expect

__all__ = ["browser", "pytestmark", "server"]  # the fixtures, and the skips without Chromium


def test_claim_a_name_and_log_in_to_it_from_another_browser(server: str, browser: Browser) -> None:
    errors: list[str] = []
    first, second = browser.new_context().new_page(), browser.new_context().new_page()
    for page, who in ((first, "first"), (second, "second")):
        page.set_default_timeout(10000)
        watch_errors(page, errors, who)

    first.goto(f"{server}/")
    tid(first, "name-input").fill("Meera")
    tid(first, "name-submit").click()
    tid(first, "claim-password").fill("a good long password")
    tid(first, "claim-form").locator("button").click()
    _expect(tid(first, "account-name")).to_have_text("Logged in as Meera.")
    guest_id = first.evaluate("() => fetch('/api/me').then(r => r.json()).then(m => m.id)")

    second.goto(f"{server}/")
    tid(second, "login-name").fill("ＭＥＥＲＡ")  # any width and case
    tid(second, "login-password").fill("not the password")
    tid(second, "login-form").locator("button").click()
    _expect(tid(second, "login-form").locator(".error")).to_have_text("wrong name or password")
    tid(second, "login-password").fill("a good long password")
    tid(second, "login-form").locator("button").click()
    _expect(tid(second, "who")).to_contain_text("Playing as Meera")
    assert second.evaluate("() => fetch('/api/me').then(r => r.json()).then(m => m.id)") == guest_id

    tid(second, "logout").click()
    _expect(tid(second, "name-input")).to_be_visible()  # a browser with no guest again
    _expect(tid(first, "account-name")).to_have_text("Logged in as Meera.")  # the other browser stays in
    # The browser logs the wrong password's 401 (expected, as the page's own 401 for /api/me).
    assert not errors, errors
