"""What players use besides a table, across three servers sharing PostgreSQL and Redis behind HAProxy (the cluster
of :mod:`tests.web.test_cluster`): the lobby's list, Play now, the chat, friends' presence and tournaments. Each
test reaches the servers directly (``at(cluster, i)``) so that people on different servers meet; with each server's
state kept per process (the code before these were shared), every one of them fails."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from taash.web.cluster import Cluster
from tests.web import test_cluster
from tests.web.server import Person
from tests.web.test_chat_server import chat_lines, say
from tests.web.test_cluster import at, owner_of

pytestmark = test_cluster.pytestmark
#: Three servers, Redis, PostgreSQL and HAProxy, started for this module as for test_cluster's.
redis = test_cluster.redis
cluster = test_cluster.cluster
SECONDS = 10.0


def eventually(check: Callable[[], Any], seconds: float = SECONDS) -> Any:
    """``check()`` once it is true (servers share what they hold every second), or fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not (found := check()):
        assert time.monotonic() < deadline, "not shared in time"
        time.sleep(0.1)
    return found


def on(person: Person, cluster: Cluster, index: int) -> Person:
    """The same person (his cookie) talking to server ``index``."""
    other = Person(at(cluster, index))
    other.http.cookies.update(person.http.cookies)
    other.name = person.name
    return other


def listed(person: Person) -> set[str]:
    r = person.http.get("/api/tables")
    assert r.status_code == 200, r.text
    return {t["id"] for t in r.json()}


def two_at_a_started_table(cluster: Cluster) -> tuple[Person, Person, str]:
    """Asha on s1 and Bela on s2 at a public Seep table of two that s1 owns, started."""
    asha = Person(at(cluster, 0), "Asha")
    table_id = asha.post("/api/tables", {"game": "seep", "players": 2, "baazis": 0, "seat": 0,
                                          "public": True}).json()["id"]
    bela = Person(at(cluster, 1), "Bela")
    assert bela.post(f"/api/tables/{table_id}/sit", {"seat": 1}).status_code == 200
    assert asha.post(f"/api/tables/{table_id}/start").status_code == 200
    return asha, bela, table_id


def test_a_table_made_on_one_server_is_listed_and_joinable_on_every_other(cluster: Cluster) -> None:
    asha = Person(at(cluster, 0), "Asha")
    made = asha.post("/api/tables", {"game": "seep", "players": 2, "baazis": 0, "seat": 0, "public": True})
    assert made.status_code == 200, made.text
    table_id = made.json()["id"]
    hidden = asha.post("/api/tables", {"game": "seep", "players": 2, "baazis": 0, "seat": 0, "public": False})
    assert owner_of(cluster, table_id) == "s1"
    bela = Person(at(cluster, 2), "Bela")
    for index in (1, 2, None):  # each other server, and through the proxy
        seen = Person(at(cluster, index), "Watcher")
        assert table_id in eventually(lambda p=seen: listed(p) if table_id in listed(p) else None)
        assert hidden.json()["id"] not in listed(seen)  # a private table is never listed
    sat = bela.post(f"/api/tables/{table_id}/sit", {"seat": 1})  # on s3, relayed to its owner
    assert sat.status_code == 200, sat.text
    eventually(lambda: [t for t in Person(at(cluster, 1)).http.get("/api/tables").json()
                        if t["id"] == table_id and [s["name"] for s in t["seats"]] == ["Asha", "Bela"]])
    once = Person(at(cluster, 1)).http.get("/api/tables").json()
    assert [t["id"] for t in once].count(table_id) == 1


class Queue:
    """One page's Play now connection, to one server."""

    def __init__(self, person: Person):
        token = person.http.cookies.get("taash_guest")
        self.ws = connect(f"{person.server.ws_url}/ws/play-now", additional_headers={"Cookie": f"taash_guest={token}"},
                          open_timeout=10).__enter__()

    def until(self, kind: str, timeout: float = 15) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            m: dict[str, Any] = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            if m["type"] == kind:
                return m
            assert m["type"] != "error", m


def test_play_now_pairs_people_who_arrive_on_different_servers(cluster: Cluster) -> None:
    settings = {"type": "play_now", "game": "seep", "players": 2, "baazis": 0, "wait": 120}
    anil, bela = Person(at(cluster, 0), "Anil"), Person(at(cluster, 2), "Bela")
    first, second = Queue(anil), Queue(bela)
    first.ws.send(json.dumps(settings))
    assert first.until("waiting")["waiting"] == 1
    second.ws.send(json.dumps(settings))
    matched = first.until("matched")
    assert second.until("matched")["table"] == matched["table"]  # well before the 120 seconds' bots
    table = Person(at(cluster, 1)).http.get(f"/api/tables/{matched['table']}").json()
    assert table["status"] == "playing" and [s["name"] for s in table["seats"]] == ["Anil", "Bela"]
    owner = owner_of(cluster, matched["table"])
    assert owner is not None  # one server made the match and owns its table
    again = Queue(Person(at(cluster, 1), "Chetan"))  # the queue is empty again, everywhere
    again.ws.send(json.dumps(settings))
    assert again.until("waiting")["waiting"] == 1
    again.ws.send(json.dumps({"type": "cancel"}))
    assert again.until("cancelled")


