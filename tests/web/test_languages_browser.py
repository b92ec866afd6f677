"""The web client in English, Hindi and Punjabi, in Chromium through Playwright (skipped without it, as
tests/web/test_browser.py): a whole Seep deal and a whole Rummy deal played in each language, the page showing
that language's words (the catalogue's, checked against the .po files through taash.i18n); the language chosen from
the browser's and switched on a page, remembered on the next; a server's refusal shown translated."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from taash.i18n import say_in
from tests.web.server import chromium, served
from tests.web.test_browser import HAVE_PLAYWRIGHT, pytestmark, take_turn, tid, watch_errors

if HAVE_PLAYWRIGHT:
    from playwright.sync_api import Browser, BrowserContext, Page
    from playwright.sync_api import expect as _expect

__all__ = ["pytestmark"]  # the skips without Chromium

#: The browser's language for each of ours (navigator.languages): the page must pick ours from it.
LOCALES = {"en": "en-GB", "hi": "hi-IN", "pa": "pa-IN"}
#: The script each language is written in.
SCRIPTS = {"hi": re.compile(r"[\u0900-\u097f]"), "pa": re.compile(r"[\u0a00-\u0a7f]")}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("languages"), "languages.db", bot_delay=0.02) as s:
        yield s.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


def context_in(browser: Browser, lang: str) -> BrowserContext:
    ctx = browser.new_context(viewport={"width": 1200, "height": 900}, locale=LOCALES[lang])
    ctx.set_default_timeout(15000)
    return ctx


def said(lang: str, message: str, **values: Any) -> str:
    """What the page must show for ``message`` in ``lang``: the .po file's translation."""
    return say_in(lang, message, **values)


def named_in_lobby(context: BrowserContext, server: str, lang: str, name: str, errors: list[str]) -> Page:
    """A person in the lobby, named; the lobby speaks ``lang`` (its <html lang>, a heading, the name's prompt)."""
    page = context.new_page()
    watch_errors(page, errors, name)
    page.goto(f"{server}/")
    _expect(page.locator("html")).to_have_attribute("lang", lang)
    _expect(page.locator("section.about h2")).to_have_text(said(lang, "The games"))
    _expect(page.locator("label[for='name-input']")).to_have_text(said(lang, "Your name at the table"))
    tid(page, "name-input").fill(name)
    tid(page, "name-submit").click()
    _expect(tid(page, "quick-play")).to_have_text(said(lang, "Play against the computer"))
    if lang != "en":
        assert SCRIPTS[lang].search(page.locator("main").inner_text())
    return page


def finished(page: Page) -> bool:
    return page.evaluate("() => document.body.dataset.status") == "finished"


@pytest.mark.parametrize("lang", ["en", "hi", "pa"])
def test_a_whole_seep_deal_in_each_language(server: str, browser: Browser, lang: str) -> None:
    errors: list[str] = []
    context = context_in(browser, lang)
    try:
        page = named_in_lobby(context, server, lang, f"Seep{lang}", errors)
        tid(page, "players").select_option("2")
        tid(page, "baazis").fill("0")
        tid(page, "level").select_option("easy")
        _expect(tid(page, "level").locator("option:checked")).to_have_text(said(lang, "easy"))
        tid(page, "quick-play").click()
        page.wait_for_url("**/t/*")
        _expect(tid(page, "hand")).to_be_visible()
        _expect(page.locator("#log-title")).to_have_text(said(lang, "Last plays"))
        headers = tid(page, "scores").locator("th").all_inner_texts()
        assert said(lang, "cards") in headers and said(lang, "sweeps") in headers, headers
        yours = said(lang, "Your turn")
        turns = 0
        # Each turn is waited for as it comes (30 s: a stall); 600 looks of 50 ms each at most were a budget for
        # the whole deal, which a loaded machine's page spent before the deal's end.
        while True:
            page.wait_for_function("t => document.body.dataset.status === 'finished' || (document.body.dataset."
                                   "pending !== '1' && document.querySelector(\"[data-testid='turn-banner']\")"
                                   ".textContent === t)", arg=yours, timeout=30000)
            if finished(page):
                break
            take_turn(page)
            turns += 1
        assert turns >= 12  # a bid and every card of his hand
        if lang != "en":  # the log's lines, written by the server, in the page's language too (?lang=)
            lines = tid(page, "log").locator("li").all_inner_texts()
            assert lines and all(SCRIPTS[lang].search(line) for line in lines), lines
        _expect(page.locator("#sheet-title")).to_have_text(said(lang, "Deal {n}: the score", n=1))
        tid(page, "continue").click()
        _expect(tid(page, "match-over").locator("h2")).to_have_text(said(lang, "The match is over"))
        _expect(tid(page, "replay-link")).to_have_text(said(lang, "Watch the replay"))
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "hi", "pa"])
def test_a_whole_rummy_deal_in_each_language(server: str, browser: Browser, lang: str) -> None:
    """Take from the stock, let the solver arrange, discard; after a few turns, declare (valid or not, a 2-player
    deal is over either way)."""
    errors: list[str] = []
    context = context_in(browser, lang)
    try:
        page = named_in_lobby(context, server, lang, f"Rummy{lang}", errors)
        tid(page, "game").select_option("rummy")
        _expect(page.locator("#format-field span")).to_have_text(said(lang, "Format"))
        tid(page, "players").select_option("2")
        tid(page, "rules").select_option("octro")
        tid(page, "format").select_option("points")
        tid(page, "level").select_option("medium")
        tid(page, "quick-play").click()
        page.wait_for_url("**/t/*")
        _expect(tid(page, "hand")).to_be_visible()
        _expect(tid(page, "take-stock")).to_have_text(said(lang, "Take from the stock"))
        _expect(tid(page, "arrange")).to_have_text(said(lang, "Arrange for me"))
        take = said(lang, "Your turn: take a card")
        turns = 0
        while not finished(page):
            page.wait_for_function("t => document.body.dataset.status === 'finished' || (document.body.dataset."
                                   "pending !== '1' && document.querySelector(\"[data-testid='turn-banner']\")"
                                   ".textContent === t)", arg=take, timeout=30000)
            if finished(page):
                break
            rummy_turn(page, lang, declare=turns >= 3)
            turns += 1
        _expect(tid(page, "score-sheet")).to_be_visible(timeout=15000)
        _expect(page.locator("#sheet-title")).to_contain_text(said(lang, "Deal {n}: {said}", n=1, said="")
                                                             .strip())
        tid(page, "continue").click()
        _expect(tid(page, "match-over").locator("h2")).to_have_text(said(lang, "The match is over"))
        assert not errors, errors
    finally:
        context.close()


