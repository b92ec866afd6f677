"""Playing together across a real cluster (three servers sharing PostgreSQL and Redis behind HAProxy, as
:mod:`tests.web.test_cluster` starts them; the cluster runs on PostgreSQL only): a rematch offer whose holder is
killed (``kill -9``) while the others run is taken up by one of them, its answers kept, and the rematch starts once
with each stake held once; people rushing a tournament's last places through two servers at once fill exactly those
places, everyone else's fee comes back, and ``taash chips audit`` is clean."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed

from taash.chips.ledger import Ledger, wallet_of
from taash.web.cluster import Cluster
from taash.web.tournament_rows import pool_person
from tests.web import test_cluster
from tests.web.server import Person, Socket, free_port, postgres_database
from tests.web.test_cluster import HAPROXY, SBIN, SERVE, act, as_seen_by, at

pytestmark = test_cluster.pytestmark
redis = test_cluster.redis
STAKE = 1
FEE = 50
#: Seconds a table's lease lasts here (another server takes it within this and a scan).
LEASE = 1.0


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory, redis: test_cluster.Redis) -> Iterator[Cluster]:
    """Three servers, on which everyone has an account (from one address) and plays for chips."""
    tmp = tmp_path_factory.mktemp("cluster-offers")
    assert HAPROXY is not None
    os.environ["PATH"] = SBIN
    with postgres_database() as database:
        run = Cluster(tmp, free_port(), [free_port() for _ in range(3)], database, redis.url,
                      [*SERVE, "--accounts-per-address", "1000", "--allow-related-stakes", "--lease-seconds",
                       str(LEASE)])
        try:
            run.start()
            yield run
        finally:
            run.stop()


def audit_clean(cluster: Cluster) -> None:
    audit = subprocess.run([sys.executable, "-m", "taash.cli.main", "chips", "audit", "--database-url",
                            cluster.database_url], capture_output=True, text=True, timeout=60)
    assert audit.returncode == 0, audit.stdout + audit.stderr


def balance(person: Person) -> int:
    return int(person.http.get("/api/chips").json()["balance"])


def holds(person: Person) -> list[str]:
    """The matches (ids) whose stake was held from the person's wallet, oldest first."""
    recent = person.http.get("/api/chips").json()["recent"]
    return sorted((t["match_id"] for t in recent if t["kind"] == "hold"), key=str)


def index_of(server: str) -> int:
    return int(server[1:]) - 1


def lease_of(cluster: Cluster, table_id: str) -> tuple[str | None, int] | None:
    """The server holding the table's lease now (None: nobody, or it lapsed) and its epoch."""
    engine = create_engine(cluster.database_url)
    try:
        with engine.connect() as c:
            row = c.execute(text("SELECT CASE WHEN until > extract(epoch from now()) THEN server END, epoch "
                                 "FROM table_leases WHERE table_id = :t"), {"t": table_id}).first()
    finally:
        engine.dispose()
    return None if row is None else (row[0], int(row[1]))


def rummy_for_three(cluster: Cluster, holder: int) -> tuple[list[Person], str]:
    """Anil's staked Rummy table of points for three, made on server ``holder`` (its owner); Bina and Chand sit
    through the others."""
    names = ("Anil", "Bina", "Chand")
    people = [Person(at(cluster, i), name, account=True) for i, name in enumerate(names)]
    r = as_seen_by(people[0], at(cluster, holder)).post(
        "/api/tables", {"game": "rummy", "players": 3, "format": "points", "seat": 0, "stake": STAKE})
    assert r.status_code == 200, r.text
    table_id = str(r.json()["id"])
    for seat in (1, 2):
        r = people[seat].post(f"/api/tables/{table_id}/sit", {"seat": seat})
        assert r.status_code == 200, r.text
    return people, table_id


def dropped_out(socks: list[Socket]) -> None:
    """Each seat drops at its turn (the deal ends once one is left): the match is over."""
    rng = random.Random(3)
    deadline = time.monotonic() + 60
    while any(s.state is None or s.state.get("status") != "finished" for s in socks):
        assert time.monotonic() < deadline, "the match did not end"
        for sock in socks:
            sock.drain(0.05)
            if test_cluster.my_turn(sock) and sock.state and sock.state.get("status") != "finished":
                mid = act(sock, rng, drop=True)
                sock.recv_until("ack", id=mid)


def offered_again(person: Person, table_id: str, seats: list[str], seconds: float = 20) -> Socket:
    """Connect again at once, as a page does, until a connection stays open, and read the offer on it (with the
    answers ``seats``): a connection a server refuses or closes (the holder's lease not lapsed yet: 1013, the
    servers cannot reach each other) is tried again; one it keeps must be told the offer."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            sock = person.socket(table_id)
            offer_of(sock, seats)
            return sock
        except (ConnectionClosed, OSError):
            assert time.monotonic() < deadline, "no server kept a connection to the table"
            time.sleep(0.1)


def offer_of(sock: Socket, seats: list[str]) -> dict[str, Any]:
    """The rematch offer as it stands once its seats' answers are ``seats`` (earlier ones are let by)."""
    return sock.recv_until("rematch", seats=seats)