def test_a_chat_line_reaches_players_and_watchers_on_every_server_once(cluster: Cluster) -> None:
    asha, bela, table_id = two_at_a_started_table(cluster)
    a, b = asha.socket(table_id), bela.socket(table_id)  # the owner's own, and one bridged from s2
    w1, w3 = Person(at(cluster, 0), "Wu").socket(table_id), Person(at(cluster, 2), "Xi").socket(table_id)
    for sock in (a, b, w1, w3):
        sock.drain()
    assert say(b, text="hello from s2")["type"] == "ack"
    heard = chat_lines(a)
    assert [(m["name"], m["channel"], m["text"]) for m in heard] == [("Bela", "players", "hello from s2")]
    assert chat_lines(b) == heard  # once, on both servers
    assert chat_lines(w1) == [] and chat_lines(w3) == []  # the watchers do not hear the players
    assert say(w3, emote="wow")["type"] == "ack"
    assert [m["name"] for m in chat_lines(w1)] == ["Xi"] and [m["name"] for m in chat_lines(w3)] == ["Xi"]
    assert chat_lines(a) == [] and chat_lines(b) == []
    b_near = on(bela, cluster, 0).socket(table_id)  # the same person on another server: one rate
    b_near.drain()
    answers = [say(b if i % 2 else b_near, text=f"line {i}")["type"] for i in range(5)]
    assert answers == ["ack"] * 4 + ["error"]  # 5 lines in 10 seconds, counted across both servers


def test_a_socket_bridged_from_another_server_is_welcomed_as_the_owners_own(cluster: Cluster) -> None:
    """The recent chat lines are sent to a connection bridged from another server, as to a websocket of the
    owner's own (they were sent to the owner's alone)."""
    asha, bela, table_id = two_at_a_started_table(cluster)
    a = asha.socket(table_id)
    a.drain()
    assert say(a, text="hello everyone")["type"] == "ack"
    bridged = bela.socket(table_id)  # s2's websocket, the table on s1
    assert [m["text"] for m in bridged.recv_until("chat_history")["lines"]] == ["hello everyone"]
    near = on(bela, cluster, 0).socket(table_id)  # the same person on the owner: told the same
    assert [m["text"] for m in near.recv_until("chat_history")["lines"]] == ["hello everyone"]


def test_friends_see_each_other_online_and_where_they_play_across_servers(cluster: Cluster) -> None:
    suffix = str(int(time.time() * 1000) % 10**6)
    dev = Person(at(cluster, 0), f"Dev{suffix}", account=True, address="127.0.0.2")
    esha = Person(at(cluster, 1), f"Esha{suffix}", account=True, address="127.0.0.3")
    assert dev.post("/api/friends", {"name": esha.name}).status_code == 200
    assert on(esha, cluster, 2).post("/api/friends/answer", {"name": dev.name, "accept": True}).status_code == 200

    def friend_of(person: Person) -> dict[str, Any]:
        found: dict[str, Any] = person.http.get("/api/friends").json()["friends"][0]
        return found

    assert dev.http.get("/api/friends").status_code == 200  # Dev's lobby on s1 asks: he is online
    assert eventually(lambda: friend_of(esha)["online"])  # as Esha's server, s2, sees
    table_id = on(dev, cluster, 2).post("/api/tables", {"game": "seep", "players": 2, "baazis": 0, "seat": 0,
                                                         "public": True}).json()["id"]
    assert owner_of(cluster, table_id) == "s3"
    seen = eventually(lambda: (f := friend_of(esha))["table"] == table_id and f)
    assert seen["playing"] and seen["game"] == "seep"


def test_a_tournament_made_through_one_server_is_joined_through_others_and_played_to_its_end(
        cluster: Cluster) -> None:
    people = [Person(at(cluster, i), name) for i, name in enumerate(("Gita", "Hari", "Indu"))]
    made = people[0].post("/api/tournaments", {"name": "Shared knockout", "game": "seep", "players": 2, "baazis": 0,
                                              "capacity": 4})
    assert made.status_code == 200, made.text
    path = f"/api/tournaments/{made.json()['id']}"
    for index in (1, 2):
        assert made.json()["id"] in {t["id"] for t in at_listing(cluster, index)}
    for person in people:
        r = person.post(f"{path}/register")
        assert r.status_code == 200, r.text
    fourth = Person(at(cluster, 1), "Jai")
    assert fourth.post(f"{path}/register").status_code == 200  # full: it starts
    deadline = time.monotonic() + 180
    while (found := fourth.http.get(path).json())["status"] != "finished":
        assert time.monotonic() < deadline, found["status"]
        time.sleep(0.3)
    assert [m["round"] for m in found["matches"]] == [1, 1, 2]  # each match made once, by one director
    tables = [m["table"] for m in found["matches"]]
    assert len(set(tables)) == 3 and all(tables)
    assert [s["place"] for s in found["standings"]] == [1, 2, 3, 3]


