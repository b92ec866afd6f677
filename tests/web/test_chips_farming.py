"""Fair play with chips on a real server: chips farmed with throwaway guests gain nothing (free chips belong to
accounts, guests play without stakes, accounts per address are limited, related people do not play each other for
chips), and a guest cannot take an account's name or pass for one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from taash.chips.audit import audit
from taash.web.db import make_engine
from tests.web.server import POSTGRES, Person, Server, Socket, running_server

DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
    not POSTGRES, reason="TAASH_TEST_POSTGRES_URL is not set (the CI script sets it)"))]
#: The farming recipe's stake: 125 chips a point, so a wrong declaration (80 points) moves 10,000 chips.
STAKE = 125


@pytest.fixture(params=DATABASES)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A server as it runs by default: 3 accounts a day from one address, related people not at one staked table."""
    with running_server(tmp_path, request.param, accounts_per_address=3) as s:
        yield s


def balance(person: Person) -> int:
    wallet = person.http.get("/api/chips")
    assert wallet.status_code == 200, wallet.text
    return int(wallet.json()["balance"])


def audit_clean(server: Server) -> None:
    engine = make_engine(server.database_url)
    try:
        assert audit(engine).faults == []
    finally:
        engine.dispose()


def turn_moves(sock: Socket, kind: str) -> list[dict[str, Any]]:
    """The moves of ``kind`` offered to ``sock`` once it is offered any (reading the table until then)."""
    deadline = time.monotonic() + 20
    while True:
        legal = ((sock.state or {}).get("deal") or {}).get("legal") or []
        moves = [m for m in legal if m.get("type") == kind]
        if moves:
            return moves
        assert time.monotonic() < deadline, sock.state
        sock.recv()


def send(sock: Socket, move: dict[str, Any]) -> None:
    sock.send({**move, "version": sock.version, "id": sock.person.next_id()})
    sock.recv_until("ack")


def farm(main: Person, helper: Person) -> str | None:
    """The farming recipe: ``main`` makes a private Rummy points table at 125 a point, ``helper`` sits with its
    code, takes a card and declares wrong (80 points: 10,000 chips to ``main``). Returns the server's refusal, or
    None when the recipe went through to the settlement."""
    made = main.post("/api/tables", {"game": "rummy", "players": 2, "public": False, "seat": 0, "stake": STAKE})
    if made.status_code != 200:
        return str(made.json()["detail"])
    table = made.json()
    sat = helper.post(f"/api/tables/{table['id']}/sit", {"seat": 1, "code": table["code"]})
    if sat.status_code != 200:
        assert main.post(f"/api/tables/{table['id']}/abandon").status_code == 200
        return str(sat.json()["detail"])
    started = main.post(f"/api/tables/{table['id']}/start")
    if started.status_code != 200:
        assert main.post(f"/api/tables/{table['id']}/abandon").status_code == 200
        return str(started.json()["detail"])
    mine, theirs = main.socket(table["id"]), helper.socket(table["id"])
    mine.recv()
    theirs.recv()
    if theirs.state["deal"]["to_move"] == 0:  # type: ignore[index]
        send(mine, next(m for m in turn_moves(mine, "take") if m.get("from") == "stock"))
        send(mine, turn_moves(mine, "discard")[0])
    send(theirs, next(m for m in turn_moves(theirs, "take") if m.get("from") == "stock"))
    hand = theirs.state["deal"]["hand"]  # type: ignore[index]
    send(theirs, {"type": "declare", "discard": hand[0], "melds": [hand[1:]]})  # one group of 13: wrong
    deadline = time.monotonic() + 10
    while not any(t["kind"] == "settle" for t in main.http.get("/api/chips").json()["recent"]):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    mine.close()
    theirs.close()
    return None


