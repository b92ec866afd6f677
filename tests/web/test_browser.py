"""The browser client, driven through Chromium with Playwright: two people play a whole deal by clicking.

Needs Debian's ``chromium`` at /usr/bin/chromium and the Python ``playwright`` package (no downloaded browser);
the test is skipped when either is missing. Screenshots go to tests/web/artifacts/ (ignored by git).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.server import CHROMIUM, Server, chromium, served

ARTIFACTS = Path(__file__).parent / "artifacts"

try:
    from playwright.sync_api import Browser, Page
    from playwright.sync_api import expect as _expect

    HAVE_PLAYWRIGHT = True
except ImportError:  # pragma: no cover - depends on the machine
    HAVE_PLAYWRIGHT = False

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium (apt-get install chromium)"),
    pytest.mark.skipif(not HAVE_PLAYWRIGHT, reason="the playwright Python package is not installed"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``taash serve`` on a free loopback port, with quick bots; yields its base URL. One for the tests of a module
    (a start costs seconds on a loaded machine): each makes its own guests and tables and looks only at those; a
    test that needs a server of its own (one it kills, one with other options) starts it itself."""
    with served(tmp_path_factory.mktemp("server"), "browser.db", bot_delay=0.05) as running:
        yield running.url


@pytest.fixture
def killable(tmp_path: Path) -> Iterator[Server]:
    """Like ``server``, as a :class:`Server` the test may ``kill -9`` and start again."""
    with served(tmp_path, "browser.db", bot_delay=0.05) as running:
        yield running


@pytest.fixture
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


def tid(page: Page, testid: str) -> Any:
    return page.locator(f"[data-testid='{testid}']")


def watch_errors(page: Page, errors: list[str], who: str) -> None:
    page.on("pageerror", lambda e: errors.append(f"{who}: {e}"))
    # GET /api/me answers 401 before a name is chosen, and a seat taken under a name already at the table 409:
    # the browser logs those, and they are expected.
    page.on("console", lambda m: errors.append(f"{who} console: {m.text}")
            if m.type == "error" and "status of 401" not in m.text and "status of 409" not in m.text else None)


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
        if not page.evaluate("() => document.body.dataset.shotOptions"):
            width = page.viewport_size["width"] if page.viewport_size else 0
            shoot(page, f"options-{width}")
            page.evaluate("() => { document.body.dataset.shotOptions = '1'; }")
        options.first.click()
    page.wait_for_function(
        "v => Number(document.body.dataset.version) > v && document.body.dataset.pending !== '1'",
        arg=version, timeout=10000)


#: Seconds a deal may go without a new version at a page before a test calls it stalled.
STALL_SECONDS = 60.0


def version_of(page: Page) -> int:
    """The table's version the page shows (-1 before its first state, or while it reloads)."""
    return int(page.evaluate("() => Number(document.body?.dataset.version ?? -1)"))


def hand_overlap(page: Page) -> float:
    """How many pixels of one card of the hand the next one covers at most (0 when they lie apart)."""
    return float(page.evaluate(
        "() => { const r = [...document.querySelectorAll(\"[data-testid='hand'] .card\")]"
        ".map(e => e.getBoundingClientRect());"
        " return Math.max(0, ...r.slice(1).map((b, i) => r[i].right - b.left)); }"))


def take_turn_by_keys(page: Page) -> None:
    """The same by the keyboard only: a digit for a bid; arrows to a playable card, Enter, a digit for the play."""
    version = int(page.evaluate("() => document.body.dataset.version"))
    if page.locator("[data-testid^='bid-']").count():
        page.keyboard.press("1")
    else:
        page.locator("[data-testid='hand'] .card[tabindex='0']").focus()
        for _ in range(13):
            if page.evaluate("() => document.activeElement.classList.contains('playable')"):
                break
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        _expect(tid(page, "play-option").first).to_be_visible(timeout=5000)
        page.keyboard.press("1")
    page.wait_for_function(
        "v => Number(document.body.dataset.version) > v && document.body.dataset.pending !== '1'",
        arg=version, timeout=10000)


