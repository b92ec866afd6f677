"""A staked match played to the end in the browser (Chromium through Playwright): two people at one private Rummy
table of points for two, 5 chips a point, on a server whose house keeps 10% of winnings. The first player drops at
his first turn (20 points), which ends the match at once and always the same way; both wallets, as the lobby, the
players' pages and the board of chips show them, change by the stake rules (the loser 20 x 5 = 100 chips, the
winner 100 less the rake of 10), and ``taash chips audit`` finds the books clean. Both are accounts (playing for
chips needs one): their seats and their rows on the board carry the account's mark.

The same needs as tests/web/test_browser.py (Debian's chromium, the playwright package); skipped without them.
"""

# ruff: noqa: F811 - the fixtures of tests/web/test_browser.py, imported, are the tests' arguments

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.server import Server, served
from tests.web.test_browser import browser, pytestmark, shoot, tid, watch_errors  # noqa: F401 - the fixtures
from tests.web.test_rummy_browser import MY_TURN, after, play_turn, version

try:
    from playwright.sync_api import Browser, Page
    from playwright.sync_api import expect as _expect
except ImportError:  # pragma: no cover - skipped by pytestmark
    pass

GRANT = 10_000
STAKE = 5
#: A first drop's points, what the loser pays a point, and the house's share of the winner's winnings.
LOST = 20 * STAKE
RAKE = LOST * 10 // 100


@pytest.fixture
def raked(tmp_path: Path) -> Iterator[Server]:
    # Both browsers come from one address: the operator's switch lets such related people play for chips.
    with served(tmp_path, "chips.db", "--allow-related-stakes", "--rake", "10", bot_delay=0.05) as s:
        yield s


def balance(page: Page, server: str) -> int:
    answer = page.request.get(f"{server}/api/chips")
    assert answer.ok, answer.text()
    return int(answer.json()["balance"])


def named(page: Page, server: str, name: str) -> str:
    """From the lobby: a name, claimed as an account (free chips, and playing for them, need one); returns the
    guest's id once the wallet beside it shows the starting chips."""
    page.goto(f"{server}/")
    tid(page, "name-input").fill(name)
    tid(page, "name-submit").click()
    _expect(tid(page, "wallet")).to_have_text(" · 0 chips")  # a guest's wallet opens empty
    claimed = page.request.post(f"{server}/api/account", data={"password": "a long password"})
    assert claimed.ok, claimed.text()
    page.reload()
    _expect(tid(page, "wallet")).to_have_text(" · 10,000 chips")
    return str(page.request.get(f"{server}/api/me").json()["id"])


