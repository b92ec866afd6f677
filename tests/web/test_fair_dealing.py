"""Fair dealing over the wire: a table publishes its commitment from its making and the players' seeds, tells
nobody its secret before the match is over, and once it is, its record reveals the secret and
``/api/tables/{id}/verify`` checks every deal (SQLite, and PostgreSQL when ``TAASH_TEST_POSTGRES_URL`` is set)."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.server import Person, Server, running_server, until_finished
from tests.web.test_server import DATABASES


@pytest.fixture(params=DATABASES)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    with running_server(tmp_path, request.param) as s:
        yield s


def test_a_match_played_over_the_websocket_keeps_its_secret_until_the_end_then_verifies(server: Server) -> None:
    me = Person(server, "Solo")
    refused = me.post("/api/quick", {"players": 2, "baazis": 0, "level": "easy", "seed": "not|a|seed"})
    assert refused.status_code == 400 and refused.json()["detail"].startswith("a seed is")
    table = me.post("/api/quick", {"players": 2, "baazis": 0, "level": "easy", "seed": "my-seed-42"}).json()
    tid = table["id"]
    early = me.http.get(f"/api/tables/{tid}/verify")
    assert early.status_code == 409 and early.json()["code"] == "not_finished"
    sock = me.socket(tid)
    sock.recv()
    assert sock.state is not None
    published = sock.state["fairness"]
    assert published["algorithm"] == "taash-fair/1" and published["match"] == tid
    assert published["seeds"] == {"0": "my-seed-42"} and "secret" not in published
    stall = time.monotonic() + 60  # a minute without a move of ours: stalled
    while sock.state["status"] != "finished":
        assert time.monotonic() < stall
        if sock.my_turn():
            sock.move()
            sock.recv_until("ack")
            stall = time.monotonic() + 60
        else:
            sock.recv()
    sock.close()
    record = me.http.get(f"/api/tables/{tid}/record").json()
    secret = record["fairness"]["secret"]
    assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == published["commitment"]
    assert all(secret not in text for text in sock.raw)  # not even in the last state, nor in any before
    verdict = me.http.get(f"/api/tables/{tid}/verify").json()
    assert verdict["ok"] is True and len(verdict["deals"]) == 1
    assert verdict["deals"][0].startswith("Deal 1: ") and "secret" not in verdict["fairness"]


def test_a_rummy_match_of_bots_verifies_after_a_restart_from_the_database(server: Server) -> None:
    owner = Person(server, "Host")
    table = owner.post("/api/tables", {"game": "rummy", "players": 3, "format": "deals2", "level": "easy",
                                       "seat": None}).json()
    tid = table["id"]
    assert owner.post(f"/api/tables/{tid}/bots").status_code == 200
    assert owner.post(f"/api/tables/{tid}/start").status_code == 200
    until_finished(owner.http, tid)
    server.kill()  # started again, the server reads the finished table, its secret included, from the database
    server.start()
    assert httpx.get(f"{server.url}/api/health").json()["tables"] == 0
    verdict = owner.http.get(f"/api/tables/{tid}/verify").json()
    record = owner.http.get(f"/api/tables/{tid}/record").json()
    assert verdict["ok"] is True and len(verdict["deals"]) == len(record["deals"]) >= 2
    assert verdict["fairness"]["commitment"] == record["fairness"]["commitment"]
    assert record["fairness"]["seeds"] == {}
