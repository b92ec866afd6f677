"""The web server over real loopback sockets: lobby, the websocket protocol, errors, reconnects, restarts.

Every test runs against SQLite, and against PostgreSQL too when ``TAASH_TEST_POSTGRES_URL`` names a server the
tests may create databases on (the CI script starts one).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from taash.rummy.rules import PRESETS as RUMMY_PRESETS
from taash.seep.rules import PRESETS
from tests.web.server import POSTGRES, Person, Server, Socket, running_server

DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
    not POSTGRES, reason="TAASH_TEST_POSTGRES_URL is not set (the CI script sets it)"))]


@pytest.fixture(scope="module", params=DATABASES)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server of each database for the module's tests that need none of their own (a start costs seconds on a
    loaded machine): each makes its own guests and tables and looks only at those; a test that counts everything
    on a server or kills it takes ``fresh_server``, as do the two that time 21 requests against a bucket that
    refills a token a second (a busy shared server answered them too slowly once)."""
    with running_server(tmp_path_factory.mktemp("server"), request.param) as s:
        yield s


@pytest.fixture(params=DATABASES)
def fresh_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own."""
    with running_server(tmp_path, request.param) as s:
        yield s


@pytest.fixture(autouse=True)
def sockets_closed_after(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The websockets a test opened are closed when it ends, as its own server's stop closed them: the module's
    server holds no connection of an earlier test (it counts them per address) nor sends it the bots' plays."""
    opened: list[Socket] = []
    open_socket = Person.socket

    def socket(person: Person, *args: Any, **options: Any) -> Socket:
        opened.append(open_socket(person, *args, **options))
        return opened[-1]

    monkeypatch.setattr(Person, "socket", socket)
    yield
    for sock in opened:
        sock.close()


def table_with(server: Server, people: dict[int, Person], players: int = 4, baazis: int = 0,
               bots: bool = True, start: bool = True) -> str:
    """A table where ``people`` sit in their seats, the rest bots; returns its id."""
    owner_seat, owner = next(iter(people.items()))
    r = owner.post("/api/tables", {"players": players, "baazis": baazis, "level": "easy", "seat": owner_seat})
    assert r.status_code == 200, r.text
    table_id: str = r.json()["id"]
    for seat, person in list(people.items())[1:]:  # the creator sits as he creates it
        r = person.post(f"/api/tables/{table_id}/sit", {"seat": seat})
        assert r.status_code == 200, r.text
    if bots:
        assert owner.post(f"/api/tables/{table_id}/bots").status_code == 200
    if start:
        assert owner.post(f"/api/tables/{table_id}/start").status_code == 200
    return table_id


