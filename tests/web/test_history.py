"""A person's history and statistics, and the leaderboards, from matches played to the end on a real server."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.server import POSTGRES, Person, Server, Socket, running_server

DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
    not POSTGRES, reason="TAASH_TEST_POSTGRES_URL is not set (the CI script sets it)"))]


@pytest.fixture(params=DATABASES)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    with running_server(tmp_path, request.param) as s:
        yield s


def play_to_the_end(sock: Socket, pick: int = 0) -> dict[str, Any]:
    """Make the first offered move at each turn (at Rummy, a drop) until the match is over."""
    sock.recv()
    deadline = time.monotonic() + 60
    while sock.state["status"] != "finished":  # type: ignore[index]
        assert time.monotonic() < deadline
        deal = sock.state["deal"]  # type: ignore[index]
        if deal and deal.get("bids"):
            sock.move(pick)
            sock.recv_until("ack")
        elif deal and deal.get("legal"):
            drops = [m for m in deal["legal"] if m.get("type") == "drop"]
            move = drops[0] if drops else deal["legal"][pick % len(deal["legal"])]
            message = move if "type" in move else {"type": "play", "play": move["play"]}
            sock.send({**message, "version": sock.version, "id": sock.person.next_id()})
            sock.recv_until("ack")
        else:
            sock.recv()
    assert sock.state is not None
    return sock.state


def test_finished_matches_make_a_history_statistics_and_leaderboards(server: Server) -> None:
    me = Person(server, "Solo")
    my_id = me.http.get("/api/me").json()["id"]
    seep = me.post("/api/quick", {"players": 2, "baazis": 0, "level": "easy"}).json()
    play_to_the_end(me.socket(seep["id"]))
    # A medium bot never drops (an easy one may, at random, before the person's first turn).
    rummy = me.post("/api/tables", {"game": "rummy", "players": 2, "level": "medium", "public": True, "seat": 0})
    assert rummy.status_code == 200, rummy.text
    rid = rummy.json()["id"]
    assert me.post(f"/api/tables/{rid}/bots").status_code == 200
    assert me.post(f"/api/tables/{rid}/start").status_code == 200
    final = play_to_the_end(me.socket(rid))
    assert final["score"]["winner"] == 1  # he dropped: the bot wins

    page = me.http.get(f"/api/people/{my_id}").json()
    assert page["name"] == "Solo" and [m["game"] for m in page["matches"]] == ["rummy", "seep"]
    drop = page["matches"][0]
    assert not drop["won"] and drop["stats"]["drops"] == 1 and drop["replay"] == f"/r/{rid}"
    assert [s["bot"] for s in drop["seats"]] == [False, True]
    assert page["stats"]["rummy"]["matches"] == 1 and page["stats"]["rummy"]["totals"]["drops"] == 1
    assert page["stats"]["seep"]["matches"] == 1 and "sweeps" in page["stats"]["seep"]["totals"]
    seep_match = page["matches"][1]
    assert seep_match["points"] == seep_match["seats"][0]["points"]

    # The quick table is private: a stranger sees only the public Rummy match.
    stranger = Person(server, "Stranger")
    seen = stranger.http.get(f"/api/people/{my_id}").json()
    assert [m["game"] for m in seen["matches"]] == ["rummy"]

    board = httpx.get(f"{server.url}/api/leaderboard/rummy").json()
    players = {p["player"]: p for p in board["players"]}
    assert set(players) == {my_id, "bot:medium"} and players["bot:medium"]["bot"]
    assert players["bot:medium"]["rating"] > players[my_id]["rating"]  # the bot won
    assert players[my_id]["matches"] == 1 and players[my_id]["wins"] == 0

    for path in (f"/p/{my_id}", "/leaderboard"):
        assert "<!doctype html>" in httpx.get(f"{server.url}{path}").text

    # A restart writes nothing twice.
    server.stop()
    server.start()
    again = me.http.get(f"/api/people/{my_id}").json()
    assert len(again["matches"]) == 2


def test_unknown_people_and_games_are_one_line_404s(server: Server) -> None:
    for path in ("/api/people/ffff", "/api/people/not-an-id!", "/api/leaderboard/chess"):
        r = httpx.get(f"{server.url}{path}")
        assert r.status_code == 404 and r.json()["code"] == "not_found" and "\n" not in r.json()["detail"]
    assert httpx.get(f"{server.url}/api/leaderboard/seep").json() == {"game": "seep", "players": []}


def test_the_lobby_links_a_person_to_his_matches_and_the_leaderboards(tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    from tests.web.test_browser import CHROMIUM

    if not CHROMIUM.exists():
        pytest.skip("no Chromium at /usr/bin/chromium (apt-get install chromium)")
    with running_server(tmp_path) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            page = browser.new_page()
            page.goto(server.url)
            page.get_by_test_id("name-input").fill("Kavya")
            page.get_by_test_id("name-submit").click()
            page.get_by_test_id("my-matches").click()
            expect(page.get_by_test_id("person-name")).to_have_text("Kavya")
            expect(page.get_by_test_id("person-matches")).to_contain_text("No finished match yet")
            page.goto(f"{server.url}/leaderboard")
            expect(page.get_by_test_id("board-rummy")).to_contain_text("No finished match yet")
        finally:
            browser.close()
