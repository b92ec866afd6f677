"""Accessibility checks by axe-core, injected by Playwright into each page of the site in Chromium: the lobby, a Seep
table and a Rummy table in play, a replay, the leaderboard and a person's page. No page may have a serious or
critical violation; moderate ones are listed in the failure of a test that finds a serious one, to fix with it.
The learn pages of both games too (issue 29).

axe-core comes from the npm registry through scripts/ensure-axe (run by ``make test``; run here when its file is
missing), never from another site at test time. The same needs as tests/web/test_browser.py (Debian's chromium,
the playwright package); skipped without them, or without axe-core.
"""

# ruff: noqa: F811 - the fixtures of tests/web/test_browser.py, imported, are the tests' arguments

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.server import Person, running_server, until_finished
from tests.web.test_browser import browser, pytestmark, tid  # noqa: F401 - the fixtures
from tests.web.test_keyboard_browser import accessible_name

try:
    from playwright.sync_api import Browser, Page
    from playwright.sync_api import expect as _expect
except ImportError:  # pragma: no cover - skipped by pytestmark
    pass

AXE = Path(__file__).parent / ".axe" / "axe.min.js"
ENSURE = Path(__file__).parents[2] / "scripts" / "ensure-axe"
#: The impacts a page may not have.
FORBIDDEN = {"moderate", "serious", "critical"}


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        subprocess.run([str(ENSURE)], check=False)
    if not AXE.exists():
        pytest.skip("axe-core is not installed (scripts/ensure-axe needs npm and the npm registry)")
    return AXE.read_text()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A server with one finished Seep match, played by bots for a person who never came (he is away at once):
    his page lists it, its replay shows it."""
    with running_server(tmp_path_factory.mktemp("axe"), away_seconds=0.2) as server:
        who = Person(server, "Meera")
        r = who.post("/api/tables", {"game": "seep", "players": 2, "level": "easy", "seat": 0, "baazis": 0})
        assert r.status_code == 200, r.text
        table_id = r.json()["id"]
        assert who.post(f"/api/tables/{table_id}/bots").status_code == 200
        assert who.post(f"/api/tables/{table_id}/start").status_code == 200
        until_finished(who.http, table_id)
        yield {"url": server.url, "table": table_id, "person": who.http.get("/api/me").json()["id"], "server": server}


@pytest.fixture(scope="module")
def play_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server for people at tables (away after the usual 30 s, not at once)."""
    with running_server(tmp_path_factory.mktemp("axe-play")) as server:
        yield server.url


def new_page(browser: Browser) -> Page:
    # axe runs as a script of the page: the site's Content-Security-Policy (scripts from itself only) is set
    # aside for the test's context, and only for it.
    page = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True).new_page()
    page.set_default_timeout(20000)
    return page


RUN = """async () => {
  const r = await axe.run(document, { resultTypes: ['violations'] });
  return r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\\n')[1]) }));
}"""


def check(page: Page, axe_source: str) -> None:
    """Run axe-core on the page as it is; fail on any serious or critical violation (listing every one found)."""
    page.evaluate(axe_source)
    found: list[dict[str, Any]] = page.evaluate(RUN)
    bad = [v for v in found if v["impact"] in FORBIDDEN]
    assert not bad, "\n".join(f"{v['impact']} {v['id']}: {v['help']} {v['nodes']}" for v in found)


def name_and_quick_play(page: Page, url: str, game: str) -> None:
    page.goto(f"{url}/")
    tid(page, "name-input").fill("Asha")
    tid(page, "name-submit").click()
    _expect(tid(page, "quick-play")).to_be_visible()
    tid(page, "game").select_option(game)
    tid(page, "players").select_option("2")
    tid(page, "quick-play").click()
    page.wait_for_url("**/t/*")
    _expect(tid(page, "hand")).to_be_visible()


def test_the_lobby_has_no_serious_accessibility_violation(play_url: str, browser: Browser,
                                                         axe_source: str) -> None:
    page = new_page(browser)
    page.goto(f"{play_url}/")
    _expect(tid(page, "name-input")).to_be_visible()
    check(page, axe_source)
    tid(page, "name-input").fill("Asha")
    tid(page, "name-submit").click()
    _expect(tid(page, "quick-play")).to_be_visible()
    check(page, axe_source)


