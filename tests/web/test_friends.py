"""Friends over HTTP, on SQLite and (when ``TAASH_TEST_POSTGRES_URL`` is set) PostgreSQL: accounts ask, accept,
refuse and remove friends, see them online and at which public table (never a private one's), invite one to a
table (one click seats him), and block a person (no request, no invitation; :meth:`Friends.is_blocked`); guests
and bad input get one-line refusals that change nothing."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from taash.web.db import GuestRow, make_engine, migrate
from taash.web.friend_store import FriendError, FriendStore
from taash.web.store import Store
from tests.web.server import POSTGRES, Person, Server, migrated_sqlite, postgres_database, running_server
from tests.web.test_migrations import downgrade

DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
    not POSTGRES, reason="TAASH_TEST_POSTGRES_URL is not set (the CI script sets it)"))]
NAMES = (f"{a}{n}" for n in itertools.count() for a in ("Asha", "Bilal", "Chetan", "Divya", "Ekta", "Farid"))


@pytest.fixture(scope="module", params=DATABASES)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("friends"), request.param) as s:
        yield s


def account(server: Server) -> Person:
    return Person(server, next(NAMES), account=True)


def refused(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["code"] == code and isinstance(body["detail"], str) and "\n" not in body["detail"]
    detail: str = body["detail"]
    return detail


def listing(person: Person) -> dict[str, Any]:
    r = person.http.get("/api/friends")
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def names(people: list[dict[str, Any]]) -> list[str]:
    return [p["name"] for p in people]


def befriend(a: Person, b: Person) -> None:
    assert a.post("/api/friends", {"name": b.name}).status_code == 200
    assert b.post("/api/friends/answer", {"name": a.name, "accept": True}).status_code == 200


def test_a_guest_is_told_friends_need_an_account(server: Server) -> None:
    guest, someone = Person(server, "Guesty"), account(server)
    assert "claim your name" in refused(guest.http.get("/api/friends"), 403, "account_needed")
    refused(guest.post("/api/friends", {"name": someone.name}), 403, "account_needed")
    refused(guest.post("/api/blocks", {"name": someone.name}), 403, "account_needed")
    refused(httpx.get(f"{server.url}/api/friends"), 401, "no_guest")


def test_ask_accept_and_remove_a_friend(server: Server) -> None:
    a, b = account(server), account(server)
    assert b.name is not None
    mine = a.post("/api/friends", {"name": b.name.upper()})  # any case
    assert mine.status_code == 200, mine.text
    assert names(mine.json()["i_asked"]) == [b.name] and mine.json()["friends"] == []
    assert names(listing(b)["asked_me"]) == [a.name]
    refused(a.post("/api/friends", {"name": b.name}), 409, "already")
    accepted = b.post("/api/friends/answer", {"name": a.name, "accept": True}).json()
    assert names(accepted["friends"]) == [a.name] and accepted["asked_me"] == []
    assert names(listing(a)["friends"]) == [b.name] and listing(a)["i_asked"] == []
    assert "friends already" in refused(b.post("/api/friends", {"name": a.name}), 409, "already")
    gone = a.post("/api/friends/remove", {"id": listing(a)["friends"][0]["id"]})
    assert gone.status_code == 200 and gone.json()["friends"] == [] and listing(b)["friends"] == []
    refused(a.post("/api/friends/remove", {"name": b.name}), 404, "not_found")


def test_a_refused_request_is_gone_and_asking_back_accepts(server: Server) -> None:
    a, b = account(server), account(server)
    a.post("/api/friends", {"name": b.name})
    assert b.post("/api/friends/answer", {"name": a.name, "accept": False}).json()["asked_me"] == []
    assert listing(a)["i_asked"] == [] and listing(a)["friends"] == []
    refused(b.post("/api/friends/answer", {"name": a.name, "accept": True}), 404, "not_found")
    a.post("/api/friends", {"name": b.name})
    both = b.post("/api/friends", {"name": a.name})  # he had asked: asking back accepts
    assert names(both.json()["friends"]) == [a.name] and names(listing(a)["friends"]) == [b.name]


@pytest.mark.parametrize(("body", "status", "code"), [
    ({}, 422, "invalid"), ({"name": "x", "id": "y"}, 422, "invalid"), ({"name": "<script>"}, 422, "invalid"),
    ({"name": 5}, 422, "invalid"), ({"name": "Nobody Here At All"}, 404, "not_found"), ({"id": "f" * 32}, 404,
                                                                                         "not_found")])
def test_bad_people_are_refused_in_one_line(server: Server, body: dict[str, Any], status: int, code: str) -> None:
    a = account(server)
    refused(a.post("/api/friends", body), status, code)
    assert listing(a)["i_asked"] == []


def test_yourself_is_no_friend(server: Server) -> None:
    a = account(server)
    assert refused(a.post("/api/friends", {"name": a.name}), 400, "bad") == "that is you"


def test_friends_online_and_at_which_public_table_never_a_private_ones(server: Server) -> None:
    a, b = account(server), account(server)
    befriend(a, b)
    (seen,) = listing(a)["friends"]
    assert seen["online"] is False and seen["table"] is None  # b has no socket open, nor has his lobby asked
    listing(b)
    (seen,) = listing(a)["friends"]
    assert seen["online"] is True  # b's lobby asked for his friends just now
    table = b.post("/api/tables", {"game": "seep", "players": 2, "baazis": 0}).json()
    (seen,) = listing(a)["friends"]
    assert seen["table"] == table["id"] and seen["game"] == "seep" and seen["playing"] is True
    b.post(f"/api/tables/{table['id']}/leave")
    private = b.post("/api/tables", {"game": "seep", "players": 2, "baazis": 0, "public": False}).json()
    (seen,) = listing(a)["friends"]
    assert seen["playing"] is True and seen["table"] is None and seen["game"] is None
    assert private["id"] not in str(listing(a)) and private["code"] not in str(listing(a))


def test_invite_a_friend_who_joins_in_one_click(server: Server) -> None:
    a, b, c = account(server), account(server), account(server)
    table = a.post("/api/tables", {"game": "seep", "players": 2, "baazis": 0, "public": False}).json()
    invite = {"name": b.name, "table": table["id"]}
    refused(a.post("/api/friends/invite", invite), 403, "not_friend")
    befriend(a, b)
    refused(c.post("/api/friends/invite", invite), 403, "forbidden")  # not his table
    refused(a.post("/api/friends/invite", {**invite, "table": "nope"}), 422, "invalid")
    refused(a.post("/api/friends/invite", {**invite, "table": "0" * 16}), 404, "not_found")
    assert a.post("/api/friends/invite", invite).status_code == 204
    (told,) = listing(b)["invites"]
    assert told == {"table": table["id"], "by": {"id": listing(b)["friends"][0]["id"], "name": a.name},
                    "game": "seep", "code": table["code"]}
    refused(c.post(f"/api/invites/{table['id']}/accept"), 404, "not_found")  # c was not invited
    seated = b.post(f"/api/invites/{table['id']}/accept")
    assert seated.status_code == 200, seated.text
    assert [s["name"] for s in seated.json()["seats"]] == [a.name, b.name]
    assert listing(b)["invites"] == []
    assert a.post(f"/api/tables/{table['id']}/start").status_code == 200
    refused(a.post("/api/friends/invite", invite), 409, "started")


def test_an_invitation_may_be_dismissed_and_not_twice(server: Server) -> None:
    a, b = account(server), account(server)
    befriend(a, b)
    table = a.post("/api/tables", {"game": "seep", "players": 2, "baazis": 0}).json()
    a.post("/api/friends/invite", {"name": b.name, "table": table["id"]})
    assert b.post(f"/api/invites/{table['id']}/dismiss").status_code == 204
    assert listing(b)["invites"] == []
    refused(b.post(f"/api/invites/{table['id']}/dismiss"), 404, "not_found")


def test_a_blocked_person_can_neither_ask_nor_invite(server: Server) -> None:
    a, b = account(server), account(server)
    befriend(a, b)
    table = a.post("/api/tables", {"game": "seep", "players": 2, "baazis": 0}).json()
    a.post("/api/friends/invite", {"name": b.name, "table": table["id"]})
    assert len(listing(b)["invites"]) == 1
    blocked = b.post("/api/blocks", {"name": a.name})
    assert blocked.status_code == 200 and names(blocked.json()["blocked"]) == [a.name]
    assert blocked.json()["friends"] == [] and listing(a)["friends"] == []
    assert listing(b)["invites"] == []  # his invitation is gone too
    refused(a.post("/api/friends", {"name": b.name}), 409, "blocked")
    refused(b.post("/api/friends", {"name": a.name}), 409, "blocked")
    refused(a.post("/api/friends/invite", {"name": b.name, "table": table["id"]}), 403, "not_friend")
    assert b.post("/api/blocks", {"name": a.name}).status_code == 200  # again: nothing changes
    assert b.post("/api/blocks/remove", {"name": a.name}).json()["blocked"] == []
    refused(b.post("/api/blocks/remove", {"name": a.name}), 404, "not_found")
    befriend(a, b)


def test_blocks_are_kept_and_read_back_after_a_restart(tmp_path: Path) -> None:
    engine = make_engine(migrated_sqlite(tmp_path, "taash.db"))
    store = Store(engine)

    async def scenario() -> None:
        await store.write(lambda s: s.add_all([GuestRow(id="g1", name="A"), GuestRow(id="g2", name="B")]))
        friends = FriendStore(store)
        assert not friends.is_blocked("g1", "g2")
        await friends.block("g1", "g2")
        assert friends.is_blocked("g1", "g2") and not friends.is_blocked("g2", "g1")
        assert not friends.is_blocked(None, "g2") and not friends.is_blocked("g1", None)
        with pytest.raises(FriendError) as e:
            await friends.ask("g2", "g1")
        assert e.value.code == "blocked"
        again = FriendStore(store)  # the server restarted
        assert again.is_blocked("g1", "g2")
        await again.unblock("g1", "g2")
        assert not again.is_blocked("g1", "g2") and not FriendStore(store).is_blocked("g1", "g2")

    asyncio.run(scenario())
    store.close()
    engine.dispose()


@pytest.mark.parametrize("database", DATABASES)
def test_the_migration_adds_friends_and_blocks_and_goes_back(tmp_path: Path, database: str) -> None:
    """0015_social upgrades a database of 0014 (its guests stay), refuses a friendship or block of one person with
    himself, and downgrades to 0014 without its tables (and up again)."""
    with contextlib.ExitStack() as stack:
        url = (f"sqlite:///{tmp_path / 'old.db'}" if database == "sqlite"
               else stack.enter_context(postgres_database()))
        engine = make_engine(url)
        migrate(engine, "0014")
        assert "friendships" not in inspect(engine).get_table_names()
        with engine.begin() as c:
            c.execute(text("INSERT INTO guests (id, name, created_at) VALUES ('g1', 'A', :t), ('g2', 'B', :t)"),
                      {"t": "2026-01-01"})
        migrate(engine)
        assert {"friendships", "blocks"} <= set(inspect(engine).get_table_names())
        with engine.begin() as c:
            c.execute(text("INSERT INTO friendships (asker, asked, accepted, created_at) "
                           "VALUES ('g1', 'g2', false, :t)"), {"t": "2026-01-02"})
        for bad in ("INSERT INTO friendships (asker, asked, accepted, created_at) VALUES ('g1', 'g1', false, :t)",
                    "INSERT INTO blocks (blocker, blocked, created_at) VALUES ('g2', 'g2', :t)",
                    "INSERT INTO blocks (blocker, blocked, created_at) VALUES ('g2', 'nobody', :t)"):
            with pytest.raises(IntegrityError), engine.begin() as c:
                c.execute(text(bad), {"t": "2026-01-02"})
        engine.dispose()
        downgrade(url, "0014")
        old = make_engine(url)
        assert "friendships" not in inspect(old).get_table_names()
        migrate(old)
        assert "blocks" in inspect(old).get_table_names()
        old.dispose()


def test_a_friend_with_a_table_open_is_online_and_offline_once_he_closes_it(server: Server) -> None:
    a, b = account(server), account(server)
    befriend(a, b)  # b never asks for his friends: only his websocket makes him online
    table = b.post("/api/tables", {"game": "seep", "players": 2, "baazis": 0}).json()
    assert listing(a)["friends"][0]["online"] is False
    sock = b.socket(table["id"])
    sock.recv_until("snapshot")
    assert listing(a)["friends"][0]["online"] is True
    sock.close()
    deadline = time.monotonic() + 10
    while listing(a)["friends"][0]["online"]:
        assert time.monotonic() < deadline, "still online after his last connection closed"
        time.sleep(0.1)
