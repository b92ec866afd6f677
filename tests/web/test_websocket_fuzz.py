"""The table websocket fuzzed with hypothesis: whatever frame a connection sends, it gets exactly one answer (an
error, an acknowledgement or a pong), the connection stays open, and the table changes only by what was
acknowledged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.server import TLS, Person, Socket, running_server

JSONS = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)
CARDS = st.sampled_from([r + s for r in "A23456789TJQK" for s in "shdc"] + ["Zz", "", "10h", "ks"])
PLAYS = st.one_of(
    JSONS,
    st.fixed_dictionaries({"card": CARDS}),
    st.fixed_dictionaries({"card": CARDS, "capture": st.lists(CARDS, max_size=4)}),
    st.fixed_dictionaries({"card": CARDS, "house": st.integers(0, 15) | JSONS,
                           "loose": st.lists(CARDS, max_size=3) | JSONS}),
    st.fixed_dictionaries({"card": CARDS, "house": st.integers(8, 14), "break": st.integers(8, 14) | JSONS}),
)
ANSWERS = {"error", "ack", "pong"}


def messages(version: int) -> st.SearchStrategy[Any]:
    versions = st.sampled_from([version, version - 1, version + 1, 0, -1, 2**70]) | JSONS
    ids = st.none() | st.text(min_size=0, max_size=70) | st.integers()
    body = st.fixed_dictionaries(
        {"type": st.sampled_from(["bid", "play", "ping", "dance", "", "BID"]) | JSONS},
        optional={"version": versions, "id": ids, "value": st.integers(0, 20) | JSONS, "play": PLAYS,
                  "extra": JSONS})
    return st.one_of(body.map(json.dumps), JSONS.map(json.dumps), st.text(max_size=40),
                     st.binary(max_size=40), st.just("x" * 5000))


def answer(sock: Socket) -> dict[str, Any]:
    while True:
        m = sock.recv(10)
        if m["type"] in ANSWERS:
            return m


def test_no_frame_breaks_a_table_or_changes_it_unacknowledged(tmp_path: Path) -> None:
    # No turn timer: on a loaded machine the examples outlast a turn's 30 s, and the seat to move was played for.
    with running_server(tmp_path, extra=("--turn-seconds", "0")) as server:
        a, b = Person(server, "Anil"), Person(server, "Bela")
        tid = a.post("/api/tables", {"players": 2, "baazis": 0}).json()["id"]  # Anil sits in seat 0
        assert b.post(f"/api/tables/{tid}/sit", {"seat": 1}).status_code == 200
        assert a.post(f"/api/tables/{tid}/start").status_code == 200
        socks = [a.socket(tid), b.socket(tid)]
        for s in socks:
            s.recv_until("snapshot")
        acked: list[int] = []
        counts = {"error": 0, "ack": 0, "pong": 0}
        http = httpx.Client(base_url=server.url, verify=TLS)  # one connection for the examples' many reads

        @given(data=st.data())
        @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
        def one_frame(data: st.DataObject) -> None:
            version = http.get(f"/api/tables/{tid}").json()["version"]
            sock = next((s for s in socks if s.my_turn()), socks[0])
            frame = data.draw(messages(version))
            sock.ws.send(frame)
            reply = answer(sock)
            counts[reply["type"]] += 1
            now = http.get(f"/api/tables/{tid}").json()["version"]
            if reply["type"] == "ack":
                acked.append(reply["version"])
                assert now == version + 1 or reply["version"] <= version  # a repeated id: applied once
            else:
                assert now == version, (frame, reply)
                assert reply["type"] == "pong" or isinstance(reply["message"], str)
            for s in socks:
                s.drain(0.01)

        one_frame()
        final = http.get(f"/api/tables/{tid}").json()["version"]
        http.close()
        assert final == 3 + len(set(acked))  # sit, sit, start, then only what was acknowledged
        assert counts["error"] > 100
        for s in socks:  # still open and answering
            s.send({"type": "ping"})
            assert answer(s)["type"] == "pong"
