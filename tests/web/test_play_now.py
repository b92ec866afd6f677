"""Play now over a running server's websocket: two people meet at one table, bad settings and short wallets are
refused in one line and queue nothing, a closed page leaves the queue, and a guest without a name is refused."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.web.server import Person, Server, running_server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running_server(tmp_path, extra=("--starting-chips", "1000")) as s:
        yield s


class Queue:
    """One page's Play now connection."""

    def __init__(self, person: Person):
        token = person.http.cookies.get("taash_guest")
        headers = {"Cookie": f"taash_guest={token}"} if token else {}
        connection = connect(f"{person.server.ws_url}/ws/play-now", additional_headers=headers, open_timeout=10)
        self.ws: ClientConnection = connection.__enter__()  # closed by close() (or when the server goes)

    def press(self, **settings: Any) -> None:
        self.ws.send(json.dumps({"type": "play_now", **settings}))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        return message

    def until(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            m = self.recv(max(0.01, deadline - time.monotonic()))
            if m["type"] == kind:
                return m
            assert m["type"] != "error", m

    def close(self) -> None:
        self.ws.close()


def waiting(server: Server) -> int:
    """How many people the server's Play now queue holds."""
    count: int = httpx.get(f"{server.url}/api/health").json()["play_now"]
    return count


def test_two_people_pressing_play_now_with_the_same_settings_land_at_one_table(server: Server) -> None:
    # Accounts from two addresses: people who may play each other for chips.
    anil = Person(server, "Anil", account=True, address="127.0.0.2")
    bela = Person(server, "Bela", account=True, address="127.0.0.3")
    first, second = Queue(anil), Queue(bela)
    settings = {"game": "rummy", "players": 2, "rules": "octro", "format": "deals2", "stake": 10, "wait": 60}
    first.press(**settings)
    told = first.until("waiting")
    assert told["waiting"] == 1 and told["players"] == 2 and told["wait"] == 60
    assert 50 < told["bots_at"] - time.time() <= 60.5  # the server's clock read a moment before
    second.press(**settings)
    table = first.until("matched")
    assert second.until("matched")["table"] == table["table"] and table["url"] == f"/t/{table['table']}"
    with pytest.raises(ConnectionClosed):
        first.recv(5)  # matched: the server closes the queue's connection
    seen = anil.http.get(f"/api/tables/{table['table']}").json()
    assert seen["status"] == "playing" and seen["public"] and seen["format"] == "deals2" and seen["stake"] == 10
    assert [s["name"] for s in seen["seats"]] == ["Anil", "Bela"]
    wallet = anil.http.get("/api/chips").json()  # 10 held; below the floor, today's bonus is paid on the way
    assert wallet["balance"] - wallet["bonus_today"] == 990
    assert waiting(server) == 0


def test_two_guests_of_one_name_land_at_one_table_without_stakes_as_two_names(server: Server) -> None:
    first, second = Queue(Person(server, "Ravi")), Queue(Person(server, "Ravi"))  # the second is "Ravi 2"
    first.press(players=2, wait=60)
    first.until("waiting")
    second.press(players=2, wait=60)
    table = first.until("matched")
    assert second.until("matched")["table"] == table["table"]
    seen = httpx.get(f"{server.url}/api/tables/{table['table']}").json()
    assert [s["name"] for s in seen["seats"]] == ["Ravi", "Ravi 2"] and seen["stake"] == 0


REFUSED = [
    ({"wait": 7}, "bad", "wait must be one of 0, 15, 30, 60, 120 seconds"),
    ({"game": "chess"}, "invalid", "game"),
    ({"players": 3}, "bad", "players"),
    ({"format": "points"}, "bad", "Seep takes no format"),
    ({"game": "rummy", "format": "pool7"}, "bad", "format"),
    ({"stake": -1}, "invalid", "stake"),
    ({"players": "2"}, "invalid", "players"),
    ({"level": "godlike"}, "invalid", "level"),
    ({"players": 2, "baazis": 0, "stake": 11}, "short", "not enough chips: this match holds 1,100 chips"),
]


def test_bad_settings_and_short_wallets_are_refused_in_one_line_and_queue_nothing(server: Server) -> None:
    guest = Queue(Person(server, "Guest"))
    guest.press(players=2, baazis=0, stake=1)
    refused = guest.recv()
    assert refused["code"] == "account_needed" and refused["message"].startswith("playing for chips needs an account")
    assert waiting(server) == 0
    queue = Queue(Person(server, "Anil", account=True))
    for settings, code, says in REFUSED:
        queue.press(**settings)
        refused = queue.recv()
        assert refused["type"] == "error" and refused["code"] == code, (settings, refused)
        assert says in refused["message"] and "\n" not in refused["message"] and len(refused["message"]) <= 300
        assert waiting(server) == 0
    queue.press(players=2, wait=120)  # the connection stays: pressing again with good settings queues him
    assert queue.until("waiting")["waiting"] == 1 and waiting(server) == 1
    queue.press(players=2, wait=-5)  # a bad press replaces nothing: he is still waiting
    assert queue.recv()["code"] == "bad" and waiting(server) == 1


def test_a_closed_page_leaves_the_queue_and_cancel_leaves_it_too(server: Server) -> None:
    anil, bela = Person(server, "Anil"), Person(server, "Bela")
    gone = Queue(anil)
    gone.press(players=2, wait=120)
    gone.until("waiting")
    gone.close()
    deadline = time.monotonic() + 5
    while waiting(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert waiting(server) == 0
    stays = Queue(bela)
    stays.press(players=2, wait=120)
    assert stays.until("waiting")["waiting"] == 1  # alone: anil is not waiting any more
    stays.ws.send(json.dumps({"type": "cancel"}))
    assert stays.until("cancelled") == {"type": "cancelled"} and waiting(server) == 0
    stays.ws.send(json.dumps({"type": "ping"}))
    assert stays.recv() == {"type": "pong"}
    stays.ws.send("[1]")
    assert stays.recv()["code"] == "malformed"


def test_a_guest_without_a_name_is_refused(server: Server) -> None:
    queue = Queue(Person(server))
    with pytest.raises(ConnectionClosed) as closed:
        queue.recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    assert closed.value.rcvd.reason == "choose a name first"


def test_presses_count_as_tables_made_from_the_address(tmp_path: Path) -> None:
    with running_server(tmp_path, creations=3) as server:
        queue = Queue(Person(server, "Anil"))  # the guest is one of the 3
        for wait in (120, 60):
            queue.press(players=2, wait=wait)
            assert queue.until("waiting")["wait"] == wait
        queue.press(players=2, wait=30)
        refused = queue.recv()
        assert refused["code"] == "too_many" and "a minute from one address" in refused["message"]
        assert waiting(server) == 1  # his place (the last one taken) is kept
