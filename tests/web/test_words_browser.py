"""Issue 27 ("What a newcomer found at the tables"), the page's part: Back from an invitation, the lobby's words and
controls, the table's words, dialogs and help, the replay's auto-play. Driven through Chromium with Playwright
(skipped without it, as tests/web/test_browser.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.web.server import chromium, served
from tests.web.test_browser import CHROMIUM, HAVE_PLAYWRIGHT, watch_errors
from tests.web.test_rummy_browser import rummy_quick_play

if HAVE_PLAYWRIGHT:
    from playwright.sync_api import Browser, BrowserContext, Page
    from playwright.sync_api import expect as _expect

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium (apt-get install chromium)"),
    pytest.mark.skipif(not HAVE_PLAYWRIGHT, reason="the playwright Python package is not installed"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One ``taash serve`` for the module's tests (each test its own people), with quick bots."""
    tmp = tmp_path_factory.mktemp("words")
    with served(tmp, "words.db", bot_delay=0.02) as running:
        yield running.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    ctx.set_default_timeout(10000)
    try:
        yield ctx
    finally:
        ctx.close()


def tid(page: Page, testid: str):  # type: ignore[no-untyped-def]
    return page.locator(f"[data-testid='{testid}']")


def person(context: BrowserContext, server: str, name: str, errors: list[str]) -> Page:
    """A new page in the lobby, named ``name``."""
    page = context.new_page()
    watch_errors(page, errors, name)
    page.goto(f"{server}/")
    tid(page, "name-input").fill(name)
    tid(page, "name-submit").click()
    _expect(tid(page, "create-table")).to_be_visible()
    return page


def claim_account(page: Page) -> None:
    """Make the page's guest an account (free chips and the daily bonus are an account's), then reload."""
    status = page.evaluate("""async () => (await fetch("/api/account", {method: "POST",
        headers: {"content-type": "application/json"}, body: JSON.stringify({password: "a long password"})})).status""")
    assert status == 200, status
    page.reload()
    _expect(tid(page, "create-table")).to_be_visible()


def test_back_from_a_table_reached_by_an_invitation_leaves_it(server: str, browser: Browser,
                                                              context: BrowserContext) -> None:
    """Issue 27, 4: /join/CODE forwarded to the table and stayed in the history, so Back landed on the table
    again. The invitation's page is replaced by the table's: Back goes to the page before the invitation."""
    errors: list[str] = []
    host = person(context, server, "Host", errors)
    tid(host, "public").uncheck()
    tid(host, "create-table").click()
    host.wait_for_url("**/t/*")
    _expect(tid(host, "invite-link")).to_have_attribute("href", re.compile("/join/"))
    invite = tid(host, "invite-link").get_attribute("href")

    guest_ctx = browser.new_context()
    try:
        guest = guest_ctx.new_page()
        watch_errors(guest, errors, "guest")
        guest.goto(f"{server}/leaderboard")
        guest.goto(invite if invite.startswith("http") else f"{server}{invite}")
        guest.wait_for_url("**/t/*")
        guest.go_back()
        guest.wait_for_url("**/leaderboard")
        guest.wait_for_timeout(300)  # no forwarding again
        assert guest.url.endswith("/leaderboard")
    finally:
        guest_ctx.close()
    assert not errors, errors


def test_the_lobby_says_what_a_stake_will_hold_before_the_table_is_made(server: str,
                                                                        context: BrowserContext) -> None:
    """Issue 27, 5: the create-table form tells the player what the chosen stake holds (the server's rule)."""
    errors: list[str] = []
    page = person(context, server, "Staker", errors)
    _expect(tid(page, "stake-hold")).to_have_text("0 = not for chips")
    tid(page, "players").select_option("2")
    tid(page, "baazis").fill("0")
    tid(page, "stake").fill("200")
    _expect(tid(page, "stake-hold")).to_contain_text(
        "A stake of 200 a point on a single Seep deal holds 20,000 chips from each player")
    tid(page, "baazis").fill("3")
    _expect(tid(page, "stake-hold")).to_contain_text("a match to 3 baazis holds 600 chips from each player")
    tid(page, "game").select_option("rummy")
    tid(page, "format").select_option("pool101")
    _expect(tid(page, "stake-hold")).to_contain_text("An entry fee of 200 to a Rummy pool 101 match holds 200 chips")
    assert not errors, errors


def seep_against_the_computer(page: Page) -> None:
    """From the lobby (named): 2-player Seep against easy bots, a single deal."""
    tid(page, "players").select_option("2")
    tid(page, "baazis").fill("0")
    tid(page, "level").select_option("easy")
    tid(page, "quick-play").click()
    page.wait_for_url("**/t/*")
    _expect(tid(page, "hand")).to_be_visible()


