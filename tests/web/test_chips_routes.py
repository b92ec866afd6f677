"""The wallet's routes: the daily bonus given by itself to a person below the floor who comes back (at
``GET /api/me`` and ``GET /api/chips``), once a day however many ask at once, and still claimable by
``POST /api/chips/bonus``."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from taash.chips.audit import audit
from taash.chips.books import HOUSE_ACCOUNT
from taash.chips.errors import ChipsError
from taash.chips.ledger import Ledger, Transfer, wallet_of
from taash.web import chips_routes
from taash.web.app import ServerConfig, create_app
from taash.web.db import make_engine
from tests.web.server import POSTGRES, Person, Server, migrated_sqlite, running_server

DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
    not POSTGRES, reason="TAASH_TEST_POSTGRES_URL is not set (the CI script sets it)"))]


@pytest.fixture(params=DATABASES)
def poor(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A server whose wallets open with 500 chips: below the bonus's floor of 1,000."""
    with running_server(tmp_path, request.param, extra=("--starting-chips", "500")) as s:
        yield s


def bonuses(wallet: dict[str, object]) -> list[object]:
    recent = wallet["recent"]
    assert isinstance(recent, list)
    return [t for t in recent if t["kind"] == "bonus"]


def test_many_requests_at_once_pay_the_bonus_once(poor: Server) -> None:
    """Twenty-four requests at the same moment (the lobby's, the table page's and claims) of one account below the
    floor: one bonus of 1,000 chips is paid; at most one claim is answered 200, the others 409 ``no_bonus``."""
    anil = Person(poor, "Anil", account=True)
    cookies = dict(anil.http.cookies)
    requests = [("GET", "/api/me"), ("GET", "/api/chips"), ("POST", "/api/chips/bonus")] * 8
    start = threading.Barrier(len(requests))
    answers: list[httpx.Response] = []

    def ask(method: str, path: str) -> None:
        with httpx.Client(base_url=poor.url, cookies=cookies, timeout=30) as client:
            start.wait()
            answers.append(client.request(method, path))

    threads = [threading.Thread(target=ask, args=r) for r in requests]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == len(requests)
    claims = [r for r in answers if r.request.method == "POST"]
    assert all(r.status_code == 200 for r in answers if r.request.method == "GET"), [r.text for r in answers]
    assert sum(r.status_code == 200 for r in claims) <= 1
    assert all(r.json()["code"] == "no_bonus" for r in claims if r.status_code != 200)
    wallet = anil.http.get("/api/chips").json()
    assert wallet["balance"] == 1_500 and wallet["bonus_today"] == 1_000 and len(bonuses(wallet)) == 1
    again = anil.post("/api/chips/bonus")
    assert again.status_code == 409 and "given already" in again.json()["detail"]
    engine = make_engine(poor.database_url)
    assert audit(engine).faults == []
    engine.dispose()


def test_a_claim_before_the_lobby_asks_still_pays(poor: Server) -> None:
    bina = Person(poor, "Bina", account=True)
    claimed = bina.post("/api/chips/bonus")
    assert claimed.status_code == 200 and claimed.json()["balance"] == 1_500
    assert claimed.json()["bonus_today"] == 1_000
    assert bina.http.get("/api/me").status_code == 200
    assert bina.http.get("/api/chips").json()["balance"] == 1_500
    assert Person(poor).http.get("/api/me").status_code == 401  # no guest: nothing given, nothing opened


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, Ledger, list[date]]]:
    """The server in-process, on a day the test sets (``days[0]``), and the books beside it."""
    days = [date(2026, 3, 1)]
    monkeypatch.setattr(chips_routes, "today", lambda: days[0])
    url = f"sqlite:///{tmp_path / 'taash.db'}"
    with TestClient(create_app(ServerConfig(database_url=url))) as client:
        ledger = Ledger(make_engine(url))
        yield client, ledger, days
        ledger.engine.dispose()


