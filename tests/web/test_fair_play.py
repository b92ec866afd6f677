"""What an attacker found at the server's edge (issue 26): one address filling every websocket, requests from
another site's pages, and loose input (numbers as strings, a letter under a pile of marks)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from taash.web.admissions import SERVER_FULL
from taash.web.http import display_name, marks_carried
from tests.web.server import Person, Server, Socket, running_server

# -- websockets per address and per guest ----------------------------------------------------------------------


def snapshot_or_refusal(sock: Socket) -> tuple[int, str] | None:
    """None when the connection was let in (its snapshot came), else its close code and reason."""
    try:
        message = json.loads(sock.ws.recv(timeout=10))
    except ConnectionClosed as e:
        assert e.rcvd is not None
        return e.rcvd.code, e.rcvd.reason
    assert message["type"] == "snapshot", message
    return None


def test_one_address_cannot_fill_every_websocket_and_lock_the_seated_player_out(tmp_path: Path) -> None:
    extra = ("--max-connections", "40", "--max-connections-per-address", "30")
    with running_server(tmp_path, extra=extra) as server:
        anil = Person(server, "Anil")
        tid = anil.post("/api/tables", {"players": 2}).json()["id"]  # Anil sits in seat 0
        stranger = Person(server)  # no cookie
        socks = [stranger.socket(tid) for _ in range(40)]
        answers = [snapshot_or_refusal(s) for s in socks]
        assert answers[:30] == [None] * 30
        refused = set(answers[30:])
        assert len(refused) == 1
        code, reason = refused.pop()  # type: ignore[misc]
        assert code == 1013 and "30 connections are open from your address" in reason
        assert snapshot_or_refusal(anil.socket(tid)) is None  # the table's own player still comes in
        # Another address fills what is left for spectators: 36 of 40, the last 4 kept for players.
        more = [snapshot_or_refusal(stranger.socket(tid, source="127.0.0.2")) for _ in range(6)]
        assert more == [None] * 5 + [(1013, SERVER_FULL)]
        assert snapshot_or_refusal(anil.socket(tid)) is None
        assert httpx.get(f"{server.url}/api/health").json()["connections"] == 37


def test_one_guest_may_open_only_so_many_websockets(tmp_path: Path) -> None:
    with running_server(tmp_path, extra=("--max-connections-per-guest", "3")) as server:
        anil, bela = Person(server, "Anil"), Person(server, "Bela")
        tid = anil.post("/api/tables", {"players": 2}).json()["id"]
        socks = [bela.socket(tid) for _ in range(2)]
        assert [snapshot_or_refusal(s) for s in socks] == [None, None]
        cookie = {"Cookie": f"taash_guest={bela.http.cookies['taash_guest']}"}
        with connect(f"{server.ws_url}/ws/play-now", additional_headers=cookie, open_timeout=10) as queue:
            queue.send(json.dumps({"type": "ping"}))
            assert json.loads(queue.recv(timeout=10))["type"] == "pong"
            code, reason = bela.refusal(tid)
            assert code == 1013 and "3 connections open" in reason
            with connect(f"{server.ws_url}/ws/play-now", additional_headers=cookie, open_timeout=10) as second:
                with pytest.raises(ConnectionClosed) as closed:
                    second.recv(timeout=10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        socks[0].close()
        assert snapshot_or_refusal(bela.socket(tid)) is None  # a closed connection frees its place
        # A seated player is held to it too: his tabs are not a way around it.
        assert [snapshot_or_refusal(anil.socket(tid)) for _ in range(4)][-1][0] == 1013  # type: ignore[index]


def test_serve_refuses_bad_connection_limits(tmp_path: Path) -> None:
    import subprocess
    import sys

    for option in ("--max-connections-per-address", "--max-connections-per-guest"):
        done = subprocess.run([sys.executable, "-m", "taash.cli.main", "serve", option, "0", "--database-url",
                               f"sqlite:///{tmp_path / 'x.db'}"], capture_output=True, text=True, timeout=60)
        assert done.returncode != 0 and f"{option} must be from 1 to 1000000, not 0" in done.stderr, done.stderr


# -- requests from another site's pages ------------------------------------------------------------------------


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running_server(tmp_path, extra=("--allowed-origin", "https://cards.example")) as s:
        yield s


def test_another_sites_page_may_not_make_a_player_leave_or_change_anything(server: Server) -> None:
    anil, bela = Person(server, "Anil"), Person(server, "Bela")
    tid = anil.post("/api/tables", {"players": 2}).json()["id"]
    assert bela.post(f"/api/tables/{tid}/sit", {"seat": 1}).status_code == 200
    before = httpx.get(f"{server.url}/api/tables/{tid}").json()
    evil = {"Origin": "https://evil.example"}
    form = {"content": b"x=1", "headers": {**evil, "Content-Type": "application/x-www-form-urlencoded"}}
    r = bela.http.post(f"/api/tables/{tid}/leave", **form)  # type: ignore[arg-type]
    assert r.status_code == 403 and r.json() == {"detail": "a page of another site may not change anything here",
                                                 "code": "forbidden"}
    for who, path in ((bela, f"/api/tables/{tid}/leave"), (anil, f"/api/tables/{tid}/bots"),
                      (anil, f"/api/tables/{tid}/start"), (anil, f"/api/tables/{tid}/abandon"),
                      (anil, "/api/chips/bonus"), (anil, "/api/logout"), (anil, "/api/tables"),
                      (anil, "/api/guest")):
        for headers in (evil, {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
                        {"Origin": "http://[::1"}):
            r = who.http.post(path, headers=headers, json={"name": "Evil"} if path == "/api/guest" else None)
            assert r.status_code == 403 and r.json()["code"] == "forbidden", (path, headers, r.text)
    assert httpx.get(f"{server.url}/api/tables/{tid}").json() == before
    # Reading is not changing: another site's page may ask (and the browser will not show it the answer).
    assert bela.http.get(f"/api/tables/{tid}", headers=evil).status_code == 200
    # This server's own pages, the origins it is told to trust, and clients that are no browser may.
    own = {"Origin": server.url, "Sec-Fetch-Site": "same-origin"}
    assert bela.http.post(f"/api/tables/{tid}/leave", headers=own).status_code == 200
    assert bela.post(f"/api/tables/{tid}/sit", {"seat": 1}).status_code == 200
    trusted = {"Origin": "https://cards.example", "Sec-Fetch-Site": "cross-site"}
    assert bela.http.post(f"/api/tables/{tid}/leave", headers=trusted).status_code == 200


def test_the_api_takes_no_form_bodies(server: Server) -> None:
    anil = Person(server, "Anil")
    tid = anil.post("/api/tables", {"players": 2}).json()["id"]
    for kind in ("application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain;charset=UTF-8"):
        r = anil.http.post(f"/api/tables/{tid}/sit", content=b'{"seat": 1}', headers={"Content-Type": kind})
        assert r.status_code == 415, (kind, r.text)
        assert r.json() == {"detail": "the API takes JSON bodies (Content-Type: application/json)",
                            "code": "unsupported"}
    assert httpx.get(f"{server.url}/api/tables/{tid}").json()["seats"][1]["empty"]


# -- strict input ----------------------------------------------------------------------------------------------


def test_numbers_and_yes_or_no_are_json_types_not_strings_or_guesses(server: Server) -> None:
    anil = Person(server, "Anil", account=True)  # staked tables need an account
    tid = anil.post("/api/tables", {"players": 2}).json()["id"]
    tables = len(httpx.get(f"{server.url}/api/tables").json())
    cases = [("/api/tables", {"stake": "100"}, "stake"), ("/api/tables", {"stake": True}, "stake"),
             ("/api/tables", {"stake": 1000.0}, "stake"), ("/api/tables", {"players": "2"}, "players"),
             ("/api/tables", {"baazis": 1.0}, "baazis"), ("/api/tables", {"public": 1}, "public"),
             ("/api/tables", {"public": "false"}, "public"), ("/api/tables", {"seat": False}, "seat"),
             ("/api/quick", {"players": 2.0}, "players"),
             (f"/api/tables/{tid}/sit", {"seat": "1"}, "seat"), (f"/api/tables/{tid}/sit", {"seat": 1.0}, "seat"),
             (f"/api/tables/{tid}/sit", {"seat": True}, "seat"), ("/api/guest", {"name": 7}, "name"),
             ("/api/account", {"password": 12345678}, "password"),
             ("/api/rummy/groups", {"wild": 7, "groups": []}, "wild")]
    for path, body, field in cases:
        r = anil.post(path, body)
        assert r.status_code == 422, (path, body, r.text)
        detail = r.json()["detail"]
        assert r.json()["code"] == "invalid" and detail.startswith(f"{field}: "), (path, body, detail)
        assert "\n" not in detail
    assert len(httpx.get(f"{server.url}/api/tables").json()) == tables
    assert httpx.get(f"{server.url}/api/tables/{tid}").json()["seats"][1]["empty"]
    assert anil.post("/api/tables", {"stake": 100, "players": 2, "public": False}).status_code == 200


PILED = "a" + "\u0301" * 23  # one letter, 23 combining acute accents: 24 characters


@pytest.mark.parametrize("name", ["हैं", "क्षितिज", "ਸਿੰਘ", "ਗੁਰਪ੍ਰੀਤ", "क़ीं", "Ngô Bảo Châu", "Jose\u0301"])
def test_names_of_indian_scripts_keep_their_marks(name: str) -> None:
    assert marks_carried(name)
    assert display_name(name)


@pytest.mark.parametrize("name", [PILED, "q\u0301\u0302\u0303\u0304", "\u0301a", "a \u0301", "-\u0301"])
def test_a_letter_under_a_pile_of_marks_is_no_name(name: str) -> None:
    with pytest.raises(ValueError, match="3 at most in a row"):
        display_name(name)


def test_names_with_piled_marks_are_refused_wherever_names_are_taken(server: Server) -> None:
    assert len(PILED) == 24
    r = httpx.post(f"{server.url}/api/guest", json={"name": PILED})
    assert r.status_code == 422 and r.json()["code"] == "invalid" and "3 at most in a row" in r.json()["detail"]
    anil = Person(server, "Anil")
    tid = anil.post("/api/tables", {"players": 2}).json()["id"]
    bela = Person(server, "Bela")
    for path, body in ((f"/api/tables/{tid}/sit", {"seat": 1, "name": PILED}),
                       ("/api/account", {"name": PILED, "password": "a long password"}),
                       ("/api/login", {"name": PILED, "password": "a long password"})):
        r = bela.post(path, body)
        assert r.status_code == 422 and "3 at most in a row" in r.json()["detail"], (path, r.text)
    for name in ("हैं", "क्षितिज", "ਸਿੰਘ", "ਗੁਰਪ੍ਰੀਤ"):
        r = httpx.post(f"{server.url}/api/guest", json={"name": name})
        assert r.status_code == 200 and r.json()["name"] == name, (name, r.text)
