"""The table page in Chromium on the cluster of tests/web/test_cluster.py (three servers sharing PostgreSQL and
Redis behind HAProxy, started here): a page whose websocket reaches a server that does not own its table is told
the owner and connects again naming it (``?owner=``, which the proxy routes to that server), and plays on.

Needs what both modules need (PostgreSQL, redis-server, haproxy; Debian's chromium and Playwright): skipped
without them."""

# ruff: noqa: F811 - the fixtures of tests/web/test_cluster.py and test_browser.py, imported, are the tests' arguments

from __future__ import annotations

from typing import TYPE_CHECKING

from taash.web.cluster import Cluster
from tests.web.test_browser import browser, take_turn, watch_errors  # noqa: F401 - the fixtures
from tests.web.test_browser import pytestmark as browser_marks
from tests.web.test_cluster import cluster, redis  # noqa: F401 - the fixtures
from tests.web.test_cluster import pytestmark as cluster_marks

if TYPE_CHECKING:
    from playwright.sync_api import Browser, WebSocket

pytestmark = [*cluster_marks, *browser_marks]


def test_a_page_served_through_another_server_connects_again_to_its_tables_owner(
        cluster: Cluster, browser: Browser) -> None:
    page = browser.new_context().new_page()
    errors: list[str] = []
    watch_errors(page, errors, "Lata")
    sockets: list[WebSocket] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    owner, other = cluster.server_url(1), cluster.server_url(2)  # s2 makes the table; the page is s3's
    assert page.request.post(f"{owner}/api/guest", data={"name": "Lata"}).ok  # a loopback cookie: any port's
    r = page.request.post(f"{owner}/api/quick", data={"game": "seep", "players": 2, "level": "easy", "baazis": 0})
    assert r.ok, r.text()
    page.goto(f"{other}/t/{r.json()['id']}")
    for _ in range(2):
        page.wait_for_function("() => document.body.dataset.pending !== '1' && document.querySelector("
                               "\"[data-testid='turn-banner']\").textContent === 'Your turn'", timeout=60000)
        take_turn(page)
    urls = [ws.url for ws in sockets]
    assert len(urls) == 2 and "owner=" not in urls[0] and "owner=s2" in urls[1], urls
    assert sockets[0].is_closed() and not sockets[1].is_closed()
    assert page.locator("[data-testid='reconnecting']").is_hidden()
    assert not errors, errors
