"""The browser client, driven through Chromium with Playwright: two people play a whole deal by clicking.

Needs Debian's ``chromium`` at /usr/bin/chromium and the Python ``playwright`` package (no downloaded browser);
the test is skipped when either is missing. Screenshots go to tests/web/artifacts/ (ignored by git).
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.server import free_port

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).parent / "artifacts"

try:
    from playwright.sync_api import Browser, Page, sync_playwright
    from playwright.sync_api import expect as _expect

    HAVE_PLAYWRIGHT = True
except ImportError:  # pragma: no cover - depends on the machine
    HAVE_PLAYWRIGHT = False

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium (apt-get install chromium)"),
    pytest.mark.skipif(not HAVE_PLAYWRIGHT, reason="the playwright Python package is not installed"),
]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """``taash serve`` on a free loopback port, with quick bots; yields its base URL."""
    port = free_port()
    log = (tmp_path / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "taash.cli.main", "serve", "--port", str(port),
         "--database-url", f"sqlite:///{tmp_path / 'browser.db'}", "--bot-delay", "0.05", "--log-level", "warning"],
        stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"the server stopped: {(tmp_path / 'server.log').read_text()[-2000:]}")
            try:
                if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("the server did not start in 30 s")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            yield b
        finally:
            b.close()


def tid(page: Page, testid: str) -> Any:
    return page.locator(f"[data-testid='{testid}']")


def watch_errors(page: Page, errors: list[str], who: str) -> None:
    page.on("pageerror", lambda e: errors.append(f"{who}: {e}"))
    # GET /api/me answers 401 before a name is chosen: the browser logs that, and it is expected.
    page.on("console", lambda m: errors.append(f"{who} console: {m.text}")
            if m.type == "error" and "status of 401" not in m.text else None)


def shoot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def my_turn(page: Page) -> bool:
    return bool(page.evaluate(
        "() => document.body.dataset.pending !== '1' &&"
        " document.querySelector(\"[data-testid='turn-banner']\").textContent === 'Your turn'"))


def take_turn(page: Page) -> None:
    """Bid (the first bid button) or play (the first playable card, then the first offered play), by clicks."""
    version = int(page.evaluate("() => document.body.dataset.version"))
    bids = page.locator("[data-testid^='bid-']")
    if bids.count():
        bids.first.click()
    else:
        cards = page.locator("[data-testid='hand'] .card.playable")
        assert cards.count() > 0, "my turn, but no card may be played"
        # Dimmed cards offer nothing: only cards with a legal play are playable. The hand is fanned: click the
        # card's visible left edge, as a person would.
        cards.first.click(position={"x": 6, "y": 12})
        options = tid(page, "play-option")
        _expect(options.first).to_be_visible(timeout=5000)
        options.first.click()
    page.wait_for_function(
        "v => Number(document.body.dataset.version) > v && document.body.dataset.pending !== '1'",
        arg=version, timeout=10000)


def test_two_people_play_a_deal_in_the_browser(server: str, browser: Browser) -> None:
    started = time.monotonic()
    errors: list[str] = []
    a_ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    b_ctx = browser.new_context(viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True)
    a, b = a_ctx.new_page(), b_ctx.new_page()
    a.set_default_timeout(10000)
    b.set_default_timeout(10000)
    watch_errors(a, errors, "A")
    watch_errors(b, errors, "B")

    # A: a name, then a 4-player table of standard rules for a single deal; seat 0.
    a.goto(f"{server}/")
    tid(a, "name-input").fill("Priya")
    tid(a, "name-submit").click()
    _expect(tid(a, "create-table")).to_be_visible()
    tid(a, "players").select_option("4")
    tid(a, "rules").select_option("standard")
    tid(a, "baazis").fill("0")
    tid(a, "level").select_option("easy")
    tid(a, "create-table").click()
    a.wait_for_url("**/t/*")
    table_id = a.url.rstrip("/").rsplit("/", 1)[-1]
    tid(a, "sit-0").click()
    _expect(a.locator("[data-testid='seat-0']")).to_contain_text("Priya")
    invite = tid(a, "invite-link").get_attribute("href")
    assert invite and "/join/" in invite

    # B: the invite link, a name on the table page, seat 2 (A's partner).
    b.goto(invite)
    b.wait_for_url("**/t/*")
    tid(b, "name-input").fill("Ravi")
    tid(b, "name-submit").click()
    tid(b, "sit-2").click()
    _expect(a.locator("[data-testid='seat-2']")).to_contain_text("Ravi")

    # A fills the empty seats with bots and starts.
    tid(a, "fill-bots").click()
    _expect(tid(a, "start")).to_be_enabled()
    tid(a, "start").click()
    for page in (a, b):
        _expect(tid(page, "hand")).to_be_visible()
        _expect(tid(page, "status")).to_contain_text("Deal 1")
    shoot(a, "1-start-a")
    shoot(b, "1-start-b")

    # Both play the whole deal by clicks; B reloads the page midway.
    moves = {"A": 0, "B": 0}
    reloaded = False
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, f"the deal did not end in time (moves {moves})"
        done = [tid(p, "score-sheet").is_visible() for p in (a, b)]
        if all(done):
            break
        acted = False
        for name, page in (("A", a), ("B", b)):
            if not tid(page, "score-sheet").is_visible() and my_turn(page):
                take_turn(page)
                moves[name] += 1
                acted = True
        if not reloaded and moves["B"] >= 5:
            shoot(a, "2-mid-deal-a")
            shoot(b, "2-mid-deal-b")
            b.reload()
            _expect(tid(b, "hand")).to_be_visible()
            _expect(tid(b, "turn-banner")).to_be_visible()
            shoot(b, "3-after-reload-b")
            reloaded = True
        if not acted:
            time.sleep(0.05)
    assert reloaded and moves["A"] >= 11 and moves["B"] >= 11, moves

    for name, page in (("a", a), ("b", b)):
        sheet = tid(page, "score-sheet")
        _expect(sheet).to_contain_text("card points")
        shoot(page, f"4-score-sheet-{name}")
        tid(page, "continue").click()
        _expect(sheet).to_be_hidden()
        _expect(tid(page, "match-over")).to_be_visible()

    # The replay: every play, all hands.
    _expect(tid(a, "replay-link")).to_have_attribute("href", f"/r/{table_id}")
    tid(a, "replay-link").click()
    a.wait_for_url(f"**/r/{table_id}")
    step = tid(a, "replay-step")
    _expect(step).to_have_text("play 0/48")
    tid(a, "replay-next").click()
    _expect(step).to_have_text("play 1/48")
    a.keyboard.press("ArrowRight")
    _expect(step).to_have_text("play 2/48")
    tid(a, "replay-prev").click()
    _expect(step).to_have_text("play 1/48")
    shoot(a, "5-replay")

    a_ctx.close()
    b_ctx.close()
    assert not errors, errors
    assert time.monotonic() - started < 150