def test_a_staked_match_played_to_the_end_moves_both_wallets_by_the_stake_rules(raked: Server,
                                                                                 browser: Browser) -> None:
    server = raked.url
    errors: list[str] = []
    a_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    b_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    a, b = a_ctx.new_page(), b_ctx.new_page()
    for page, who in ((a, "a"), (b, "b")):
        page.set_default_timeout(10000)
        watch_errors(page, errors, who)
    anil, bina = named(a, server, "Anil"), named(b, server, "Bina")

    # Anil: a private Rummy table of points for two, 5 chips a point (each seat holds 80 x 5).
    tid(a, "game").select_option("rummy")
    tid(a, "players").select_option("2")
    tid(a, "format").select_option("points")
    tid(a, "stake").fill(str(STAKE))
    tid(a, "public").uncheck()
    tid(a, "create-table").click()
    a.wait_for_url("**/t/*")
    _expect(tid(a, "invite-code")).to_have_text(re.compile(r"\w{4,}"))
    code = tid(a, "invite-code").inner_text()
    table_id = a.url.rstrip("/").rsplit("/", 1)[-1]
    # Bina joins by the code and sits; Anil starts: the stakes are held from both wallets.
    tid(b, "join-code").fill(code)
    tid(b, "join-submit").click()
    b.wait_for_url("**/t/*")
    tid(b, "sit-1").click()
    _expect(tid(a, "seat-1")).to_contain_text("Bina")
    # Both seats are accounts': each name carries the mark, titled and read out "account".
    for seat in ("seat-0", "seat-1"):
        mark = tid(a, seat).get_by_role("img", name="account")
        _expect(mark).to_have_text("\u2713")
        _expect(mark).to_have_attribute("title", "account")
    tid(a, "start").click()
    for page in (a, b):
        _expect(tid(page, "hand")).to_be_visible()
    assert balance(a, server) == GRANT - 80 * STAKE and balance(b, server) == GRANT - 80 * STAKE

    # Anil drops at his first turn (a first drop, 20 points): with two players the deal, and the match, are over.
    # Who moves first comes from the table's seed: if it is Bina, she takes from the stock and discards first.
    deadline = time.monotonic() + 30
    while not a.evaluate(f"({MY_TURN})()"):
        assert time.monotonic() < deadline, "nobody's turn came"
        if b.evaluate(f"({MY_TURN})()"):
            v = version(b)
            tid(b, "take-stock").click()
            after(b, v)
            tid(b, "arrange").click()  # the solver's discard, chosen
            v = version(b)
            tid(b, "discard").click()
            after(b, v)
        time.sleep(0.05)
    play_turn(a, end="drop")
    for page in (a, b):
        page.wait_for_function("() => document.body.dataset.status === 'finished'")
    shoot(b, "chips-match-over-b")
    deadline = time.monotonic() + 10
    while balance(a, server) == GRANT - 80 * STAKE:  # the settlement is written just after the end
        assert time.monotonic() < deadline, "the match was not settled"
        time.sleep(0.05)
    assert balance(a, server) == GRANT - LOST
    assert balance(b, server) == GRANT + LOST - RAKE

    # The lobby's wallets, each player's page (the match's chips, the balance) and the board of chips agree.
    for page, chips in ((a, "9,900"), (b, "10,090")):
        page.goto(f"{server}/")
        _expect(tid(page, "wallet")).to_have_text(f" · {chips} chips")
    for page, who, moved, chips in ((a, anil, "\u2212100", "9,900"), (b, bina, "+90", "10,090")):
        page.goto(f"{server}/p/{who}")
        _expect(tid(page, "person-balance")).to_have_text(f"{chips} chips in the wallet")
        _expect(tid(page, "match-chips")).to_have_text(moved)
    shoot(b, "chips-person-b")
    a.goto(f"{server}/leaderboard")
    rows = tid(a, "chips-row")
    _expect(rows).to_have_count(2)
    _expect(rows.nth(0)).to_contain_text("Bina\u271310,090+90")  # the account's mark after the name
    _expect(rows.nth(1)).to_contain_text("Anil\u27139,900\u2212100")
    _expect(rows.nth(0).get_by_role("img", name="account")).to_be_visible()
    shoot(a, "chips-leaderboard")
    a_ctx.close()
    b_ctx.close()
    assert not errors, errors

    audit = subprocess.run([sys.executable, "-m", "taash.cli.main", "chips", "audit", "--database-url",
                            raked.database_url], capture_output=True, text=True, timeout=60)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    books = subprocess.run([sys.executable, "-m", "taash.cli.main", "chips", "balance", "--database-url",
                            raked.database_url], capture_output=True, text=True, timeout=60)
    assert books.returncode == 0, books.stdout + books.stderr
    accounts = dict(line.split("\t") for line in books.stdout.splitlines())
    # The house kept the rake; the match's escrow is empty (closed); nothing else moved.
    assert accounts["house"] == str(RAKE) and accounts[f"escrow:{table_id}:1"] == "0"
    assert accounts[f"wallet:{anil}"] == str(GRANT - LOST) and accounts[f"wallet:{bina}"] == str(GRANT + LOST - RAKE)


def test_the_lobby_gives_and_shows_the_daily_bonus_below_the_floor(tmp_path: Path, browser: Browser) -> None:
    """On a server whose accounts are granted 500 chips (below the floor of 1,000), the lobby gives an account the
    bonus by itself when it loads, shows it beside the wallet, and a reload gives nothing more; a guest gets
    none."""
    with served(tmp_path, "poor.db", "--starting-chips", "500", bot_delay=0.05) as poor:
        errors: list[str] = []
        page = browser.new_context().new_page()
        page.set_default_timeout(10000)
        watch_errors(page, errors, "poor")
        page.goto(f"{poor.url}/")
        tid(page, "name-input").fill("Dev")
        tid(page, "name-submit").click()
        _expect(tid(page, "wallet")).to_have_text(" · 0 chips")  # a guest: no grant, no bonus
        assert page.request.post(f"{poor.url}/api/account", data={"password": "a long password"}).ok
        page.reload()
        _expect(tid(page, "wallet")).to_have_text(" · 1,500 chips")
        _expect(tid(page, "bonus-today")).to_have_text(" (today's bonus: +1,000)")
        page.reload()
        _expect(tid(page, "bonus-today")).to_be_visible()
        _expect(tid(page, "wallet")).to_have_text(" · 1,500 chips")
        assert [t["kind"] for t in page.request.get(f"{poor.url}/api/chips").json()["recent"]] == ["bonus", "grant"]
        assert not errors, errors