def test_a_rematch_offer_whose_holder_is_killed_is_taken_up_by_a_live_server_and_starts_once(
        cluster: Cluster) -> None:
    """Regression (issue 30): the offer lived only on the server that held the finished table, and another server
    took it up only when one restarted. Now the live servers' scan takes it up within a lease's time: Anil proposed
    and Bina accepted before the holder died; Chand accepts through another server, and the rematch starts once."""
    holder = 0
    people, old = rummy_for_three(cluster, holder)
    anil, bina, chand = people
    before = [balance(p) for p in people]
    assert anil.post(f"/api/tables/{old}/start").status_code == 200
    hold = before[0] - balance(anil)
    assert hold > 0 and [balance(p) for p in people] == [b - hold for b in before]
    socks = [as_seen_by(anil, at(cluster, holder)).socket(old), bina.socket(old), chand.socket(old)]
    for sock in socks:
        sock.recv()
    dropped_out(socks)
    settled = [balance(p) for p in people]
    assert sum(settled) == sum(before)  # no rake here: the pool paid out whole
    assert lease_of(cluster, old) == ("s1", 1)  # the finished table is still held, for what is on offer there
    socks[0].send({"type": "rematch", "answer": "propose", "id": "r1"})
    offer_of(socks[1], ["accepted", "waiting", "waiting"])
    socks[1].send({"type": "rematch", "answer": "accept", "id": "r2"})
    offer_of(socks[2], ["accepted", "accepted", "waiting"])

    cluster.kill(holder)  # kill -9: nothing handed over
    killed = time.monotonic()
    for sock in socks:
        sock.close()
    # Bina's page connects again at once, to her own server, and is told the offer there, its answers kept: a
    # connection kept in the moment between the lease's lapse and a scan takes the offer up there and then.
    bina_back = offered_again(bina, old, ["accepted", "accepted", "waiting"])
    while (now := lease_of(cluster, old)) is None or now[0] in (None, "s1"):
        assert time.monotonic() - killed < 10, f"no server took the offer up: {now}"
        time.sleep(0.1)
    taker = index_of(str(now[0]))
    other = 3 - taker  # the third server: neither the dead holder nor the taker
    assert now[1] == 2 and holder not in (taker, other)

    # Chand accepts through the server that does not hold the offer (relayed to the taker).
    chand_far = as_seen_by(chand, at(cluster, other)).socket(old)
    offer_of(chand_far, ["accepted", "accepted", "waiting"])
    chand_far.send({"type": "rematch", "answer": "accept", "id": "r3"})
    new = chand_far.recv_until("rematch_started", timeout=20)["table"]
    assert bina_back.recv_until("rematch_started", timeout=20)["table"] == new
    summary = chand.http.get(f"/api/tables/{new}").json()
    assert summary["status"] == "playing"
    assert [(s["name"], s["bot"]) for s in summary["seats"]] == [("Anil", False), ("Bina", False), ("Chand", False)]
    for person, was in zip(people, settled, strict=True):  # each stake held once more, for the one rematch
        alive = as_seen_by(person, at(cluster, other))
        assert holds(alive) == sorted([f"{old}:1", f"{new}:1"]), holds(alive)
        assert balance(alive) == was - hold
    late = as_seen_by(anil, at(cluster, other)).socket(old)  # a late connection is sent on to the one rematch
    assert late.recv_until("rematch_started")["table"] == new
    for sock in (bina_back, chand_far, late):
        sock.close()
    cluster.start_server(holder)
    cluster.wait(holder)
    audit_clean(cluster)


def register_at_once(entrants: list[Person], path: str) -> list[tuple[str, int, str]]:
    """Everyone registers at the same moment, each through his own server (a thread each); (name, status, code)."""
    start = threading.Barrier(len(entrants), timeout=30)
    said: list[tuple[str, int, str]] = []

    def one(person: Person) -> None:
        start.wait()
        r = person.post(f"{path}/register")
        said.append((person.name, r.status_code, "" if r.status_code == 200 else str(r.json().get("detail"))))

    threads = [threading.Thread(target=one, args=(p,)) for p in entrants]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return said


def test_people_rushing_a_tournaments_last_places_through_two_servers_fill_exactly_those(cluster: Cluster) -> None:
    """Eight places, six taken; eight more people register at once, four through each of two servers: two get in,
    the six others are refused and keep their chips, the pool holds eight fees, and the books are clean."""
    first = [Person(at(cluster, i % 2), f"Early{i}", account=True) for i in range(6)]
    made = first[0].post("/api/tournaments", {"name": "Last places", "game": "seep", "players": 2, "baazis": 0,
                                              "capacity": 8, "fee": FEE, "starts_in": 3600})
    assert made.status_code == 200, made.text
    path = f"/api/tournaments/{made.json()['id']}"
    for person in first:
        assert person.post(f"{path}/register").status_code == 200
    rush = [Person(at(cluster, i % 2), f"Late{i}", account=True) for i in range(8)]
    before = {p.name: balance(p) for p in rush}
    said = register_at_once(rush, path)
    got = sorted(name for name, status, _ in said if status == 200)
    assert len(got) == 2, said
    assert [why for _, status, why in said if status != 200] == ["the tournament is full (8 entrants)"] * 6, said
    found = rush[0].http.get(path).json()
    assert found["entrants"] == 8 and found["pool"] == 8 * FEE
    assert sorted(e["name"] for e in found["people"]) == sorted([*(str(p.name) for p in first), *got])
    for person in rush:
        assert balance(person) == before[person.name] - (FEE if person.name in got else 0), person.name
    engine = create_engine(cluster.database_url)
    try:
        pool = Ledger(engine).balance(wallet_of(pool_person(made.json()["id"])))
    finally:
        engine.dispose()
    assert pool == 8 * FEE
    audit_clean(cluster)
