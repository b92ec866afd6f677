"""Offline play in the browser (Debian's Chromium through Playwright), on a phone's screen: a person visits once
online (a name in the lobby, then the offline page: the service worker caches the client, Pyodide and the engine),
goes offline, and the app still opens; a whole Seep deal and a whole Rummy deal are played against bots in the
browser, a reload mid-deal resumes where it was, and back online both matches are uploaded and appear in the
history. The manifest and the service worker pass Chromium's own installability checks.

Pyodide takes tens of seconds to start on a loaded machine: one test, one page, marked ``slow``. The same needs as
tests/web/test_browser.py (Debian's chromium, the playwright package); skipped without them.
"""

# ruff: noqa: F811 - the fixtures of tests/web/test_browser.py, imported, are the tests' arguments

from __future__ import annotations

import time

import httpx
import pytest

from taash.i18n import client_catalogue
from taash.web.offline.routes import cached_paths
from tests.web.test_browser import (  # noqa: F401 - the fixtures
    browser,
    pytestmark,
    server,
    shoot,
    take_turn,
    tid,
)
from tests.web.test_rummy_browser import play_the_deal

try:
    from playwright.sync_api import Browser, Page
    from playwright.sync_api import expect as _expect
except ImportError:  # pragma: no cover - skipped by pytestmark
    pass

pytestmark = [*pytestmark, pytest.mark.slow]
#: How long the offline engine may take to start (Pyodide compiles CPython first; the figure published in
#: docs/results/offline.md is measured on a quiet machine).
ENGINE_START_MS = 240_000


def watch(page: Page, errors: list[str]) -> None:
    page.on("pageerror", lambda e: errors.append(f"page: {e}"))
    # Offline, the browser logs each request the network refused; a person with no name yet gets a 401 from
    # /api/me: both expected.
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" and not any(
        known in m.text for known in ("ERR_INTERNET_DISCONNECTED", "status of 401")) else None)


def engine_ready(page: Page) -> None:
    page.wait_for_url("**/offline/play?*")
    page.wait_for_function("() => document.body.dataset.offlineReady === 'true'", timeout=ENGINE_START_MS)


#: The rules of the match saved in IndexedDB under the page's id, as the engine in the worker wrote its save.
SAVED_RULES = """async () => {
  const id = new URLSearchParams(location.search).get("id");
  const db = await new Promise((ok, fail) => {
    const open = indexedDB.open("taash-offline", 1);
    open.onsuccess = () => ok(open.result);
    open.onerror = () => fail(open.error);
  });
  const match = await new Promise((ok) => {
    const got = db.transaction("matches").objectStore("matches").get(id);
    got.onsuccess = () => ok(got.result);
  });
  return JSON.parse(match.save).setup.rules;
}"""


def start(page: Page, server: str, game: str, players: str, length: str | None, rules: str | None = None) -> None:
    page.goto(f"{server}/offline?delay=100")
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    tid(page, "offline-game").select_option(game)
    tid(page, "offline-players").select_option(players)
    if length is not None:
        tid(page, "offline-length").select_option(length)
    if rules is not None:
        tid(page, "offline-rules").select_option(rules)
    tid(page, "offline-level").select_option("hard")
    tid(page, "offline-play").click()
    engine_ready(page)


def my_turn(page: Page) -> bool:
    return bool(page.evaluate(
        "() => document.body.dataset.status === 'playing' && document.body.dataset.pending !== '1' &&"
        " document.querySelector(\"[data-testid='turn-banner']\").textContent === 'Your turn'"))


def play_seep_deal(page: Page, reload_after: int) -> None:
    """Take every turn of the deal by clicks; after ``reload_after`` turns, reload the page (offline) and check the
    match resumes at the same version."""
    turns = 0
    deadline = time.monotonic() + 600
    while page.evaluate("() => document.body.dataset.status") != "finished":
        assert time.monotonic() < deadline, "the deal did not end"
        if not my_turn(page):
            page.wait_for_timeout(100)
            continue
        take_turn(page)
        turns += 1
        if turns == reload_after:
            mine = int(page.evaluate("() => document.body.dataset.version"))  # my move made
            # ... and kept in IndexedDB (a bot's move after it may not be: made again on resuming)
            page.wait_for_function("v => Number(document.body.dataset.savedVersion || 0) >= v", arg=mine)
            page.reload()
            page.wait_for_function("() => document.body.dataset.offlineReady === 'true'", timeout=ENGINE_START_MS)
            assert int(page.evaluate("() => document.body.dataset.version")) >= mine