def test_two_people_play_a_deal_in_the_browser(server: str, browser: Browser) -> None:
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
    shoot(a, "0-lobby-a")
    tid(a, "players").select_option("4")
    tid(a, "rules").select_option("standard")
    tid(a, "baazis").fill("0")
    tid(a, "level").select_option("easy")
    tid(a, "create-table").click()
    a.wait_for_url("**/t/*")
    table_id = a.url.rstrip("/").rsplit("/", 1)[-1]
    _expect(a.locator("[data-testid='seat-0']")).to_contain_text("Priya (you)")  # the creator sits at once
    invite = tid(a, "invite-link").get_attribute("href")
    assert invite and "/join/" in invite

    # B: the invite link, a name on the table page (A's, by chance: names are unique per table, so B is asked
    # for another one to sit under), seat 2 (A's partner).
    b.goto(invite)
    b.wait_for_url("**/t/*")
    tid(b, "name-input").fill("priya")
    tid(b, "name-submit").click()
    tid(b, "sit-2").click()
    _expect(tid(b, "table-name-input")).to_be_visible()
    shoot(b, "0-name-taken-b")
    tid(b, "table-name-input").fill("Ravi")
    tid(b, "table-name-submit").click()
    _expect(a.locator("[data-testid='seat-2']")).to_contain_text("Ravi")
    _expect(b.locator("[data-testid='seat-2']")).to_contain_text("Ravi (you)")

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
    # The deal must move on, not end by a time: a minute without a new version at either page is a stall (a
    # whole deal's 90 s measured the machine, and ran out on a loaded one).
    moves = {"A": 0, "B": 0}
    reloaded = False
    houses_shot = False
    seen = (-1, -1)
    while True:
        now = (version_of(a), version_of(b))
        if now != seen:
            seen, stalled = now, time.monotonic() + STALL_SECONDS
        elif time.monotonic() > stalled:
            shoot(a, "stuck-a")
            shoot(b, "stuck-b")
            table = httpx.get(f"{server}/api/tables/{table_id}").json()
            raise AssertionError(f"the deal stalled at versions {seen} (moves {moves}, table {table})")
        done = [tid(p, "score-sheet").is_visible() for p in (a, b)]
        if all(done):
            break
        acted = False
        for name, page in (("A", a), ("B", b)):
            if not tid(page, "score-sheet").is_visible() and my_turn(page):
                if name == "A" and moves["A"] % 2 == 1:
                    take_turn_by_keys(page)  # A plays every other turn by the keyboard alone
                else:
                    take_turn(page)
                moves[name] += 1
                acted = True
                if moves[name] == 2:
                    shoot(page, f"1b-full-hand-{name.lower()}")
        for name, page in (("a", a), ("b", b)):
            cards = page.locator("[data-testid='hand'] .card").count()
            if 0 < cards <= 6:  # few cards lie apart: none hides any part of another
                assert hand_overlap(page) < 0.5, (name, cards, hand_overlap(page))
                if cards == 4:
                    shoot(page, f"2c-four-cards-{name}")
        if not houses_shot and a.locator("[data-testid^='house-']").count():
            shoot(a, "2b-house-a")
            shoot(b, "2b-house-b")
            houses_shot = True
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
    tid(a, "replay-last").click()
    _expect(step).to_have_text("play 48/48")
    _expect(tid(a, "replay-result")).to_be_visible()
    _expect(tid(a, "download")).to_have_attribute("href", f"/api/tables/{table_id}/record")
    shoot(a, "6-replay-end")

    a_ctx.close()
    b_ctx.close()
    assert not errors, errors


