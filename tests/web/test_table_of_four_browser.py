"""Four people in four browsers (Chromium through Playwright) at one private Seep table of four, on one server: a
friend invited from the lobby and seated with one click, a chat line seen by the three others as text (never as
markup), a mute by one of them (the muted man's next line reaches the two others, not her), the single deal played
out by the turn timer (each turn runs out in a fraction of a second and a bot plays it: four browsers clicking 48
plays took over six minutes on a loaded machine; the pages ask for reduced motion, so no card flights queue up),
and a rematch proposed by one and accepted by the three others, which the server starts with all four in their
seats: every page moves to the new table by itself, and each of the four plays a turn there by clicks.

The same needs as tests/web/test_browser.py (Debian's chromium, the playwright package); skipped without them.
"""

# ruff: noqa: F811 - the fixtures of tests/web/test_browser.py, imported, are the tests' arguments

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.web.server import WITH_TEST_CLOCK, Server, move_clock, served
from tests.web.test_browser import (  # noqa: F401 - the fixtures
    browser,
    my_turn,
    pytestmark,
    shoot,
    take_turn,
    tid,
    watch_errors,
)
from tests.web.test_chat_browser import XSS
from tests.web.test_chips_browser import named
from tests.web.test_social_browser import close_sheet, table_id

try:
    from playwright.sync_api import Browser, Page
    from playwright.sync_api import expect as _expect
except ImportError:  # pragma: no cover - skipped by pytestmark
    pass

NAMES = ("Anil", "Bina", "Chand", "Dev")
#: A seat's extra seconds for a match, besides each turn's 0.5 s.
EXTRA = 6


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    # Four accounts from one address (friends need accounts; the server allows three a day by default); a turn
    # runs out in 0.5 s (the least the server takes) and the seat's extra time for the match in EXTRA more, and a
    # bot plays it (after three in a row, a bot keeps the seat until its person acts). The server's clock is the
    # test's (TEST_CLOCK): it moves while the first match is played out (match_over), and stands still at the
    # rematch, where each person plays a turn by clicks (on the real clock, a loaded machine's four pages did not
    # always click within a turn's 6.5 s, and a bot played it).
    with served(tmp_path, "four.db", "--accounts-per-address", "4", "--turn-seconds", "0.5", "--extra-seconds",
                str(EXTRA), bot_delay=0, launcher=WITH_TEST_CLOCK) as s:
        yield s


def private_table_of_four(server: str, anil: Page, bina: Page, chand: Page) -> tuple[str, str]:
    """Anil makes a private Seep table of four for a single deal; Bina and Chand join by its code and sit in seats
    1 and 2. Returns the table's id and code."""
    tid(anil, "game").select_option("seep")
    tid(anil, "players").select_option("4")
    tid(anil, "baazis").fill("0")
    tid(anil, "public").uncheck()
    tid(anil, "create-table").click()
    anil.wait_for_url("**/t/*")
    _expect(tid(anil, "invite-code")).not_to_be_empty()
    code = tid(anil, "invite-code").inner_text()
    for page, seat in ((bina, 1), (chand, 2)):
        page.goto(f"{server}/")
        tid(page, "join-code").fill(code)
        tid(page, "join-submit").click()
        page.wait_for_url("**/t/*")
        tid(page, f"sit-{seat}").click()
        _expect(tid(anil, f"seat-{seat}")).to_contain_text(NAMES[seat])
    return table_id(anil), code


def match_over(server: Server, table: str, pages: list[Page]) -> None:
    """Move the server's clock on (TEST_CLOCK) until the turn timer has played the table's match out, asked by the
    first page (a private table answers its people only); screenshots where it does not (90 s: a stall)."""
    deadline = time.monotonic() + 90
    while (summary := pages[0].request.get(f"{server.url}/api/tables/{table}").json())["status"] != "finished":
        if time.monotonic() > deadline:
            for i, page in enumerate(pages):
                shoot(page, f"four-stuck-{i}")
            raise AssertionError(f"the match did not end: {summary}")
        move_clock(server)
        time.sleep(0.2)


def moved_by_people(server: Server, table: str) -> int:
    """How many people (guests, not bots or the turn timer) made a bid or a play at ``table``."""
    engine = create_engine(server.database_url)
    try:
        with engine.connect() as c:
            rows = c.execute(text("SELECT guest, body FROM actions WHERE table_id = :t AND guest IS NOT NULL"),
                             {"t": table}).all()
    finally:
        engine.dispose()
    return len({guest for guest, body in rows if json.loads(body)["type"] in ("bid", "play")})