def rummy_turn(page: Page, lang: str, declare: bool) -> None:
    version = int(page.evaluate("() => document.body.dataset.version"))
    tid(page, "take-stock").click()
    after(page, version)
    _expect(tid(page, "turn-banner")).to_have_text(said(lang, "Your turn: discard a card (or declare)"))
    tid(page, "arrange").click()
    page.wait_for_function("() => ![...document.querySelectorAll(\"[data-testid^='group-label-']\")]"
                           ".some(e => e.textContent === '…')")
    version = int(page.evaluate("() => document.body.dataset.version"))
    if declare:
        tid(page, "declare").click()
        _expect(tid(page, "declare-dialog").locator("h2")).to_have_text(said(lang, "Declare?"))
        tid(page, "declare-confirm").click()
    else:
        _expect(tid(page, "discard")).to_be_enabled()
        tid(page, "discard").click()
    after(page, version)


def after(page: Page, version: int) -> None:
    page.wait_for_function("v => Number(document.body.dataset.version) > v && document.body.dataset.pending !== '1'",
                           arg=version, timeout=10000)


def test_the_switch_is_remembered_on_every_page(server: str, browser: Browser) -> None:
    """An English browser; the switch on the lobby picks Punjabi; the leaderboard and the lobby again (a new page)
    speak it; the switch back to English is remembered too."""
    errors: list[str] = []
    context = context_in(browser, "en")
    try:
        page = context.new_page()
        watch_errors(page, errors, "switcher")
        page.goto(f"{server}/")
        _expect(page.locator("section.about h2")).to_have_text("The games")
        switch = tid(page, "language")
        _expect(switch.locator("option")).to_have_text(["English", "हिन्दी", "ਪੰਜਾਬੀ"])
        switch.select_option("pa")
        _expect(page.locator("section.about h2")).to_have_text(said("pa", "The games"))
        assert page.evaluate("() => localStorage.getItem('taash.lang')") == "pa"
        page.goto(f"{server}/leaderboard")
        _expect(page.locator("html")).to_have_attribute("lang", "pa")
        _expect(tid(page, "board-chips").locator("h2")).to_have_text(said("pa", "Chips"))
        _expect(tid(page, "language")).to_have_value("pa")
        other = context.new_page()
        other.goto(f"{server}/learn/seep")
        _expect(other.locator("#about-title")).to_have_text(said("pa", "What it is and how to play"))
        tid(other, "language").select_option("en")
        _expect(other.locator("#about-title")).to_have_text("What it is and how to play")
        page.goto(f"{server}/")
        _expect(page.locator("section.about h2")).to_have_text("The games")
        assert not errors, errors
    finally:
        context.close()


def test_a_refusal_of_the_server_is_shown_in_the_pages_language(server: str, browser: Browser) -> None:
    errors: list[str] = []
    context = context_in(browser, "hi")
    try:
        page = named_in_lobby(context, server, "hi", "Kodwala", errors)
        tid(page, "join-code").fill("ZZZZ")
        tid(page, "join-submit").click()
        _expect(page.locator("#join-error")).to_have_text(said("hi", "no table has that code"))
        assert said("hi", "no table has that code") != "no table has that code"
        assert not [e for e in errors if "status of 404" not in e], errors  # the refusal itself is logged
    finally:
        context.close()