def test_quick_play_and_watching_a_public_table(killable: Server, browser: Browser) -> None:
    """One click against the computer on a phone; the server is killed (``kill -9``) and started again, and the
    page reconnects by itself and plays on; and a stranger without a name watches a public table from the
    lobby's list: the board and the counts, never a hand."""
    server = killable.url
    errors: list[str] = []
    phone = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    desk = browser.new_context(viewport={"width": 1280, "height": 800})
    solo, host, stranger = phone.new_page(), desk.new_page(), browser.new_context().new_page()
    for page, who in ((solo, "solo"), (host, "host"), (stranger, "stranger")):
        page.set_default_timeout(10000)
        watch_errors(page, errors, who)

    solo.goto(f"{server}/")
    tid(solo, "name-input").fill("Solo")
    tid(solo, "name-submit").click()
    _expect(tid(solo, "quick-play")).to_be_visible()
    shoot(solo, "0-lobby-phone")
    tid(solo, "players").select_option("2")
    tid(solo, "quick-play").click()
    solo.wait_for_url("**/t/*")
    _expect(tid(solo, "hand")).to_be_visible()

    def turns(n: int) -> None:
        for _ in range(n):
            solo.wait_for_function("() => document.querySelector(\"[data-testid='turn-banner']\").textContent === "
                                   "'Your turn' && document.body.dataset.pending !== '1'")
            take_turn(solo)

    turns(2)
    killable.kill()
    _expect(tid(solo, "reconnecting")).to_be_visible()
    shoot(solo, "7a-reconnecting-phone")
    killable.start()
    _expect(tid(solo, "reconnecting")).to_be_hidden(timeout=20000)
    turns(2)
    shoot(solo, "7-quick-play-phone")
    assert solo.locator("[data-testid='hand'] .card").count() >= 7

    host.goto(f"{server}/")
    tid(host, "name-input").fill("Host")
    tid(host, "name-submit").click()
    tid(host, "players").select_option("4")
    tid(host, "create-table").click()
    host.wait_for_url("**/t/*")
    tid(host, "sit-1").click()
    tid(host, "fill-bots").click()
    tid(host, "start").click()
    _expect(tid(host, "hand")).to_be_visible()

    stranger.goto(f"{server}/")
    watch = stranger.locator("[data-testid='table-watch']")
    _expect(watch).to_have_count(1, timeout=10000)  # the public table, not Solo's private one
    shoot(stranger, "0-lobby-stranger")
    watch.click()
    stranger.wait_for_url("**/t/*")
    _expect(tid(stranger, "floor")).to_be_visible()
    _expect(tid(stranger, "hand")).to_be_hidden()
    _expect(stranger.locator("[data-testid='seat-box-1']")).to_contain_text("Host")
    _expect(stranger.locator("[data-testid='count-1']")).to_contain_text("card")
    assert stranger.locator("[data-testid='seat-box-1'] .card[data-card]").count() == 0
    shoot(stranger, "8-spectator")
    phone.close()
    desk.close()
    # While the server was down, the browser logged its refused reconnection attempts: expected.
    errors = [e for e in errors if "ERR_CONNECTION_REFUSED" not in e]
    assert not errors, errors


def test_a_refused_table_page_says_why_and_offers_the_lobby(server: str, browser: Browser) -> None:
    """A private table's page opened by someone without its code (and a table that does not exist) says why the
    server refused it and offers the lobby, instead of trying to reconnect for ever."""
    errors: list[str] = []
    owner_ctx, stranger_ctx = browser.new_context(), browser.new_context()
    owner, stranger = owner_ctx.new_page(), stranger_ctx.new_page()
    for page, who in ((owner, "owner"), (stranger, "stranger")):
        page.set_default_timeout(10000)
        watch_errors(page, errors, who)
    owner.goto(f"{server}/")
    tid(owner, "name-input").fill("Owner")
    tid(owner, "name-submit").click()
    tid(owner, "players").select_option("2")
    tid(owner, "public").uncheck()
    tid(owner, "create-table").click()
    owner.wait_for_url("**/t/*")
    _expect(owner.locator("[data-testid='seat-0']")).to_contain_text("Owner (you)")
    code = tid(owner, "invite-code").text_content()
    assert code

    stranger.goto(owner.url)  # the table's address, without the code
    _expect(tid(stranger, "refused")).to_be_visible()
    _expect(tid(stranger, "refused-reason")).to_have_text("A private table: only its players may watch it.")
    _expect(tid(stranger, "status")).to_contain_text("Disconnected")
    _expect(tid(stranger, "name-input")).to_have_count(0)
    shoot(stranger, "9-refused-private")
    stranger.wait_for_timeout(2500)  # no reconnecting: the banner never shows
    _expect(tid(stranger, "reconnecting")).to_be_hidden()
    _expect(tid(stranger, "retry")).to_be_hidden()
    tid(stranger, "to-lobby").click()
    stranger.wait_for_url(f"{server}/")

    stranger.goto(f"{server}/join/{code}")  # with the invite: the seats, and a seat
    stranger.wait_for_url("**/t/*?code=*")
    tid(stranger, "name-input").fill("Friend")
    tid(stranger, "name-submit").click()
    tid(stranger, "sit-1").click()
    _expect(stranger.locator("[data-testid='seat-1']")).to_contain_text("Friend (you)")
    _expect(tid(stranger, "refused")).to_be_hidden()

    stranger.goto(f"{server}/t/0123456789abcdef")
    _expect(tid(stranger, "refused-reason")).to_have_text("No such table.")
    owner_ctx.close()
    stranger_ctx.close()
    assert not errors, errors