def test_a_single_seep_deal_in_words_numbers_and_help_and_its_replay_plays_by_itself(
        server: str, context: BrowserContext) -> None:
    """Issue 27, 8: card names for screen readers all in words ("two of spades", as "ten of clubs"); no baazis
    column for a single deal; "Last plays" numbered by their place in the whole log, which opens; the keys help
    gone once the match is over; "wins a baazi!" for a player of a 2-player table."""
    errors: list[str] = []
    page = person(context, server, "Reader", errors)
    seep_against_the_computer(page)
    labels = page.eval_on_selector_all("[role='img'][aria-label]", "els => els.map(e => e.getAttribute('aria-label'))")
    faces = [x for x in labels if x not in ("joker", "a card face down") and not re.fullmatch(r"\d+ cards?", x)]
    assert faces and all(re.fullmatch(r"(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
                                      r"(spades|hearts|diamonds|clubs)", x) for x in faces), faces
    headers = tid(page, "scores").locator("th").all_inner_texts()
    assert "cards" in headers and "baazis" not in headers

    from tests.web.test_browser import take_turn

    # The deal to its end, each turn the first offered move, each waited for as it comes (30 s: a stall); 400 looks
    # of 50 ms at most were a budget for the whole deal, which a loaded machine's page spent before its end.
    while True:
        page.wait_for_function("() => document.body.dataset.status === 'finished' || (document.body.dataset.pending"
                               " !== '1' && document.querySelector(\"[data-testid='turn-banner']\").textContent"
                               " === 'Your turn')", timeout=30000)
        if page.evaluate("() => document.body.dataset.status") == "finished":
            break
        take_turn(page)
    _expect(page.locator("#keys-help")).to_be_hidden()
    tid(page, "continue").click()  # the deal's score sheet
    log = tid(page, "log")
    start = int(log.get_attribute("start") or "1")
    assert start > 1  # more than the last few lines: numbered from where they stand in the whole log
    assert log.locator("li").count() == 8
    tid(page, "log-all").click()
    _expect(log).to_have_attribute("start", "1")
    _expect(log.locator("li")).to_have_count(start + 7)
    _expect(tid(page, "log-all")).to_have_text("Show the last plays")

    said = page.evaluate("""async () => {
      const view = await import("/static/seep/view.js");  // the page's own module, drawing this table
      const deal = {dealer: 0, score: [10, 90], difference: 0, baazi: 1, minimum_rule: false};
      const shown = {players: 2, status: "playing", baazis: 2, score: {deals: [deal], baazis: [0, 1], difference: 0}};
      const r = {card_points: [10, 80], sweep_points: [0, 10], score: [10, 90], baazi: 1, minimum_rule: false};
      return view.sheet(shown, r, 1).filter(Boolean).map((n) => n.textContent).join(" | ");
    }""")
    assert re.search(r"\(bot\) wins a baazi!", said), said

    # Issue 27, 10: the replay plays by itself (play/pause, speed), on the page's clock, which the test moves (a
    # loaded machine's timers would otherwise decide how many plays 5 seconds show).
    page.clock.install()
    page.goto(page.url.replace("/t/", "/r/").split("?")[0])
    step = tid(page, "replay-step")
    _expect(step).to_have_text(re.compile(r"play 0/\d+"))
    tid(page, "replay-speed").select_option("fast")
    tid(page, "replay-play").click()
    _expect(tid(page, "replay-play")).to_have_attribute("aria-pressed", "true")
    page.clock.run_for(1300)  # fast: a play every 400 ms
    _expect(step).to_have_text(re.compile(r"play 3/\d+"))
    tid(page, "replay-play").click()  # pause
    _expect(tid(page, "replay-play")).to_have_text("▶ Play")
    paused = step.inner_text()
    page.clock.run_for(5000)
    assert step.inner_text() == paused
    assert not errors, errors


def test_drop_asks_in_the_pages_own_dialog(server: str, context: BrowserContext) -> None:
    """Issue 27, 8: Drop asked through the browser's bare confirm box; it asks in the page's own dialog."""
    errors: list[str] = []
    page = person(context, server, "Dropper", errors)
    page.on("dialog", lambda d: errors.append(f"a browser dialog: {d.message}") or d.dismiss())
    lobby = page.url
    for _ in range(6):  # a medium bot moving first drops a hopeless hand (the first drop): then another table
        page.goto(lobby)
        rummy_quick_play(page)
        page.wait_for_function("() => document.body.dataset.status === 'finished' || document.querySelector("
                               "\"[data-testid='drop']\")?.disabled === false", timeout=20000)
        if page.evaluate("() => document.body.dataset.status") != "finished":
            break
    drop = tid(page, "drop")
    _expect(drop).to_be_enabled()
    drop.click()
    dialog = tid(page, "drop-dialog")
    _expect(dialog).to_be_visible()
    _expect(dialog).to_contain_text("Drop out of this deal?")
    tid(page, "drop-cancel").click()
    _expect(dialog).to_have_count(0)
    drop.click()
    tid(page, "drop-confirm").click()
    _expect(tid(page, "log")).to_contain_text("drops (first drop: 20 points)")
    assert not errors, errors