def wait_for_turn(sock: Socket, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not sock.my_turn():
        sock.recv(max(0.01, deadline - time.monotonic()))


# -- lobby -----------------------------------------------------------------------------------------------------


def test_guests_tables_codes_and_seats(fresh_server: Server) -> None:
    anon = Person(fresh_server)
    assert anon.http.get("/api/me").status_code == 401
    assert anon.post("/api/tables", {}).json()["code"] == "no_guest"
    assert anon.post("/api/guest", {"name": "<script>"}).status_code == 422
    priya, ravi = Person(fresh_server, "Priya"), Person(fresh_server, "Ravi")
    assert priya.http.get("/api/me").json()["name"] == "Priya"
    table = priya.post("/api/tables", {"players": 4, "rules": "karan", "baazis": 2, "public": True}).json()
    assert table["status"] == "waiting" and table["invite"] == f"/join/{table['code']}"
    assert ravi.http.get(f"/api/join/{table['code'].lower()}").json()["id"] == table["id"]
    assert ravi.http.get("/api/join/NOPE42").status_code == 404
    assert [t["id"] for t in anon.http.get("/api/tables").json()] == [table["id"]]
    tid = table["id"]
    assert priya.post(f"/api/tables/{tid}/sit", {"seat": 0}).status_code == 200
    taken = ravi.post(f"/api/tables/{tid}/sit", {"seat": 0})
    assert taken.status_code == 409 and taken.json()["code"] == "taken"
    other_priya = Person(fresh_server, "priya")
    same_name = other_priya.post(f"/api/tables/{tid}/sit", {"seat": 1})
    assert same_name.status_code == 409 and same_name.json()["code"] == "name_taken"
    assert ravi.post(f"/api/tables/{tid}/sit", {"seat": 2}).status_code == 200
    early = priya.post(f"/api/tables/{tid}/start")
    assert early.status_code == 409 and early.json()["code"] == "seats_empty"
    stranger = Person(fresh_server, "Stranger")
    assert stranger.post(f"/api/tables/{tid}/bots").json()["code"] == "forbidden"
    assert priya.post(f"/api/tables/{tid}/bots").status_code == 200
    started = priya.post(f"/api/tables/{tid}/start").json()
    assert started["status"] == "playing"
    assert [s["bot"] for s in started["seats"]] == [False, True, False, True]
    assert ravi.post(f"/api/tables/{tid}/leave").json()["code"] == "started"
    assert anon.http.get("/api/tables/0123456789abcdef").status_code == 404
    assert anon.http.get("/api/tables/../../etc").status_code == 404
    assert anon.http.get(f"/api/tables/{tid}/record").status_code == 409


def test_play_against_the_computer_in_one_click(server: Server) -> None:
    me = Person(server, "Solo")
    table = me.post("/api/quick", {"players": 2}).json()
    assert table["status"] == "playing" and not table["public"] and table["seats"][0]["name"] == "Solo"
    sock = me.socket(table["id"])
    first = sock.recv()
    assert first["type"] == "snapshot" and first["state"]["you"] == 0
    deal = first["state"]["deal"]
    assert len(deal["hand"]) == deal["hand_sizes"][0]


# -- the protocol ------------------------------------------------------------------------------------------------


def test_stale_duplicate_out_of_turn_and_malformed_messages_change_nothing(server: Server) -> None:
    a, b = Person(server, "Anil"), Person(server, "Bela")
    tid = table_with(server, {0: a, 1: b}, players=2, bots=False)
    sa, sb = a.socket(tid), b.socket(tid)
    sa.recv_until("snapshot")
    sb.recv_until("snapshot")
    mover, waiter = (sa, sb) if sa.state and sa.state["deal"]["to_move"] == 0 else (sb, sa)
    assert mover.my_turn() and not waiter.my_turn()
    version = mover.version

    # Out of turn: refused, nothing changes.
    d = waiter.state["deal"]  # type: ignore[index]
    waiter.send({"type": "bid", "value": 13, "version": version, "id": "x1"})
    err = waiter.recv_until("error")
    assert err["code"] == "not_your_turn" and err["id"] == "x1"
    # Malformed: not JSON, not an object, unknown type, no version, a play that is no play, too big.
    for raw, code in [("{nope", "malformed"), ("[1, 2]", "malformed"), (json.dumps({"type": "dance"}), "malformed"),
                      (json.dumps({"type": "bid", "value": 13}), "malformed"),
                      (json.dumps({"type": "play", "play": {"card": "Zz"}, "version": version}), None),
                      ("x" * 5000, "too_big")]:
        mover.send(raw)
        e = mover.recv_until("error")
        assert code is None or e["code"] == code, e
    assert d is not None
    # Stale: refused with a fresh snapshot.
    mover.send({"type": "bid", "value": mover.state["deal"]["bids"][0], "version": version - 1, "id": "s1"})
    stale = mover.recv_until("error")
    assert stale["code"] == "stale" and stale["version"] == version and stale["state"]["deal"]["bids"]
    assert httpx.get(f"{server.url}/api/tables/{tid}").json()["version"] == version

    # The same message twice: applied once, acknowledged twice with the same version.
    bid = {"type": "bid", "value": mover.state["deal"]["bids"][0], "version": version, "id": "dup-1"}
    mover.send(bid)
    ack = mover.recv_until("ack")
    assert ack == {"type": "ack", "id": "dup-1", "version": version + 1}
    mover.send(bid)
    again = mover.recv_until("ack")
    assert again["version"] == version + 1
    assert httpx.get(f"{server.url}/api/tables/{tid}").json()["version"] == version + 1
    # The same id on another message: refused with a word, not acknowledged as the old one.
    other = {**bid, "value": 99, "version": version + 1} if len(mover.state["deal"]["bids"]) < 2 else {
        **bid, "value": mover.state["deal"]["bids"][1], "version": version + 1}
    mover.send(other)
    reused = mover.recv_until("error")
    assert reused["id"] == "dup-1" and reused["code"] == "id_reused", reused
    assert reused["message"] == (f"the id dup-1 was used for another message (which made version {version + 1}): "
                                 "give each message a new id")
    assert httpx.get(f"{server.url}/api/tables/{tid}").json()["version"] == version + 1
    waiter.recv_until("update", version=version + 1)
    # A play that is not legal: refused.
    mover.drain()
    if mover.my_turn():
        legal = {json.dumps(x["play"], sort_keys=True) for x in mover.state["deal"]["legal"]}
        hand = mover.state["deal"]["hand"]
        illegal = next(({"card": c} for c in hand if json.dumps({"card": c}, sort_keys=True) not in legal), None)
        if illegal is not None:
            mover.send({"type": "play", "play": illegal, "version": mover.version, "id": "bad-1"})
            assert mover.recv_until("error")["code"] in ("illegal", "malformed")


def test_a_spectator_sees_the_floor_and_no_hand_and_cannot_play(server: Server) -> None:
    a = Person(server, "Asha")
    tid = table_with(server, {0: a})
    watcher = Person(server)
    sock = watcher.socket(tid)
    snap = sock.recv_until("snapshot")
    assert snap["state"]["you"] is None and snap["state"]["deal"]["hand"] is None
    assert snap["state"]["can_manage"] is False
    assert a.socket(tid).recv()["state"]["can_manage"] is True
    sock.send({"type": "bid", "value": 13, "version": snap["version"], "id": "w1"})
    assert sock.recv_until("error")["code"] == "not_seated"


def test_a_private_table_is_watched_only_by_its_players_once_started(server: Server) -> None:
    solo = Person(server, "Solo")
    table = solo.post("/api/quick", {}).json()
    assert solo.socket(table["id"]).recv()["type"] == "snapshot"
    nosy = Person(server, "Nosy")
    for code in (None, table["code"]):  # the code opened it to look at the seats; the match is for its players
        assert nosy.refusal(table["id"], code=code) == (1008, "a private table: only its players may watch it")
    assert table["id"] not in [t["id"] for t in httpx.get(f"{server.url}/api/tables").json()]


def test_a_refused_websocket_is_closed_with_the_documented_code_and_reason(server: Server) -> None:
    """Refusals are not a 403 in the handshake (a page sees only "closed abnormally" and retries for ever): the
    connection is accepted and closed at once, with 1008 and a reason, before anything is sent."""
    a = Person(server, "Asha")
    tid = table_with(server, {0: a})
    assert a.refusal(tid, origin="http://evil.example") == (1008, "this page's origin may not connect to this "
                                                                    "server")
    ok = a.socket(tid, origin=server.url)
    assert ok.recv()["type"] == "snapshot"
    assert a.refusal("0123456789abcdef") == (1008, "no such table")
    assert a.refusal("not-a-table-id") == (1008, "no such table")


def test_too_many_messages_are_refused(tmp_path: Path) -> None:
    with running_server(tmp_path, rate=10) as server:
        too_many_messages_are_refused(server)


def too_many_messages_are_refused(server: Server) -> None:
    a = Person(server, "Asha")
    tid = table_with(server, {0: a})
    sock = a.socket(tid)
    sock.recv_until("snapshot")
    for i in range(60):
        sock.send({"type": "ping", "id": f"p{i}"} if i % 2 else {"type": "ping"})
    refused = []
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            m = sock.recv(1)
        except Exception:
            break
        if m["type"] == "error":
            assert m["code"] == "rate"
            refused.append(m["id"])
    assert refused and {i for i in refused if i is not None} <= {f"p{i}" for i in range(1, 60, 2)}
    assert any(i is not None for i in refused) and None in refused  # each answered with its own id, or none


# -- reconnecting, going away, restarting ----------------------------------------------------------------------


def test_a_reconnect_gets_what_it_missed(server: Server) -> None:
    a = Person(server, "Asha")
    tid = table_with(server, {0: a})
    sock = a.socket(tid)
    wait_for_turn(sock)
    sock.move()
    sock.recv_until("ack")
    seen = sock.version
    sock.close()
    time.sleep(0.5)  # the bots play on
    back = a.socket(tid, since=seen)
    m = back.recv()
    assert m["type"] == "resume" and m["since"] == seen
    assert [x["version"] for x in m["missed"]] == list(range(seen + 1, m["version"] + 1))
    fresh = a.socket(tid).recv()
    assert fresh["type"] == "snapshot" and fresh["version"] == m["version"]
    for message in (m, fresh):
        message["state"].pop("seats_present")
        message["state"].pop("timer")  # the seconds left
    assert m["state"] == fresh["state"]
    old = a.socket(tid, since=-5).recv()
    assert old["type"] == "snapshot"


def test_a_bot_plays_for_an_away_person_until_he_returns(tmp_path: Path) -> None:
    with running_server(tmp_path, away_seconds=1.0) as server:
        a = Person(server, "Asha")
        tid = table_with(server, {0: a})
        sock = a.socket(tid)
        wait_for_turn(sock)
        version = sock.version
        time.sleep(2.0)  # connected: nobody plays for Asha
        assert httpx.get(f"{server.url}/api/tables/{tid}").json()["version"] == version
        sock.close()
        deadline = time.monotonic() + 10
        while httpx.get(f"{server.url}/api/tables/{tid}").json()["version"] == version:
            assert time.monotonic() < deadline, "no bot played for the away person"
            time.sleep(0.2)
        back = a.socket(tid)
        back.recv()
        assert back.state is not None and back.state["seats_present"][0] == {"connected": True, "away": False,
                                                                               "idle": False}


def test_a_killed_server_loses_no_acknowledged_play(fresh_server: Server, tmp_path: Path) -> None:
    a, b = Person(fresh_server, "Anil"), Person(fresh_server, "Bela")
    tid = table_with(fresh_server, {0: a, 1: b}, players=2, bots=False)
    socks = [a.socket(tid), b.socket(tid)]
    for s in socks:
        s.recv_until("snapshot")
    acked = 0
    for _ in range(15):
        mover = next(s for s in socks if s.my_turn())
        mover.move()
        acked = mover.recv_until("ack")["version"]
        for s in socks:
            while s.version < acked:
                s.recv()
    before = socks[0].state
    fresh_server.kill()
    fresh_server.start()
    a2 = a.socket(tid)
    snap = a2.recv()
    assert snap["type"] == "snapshot" and snap["version"] == acked
    assert snap["state"]["deal"] == before["deal"]  # type: ignore[index]
    # ...and the match goes on where it was, to the end.
    socks = [a2, b.socket(tid)]
    socks[1].recv()
    while socks[0].state["status"] != "finished":  # type: ignore[index]
        mover = next((s for s in socks if s.my_turn()), None)
        if mover is None:
            for s in socks:
                s.drain(0.05)
            continue
        mover.move()
        made = mover.recv_until("ack")["version"]
        for s in socks:
            while s.version < made:
                s.recv()
    record = httpx.get(f"{fresh_server.url}/api/tables/{tid}/record").json()
    assert record["format"] == "seep-record/1" and len(record["deals"]) == 1


def test_openapi_schema_and_pages(server: Server) -> None:
    schema = httpx.get(f"{server.url}/openapi.json").json()
    assert "/api/tables" in schema["paths"]
    models = schema["components"]["schemas"]
    enum = models["TableIn"]["properties"]["rules"]["enum"]
    assert set(PRESETS) | set(RUMMY_PRESETS) | {None} == set(enum)  # every game's presets, and null: the default
    assert set(models["TableIn"]["properties"]["game"]["enum"]) == {"seep", "rummy"}
    assert "letters of any script" in models["GuestIn"]["properties"]["name"]["description"]
    assert "letters of any script" in json.dumps(models["SitIn"]["properties"]["name"])
    leave = schema["paths"]["/api/tables/{table_id}/leave"]["post"]
    assert "400" in leave["responses"] and "not seated" in leave["description"]
    options = httpx.options(f"{server.url}/api/tables")
    assert options.status_code == 405 and options.headers["allow"] == "GET, POST"
    for page in ("/", "/t/0123456789abcdef", "/join/ABCDEF", "/r/0123456789abcdef"):
        r = httpx.get(server.url + page)
        assert r.status_code == 200 and r.text.lower().startswith("<!doctype html")
    # The table and replay pages draw each game with its own modules (static/{game}/view.js and replay.js).
    for game in models["TableIn"]["properties"]["game"]["enum"]:
        for module in ("view", "replay"):
            r = httpx.get(f"{server.url}/static/{game}/{module}.js")
            assert r.status_code == 200 and "javascript" in r.headers["content-type"], (game, module)
            assert "export function" in r.text


# -- more of the protocol, the limits, and the lobby's corners ---------------------------------------------------


def test_several_seats_and_a_spectator_each_get_their_own_view_of_each_change(server: Server) -> None:
    a, b = Person(server, "Anil"), Person(server, "Bela")
    tid = table_with(server, {0: a, 2: b})  # partners, bots in seats 1 and 3
    sa, sb, sw = a.socket(tid), b.socket(tid), Person(server).socket(tid)
    for sock, seat in ((sa, 0), (sb, 2), (sw, None)):
        first = sock.recv_until("snapshot")
        assert first["state"]["you"] == seat
        hand = first["state"]["deal"]["hand"]
        assert (hand is None) == (seat is None)
    hands = [set(s.state["deal"]["hand"]) for s in (sa, sb)]  # type: ignore[index]
    assert not hands[0] & hands[1]
    mover = next(s for s in (sa, sb) if s.my_turn()) if any(s.my_turn() for s in (sa, sb)) else None
    if mover is None:
        for s in (sa, sb):
            s.drain(0.5)
        mover = next(s for s in (sa, sb) if s.my_turn())
    other = sb if mover is sa else sa
    version = mover.version
    mid = mover.move()
    ack = mover.recv_until("ack")
    assert ack["id"] == mid and ack["version"] == version + 1
    # Everyone hears of the change, as his own view; only the sender is acknowledged.
    for sock in (other, sw):
        update = sock.recv_until("update", version=version + 1)
        assert update["said"]
    assert not any(m["type"] == "ack" for m in other.received + sw.received)
    assert sw.state["deal"]["hand"] is None and sw.state["deal"]["legal"] == []  # type: ignore[index]
    assert other.state["deal"]["legal"] == [] and other.state["deal"]["bids"] == []  # type: ignore[index]
    for sock, seat in ((sa, 0), (sb, 2)):
        assert sock.state["you"] == seat  # type: ignore[index]
        assert len(sock.state["deal"]["hand"]) == sock.state["deal"]["hand_sizes"][seat]  # type: ignore[index]


def test_messages_over_the_limit_get_too_big_and_only_huge_frames_close(server: Server) -> None:
    """Up to the frame limit (256 KiB), a message over 4096 bytes is answered ``too_big`` and the connection
    stays, as the protocol says; a bigger frame closes it with 1009."""
    a = Person(server, "Asha")
    tid = table_with(server, {0: a})
    sock = a.socket(tid)
    sock.recv_until("snapshot")
    for frame in ("x" * 4097, json.dumps({"type": "ping", "pad": "y" * 100_000}), b"z" * 200_000,
                  "é" * 2100):
        sock.ws.send(frame)
        refused = sock.recv_until("error")
        assert refused["code"] == "too_big" and refused["message"] == "a message may be at most 4096 bytes"
    sock.send({"type": "ping"})
    assert sock.recv_until("pong")
    sock.ws.send("x" * (256 * 1024 + 1))
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            sock.recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_binary_frames_and_odd_versions_get_an_error_and_the_connection_stays(server: Server) -> None:
    a = Person(server, "Asha")
    tid = table_with(server, {0: a})
    sock = a.socket(tid)
    sock.recv_until("snapshot")
    version = httpx.get(f"{server.url}/api/tables/{tid}").json()["version"]
    sock.ws.send(b"\x00\x01 not text")
    assert sock.recv_until("error")["code"] == "malformed"
    for bad in ({"type": "play", "version": True}, {"type": "bid", "version": "7"}, {"type": "bid", "version": 1.5},
                {"type": "bid", "value": "13", "version": 0, "id": "v"}, {"type": "play", "id": "x" * 65}):
        sock.send(bad)
        assert sock.recv_until("error")["code"] in ("malformed", "stale", "not_your_turn")
    sock.send({"type": "ping"})
    assert sock.recv_until("pong")["version"] >= version
    # A garbage ?since= is ignored: a snapshot.
    assert a.socket(tid, since=None).recv()["type"] == "snapshot"
    token = a.http.cookies.get("taash_guest")
    from websockets.sync.client import connect
    with connect(f"{server.ws_url}/ws/{tid}?since=abc", additional_headers={"Cookie": f"taash_guest={token}"}) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"


def test_every_http_error_is_one_sentence_with_a_code_and_changes_nothing(server: Server) -> None:
    anil = Person(server, "Anil")
    tid = table_with(server, {0: anil}, bots=False, start=False)
    before = httpx.get(f"{server.url}/api/tables/{tid}").json()
    cases = [
        ("POST", f"/api/tables/{tid}/sit", {"content": b"{not json", "headers": {"content-type": "application/json"}},
         422, "invalid"),
        ("POST", f"/api/tables/{tid}/sit", {"json": {"seat": "two"}}, 422, "invalid"),
        ("POST", f"/api/tables/{tid}/sit", {"json": {"seat": 9}}, 422, "invalid"),
        ("POST", f"/api/tables/{tid}/sit", {"json": {"seat": 1, "name": "<b>x</b>"}}, 422, "invalid"),
        ("POST", "/api/tables", {"json": {"players": 7}}, 422, "invalid"),
        ("POST", "/api/tables", {"json": {"players": 3}}, 400, "bad"),  # Rummy's count, not Seep's
        ("POST", "/api/tables", {"json": {"game": "rummy", "rules": "standard"}}, 400, "bad"),  # Seep's preset
        ("POST", "/api/tables", {"json": {"format": "pool101"}}, 400, "bad"),  # a Rummy format at Seep
        ("POST", "/api/tables", {"json": {"game": "rummy", "format": "pool7"}}, 400, "bad"),
        ("POST", "/api/tables", {"json": {"rules": "nonsense"}}, 400, "bad"),
        ("POST", "/api/tables", {"json": {"baazis": -1}}, 422, "invalid"),
        ("POST", "/api/tables", {"content": b"x" * 20000, "headers": {"content-type": "application/json"}},
         413, "too_big"),
        ("GET", "/api/no-such-thing", {}, 404, "not_found"),
        ("DELETE", "/api/tables", {}, 405, "method_not_allowed"),
        ("GET", "/api/tables/0123456789abcdef/replay", {}, 404, "not_found"),
        ("GET", f"/api/tables/{tid}/replay", {}, 409, "not_finished"),
    ]
    for method, path, kwargs, status, code in cases:
        r = anil.http.request(method, path, **kwargs)
        assert r.status_code == status, (path, kwargs, r.status_code, r.text)
        body = r.json()
        assert set(body) == {"detail", "code"} and body["code"] == code, body
        assert isinstance(body["detail"], str) and "\n" not in body["detail"] and len(body["detail"]) < 300
        assert "Traceback" not in r.text
    assert httpx.get(f"{server.url}/api/tables/{tid}").json() == before
    page = httpx.get(f"{server.url}/t/{tid}")
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"


def test_a_name_taken_at_a_table_may_sit_under_another(server: Server) -> None:
    first, second = Person(server, "Priya"), Person(server, "priya")
    tid = table_with(server, {0: first}, bots=False, start=False)
    taken = second.post(f"/api/tables/{tid}/sit", {"seat": 1})
    assert taken.status_code == 409 and taken.json()["code"] == "name_taken"
    also_taken = second.post(f"/api/tables/{tid}/sit", {"seat": 1, "name": "PRIYA"})
    assert also_taken.json()["code"] == "name_taken"
    ok = second.post(f"/api/tables/{tid}/sit", {"seat": 1, "name": "Priya K"})
    assert ok.status_code == 200 and ok.json()["seats"][1]["name"] == "Priya K"
    assert second.http.get("/api/me").json()["name"] == "priya"  # the guest's own name is unchanged


def test_a_private_table_closes_its_watchers_when_it_starts_before_telling_them_anything(server: Server) -> None:
    owner, friend = Person(server, "Owner"), Person(server, "Friend")
    table = owner.post("/api/tables", {"players": 2, "public": False, "seat": None}).json()
    tid = table["id"]
    assert tid not in [t["id"] for t in httpx.get(f"{server.url}/api/tables").json()]
    curious = Person(server, "Curious").socket(tid, code=table["code"])  # the invite: enough to see the seats
    curious.recv_until("snapshot")
    owner_watching = owner.socket(tid)  # the creator does not sit, but may watch
    owner_watching.recv_until("snapshot")
    assert friend.post(f"/api/tables/{tid}/sit", {"seat": 0, "code": table["code"]}).status_code == 200
    assert owner.post(f"/api/tables/{tid}/bots").status_code == 200
    started = owner.post(f"/api/tables/{tid}/start").json()["version"]
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            curious.recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    # Nothing of the match reached him: not the start's update, not a hand, not the floor.
    assert curious.version < started and all(m.get("state", {}).get("status", "waiting") == "waiting"
                                             for m in curious.received), curious.received
    assert owner_watching.recv_until("update", version=started)["state"]["status"] == "playing"
    assert friend.socket(tid).recv()["state"]["you"] == 0


def test_a_guest_may_not_hold_more_than_ten_unfinished_tables(server: Server) -> None:
    greedy = Person(server, "Greedy")
    for _ in range(10):
        assert greedy.post("/api/tables", {"players": 2}).status_code == 200
    refused = greedy.post("/api/tables", {"players": 2})
    assert refused.status_code == 429 and refused.json()["code"] == "too_many"
    assert greedy.post("/api/quick", {"players": 2}).status_code == 429
    assert Person(server, "Other").post("/api/tables", {"players": 2}).status_code == 200


def outsiders_see_nothing(server: Server, table: dict[str, object], stranger: Person) -> None:
    """Neither a stranger with a name nor anyone without a cookie sees the private table: its details, record
    and replay are refused (403, one line), and the code no longer opens it once the match has started."""
    tid = table["id"]
    for who in (stranger.http, httpx.Client(base_url=server.url)):
        for path in (f"/api/tables/{tid}", f"/api/tables/{tid}/record", f"/api/tables/{tid}/replay",
                     f"/api/join/{table['code']}"):
            r = who.get(path)
            assert r.status_code == 403, (path, r.status_code, r.text)
            assert r.json()["code"] == "forbidden" and "\n" not in r.json()["detail"]
            assert str(table["code"]) not in r.text


def test_a_finished_match_has_a_replay_and_its_table_leaves_memory(fresh_server: Server) -> None:
    me = Person(fresh_server, "Solo")
    table = me.post("/api/quick", {"players": 2, "baazis": 0, "level": "easy"}).json()
    tid = table["id"]
    assert me.http.get(f"/api/tables/{tid}/replay").status_code == 409
    stranger = Person(fresh_server, "Stranger")
    outsiders_see_nothing(fresh_server, table, stranger)  # while it is played
    sock = me.socket(tid)
    sock.recv()
    deadline = time.monotonic() + 60
    while sock.state["status"] != "finished":  # type: ignore[index]
        assert time.monotonic() < deadline
        if sock.my_turn():
            sock.move()
            sock.recv_until("ack")
        else:
            sock.recv()
    sock.close()
    record = me.http.get(f"/api/tables/{tid}/record").json()
    replay = me.http.get(f"/api/tables/{tid}/replay").json()
    assert replay["names"] == record["names"] and len(replay["deals"]) == len(record["deals"]) == 1
    deal, recorded = replay["deals"][0], record["deals"][0]
    assert len(deal["steps"]) == 1 + len(recorded["plays"]) == 49
    assert deal["steps"][0]["said"].endswith(f"bids {recorded['bid']} " + deal["steps"][0]["said"].split()[-1])
    for i, step in enumerate(deal["steps"][1:]):
        assert step["card"] == recorded["plays"][i]["card"]
        assert step["card"] not in {c for hand in step["hands"] for c in hand}
    assert all(not hand for hand in deal["steps"][-1]["hands"])
    assert deal["result"]["score"] == record["scores"]["deals"][0]["score"]
    # Finished and unwatched: out of memory, and still found by id and by invite code.
    deadline = time.monotonic() + 5
    while httpx.get(f"{fresh_server.url}/api/health").json()["tables"] != 0:
        assert time.monotonic() < deadline, "a finished table stays in memory"
        time.sleep(0.1)
    assert me.http.get(f"/api/join/{table['code']}").json()["status"] == "finished"
    assert me.http.get(f"/api/tables/{tid}/replay").status_code == 200
    assert me.http.get(f"/api/tables/{tid}").json()["code"] == table["code"]
    outsiders_see_nothing(fresh_server, table, stranger)  # and once it is over (read again from the database)
    assert stranger.refusal(tid, code=table["code"])[0] == 1008


def test_a_private_table_is_seen_and_sat_at_only_with_its_code(server: Server) -> None:
    owner, friend, stranger = Person(server, "Owner"), Person(server, "Friend"), Person(server, "Stranger")
    table = owner.post("/api/tables", {"players": 4, "public": False}).json()
    tid, code = table["id"], table["code"]
    assert table["invite"] == f"/join/{code}" and owner.http.get(f"/api/tables/{tid}").json()["code"] == code
    # Without the code: nothing to see, no seat to take, no connection.
    for who in (stranger.http, httpx.Client(base_url=server.url)):
        looked = who.get(f"/api/tables/{tid}")
        assert looked.status_code == 403 and code not in looked.text
    for body in ({"seat": 1}, {"seat": 1, "code": "WRONG1"}, {"seat": 1, "code": ""}):
        sat = stranger.post(f"/api/tables/{tid}/sit", body)
        assert sat.status_code == 403 and sat.json()["code"] == "forbidden", sat.text
        assert sat.json()["detail"] == "a private table: sitting at it needs its invite code"
    assert stranger.refusal(tid) == (1008, "a private table: only its players may watch it")
    assert stranger.refusal(tid, code="WRONG1")[0] == 1008
    assert owner.http.get(f"/api/tables/{tid}").json()["version"] == table["version"]  # nothing changed
    # With it (in any case): the seats, a connection, a seat.
    assert friend.http.get(f"/api/join/{code.lower()}").json()["code"] == code
    watching = friend.socket(tid, code=code.lower())
    assert watching.recv_until("snapshot")["state"]["code"] == code
    sat = friend.post(f"/api/tables/{tid}/sit", {"seat": 2, "code": code})
    assert sat.status_code == 200 and sat.json()["seats"][2]["name"] == "Friend"
    assert friend.post(f"/api/tables/{tid}/sit", {"seat": 1}).status_code == 200  # seated: moves without it
    assert friend.http.get(f"/api/tables/{tid}").status_code == 200
    # Once he leaves he is an outsider again: the code is not shown to him any more.
    left = friend.post(f"/api/tables/{tid}/leave")
    assert left.status_code == 200 and left.json()["code"] is None and left.json()["invite"] is None
    assert friend.http.get(f"/api/tables/{tid}").status_code == 403
    # Leaving a table one is not seated at: 400, one line (as the schema says).
    again = friend.post(f"/api/tables/{tid}/leave")
    assert again.status_code == 400 and again.json() == {"detail": "you are not seated here", "code": "bad"}


def test_the_creator_of_a_table_is_seated_at_once(fresh_server: Server) -> None:
    priya = Person(fresh_server, "Priya")
    table = priya.post("/api/tables", {"players": 4}).json()
    assert [s["name"] for s in table["seats"]] == ["Priya", None, None, None]
    assert priya.socket(table["id"]).recv()["state"]["you"] == 0
    second = priya.post("/api/tables", {"players": 2, "seat": 1}).json()
    assert [s["name"] for s in second["seats"]] == [None, "Priya"]
    watching = priya.post("/api/tables", {"players": 2, "seat": None}).json()
    assert all(s["empty"] for s in watching["seats"]) and watching["version"] == 0
    wrong = priya.post("/api/tables", {"players": 2, "seat": 3})
    assert wrong.status_code == 422 and wrong.json()["detail"] == "seat must be from 0 to 1 at a table of 2"
    assert len(httpx.get(f"{fresh_server.url}/api/tables").json()) == 3  # the refused one was not made


def test_the_turn_timer_plays_a_lapsed_turn_and_after_three_in_a_row_a_bot_takes_the_seat(tmp_path: Path) -> None:
    """``--turn-seconds``: a connected person who does not play is played for once his time is up (the state
    tells the deadline); three lapsed turns in a row and a bot plays his seat at once, until he says he is back
    (or plays)."""
    with running_server(tmp_path, bot_delay=0.2, extra=("--turn-seconds", "1", "--extra-seconds", "0")) as server:
        a = Person(server, "Anil")
        tid = table_with(server, {0: a}, players=2, baazis=1)
        sock = a.socket(tid)

        def lapse() -> float:
            """Wait for Anil's turn, do nothing: returns how long until someone played it for him."""
            wait_for_turn(sock)
            timer = sock.state["timer"]  # type: ignore[index]
            assert timer["seat"] == 0 and timer["seconds"] == 1 and 0 <= timer["left"] <= 1, timer
            assert abs(timer["deadline"] - time.time()) < 1.5
            version, began = sock.version, time.monotonic()
            update = sock.recv_until("update", version=version + 1)
            assert update["said"].startswith("Anil"), update["said"]
            return time.monotonic() - began

        def idle() -> bool:
            return bool(sock.state["seats_present"][0]["idle"])  # type: ignore[index]

        assert lapse() > 0.5 and lapse() > 0.5 and not idle()
        wait_for_turn(sock)
        sock.move()  # he plays in time: the run of lapses starts again
        sock.recv_until("ack")
        assert lapse() > 0.5 and lapse() > 0.5 and not idle()
        lapse()
        assert idle()  # three in a row: a bot has his seat, and plays it at once, with no timer shown for him
        while sock.state["deal"]["to_move"] != 0:  # type: ignore[index]
            sock.recv(5)
        assert sock.state["timer"] is None  # type: ignore[index]
        began = time.monotonic()
        assert sock.recv_until("update")["said"].startswith("Anil") and time.monotonic() - began < 0.9
        sock.send({"type": "back", "id": "back-1"})  # "I am back"
        sock.recv_until("ack", id="back-1")
        while idle():
            sock.recv(5)
        wait_for_turn(sock)
        assert sock.state["timer"]["seat"] == 0  # type: ignore[index]
        sock.move()  # his own play, in time
        sock.recv_until("ack")
        spectator = Person(server).socket(tid)
        spectator.recv_until("snapshot")
        spectator.send({"type": "back", "id": "w"})
        assert spectator.recv_until("error")["code"] == "not_seated"


def test_the_turn_timer_is_thirty_seconds_and_sixty_extra_unless_told_and_0_turns_it_off(tmp_path: Path) -> None:
    for extra, seconds in (((), 30), (("--turn-seconds", "0"), None)):
        (tmp_path / str(seconds)).mkdir()
        with running_server(tmp_path / str(seconds), extra=extra) as server:
            a = Person(server, "Anil")
            sock = a.socket(table_with(server, {0: a}, players=2))
            wait_for_turn(sock)
            timer = sock.state["timer"]  # type: ignore[index]
            assert (timer and timer["seconds"]) == seconds and (timer is None or timer["left"] > 20)
            assert timer is None or (timer["extra"] == timer["bank"] == 60 and timer["then"] == "bot")
            assert timer is None or 85 < timer["deadline"] - time.time() <= 90


def test_a_rummy_player_out_of_time_has_the_stock_card_discarded_and_may_never_send_a_timeout(
        tmp_path: Path) -> None:
    """At Rummy a connected person whose turn and extra time run out has the rule book's timeout made for him
    (told as the update's words and in the timer beforehand); a timeout he sends himself is refused and changes
    nothing."""
    with running_server(tmp_path, extra=("--turn-seconds", "0.5", "--extra-seconds", "0.5")) as server:
        a = Person(server, "Anil")
        r = a.post("/api/tables", {"game": "rummy", "players": 2, "format": "pool101", "level": "easy", "seat": 0})
        tid = r.json()["id"]
        assert a.post(f"/api/tables/{tid}/bots").status_code == 200
        assert a.post(f"/api/tables/{tid}/start").status_code == 200
        sock = a.socket(tid)
        sock.recv_until("snapshot")
        deadline = time.monotonic() + 20
        while sock.state["deal"]["to_move"] != 0:  # type: ignore[index]
            sock.recv(max(0.01, deadline - time.monotonic()))
        timer = sock.state["timer"]  # type: ignore[index]
        assert timer["seat"] == 0 and timer["then"] == "timeout" and timer["bank"] == 0.5, timer
        version = sock.version
        sock.send({"type": "timeout", "version": version, "id": "t1"})
        refused = sock.recv_until("error", id="t1")
        assert refused["code"] == "forbidden" and "never a player's" in refused["message"]
        update = sock.recv_until("update", version=version + 1)
        assert update["said"].startswith("Anil ran out of time: "), update["said"]
        assert "taken from the stock and discarded for him" in update["said"]
        turn = update["state"]["deal"]["turns"][-1]
        assert turn["seat"] == 0 and turn["timeout"] is True
        assert update["state"]["deal"]["pile"][-1]["card"] == turn["discard"]


def test_a_person_who_sits_and_never_connects_is_played_for(tmp_path: Path) -> None:
    with running_server(tmp_path, away_seconds=1.0) as server:
        a, b = Person(server, "Anil"), Person(server, "Bela")
        tid = table_with(server, {0: a, 1: b}, players=2, bots=False)
        sock = a.socket(tid)
        first = sock.recv_until("snapshot")
        assert first["state"]["seats_present"][1]["connected"] is False
        deadline = time.monotonic() + 20
        while sock.version < 6:  # Bela never comes: a bot bids and plays for her; Anil plays himself
            assert time.monotonic() < deadline, "nobody played for the absent person"
            if sock.my_turn():
                sock.move()
                sock.recv_until("ack")
            else:
                sock.recv(5)
        assert sock.state["seats_present"][1] == {  # type: ignore[index]
            "connected": False, "away": True, "idle": False}


def test_away_is_told_only_once_a_bot_would_play(tmp_path: Path) -> None:
    with running_server(tmp_path, away_seconds=3.0) as server:
        a, b = Person(server, "Anil"), Person(server, "Bela")
        tid = table_with(server, {0: a, 1: b}, players=2, bots=False)
        sa, sb = a.socket(tid), b.socket(tid)
        sa.recv_until("snapshot")
        sb.recv_until("snapshot")
        sb.close()
        presence = sa.recv_until("presence")
        while presence["seats"][1]["connected"]:
            presence = sa.recv_until("presence")
        assert presence["seats"][1] == {"connected": False, "away": False, "idle": False}


def test_bots_playing_when_the_server_is_killed_lose_nothing_anyone_saw(tmp_path: Path) -> None:
    """Tables of bots play fast while a spectator watches; ``kill -9``: every version the spectator was told of
    is in the database, rebuilt it shows exactly what he saw, and every table goes on after the restart."""
    from taash.web.db import make_engine
    from taash.web.hub import rebuild
    from taash.web.store import Store, StoredTable

    with running_server(tmp_path, bot_delay=0.02) as server:
        tables = []
        for i in range(3):
            owner = Person(server, f"Owner{i}")
            tid = owner.post("/api/tables", {"players": 4, "baazis": 20, "level": "easy", "seat": None}).json()["id"]
            assert owner.post(f"/api/tables/{tid}/bots").status_code == 200
            tables.append((tid, owner))
        watcher = Person(server)
        socks = [watcher.socket(tid) for tid, _ in tables]
        for s in socks:
            s.recv_until("snapshot")
        for tid, owner in tables:
            assert owner.post(f"/api/tables/{tid}/start").status_code == 200
        time.sleep(1.0)  # the bots are playing
        for s in socks:
            s.drain(0.02)
        server.kill()
        for s in socks:
            with contextlib.suppress(ConnectionClosed):
                s.drain(0.05)  # whatever was on its way when the server died
        store = Store(make_engine(server.database_url))
        try:
            for (tid, _), sock in zip(tables, socks, strict=True):
                assert sock.version > 5 and sock.state is not None
                stored = store.table(tid)
                assert stored is not None and len(stored.actions) >= sock.version and stored.deals
                seen = StoredTable(stored.row, [a for a in stored.actions if a.version <= sock.version],
                                   stored.deals)
                state = rebuild(seen).state_for(None)
                told = dict(sock.state)
                for key in ("seats_present", "seats_account", "can_manage", "timer"):
                    told.pop(key)
                assert json.loads(json.dumps(state)) == told
        finally:
            store.close()
        server.start()
        for tid, _ in tables:
            back = watcher.socket(tid)
            snap = back.recv_until("snapshot")
            assert snap["version"] >= dict(zip([t for t, _ in tables], [s.version for s in socks], strict=True))[tid]
            assert snap["state"]["status"] == "playing"
            back.recv_until("update", timeout=10)  # the bots carry on


def test_table_and_connection_counts_and_allowed_origins(tmp_path: Path) -> None:
    extra = ("--max-tables", "2", "--max-connections", "3", "--allowed-origin", "https://cards.example")
    with running_server(tmp_path, extra=extra) as server:
        a, b = Person(server, "Anil"), Person(server, "Bela")
        first = a.post("/api/tables", {"players": 2}).json()["id"]
        assert b.post("/api/tables", {"players": 2}).status_code == 200
        full = b.post("/api/tables", {"players": 2})
        assert full.status_code == 503 and full.json()["code"] == "full"
        socks = [a.socket(first) for _ in range(3)]
        for s in socks:
            s.recv_until("snapshot")
        assert a.refusal(first) == (1013, "the server is full: try again later")

        def close_one(sock: Socket) -> None:
            before = httpx.get(f"{server.url}/api/health").json()["connections"]
            sock.close()
            deadline = time.monotonic() + 5
            while httpx.get(f"{server.url}/api/health").json()["connections"] >= before:
                assert time.monotonic() < deadline
                time.sleep(0.05)

        close_one(socks[0])
        proxied = a.socket(first, origin="https://cards.example")  # named by --allowed-origin
        assert proxied.recv()["type"] == "snapshot"
        close_one(socks[1])
        assert a.refusal(first, origin="https://other.example")[0] == 1008  # room for one more, not from there
        assert a.socket(first, origin=server.url).recv()["type"] == "snapshot"


def test_forged_or_foreign_cookies_are_nobody(server: Server) -> None:
    import base64

    from itsdangerous import URLSafeSerializer

    a = Person(server, "Anil")
    tid = table_with(server, {0: a})
    real = a.http.cookies["taash_guest"]
    guest_id = a.http.get("/api/me").json()["id"]
    unsigned = base64.urlsafe_b64encode(json.dumps(guest_id).encode()).decode().rstrip("=")
    foreign = URLSafeSerializer("not the server's key", salt="guest").dumps(guest_id)
    for token in (unsigned, foreign, real[:-2] + ("AA" if not real.endswith("AA") else "BB"), guest_id):
        r = httpx.get(f"{server.url}/api/me", cookies={"taash_guest": token})
        assert r.status_code == 401 and r.json()["code"] == "no_guest"
        assert httpx.post(f"{server.url}/api/tables/{tid}/leave", cookies={"taash_guest": token}).status_code == 401
        from websockets.sync.client import connect
        with connect(f"{server.ws_url}/ws/{tid}", additional_headers={"Cookie": f"taash_guest={token}"}) as ws:
            first = json.loads(ws.recv(timeout=10))
            assert first["state"]["you"] is None and first["state"]["deal"]["hand"] is None


def test_a_body_sent_in_chunks_over_the_limit_is_refused(server: Server) -> None:
    import http.client
    from urllib.parse import urlsplit

    where = urlsplit(server.url)
    connection = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port)
    connection.putrequest("POST", "/api/guest")
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Transfer-Encoding", "chunked")
    connection.endheaders()
    chunk = b'{"name": "' + b"x" * 30000 + b'"}'
    connection.send(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n0\r\n\r\n")
    response = connection.getresponse()
    assert response.status == 413 and json.loads(response.read())["code"] == "too_big"


def test_names_in_indian_scripts_are_welcome_and_odd_ones_refused(server: Server) -> None:
    for name in ("प्रिया", "ਗੁਰਪ੍ਰੀਤ", "சுரேஷ்", "José", "Anne-Marie O'Neil", "R. K. Laxman"):
        r = httpx.post(f"{server.url}/api/guest", json={"name": name})
        assert r.status_code == 200 and r.json()["name"] == name, (name, r.text)
    assert httpx.post(f"{server.url}/api/guest", json={"name": "  Ravi   Kumar "}).json()["name"] == "Ravi Kumar"
    for name in ("<script>", "a\u200bb", "Asha (bot)", "", "   ", "x" * 25, "emoji 🂡"):
        r = httpx.post(f"{server.url}/api/guest", json={"name": name})
        assert r.status_code == 422 and r.json()["code"] == "invalid", (name, r.text)
    # The same name written with a combining accent is the same name at a table.
    composed, decomposed = Person(server, "José"), Person(server, "Jose\u0301")
    tid = table_with(server, {0: composed}, bots=False, start=False)
    assert decomposed.post(f"/api/tables/{tid}/sit", {"seat": 1}).json()["code"] == "name_taken"


def test_the_guest_cookie_is_http_only_and_secure_when_asked(tmp_path: Path) -> None:
    for extra, secure in (((), False), (("--secure-cookies",), True)):
        (tmp_path / str(secure)).mkdir()
        with running_server(tmp_path / str(secure), extra=extra) as server:
            r = httpx.post(f"{server.url}/api/guest", json={"name": "Anil"})
            cookie = r.headers["set-cookie"].lower()
            assert "httponly" in cookie and "samesite=lax" in cookie
            assert ("; secure" in cookie) is secure


def test_guessing_invite_codes_is_made_slow(fresh_server: Server) -> None:
    owner = Person(fresh_server, "Owner")
    code = owner.post("/api/tables", {"players": 2, "public": False}).json()["code"]
    guesser = httpx.Client(base_url=fresh_server.url)
    statuses = [guesser.get(f"/api/join/ZZ{i:04d}").status_code for i in range(25)]
    assert statuses[:20] == [404] * 20 and statuses[-1] == 429
    blocked = guesser.get(f"/api/join/{code}")  # even the right code, while the guesser must wait
    assert blocked.status_code == 429 and blocked.json()["code"] == "too_many"
    time.sleep(1.2)
    assert guesser.get(f"/api/join/{code}").status_code == 200


def test_guessing_a_private_tables_code_by_sitting_or_connecting_is_made_slow(fresh_server: Server) -> None:
    owner, guesser = Person(fresh_server, "Owner"), Person(fresh_server, "Guesser")
    table = owner.post("/api/tables", {"players": 2, "public": False}).json()
    tid = table["id"]
    statuses = [guesser.post(f"/api/tables/{tid}/sit", {"seat": 1, "code": f"ZZ{i:04d}"}).status_code
                for i in range(21)]
    assert statuses == [403] * 20 + [429]
    blocked = guesser.post(f"/api/tables/{tid}/sit", {"seat": 1, "code": table["code"]})
    assert blocked.status_code == 429 and blocked.json()["code"] == "too_many"  # even the right code, for now
    assert guesser.refusal(tid, code=table["code"]) == (1008, "too many wrong codes: wait a little and check the "
                                                              "code")
    time.sleep(1.2)
    assert guesser.post(f"/api/tables/{tid}/sit", {"seat": 1, "code": table["code"]}).status_code == 200


def test_one_address_may_make_only_so_many_guests_and_tables_a_minute(tmp_path: Path) -> None:
    with running_server(tmp_path, creations=10) as server:  # 10 at once, then one every 6 seconds
        http = httpx.Client(base_url=server.url)
        made = [http.post("/api/guest", json={"name": f"Guest {i}"}) for i in range(9)]
        assert [r.status_code for r in made] == [200] * 9
        table = http.post("/api/tables", json={"players": 2, "public": True})
        assert table.status_code == 200  # the 10th creation: guests and tables count together
        for path, body in (("/api/guest", {"name": "One more"}), ("/api/tables", {"players": 2}),
                           ("/api/quick", {"players": 2})):
            refused = http.post(path, json=body)
            assert refused.status_code == 429, path
            error = refused.json()
            assert error["code"] == "too_many" and "\n" not in error["detail"] and "a minute" in error["detail"]
        # Nothing was made by the refused requests: the lobby shows the one table.
        assert [t["id"] for t in http.get("/api/tables").json()] == [table.json()["id"]]
        time.sleep(6.2)  # 10 a minute: one more after 6 seconds
        assert http.post("/api/guest", json={"name": "Later"}).status_code == 200


def test_serve_refuses_a_bad_creation_limit(tmp_path: Path) -> None:
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "taash.cli.main", "serve", "--creations", "0"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "--creations" in proc.stderr
