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


@pytest.fixture(scope="module", params=DATABASES)
def unplayed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server where nothing is ever played, shared by the module's tests that only read from it."""
    with running_server(tmp_path_factory.mktemp("unplayed"), request.param) as s:
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


def test_unknown_people_and_games_are_one_line_404s(unplayed: Server) -> None:
    for path in ("/api/people/ffff", "/api/people/not-an-id!", "/api/leaderboard/chess"):
        r = httpx.get(f"{unplayed.url}{path}")
        assert r.status_code == 404 and r.json()["code"] == "not_found" and "\n" not in r.json()["detail"]
    assert httpx.get(f"{unplayed.url}/api/leaderboard/seep").json() == {"game": "seep", "players": []}


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


@pytest.fixture(params=DATABASES)
def raked(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A server whose house keeps 10% of each winner's winnings."""
    with running_server(tmp_path, request.param, extra=("--rake", "10")) as s:
        yield s


def plain_turn(sock: Socket) -> None:
    """The seat to move takes the stock's card and discards (a turn that ends nothing)."""
    for kind in ("take", "discard"):
        while not any(m.get("type") == kind for m in ((sock.state or {}).get("deal") or {}).get("legal") or []):
            sock.recv()
        deal = sock.state["deal"]  # type: ignore[index]
        move = next(m for m in deal["legal"] if m["type"] == kind and m.get("from", "stock") == "stock")
        sock.send({**move, "version": sock.version, "id": sock.person.next_id()})
        sock.recv_until("ack")


def staked_drop(first: Person, second: Person, stake: int) -> str:
    """A private Rummy table of points for two, played for ``stake`` a point: ``first`` (seat 0) drops at his first
    turn, so ``second`` wins his 20 points (a first drop; if ``second`` moves first, as the table's seed may say, he
    takes and discards first). Returns the table's id."""
    made = first.post("/api/tables", {"game": "rummy", "players": 2, "public": False, "seat": 0, "stake": stake})
    assert made.status_code == 200, made.text
    table = made.json()
    assert second.post(f"/api/tables/{table['id']}/sit", {"seat": 1, "code": table["code"]}).status_code == 200
    assert first.post(f"/api/tables/{table['id']}/start").status_code == 200
    hers = second.socket(table["id"])
    hers.recv()
    if hers.state["deal"]["to_move"] == 1:  # type: ignore[index]
        plain_turn(hers)
    final = play_to_the_end(first.socket(table["id"]))
    assert final["score"]["winner"] == 1
    return str(table["id"])


def settled(person: Person, table_id: str) -> dict[str, Any]:
    """The person's own page once the match of ``table_id`` is settled (just after its end is written)."""
    deadline = time.monotonic() + 10
    while True:
        page: dict[str, Any] = person.http.get(f"/api/people/{person.http.get('/api/me').json()['id']}").json()
        if any(m["table_id"] == table_id and m["chips"] is not None for m in page["matches"]):
            return page
        assert time.monotonic() < deadline, page
        time.sleep(0.05)


def test_a_persons_page_shows_what_each_match_moved_and_his_balance(raked: Server) -> None:
    # Accounts from three addresses: people who may play each other for chips.
    anil, bina, stranger = (Person(raked, name, account=True, address=f"127.0.0.{i}")
                            for i, name in enumerate(("Anil", "Bina", "Stranger"), start=2))
    anil_id, bina_id = (p.http.get("/api/me").json()["id"] for p in (anil, bina))
    free = anil.post("/api/tables", {"players": 2, "baazis": 0, "level": "easy", "public": True, "seat": 0}).json()
    assert anil.post(f"/api/tables/{free['id']}/bots").status_code == 200
    assert anil.post(f"/api/tables/{free['id']}/start").status_code == 200
    play_to_the_end(anil.socket(free["id"]))
    staked = staked_drop(anil, bina, stake=5)

    # Anil lost 20 points x 5 chips; Bina won them less the house's 10%; a match without stakes moved none.
    mine = settled(anil, staked)
    assert [(m["table_id"], m["chips"]) for m in mine["matches"]] == [(staked, -100), (free["id"], None)]
    assert mine["balance"] == 10_000 - 100
    hers = settled(bina, staked)
    assert [(m["table_id"], m["chips"]) for m in hers["matches"]] == [(staked, 90)]
    assert hers["balance"] == 10_000 + 90

    # A private match, and its chips, only to the person himself; his balance is on his page for anyone.
    seen = stranger.http.get(f"/api/people/{anil_id}").json()
    assert [(m["table_id"], m["chips"]) for m in seen["matches"]] == [(free["id"], None)]
    assert seen["balance"] == 9_900
    seen = stranger.http.get(f"/api/people/{bina_id}").json()
    assert seen["matches"] == [] and seen["stats"] == {} and seen["balance"] == 10_090

    # The board of chips: people by balance, with what they won at tables; no bot, no house.
    board = httpx.get(f"{raked.url}/api/leaderboard/chips").json()
    assert board["total"] == 3 and board["offset"] == 0 and board["limit"] == 50
    assert [(p["rank"], p["name"], p["balance"], p["won"], p["matches"]) for p in board["players"]] == [
        (1, "Bina", 10_090, 90, 1), (2, "Stranger", 10_000, 0, 0), (3, "Anil", 9_900, -100, 1)]
    assert board["players"][0]["player"] == bina_id
    second = httpx.get(f"{raked.url}/api/leaderboard/chips", params={"limit": 1, "offset": 1}).json()
    assert [(p["rank"], p["name"]) for p in second["players"]] == [(2, "Stranger")] and second["total"] == 3
    assert httpx.get(f"{raked.url}/api/leaderboard/chips?offset=7").json()["players"] == []
    # The boards by rating are where they were.
    assert {p["player"] for p in httpx.get(f"{raked.url}/api/leaderboard/rummy").json()["players"]} == {
        anil_id, bina_id}


@pytest.mark.parametrize("query", ["limit=0", "limit=101", "offset=-1", "limit=ten", "offset=1e3",
                                   "offset=99999999999"])
def test_a_bad_page_of_the_board_of_chips_is_a_one_line_422(unplayed: Server, query: str) -> None:
    r = httpx.get(f"{unplayed.url}/api/leaderboard/chips?{query}")
    assert r.status_code == 422 and r.json()["code"] == "invalid", r.text
    assert "\n" not in r.json()["detail"] and ("limit" in r.json()["detail"] or "offset" in r.json()["detail"])