def test_the_lobby_describes_both_games_and_keeps_play_now_apart(server: str, context: BrowserContext) -> None:
    """Issue 27, 10: the lobby described neither game and mixed the Play now wait and the public box into the
    table options."""
    errors: list[str] = []
    page = person(context, server, "Newcomer", errors)
    _expect(tid(page, "about-seep")).to_contain_text("Seep")
    _expect(tid(page, "about-seep")).to_contain_text("sweep")
    _expect(tid(page, "about-rummy")).to_contain_text("13-card Rummy")
    _expect(tid(page, "about-rummy")).to_contain_text("pure run")
    options = page.locator("#table-form > .fields")
    assert options.locator("[data-testid='play-now-wait'], [data-testid='public']").count() == 0
    assert tid(page, "play-now-box").locator("[data-testid='play-now-wait']").count() == 1
    assert tid(page, "play-now-box").locator("[data-testid='play-now']").count() == 1
    assert tid(page, "own-table-box").locator("[data-testid='public']").count() == 1
    assert not errors, errors


def test_the_lobby_offers_each_games_own_levels_with_their_words(server: str, context: BrowserContext) -> None:
    """The level choice is the chosen game's, as GET /api/games says: Seep's learned level is not Rummy's; the
    chosen level's words are shown under it, and a level both games have stays chosen across a change of game."""
    errors: list[str] = []
    page = person(context, server, "Chooser", errors)
    level = tid(page, "level")
    seep = page.evaluate("async () => (await (await fetch('/api/games')).json())[0]")
    assert seep["name"] == "seep" and "learned" in seep["levels"]

    def offered() -> list[str]:
        return [str(v) for v in level.locator("option").evaluate_all("(os) => os.map((o) => o.value)")]

    assert offered() == seep["levels"] and level.input_value() == seep["default_level"]
    level.select_option("learned")
    _expect(tid(page, "level-words")).to_have_text(seep["level_words"]["learned"])
    tid(page, "game").select_option("rummy")
    assert "learned" not in offered() and level.input_value() == "medium"
    level.select_option("hard")
    _expect(tid(page, "level-words")).to_contain_text("what the next player wants")
    tid(page, "game").select_option("seep")
    assert level.input_value() == "hard" and "learned" in offered()
    assert not errors, errors


def test_the_daily_bonus_button_says_why_the_server_refuses(server: str, context: BrowserContext) -> None:
    """Issue 27, 10: only the API could claim the daily bonus. The lobby offers it; a wallet above the floor is
    told the server's reason."""
    errors: list[str] = []
    page = person(context, server, "Rich", errors)
    claim_account(page)
    claim = tid(page, "claim-bonus")
    _expect(claim).to_contain_text("Claim today's bonus (+")
    claim.click()
    _expect(tid(page, "status")).to_contain_text("No bonus: the daily bonus is for wallets below")
    _expect(tid(page, "wallet")).to_contain_text("10,000 chips")
    assert not errors, errors


#: ``taash`` that gives no bonus by itself (at GET /api/me or /api/chips): only a claim gives it.
NO_BONUS_BY_ITSELF = """
from taash.web import chips_routes
chips_routes.give_daily_bonus = lambda *args, **kwargs: None
from taash.cli.main import run
run()
"""


def test_the_daily_bonus_button_claims_it(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> None:
    errors: list[str] = []
    with served(tmp_path_factory.mktemp("bonus"), "bonus.db", "--starting-chips", "500",
                launcher=("-c", NO_BONUS_BY_ITSELF)) as s:
        ctx = browser.new_context()
        page = person(ctx, s.url, "Poor", errors)
        claim_account(page)
        _expect(tid(page, "wallet")).to_contain_text("500 chips")
        tid(page, "claim-bonus").click()
        _expect(tid(page, "wallet")).to_contain_text("1,500 chips")
        _expect(tid(page, "bonus-today")).to_contain_text("+1,000")
        _expect(tid(page, "claim-bonus")).to_have_count(0)
        ctx.close()
    assert not errors, errors