def test_chips_farmed_with_throwaway_guests_gain_nothing(server: Server) -> None:
    """The attack of issue 26: a main guest, fresh guests as helpers, a private Rummy points table at 125 a point
    and a wrong declaration moved 10,000 chips a helper (on the server before this policy the main guest gained
    10,000 here). Now a guest's wallet opens empty and a guest cannot sit at a staked table; helpers who claim
    accounts from the main's address are related and refused too; the address's fourth account of the day is
    refused; so the main account gains nothing, and the books stay clean."""
    main = Person(server, "Main", account=True)
    start = balance(main)
    assert start == 10_000  # the starting grant, paid to the account
    for i in range(3):
        helper = Person(server, f"Helper {i}")
        refused = farm(main, helper)
        gained = balance(main) - start
        assert gained == 0, f"the farming recipe gained {gained:,} chips"
        assert refused is not None and refused.startswith("playing for chips needs an account"), refused
        assert balance(helper) == 0  # a guest's wallet opens empty, and stays so
    # Helpers who claim accounts from the same address: related to the main account, refused.
    for i in range(2):
        helper = Person(server, f"Related {i}", account=True)
        refused = farm(main, helper)
        assert refused is not None and "related players may not play each other for chips" in refused, refused
    # The address's fourth account today is refused, and changes nothing.
    fourth = Person(server, "Fourth")
    claim = fourth.post("/api/account", {"password": "a long password"})
    assert claim.status_code == 429 and claim.json()["code"] == "too_many"
    assert "accounts a day" in claim.json()["detail"] and "\n" not in claim.json()["detail"]
    assert fourth.http.get("/api/me").json()["account"] is False and balance(fourth) == 0
    assert balance(main) == start
    audit_clean(server)


def test_a_guest_gets_no_free_chips_and_the_board_ranks_accounts_only(server: Server) -> None:
    """A guest's wallet opens empty and gets no daily bonus; claiming an account pays the starting grant once;
    the board of chips ranks accounts only."""
    guest = Person(server, "Guesty")
    wallet = guest.http.get("/api/chips").json()
    assert wallet["balance"] == 0 and wallet["account"] is False and wallet["bonus_today"] == 0
    bonus = guest.post("/api/chips/bonus")
    assert bonus.status_code == 409 and bonus.json()["detail"].startswith("the daily bonus is for accounts")
    assert balance(guest) == 0
    staked = guest.post("/api/tables", {"players": 2, "stake": 1})
    assert staked.status_code == 409 and staked.json()["code"] == "account_needed"
    quick = guest.post("/api/quick", {"players": 2, "baazis": 0, "stake": 1})
    assert quick.status_code == 409 and quick.json()["code"] == "account_needed"
    guest.claim()
    assert balance(guest) == 10_000
    assert guest.http.get("/api/chips").json()["account"] is True
    grants = [t for t in guest.http.get("/api/chips").json()["recent"] if t["kind"] == "grant"]
    assert len(grants) == 1
    Person(server, "Other guest")
    board = httpx.get(f"{server.url}/api/leaderboard/chips").json()
    assert board["total"] == 1 and [(p["name"], p["account"]) for p in board["players"]] == [("Guesty", True)]
    audit_clean(server)


def test_accounts_from_different_addresses_play_for_chips_and_a_login_relates_them(server: Server) -> None:
    """People from two addresses are not related: they play each other for chips. Once one of them logs in from
    the other's address, they are."""
    anil = Person(server, "Anil", account=True, address="127.0.0.2")
    bina = Person(server, "Bina", account=True, address="127.0.0.3")
    assert farm(anil, bina) is None  # Bina declared wrong: 10,000 chips to Anil
    assert balance(anil) == 20_000 and balance(bina) == 1_000  # an account below the floor: the daily bonus
    elsewhere = Person(server, address="127.0.0.2")  # Bina logs in at Anil's address: now they are related
    assert elsewhere.post("/api/login", {"name": "Bina", "password": "a long password"}).status_code == 200
    refused = farm(anil, elsewhere)
    assert refused is not None and "related players" in refused
    audit_clean(server)


def test_an_operator_may_let_related_people_play_for_chips_and_taash_chips_flows_shows_the_farm(
        tmp_path: Path) -> None:
    """With ``--allow-related-stakes`` the recipe goes through; ``taash chips flows`` then puts the related pair,
    with every chip one way, first (the unrelated pair that played both ways after it)."""
    with running_server(tmp_path, related_stakes=True) as server:
        main, helper = Person(server, "Main", account=True), Person(server, "Helper", account=True)
        assert farm(main, helper) is None
        assert balance(main) == 20_000
        xavi = Person(server, "Xavi", account=True, address="127.0.0.2")
        yash = Person(server, "Yash", account=True, address="127.0.0.3")
        assert farm(xavi, yash) is None
        audit_clean(server)
        ids = {p.name: p.http.get("/api/me").json()["id"] for p in (main, helper, xavi, yash)}
    report = subprocess.run([sys.executable, "-m", "taash.cli.main", "chips", "flows", "--json", "--database-url",
                             server.database_url], capture_output=True, text=True, timeout=60)
    assert report.returncode == 0, report.stderr
    pairs = json.loads(report.stdout)
    assert [(p["giver"], p["taker"], abs(p["net"]), p["one_sided"], p["related"]) for p in pairs] == [
        (ids["Helper"], ids["Main"], 10_000, 1.0, True), (ids["Yash"], ids["Xavi"], 10_000, 1.0, False)]
    first = pairs[0]
    assert first["shared_addresses"] >= 1 and {first["a_name"], first["b_name"]} == {"Main", "Helper"}
    assert first["a_account"] and first["b_account"]
    shown = subprocess.run([sys.executable, "-m", "taash.cli.main", "chips", "flows", "--database-url",
                            server.database_url], capture_output=True, text=True, timeout=60, env={
                                **os.environ, "COLUMNS": "160"})
    assert shown.returncode == 0, shown.stderr
    lines = [line for line in shown.stdout.splitlines() if "10,000" in line]
    assert len(lines) == 2 and "Helper" in lines[0] and "yes: 1 address" in lines[0] and "100%" in lines[0]
    assert "Yash" in lines[1] and lines[1].rstrip().endswith("no")


