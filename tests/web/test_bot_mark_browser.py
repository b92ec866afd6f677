"""In Chromium, a Hindi page names the rules presets in Hindi (the lobby's choice of rules) and marks the bots'
seats in Hindi ("Asha (बॉट)", never "(bot)"), at the table and in its log; skipped without Playwright."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from taash.i18n import say_in
from tests.web.server import chromium, served
from tests.web.test_browser import HAVE_PLAYWRIGHT, pytestmark, tid
from tests.web.test_languages_browser import context_in, named_in_lobby

if HAVE_PLAYWRIGHT:
    from playwright.sync_api import Browser
    from playwright.sync_api import expect as _expect

__all__ = ["pytestmark"]  # the skips without Chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("botmark"), "botmark.db", bot_delay=0.02) as s:
        yield s.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


@pytest.mark.parametrize("lang", ["hi", "pa"])
def test_presets_and_bots_are_named_in_the_pages_language(server: str, browser: Browser, lang: str) -> None:
    errors: list[str] = []
    context = context_in(browser, lang)
    try:
        page = named_in_lobby(context, server, lang, f"Mark{lang}", errors)
        options = tid(page, "rules").locator("option").all_inner_texts()
        assert say_in(lang, "punjab 30") in options and say_in(lang, "standard") in options, options
        assert not any("_" in o or o in ("standard", "karan") for o in options), options
        tid(page, "players").select_option("4")
        tid(page, "rules").select_option("punjab_30")  # the code is what is sent
        tid(page, "quick-play").click()
        page.wait_for_url("**/t/*")
        _expect(tid(page, "hand")).to_be_visible()
        mark = say_in(lang, "{name} (bot)", name="Asha")
        _expect(tid(page, "seat-box-1").locator(".seat-name")).to_contain_text(mark)
        seats = page.locator(".seat-name").all_inner_texts()
        assert not any("(bot)" in s for s in seats), seats
        _expect(tid(page, "log").locator("li").first).to_be_visible()
        lines = tid(page, "log").locator("li").all_inner_texts()
        assert not any("(bot)" in line for line in lines), lines
        assert say_in(lang, "punjab 30") in page.locator("body").inner_text()  # the table's settings line
        assert not errors, errors
    finally:
        context.close()


def test_the_lobbys_list_of_tables_marks_the_bots_in_the_pages_language(server: str, browser: Browser) -> None:
    errors: list[str] = []
    context = context_in(browser, "hi")
    try:
        page = named_in_lobby(context, server, "hi", "Lobbywala", errors)
        for _ in range(100):  # the name is taken once the lobby's form has been answered
            made = page.request.post(f"{server}/api/tables", data={"game": "seep", "players": 2, "rules": "karan"})
            if made.status != 401:
                break
            page.wait_for_timeout(100)
        assert made.ok, made.text()
        table = made.json()["id"]
        assert page.request.post(f"{server}/api/tables/{table}/bots").ok
        page.reload()
        item = page.locator(f"[data-testid='table-item'][data-table='{table}']")
        _expect(item).to_contain_text(say_in("hi", "{name} (bot)", name="Asha"))
        _expect(item).to_contain_text(say_in("hi", "karan"))
        assert "(bot)" not in item.inner_text()
        assert not errors, errors
    finally:
        context.close()