def test_the_app_installs_plays_offline_resumes_and_uploads(server: str, browser: Browser) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20000)
    watch(page, errors)

    # Online once: a name (the history's person), then the offline page, which the service worker makes whole.
    page.goto(f"{server}/")
    tid(page, "name-input").fill("Priya")
    tid(page, "name-submit").click()
    # The name accepted (its cookie set) before leaving the lobby: the "Play offline" link is there from the start,
    # and leaving at once cancelled the name's request on a loaded machine (the upload's 401 "choose a name").
    _expect(tid(page, "create-table")).to_be_visible()
    assert page.evaluate("() => fetch('/api/me').then(r => r.status)") == 200
    page.goto(f"{server}/offline")
    page.evaluate("() => navigator.serviceWorker.ready")
    wanted = len(cached_paths())
    page.wait_for_function(
        "async n => { let k = 0; for (const c of await caches.keys()) k += (await (await caches.open(c)).keys())"
        ".length; return k >= n; }", arg=wanted, timeout=120000)
    page.reload()
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    # Chromium's installability checks: a manifest with a name, icons of 192 and 512, standalone, a start URL in
    # scope, a service worker with a fetch handler (a test's browser context is incognito: that one alone).
    errors_found = context.new_cdp_session(page).send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in errors_found if e["errorId"] != "in-incognito"] == []
    manifest = page.evaluate("() => fetch('/manifest.webmanifest').then(r => r.json())")
    assert manifest["display"] == "standalone" and {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}

    context.set_offline(True)
    page.reload()
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    shoot(page, "offline-page")
    # The rules offered are those of the online table's form (the server's /api/games, cached), the default first.
    offered = {g["name"]: g["rules"] for g in httpx.get(f"{server}/api/games").json()}
    for game in ("seep", "rummy"):
        tid(page, "offline-game").select_option(game)
        assert tid(page, "offline-rules").locator("option").evaluate_all("os => os.map(o => o.value)") == offered[game]

    start(page, server, "seep", "4", "0")
    first_deal_ms = int(page.evaluate("() => Number(document.body.dataset.firstDealMs || 0)"))
    assert 0 < first_deal_ms < ENGINE_START_MS
    # The engine started as the table page loaded, before the page had its games' views and connected.
    started, connected = page.evaluate(
        "() => [document.body.dataset.engineStartedMs, document.body.dataset.connectedMs].map(Number)")
    assert 0 < started < connected
    shoot(page, "offline-seep")
    play_seep_deal(page, reload_after=3)
    shoot(page, "offline-seep-over")

    start(page, server, "rummy", "2", None, rules="classic")
    page.wait_for_function("() => document.body.dataset.savedVersion")
    assert page.evaluate(SAVED_RULES) == "classic"  # the rules chosen reached the engine in the worker
    shoot(page, "offline-rummy")
    play_the_deal(page, 4, "drop")
    page.wait_for_function("() => document.body.dataset.status === 'finished'")
    page.wait_for_function("() => document.body.dataset.savedOver === 'true'")  # kept finished in IndexedDB

    page.goto(f"{server}/offline")  # still offline: both finished, waiting for the network
    _expect(tid(page, "offline-finished-match")).to_have_count(2)
    _expect(tid(page, "offline-finished-match").filter(has_text="when online")).to_have_count(2)
    # Back online with no reload: the page sends them by itself (the 'online' event, else its timer's next try).
    context.set_offline(False)
    page.wait_for_function("() => document.body.dataset.uploads === 'done'", timeout=120000)
    _expect(tid(page, "offline-finished-match").filter(has_text="in your history")).to_have_count(2)
    _expect(tid(page, "offline-history-match")).to_have_count(2)
    shoot(page, "offline-uploaded")
    history = page.evaluate("() => fetch('/api/offline/matches').then(r => r.json())")
    assert sorted(m["game"] for m in history) == ["rummy", "seep"]
    assert all(m["summary"]["seats"][0]["name"] == "You" for m in history)

    # A setup the engine refuses (expert is not offered offline), in Hindi: one line, from the catalogue.
    page.evaluate("""async () => {
      localStorage.setItem("taash.lang", "hi");
      const db = await new Promise((ok) => {
        const o = indexedDB.open("taash-offline", 1);
        o.onsuccess = () => ok(o.result);
      });
      const setup = {game: "seep", players: 4, level: "expert", length: 0, rules: null, seed: 1, name: "You"};
      await new Promise((ok) => { const tx = db.transaction("matches", "readwrite");
        tx.objectStore("matches").put({id: "bad", setup, save: null, over: false, updated: 0, uploaded: false});
        tx.oncomplete = ok; });
    }""")
    page.goto(f"{server}/offline/play?id=bad")
    hindi = client_catalogue("hi")["messages"]
    refusal = hindi["the computer's level must be one of {levels} offline"].replace("{levels}", "easy, medium, hard")
    _expect(tid(page, "status")).to_contain_text(refusal, timeout=ENGINE_START_MS)
    assert "\n" not in tid(page, "status").inner_text()
    assert errors == []