def test_a_seep_table_in_play_has_no_serious_accessibility_violation(play_url: str, browser: Browser,
                                                                    axe_source: str) -> None:
    page = new_page(browser)
    name_and_quick_play(page, play_url, "seep")
    page.wait_for_function("() => document.querySelector(\"[data-testid='turn-banner']\").textContent === 'Your turn'")
    if page.locator("[data-testid^='bid-']").count():
        check(page, axe_source)  # the bid
        page.locator("[data-testid^='bid-']").first.click()
        page.wait_for_function("() => document.querySelector(\"[data-testid='hand'] .card.playable\")")
    page.locator("[data-testid='hand'] .card.playable").first.click(position={"x": 6, "y": 12})
    _expect(tid(page, "play-option").first).to_be_visible()
    check(page, axe_source)  # a card chosen, its plays offered
    tid(page, "options").click()
    check(page, axe_source)  # the options
    tid(page, "dialog-close").click()
    tid(page, "open-piles").click()
    _expect(tid(page, "piles-log")).to_contain_text("Deal 1")
    check(page, axe_source)  # the piles and the log


def test_a_rummy_table_in_play_has_no_serious_accessibility_violation(play_url: str, browser: Browser,
                                                                     axe_source: str) -> None:
    page = new_page(browser)
    name_and_quick_play(page, play_url, "rummy")
    page.wait_for_function("() => document.querySelector(\"[data-testid='turn-banner']\").textContent"
                           ".startsWith('Your turn')")
    check(page, axe_source)
    tid(page, "take-stock").click()
    _expect(tid(page, "discard")).to_be_visible()
    page.locator("[data-testid='hand'] .group-cards .card").first.click()
    check(page, axe_source)  # fourteen cards, one chosen
    tid(page, "open-piles").click()
    _expect(tid(page, "pile-discards")).to_be_visible()
    check(page, axe_source)


def test_a_replay_has_no_serious_accessibility_violation(site: dict[str, Any], browser: Browser,
                                                        axe_source: str) -> None:
    page = new_page(browser)
    page.goto(f"{site['url']}/r/{site['table']}")
    _expect(tid(page, "replay-step")).to_be_visible()
    check(page, axe_source)
    tid(page, "replay-last").click()
    _expect(tid(page, "replay-result")).to_be_visible()
    check(page, axe_source)


def test_the_leaderboard_has_no_serious_accessibility_violation(site: dict[str, Any], browser: Browser,
                                                               axe_source: str) -> None:
    page = new_page(browser)
    page.goto(f"{site['url']}/leaderboard")
    _expect(tid(page, "board-seep")).to_be_visible()
    check(page, axe_source)


def test_a_persons_page_has_no_serious_accessibility_violation(site: dict[str, Any], browser: Browser,
                                                              axe_source: str) -> None:
    page = new_page(browser)
    page.goto(f"{site['url']}/p/{site['person']}")
    _expect(tid(page, "person-matches")).to_contain_text("Meera")
    check(page, axe_source)


@pytest.mark.parametrize("game", ["seep", "rummy"])
def test_the_learn_pages_have_no_moderate_accessibility_violation(play_url: str, browser: Browser, axe_source: str,
                                                                  game: str) -> None:
    """Each game's learn page as it opens, and again with every move of its first step tried (the verdicts shown:
    a refusal in its colour, the right move in its)."""
    page = new_page(browser)
    page.goto(f"{play_url}/learn/{game}")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    check(page, axe_source)
    tries = page.locator("[data-testid^='try-0-']")
    for i in range(tries.count()):
        tries.nth(i).click()
        _expect(tid(page, "verdict-0")).to_have_attribute("data-verdict", re.compile("right|refused|legal"))
        check(page, axe_source)
    # Every move offered is named with its cards in words for a screen reader.
    tries = page.locator("[data-testid^='try-']")
    for i in range(tries.count()):
        name = accessible_name(tries.nth(i))
        assert name and not re.search("[\u2660\u2665\u2666\u2663]", name), name


def test_axe_finds_what_it_should(site: dict[str, Any], browser: Browser, axe_source: str) -> None:
    """The check itself: an image button with no name, added to the lobby, is a critical violation it reports."""
    page = new_page(browser)
    page.goto(f"{site['url']}/")
    _expect(tid(page, "name-input")).to_be_visible()
    page.evaluate("() => document.body.appendChild(document.createElement('button'))")
    with pytest.raises(AssertionError, match="button-name"):
        check(page, axe_source)


