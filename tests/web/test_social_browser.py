"""Rematch and friends in the browser (Chromium through Playwright), two people in two browsers: a staked match
over, a rematch proposed and accepted (a watcher follows to the new table, the stakes are held again and the audit
is clean); a rematch where the other player has left (a bot takes his seat); a friend asked, accepted, invited from
the lobby to a private table and seated with one click.

The same needs as tests/web/test_browser.py (Debian's chromium, the playwright package); skipped without them.
"""

# ruff: noqa: F811 - the fixtures of tests/web/test_browser.py, imported, are the tests' arguments

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.server import Server, served
from tests.web.test_browser import browser, pytestmark, tid, watch_errors  # noqa: F401 - the fixtures
from tests.web.test_chips_browser import balance, named
from tests.web.test_rummy_browser import MY_TURN, after, play_turn, version

try:
    from playwright.sync_api import Browser, BrowserContext, Page
    from playwright.sync_api import expect as _expect
except ImportError:  # pragma: no cover - skipped by pytestmark
    pass

GRANT = 10_000
STAKE = 5
HOLD = 80 * STAKE


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    # Both browsers come from one address: the operator's switch lets such related people play for chips.
    with served(tmp_path, "social.db", "--allow-related-stakes", bot_delay=0.05) as s:
        yield s


def people(browser: Browser, errors: list[str], count: int = 2) -> tuple[list[BrowserContext], list[Page]]:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(count)]
    pages = [c.new_page() for c in contexts]
    for i, page in enumerate(pages):
        page.set_default_timeout(15000)
        watch_errors(page, errors, f"p{i}")
    return contexts, pages


def table_id(page: Page) -> str:
    return page.url.split("?")[0].rstrip("/").rsplit("/", 1)[-1]


def staked_match_over(server: str, a: Page, b: Page) -> str:
    """Anil makes a public Rummy table of points for two, 5 chips a point; Bina sits; Anil starts and drops at his
    first turn (Bina plays hers first when the seed says so): the match is over. Returns the table's id."""
    tid(a, "game").select_option("rummy")
    tid(a, "players").select_option("2")
    tid(a, "format").select_option("points")
    tid(a, "stake").fill(str(STAKE))
    tid(a, "create-table").click()
    a.wait_for_url("**/t/*")
    old = table_id(a)
    b.goto(f"{server}/t/{old}")
    tid(b, "sit-1").click()
    _expect(tid(a, "seat-1")).to_contain_text("Bina")
    tid(a, "start").click()
    deadline = time.monotonic() + 30
    while not a.evaluate(f"({MY_TURN})()"):
        assert time.monotonic() < deadline, "nobody's turn came"
        if b.evaluate(f"({MY_TURN})()"):
            v = version(b)
            tid(b, "take-stock").click()
            after(b, v)
            tid(b, "arrange").click()
            v = version(b)
            tid(b, "discard").click()
            after(b, v)
        time.sleep(0.05)
    play_turn(a, end="drop")
    for page in (a, b):
        page.wait_for_function("() => document.body.dataset.status === 'finished'")
        close_sheet(page)
    return old


def close_sheet(page: Page) -> None:
    """Close the last deal's score sheet (shown over the table when the match ends)."""
    _expect(tid(page, "match-over")).to_be_visible()
    time.sleep(0.3)
    if tid(page, "continue").is_visible():
        tid(page, "continue").click()
    _expect(tid(page, "score-sheet")).to_be_hidden()


def audit_clean(server: Server) -> None:
    audit = subprocess.run([sys.executable, "-m", "taash.cli.main", "chips", "audit", "--database-url",
                            server.database_url], capture_output=True, text=True, timeout=60)
    assert audit.returncode == 0, audit.stdout + audit.stderr


def test_a_rematch_accepted_moves_players_and_watcher_to_a_new_staked_match(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    contexts, (a, b, watcher) = people(browser, errors, 3)
    named(a, server.url, "Anil")
    named(b, server.url, "Bina")
    old = staked_match_over(server.url, a, b)
    watcher.goto(f"{server.url}/t/{old}")
    close_sheet(watcher)
    _expect(tid(watcher, "rematch")).to_have_count(0)  # a watcher has no button
    before = balance(a, server.url), balance(b, server.url)

    tid(a, "rematch").click()
    _expect(tid(b, "rematch-offer")).to_have_text("Anil proposes a rematch.")
    _expect(tid(watcher, "rematch-seat")).to_have_count(2)
    _expect(tid(watcher, "rematch-seat").nth(1)).to_have_attribute("data-answer", "waiting")
    tid(b, "rematch-accept").click()
    for page in (a, b, watcher):
        page.wait_for_function("old => !location.pathname.endsWith(old)", arg=old)
        page.wait_for_url("**/t/*")
    new = table_id(a)
    assert new != old and table_id(b) == new and table_id(watcher) == new
    for page in (a, b):
        _expect(tid(page, "hand")).to_be_visible()
    _expect(tid(a, "seat-box-0")).to_contain_text("Anil")
    _expect(tid(a, "seat-box-1")).to_contain_text("Bina")
    assert (balance(a, server.url), balance(b, server.url)) == (before[0] - HOLD, before[1] - HOLD)
    for c in contexts:
        c.close()
    assert not errors, errors
    audit_clean(server)


def test_a_rematch_after_the_other_player_left_gives_his_seat_to_a_bot(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    contexts, (a, b) = people(browser, errors)
    named(a, server.url, "Anil")
    named(b, server.url, "Bina")
    old = staked_match_over(server.url, a, b)
    contexts[1].close()  # Bina leaves
    before = balance(a, server.url)
    tid(a, "rematch").click()
    a.wait_for_function("old => !location.pathname.endsWith(old)", arg=old)
    _expect(tid(a, "seat-box-1")).to_contain_text("(bot)")
    _expect(tid(a, "hand")).to_be_visible()
    assert balance(a, server.url) == before - HOLD
    contexts[0].close()
    assert not errors, errors
    audit_clean(server)


def test_a_friend_is_asked_accepted_invited_from_the_lobby_and_seated(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    contexts, (a, b) = people(browser, errors)
    named(a, server.url, "Anil")
    named(b, server.url, "Bina")
    tid(a, "friend-name").fill("bina")
    tid(a, "friend-add").click()
    _expect(tid(a, "friends-note")).to_have_text("Asked bina to be friends.")
    tid(a, "friend-name").fill("Nobody Else")
    tid(a, "friend-add").click()
    _expect(tid(a, "friends-note")).to_have_text("no account has that name")  # the server's one line
    tid(b, "friend-accept").click()  # his lobby asks every few seconds
    _expect(tid(b, "friend-list")).to_contain_text("Anil")

    # Anil makes a private table, comes back to the lobby and invites Bina in one click.
    tid(a, "public").uncheck()
    tid(a, "create-table").click()
    a.wait_for_url("**/t/*")
    private = table_id(a)
    a.goto(f"{server.url}/")
    _expect(tid(a, "friend-online")).to_have_text("online")
    tid(a, "friend-invite").click()
    _expect(tid(a, "friends-note")).to_have_text("Bina is invited to your table.")
    _expect(tid(b, "invite")).to_contain_text("Anil invites you to a table of Seep.")
    tid(b, "invite-join").click()
    b.wait_for_url(f"**/t/{private}?code=*")
    _expect(tid(b, "seat-1")).to_contain_text("Bina")
    a.goto(f"{server.url}/t/{private}")
    _expect(tid(a, "seat-1")).to_contain_text("Bina")
    for c in contexts:
        c.close()
    assert not [e for e in errors if "status of 404" not in e], errors  # the unknown name's answer is expected