def at_listing(cluster: Cluster, index: int) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = Person(at(cluster, index)).http.get("/api/tournaments").json()
    return found



def befriended(cluster: Cluster, first: str, second: str) -> tuple[Person, Person]:
    """Two accounts, friends, the first on s1 and the second on s2."""
    suffix = str(int(time.time() * 1000) % 10**6)
    a = Person(at(cluster, 0), f"{first}{suffix}", account=True, address="127.0.0.4")
    b = Person(at(cluster, 1), f"{second}{suffix}", account=True, address="127.0.0.5")
    assert a.post("/api/friends", {"name": b.name}).status_code == 200
    assert b.post("/api/friends/answer", {"name": a.name, "accept": True}).status_code == 200
    return a, b


def test_an_invitation_made_on_one_server_is_seen_and_accepted_on_others(cluster: Cluster) -> None:
    kiran, lata = befriended(cluster, "Kiran", "Lata")
    table_id = kiran.post("/api/tables", {"game": "seep", "players": 2, "baazis": 0, "seat": 0,
                                          "public": False}).json()["id"]
    assert eventually(lambda: on(kiran, cluster, 1).http.get("/api/friends").json()["my_table"] == table_id)
    r = kiran.post("/api/friends/invite", {"name": lata.name, "table": table_id})
    assert r.status_code == 204, r.text
    invites = eventually(lambda: lata.http.get("/api/friends").json()["invites"])  # on s2
    assert [(i["table"], i["by"]["name"]) for i in invites] == [(table_id, kiran.name)]
    assert invites[0]["code"]  # a private table's code, for the person invited
    far = on(lata, cluster, 2)
    assert [i["table"] for i in far.http.get("/api/friends").json()["invites"]] == [table_id]  # s3 has it too
    accepted = far.post(f"/api/invites/{table_id}/accept")  # on s3; the table is s1's
    assert accepted.status_code == 200, accepted.text
    assert [s["name"] for s in accepted.json()["seats"]] == [kiran.name, lata.name]
    assert eventually(lambda: lata.http.get("/api/friends").json()["invites"] == [])  # used up everywhere


def test_my_table_made_without_a_seat_on_one_server_is_my_table_on_the_others(cluster: Cluster) -> None:
    """The creator of a table who does not sit at it (yet) invites friends to it from the lobby of any server
    (before: only the owner's own lobby knew it, as the other servers heard only of seated people)."""
    mohan, nita = befriended(cluster, "Mohan", "Nita")
    made = mohan.post("/api/tables", {"game": "seep", "players": 2, "baazis": 0, "seat": None, "public": False})
    assert made.status_code == 200, made.text
    table_id = made.json()["id"]
    assert mohan.http.get("/api/friends").json()["my_table"] == table_id  # s1, its owner
    assert eventually(lambda: on(mohan, cluster, 1).http.get("/api/friends").json()["my_table"] == table_id)
    assert eventually(lambda: on(mohan, cluster, 2).http.get("/api/friends").json()["my_table"] == table_id)
    invited = on(mohan, cluster, 2).post("/api/friends/invite", {"name": nita.name, "table": table_id})
    assert invited.status_code == 204, invited.text
    assert [i["table"] for i in eventually(lambda: nita.http.get("/api/friends").json()["invites"])] == [table_id]


def pressed_again(server: Any) -> bool:
    """Press Play now on a new connection: whether it is queued (not refused while no server keeps the queue)."""
    queue = Queue(Person(server, "Mina"))
    queue.ws.send(json.dumps({"type": "play_now", "game": "seep", "players": 4, "baazis": 0, "wait": 120}))
    answer: dict[str, Any] = json.loads(queue.ws.recv(timeout=5))
    queue.ws.close()
    return answer["type"] == "waiting"


def test_people_waiting_for_play_now_are_told_to_press_again_when_its_server_dies(cluster: Cluster) -> None:
    import redis

    holder = eventually(lambda: redis.Redis.from_url(cluster.redis_url).get("taash:play-now"))
    index = int(holder.decode()[1:]) - 1
    other = (index + 1) % 3
    queue = Queue(Person(at(cluster, other), "Mina"))
    queue.ws.send(json.dumps({"type": "play_now", "game": "seep", "players": 4, "baazis": 0, "wait": 120}))
    assert queue.until("waiting")["waiting"] == 1
    cluster.kill(index)
    try:
        told = json.loads(queue.ws.recv(timeout=15))
        assert told["type"] == "error" and told["code"] == "closing" and "press Play now again" in told["message"]
        with pytest.raises(ConnectionClosed):  # done with, as at a restart: the page presses again
            queue.ws.recv(timeout=5)
        assert eventually(lambda: pressed_again(at(cluster, other)), 15)  # another server keeps the queue now
    finally:
        cluster.start_server(index)
        cluster.wait(index)