def test_four_people_invite_chat_mute_play_and_all_accept_a_rematch(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
                for _ in NAMES]
    pages = [c.new_page() for c in contexts]
    for page, name in zip(pages, NAMES, strict=True):
        page.set_default_timeout(15000)
        watch_errors(page, errors, name)
    anil, bina, chand, dev = pages
    for page, name in zip(pages, NAMES, strict=True):
        named(page, server.url, name)

    # Dev is Anil's friend: asked by name from the lobby, accepted from his.
    tid(anil, "friend-name").fill("dev")
    tid(anil, "friend-add").click()
    _expect(tid(anil, "friends-note")).to_have_text("Asked dev to be friends.")
    tid(dev, "friend-accept").click()
    _expect(tid(dev, "friend-list")).to_contain_text("Anil")

    # Bina and Chand come by the code; Dev is invited from Anil's lobby and seated by one click.
    old, _ = private_table_of_four(server.url, anil, bina, chand)
    anil.goto(f"{server.url}/")
    _expect(tid(anil, "friend-online")).to_have_text("online")
    tid(anil, "friend-invite").click()
    _expect(tid(anil, "friends-note")).to_have_text("Dev is invited to your table.")
    _expect(tid(dev, "invite")).to_contain_text("Anil invites you to a table of Seep.")
    tid(dev, "invite-join").click()
    dev.wait_for_url(f"**/t/{old}?code=*")
    _expect(tid(dev, "seat-3")).to_contain_text("Dev")
    anil.goto(f"{server.url}/t/{old}")
    for seat, name in enumerate(NAMES):
        _expect(tid(anil, f"seat-{seat}")).to_contain_text(name)
    for page in pages:
        _expect(tid(page, "chat")).to_be_visible()  # seated, they talk before the start

    # A line of markup from Anil: the three others see its characters, and nothing runs.
    tid(anil, "chat-input").fill(XSS)
    tid(anil, "chat-input").press("Enter")
    for page in (bina, chand, dev):
        line = tid(page, "chat-line").filter(has_text="Anil")
        _expect(line.locator("[data-testid='chat-text']")).to_have_text(XSS)
        assert page.locator("[data-testid='chat-lines'] img").count() == 0
    assert all(page.evaluate("() => window.pwned") is None for page in pages)

    # Bina mutes Anil: his next line reaches Chand and Dev, not her; Chand's still reaches her.
    tid(bina, "chat-line").filter(has_text="Anil").locator("[data-testid='chat-mute']").click()
    _expect(tid(bina, "chat-line").filter(has_text="Anil")).to_have_count(0)
    tid(anil, "chat-input").fill("can you hear me?")
    tid(anil, "chat-send").click()
    tid(chand, "chat-input").fill("yes, loud and clear")
    tid(chand, "chat-send").click()
    for page in (chand, dev):
        _expect(tid(page, "chat-text").filter(has_text="can you hear me?")).to_have_count(1)
    _expect(tid(bina, "chat-text").filter(has_text="yes, loud and clear")).to_have_count(1)
    _expect(tid(bina, "chat-line").filter(has_text="Anil")).to_have_count(0)
    _expect(tid(bina, "chat-text").filter(has_text="can you hear me?")).to_have_count(0)

    # Anil starts; the turn timer plays the single deal out. He proposes a rematch, the three others accept it.
    tid(anil, "start").click()
    match_over(server, old, pages)
    for page in pages:  # a page busy with 48 updates in a few seconds on a loaded machine may take a while
        page.wait_for_function("() => document.body.dataset.status === 'finished'", timeout=60000)
        close_sheet(page)
    tid(anil, "rematch").click()
    for page in (bina, chand, dev):
        _expect(tid(page, "rematch-offer")).to_have_text("Anil proposes a rematch.")
        _expect(tid(page, "rematch-seat")).to_have_count(4)
    for page in (bina, chand, dev):
        tid(page, "rematch-accept").click()
    # The server starts the rematch with the four in their seats, and every page moves to the new table.
    for page in pages:
        page.wait_for_function("old => !location.pathname.endsWith(old)", arg=old, timeout=60000)
        page.wait_for_url("**/t/*")
    new = table_id(anil)
    assert new != old and all(table_id(page) == new for page in pages)
    summary = anil.request.get(f"{server.url}/api/tables/{new}").json()
    assert [(seat["name"], seat["bot"]) for seat in summary["seats"]] == [(name, False) for name in NAMES], summary

    # There each plays a turn of his own by clicks, as it comes (a bid or a card): the clock stands still, so
    # every turn is a person's, the bidder's card after his bid too.
    played: set[int] = set()
    deadline = time.monotonic() + 120
    while len(played) < len(pages):
        if time.monotonic() > deadline:
            for i, page in enumerate(pages):
                shoot(page, f"four-rematch-{i}")
            raise AssertionError(f"only seats {sorted(played)} played at the new table")
        for seat, page in enumerate(pages):
            if my_turn(page):
                take_turn(page)
                played.add(seat)
        time.sleep(0.05)
    assert moved_by_people(server, new) == 4
    for c in contexts:
        c.close()
    assert not errors, errors