def test_a_person_below_the_floor_who_comes_back_on_a_new_day_gets_the_bonus(
        app: tuple[TestClient, Ledger, list[date]]) -> None:
    client, ledger, days = app
    guest = client.post("/api/guest", json={"name": "Chetan"}).json()["id"]
    assert client.post("/api/account", json={"password": "a long password"}).status_code == 200
    wallet = wallet_of(guest)
    assert client.get("/api/chips").json()["balance"] == 10_000  # above the floor: nothing
    assert ledger.transfer_by_id(f"bonus:{guest}:2026-03-01") is None

    ledger.transfer("lost-at-cards", wallet, HOUSE_ACCOUNT, 9_400)  # down to 600 the same day
    # He comes back the next day: the table page asks who he is, and the bonus is paid.
    days[0] = date(2026, 3, 2)
    assert client.get("/api/me").json()["id"] == guest
    assert ledger.balance(wallet) == 1_600
    given = ledger.transfer_by_id(f"bonus:{guest}:2026-03-02")
    assert given is not None and given.amount == 1_000 and given.credit == wallet
    shown = client.get("/api/chips").json()
    assert shown["balance"] == 1_600 and shown["bonus_today"] == 1_000 and len(bonuses(shown)) == 1
    # The same day again (any route, a claim), nothing more.
    client.get("/api/me")
    refused = client.post("/api/chips/bonus")
    assert refused.status_code == 409 and refused.json()["code"] == "no_bonus"
    assert ledger.balance(wallet) == 1_600

    # Another day below the floor: the lobby's wallet pays it; a day at or above the floor: nothing.
    ledger.transfer("lost-again", wallet, HOUSE_ACCOUNT, 1_000)
    days[0] = date(2026, 3, 3)
    shown = client.get("/api/chips").json()
    assert shown["balance"] == 1_600 and shown["bonus_today"] == 1_000 and len(bonuses(shown)) == 2
    days[0] = date(2026, 3, 4)
    assert client.get("/api/me").status_code == 200
    shown = client.get("/api/chips").json()
    assert shown["balance"] == 1_600 and shown["bonus_today"] == 0
    below = client.post("/api/chips/bonus")
    assert below.status_code == 409 and "below 1,000 chips" in below.json()["detail"]
    assert audit(ledger.engine).faults == []


def test_a_wallet_not_opened_yet_opens_at_the_lobby_and_gets_the_bonus_when_it_is_below_the_floor(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An account from before the server kept chips has no wallet: ``/api/me`` opens none and gives nothing; the
    lobby's wallet opens it (with the starting grant, here below the floor) and then gives the bonus."""
    monkeypatch.setattr(chips_routes, "today", lambda: date(2026, 3, 1))
    url = f"sqlite:///{tmp_path / 'taash.db'}"
    with TestClient(create_app(ServerConfig(database_url=url, starting_chips=300))) as client:
        guest = client.post("/api/guest", json={"name": "Dev"}).json()["id"]
        assert client.post("/api/account", json={"password": "a long password"}).status_code == 200
        ledger = Ledger(make_engine(url))
        with ledger.engine.begin() as c:  # as if it were made before the ledger
            c.exec_driver_sql("DROP TRIGGER IF EXISTS chips_transfers_no_delete")
            c.exec_driver_sql("DELETE FROM chips_transfers")
            c.exec_driver_sql("DELETE FROM chips_accounts WHERE kind = 'wallet'")
            c.exec_driver_sql("UPDATE chips_accounts SET balance = 0")
        assert client.get("/api/me").status_code == 200
        assert ledger.balances().get(wallet_of(guest)) is None
        shown = client.get("/api/chips").json()
        assert shown["balance"] == 1_300 and shown["bonus_today"] == 1_000
        ledger.engine.dispose()


def test_a_bonus_the_books_cannot_pay_now_leaves_the_page_alone(tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    """Books too busy to pay the bonus: ``/api/me`` and the lobby's wallet still answer (logged, not paid); the
    next request pays it."""
    url = migrated_sqlite(tmp_path, "taash.db")

    engine = make_engine(url)

    class Busy(Ledger):
        busy = True

        def claim_daily_bonus(self, person: str, day: date) -> tuple[Transfer | None, bool]:
            if self.busy:
                raise ChipsError("the books are too busy: 30 tries lost a race")
            return super().claim_daily_bonus(person, day)

    ledger = Busy(engine, starting_grant=400)
    ledger.open_wallet("eve")
    assert chips_routes.give_daily_bonus(ledger, "eve", date(2026, 3, 1)) is None
    assert "too busy" in caplog.text and ledger.balance(wallet_of("eve")) == 400
    ledger.busy = False
    given = chips_routes.give_daily_bonus(ledger, "eve", date(2026, 3, 1))
    assert given is not None and given.id == "bonus:eve:2026-03-01" and ledger.balance(wallet_of("eve")) == 1_400
    assert chips_routes.give_daily_bonus(ledger, "eve", date(2026, 3, 1)) is None  # given: no second time
    engine.dispose()