@pytest.mark.parametrize("name", ["Meera", "MEERA", "meera", "\u041c\u0435\u0435\u0440\u0430",
                                  "M\u0435\u0435r\u0430", "\uff2d\uff25\uff25\uff32\uff21"],
                         ids=["same", "upper", "lower", "cyrillic", "mixed-script", "fullwidth"])
def test_a_guest_cannot_take_an_accounts_name_or_a_look_alike(server: Server, name: str) -> None:
    """Issue 26, item 5: "Meera" has an account; no guest may become, or sit as, Meera in any case, width or
    script that looks or reads like it; Meera herself may."""
    meera = Person(server, "Meera", account=True)
    made = httpx.post(f"{server.url}/api/guest", json={"name": name})
    assert made.status_code == 409 and made.json()["code"] == "name_taken", made.text
    assert "account" in made.json()["detail"] and "\n" not in made.json()["detail"]
    other = Person(server, "Ravi")
    table = other.post("/api/tables", {"players": 2, "seat": None}).json()
    sat = other.post(f"/api/tables/{table['id']}/sit", {"seat": 0, "name": name})
    assert sat.status_code == 409 and sat.json()["code"] == "name_taken", sat.text
    seats = other.http.get(f"/api/tables/{table['id']}").json()["seats"]
    assert all(s["empty"] for s in seats)
    mine = meera.post(f"/api/tables/{table['id']}/sit", {"seat": 1, "name": name})
    assert mine.status_code == 200, mine.text


def test_seats_of_accounts_are_marked_in_the_lobby_and_the_table_state(server: Server) -> None:
    """The lobby's table and every websocket state say which seats are accounts' (a guest cannot pass for one)."""
    meera = Person(server, "Meera", account=True)
    guest = Person(server, "Kiran")
    table = meera.post("/api/tables", {"players": 2, "public": True}).json()
    assert guest.post(f"/api/tables/{table['id']}/sit", {"seat": 1}).status_code == 200
    listed = next(t for t in httpx.get(f"{server.url}/api/tables").json() if t["id"] == table["id"])
    assert [(s["name"], s["account"]) for s in listed["seats"]] == [("Meera", True), ("Kiran", False)]
    sock = guest.socket(table["id"])
    sock.recv()
    assert sock.state is not None and sock.state["seats_account"] == [True, False]
    guest.claim()  # marked from the next message on
    assert meera.post(f"/api/tables/{table['id']}/start").status_code == 200
    sock.recv_until("update")
    assert sock.state["seats_account"] == [True, True]
    sock.close()


def test_the_addresses_table_is_as_its_model_says_and_keeps_no_address_in_clear(tmp_path: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy import select

    from taash.web.db import Base, migrate
    from taash.web.fair_play import AddressRow

    with running_server(tmp_path) as server:
        Person(server, "Asha", account=True)
    engine = make_engine(server.database_url)
    try:
        migrate(engine)
        with engine.connect() as c:
            differences = [d for d in compare_metadata(MigrationContext.configure(c), Base.metadata)
                           if "identity_addresses" in repr(d)]
            rows = c.execute(select(AddressRow.address_hash, AddressRow.seen_as)).all()
        assert differences == []
        assert sorted(seen for _, seen in rows) == ["claim", "guest"]
        assert all(len(hashed) == 64 and "127.0.0.1" not in hashed for hashed, _ in rows)
        assert len({hashed for hashed, _ in rows}) == 1  # one address, one key: one hash
    finally:
        engine.dispose()