def test_the_turn_timer_counts_down_and_a_bot_takes_a_seat_left_idle(tmp_path: Path, browser: Browser) -> None:
    """With ``--turn-seconds`` the page counts the seconds left; a person who lets three turns in a row run out
    is told a bot plays his seat, and takes it back with *I'm back*."""
    errors: list[str] = []
    with served(tmp_path, "browser.db", "--turn-seconds", "2", "--extra-seconds", "0", bot_delay=0.3) as server:
        page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
        page.set_default_timeout(15000)
        watch_errors(page, errors, "solo")
        page.goto(f"{server.url}/")
        tid(page, "name-input").fill("Solo")
        tid(page, "name-submit").click()
        tid(page, "players").select_option("2")
        tid(page, "baazis").fill("3")
        tid(page, "quick-play").click()
        page.wait_for_url("**/t/*")
        page.wait_for_function("() => document.querySelector(\"[data-testid='turn-banner']\").textContent === "
                               "'Your turn'")
        timer = tid(page, "turn-timer")
        _expect(timer).to_be_visible()
        _expect(timer).to_contain_text("s left to")
        first = int(timer.text_content().split()[0])  # type: ignore[union-attr]
        assert 1 <= first <= 2
        shoot(page, "10-turn-timer")
        _expect(tid(page, "idle")).to_be_visible(timeout=30000)  # three turns let run out
        _expect(tid(page, "seat-box-0")).to_contain_text("out of time: a bot plays")
        shoot(page, "11-idle")
        tid(page, "back").click()
        _expect(tid(page, "idle")).to_be_hidden()
        _expect(tid(page, "seat-box-0")).not_to_contain_text("out of time")
        page.wait_for_function("() => document.querySelector(\"[data-testid='turn-banner']\").textContent === "
                               "'Your turn' && document.body.dataset.pending !== '1'")
        _expect(timer).to_contain_text("s left to")
        take_turn(page)  # his own play, in time
    assert not errors, errors


def test_the_score_sheet_says_when_a_lead_won_a_baazi(server: str, browser: Browser) -> None:
    """A deal that wins a baazi leaves the running difference at 0: the sheet says which lead won it and that the
    count starts again, rather than a bare "diff. 0" (the words of static/score.js, run in the browser)."""
    page = browser.new_context().new_page()
    page.goto(f"{server}/")
    said = page.evaluate("""async () => {
        const m = await import("/static/score.js");
        const name = (t) => (t === 0 ? "Team A" : "Team B");
        const deals = [
            {score: [120, 80], difference: 40, baazi: null, minimum_rule: false},
            {score: [258, 142], difference: 0, baazi: 0, minimum_rule: false},
            {score: [30, 110], difference: -80, baazi: null, minimum_rule: false},
            {score: [4, 150], difference: 0, baazi: 1, minimum_rule: true},
        ];
        // The parts of each sentence (text, and the names as name() gives them), read as one text.
        return deals.map((_, i) => [m.differenceCell(deals, i, name).join(""),
            m.differenceLine(deals, i, name).join("")]);
    }""")
    assert said == [
        ["40 to Team A", "Running difference: 40 to Team A"],
        ["156 to Team A: a baazi, back to 0",
         "The lead of 156 to Team A won the baazi; the running difference starts again from 0"],
        ["80 to Team B", "Running difference: 80 to Team B"],
        ["minimum rule: a baazi, back to 0",
         "Team B won the baazi by the minimum rule; the running difference starts again from 0"],
    ]


def test_the_lobby_shows_the_wallet_and_a_tables_stake(server: str, browser: Browser) -> None:
    """A new guest's wallet is empty; once he claims an account he sees his starting chips beside his name, and
    a table he makes with a stake is listed with its stake and what it holds from each seat."""
    errors: list[str] = []
    page = browser.new_context().new_page()
    page.set_default_timeout(10000)
    watch_errors(page, errors, "staker")
    page.goto(f"{server}/")
    tid(page, "name-input").fill("Staker")
    tid(page, "name-submit").click()
    _expect(page.locator("#who")).to_contain_text("0 chips")
    assert page.request.post(f"{server}/api/account", data={"password": "a long password"}).ok
    page.reload()
    _expect(page.locator("#who")).to_contain_text("10,000 chips")
    tid(page, "players").select_option("2")
    tid(page, "baazis").fill("0")
    tid(page, "stake").fill("7")
    tid(page, "create-table").click()
    page.wait_for_url("**/t/*")
    page.goto(f"{server}/")
    _expect(tid(page, "table-item").filter(has_text="Staker")).to_contain_text("stake 7 (holds 700 chips)")
    assert errors == []
