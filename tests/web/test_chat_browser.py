"""The chat in two browsers, through Chromium (skipped as tests/web/test_browser.py is, without it): a line seen by
the other player and shown as text (never as markup), an emote, and a mute that this browser remembers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.web.test_browser import HAVE_PLAYWRIGHT, browser, pytestmark, server, tid, watch_errors

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page
if HAVE_PLAYWRIGHT:
    from playwright.sync_api import expect as _expect

__all__ = ["browser", "pytestmark", "server"]  # the fixtures, and the skips without Chromium

XSS = "<img src=x onerror=\"window.pwned=1\">"


def call(page: Page, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """An HTTP call from the page (its cookies): the JSON answered."""
    return page.evaluate("""async ([method, path, body]) => {
        const r = await fetch(path, {method, headers: {"Content-Type": "application/json"},
                                     body: body === null ? undefined : JSON.stringify(body)});
        return await r.json();
    }""", [method, path, body])


def test_two_players_chat_see_text_as_text_send_an_emote_and_mute(server: str, browser: Browser) -> None:
    errors: list[str] = []
    asha, bela = browser.new_context().new_page(), browser.new_context().new_page()
    for page, who in ((asha, "asha"), (bela, "bela")):
        page.set_default_timeout(15000)
        watch_errors(page, errors, who)
        page.goto(f"{server}/")
    call(asha, "POST", "/api/guest", {"name": "Asha"})
    call(bela, "POST", "/api/guest", {"name": "Bela"})
    table = call(asha, "POST", "/api/tables", {"players": 2, "baazis": 0, "public": True, "seat": 0})
    call(bela, "POST", f"/api/tables/{table['id']}/sit", {"seat": 1})
    call(asha, "POST", f"/api/tables/{table['id']}/start")
    for page in (asha, bela):
        page.goto(f"{server}/t/{table['id']}")
        _expect(tid(page, "chat")).to_be_visible()
        _expect(tid(page, "chat-emote-clap")).to_be_visible()  # the phrases and emotes came from the server

    tid(asha, "chat-input").fill(XSS)
    tid(asha, "chat-input").press("Enter")
    line = tid(bela, "chat-line").filter(has_text="Asha")
    _expect(line.locator("[data-testid='chat-text']")).to_have_text(XSS)
    assert bela.locator("[data-testid='chat-lines'] img").count() == 0
    assert bela.evaluate("() => window.pwned") is None and asha.evaluate("() => window.pwned") is None

    tid(asha, "chat-emote-clap").click()
    _expect(tid(bela, "chat-lines").locator("[data-emote='clap']")).to_have_count(1)
    tid(bela, "chat-phrase-good_luck").click()
    _expect(tid(asha, "chat-lines").locator("[data-testid='chat-phrase']")).to_have_text(["Good luck!"])

    tid(bela, "chat-mute").first.click()  # Bela mutes Asha: her lines go, and stay gone after a reload
    _expect(tid(bela, "chat-line").filter(has_text="Asha")).to_have_count(0)
    tid(asha, "chat-input").fill("can you hear me?")
    tid(asha, "chat-send").click()
    _expect(tid(asha, "chat-text").filter(has_text="can you hear me?")).to_have_count(1)
    bela.reload()
    _expect(tid(bela, "chat-line").filter(has_text="Bela")).to_have_count(1)  # her own line came back
    _expect(tid(bela, "chat-line").filter(has_text="Asha")).to_have_count(0)
    _expect(tid(bela, "chat-unmute")).to_have_text("Unmute Asha")
    tid(bela, "chat-unmute").click()
    _expect(tid(bela, "chat-text").filter(has_text="can you hear me?")).to_have_count(1)
    assert not errors, errors
