"""Tables played for chips, in-process on a real database: each game's and format's settlement, a refusal when a
wallet is short, a crash between a match's end and its settlement settled exactly once on the restart, and a
refund when a table is abandoned; the audit is clean after each."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from taash.chips.audit import audit
from taash.chips.books import HOUSE_ACCOUNT
from taash.chips.ledger import Ledger, wallet_of
from taash.tables.adapter import TableError, adapter
from taash.web.db import make_engine
from taash.web.hub import Hub, Live
from taash.web.stakes import match_id
from taash.web.store import Store
from tests.web.server import migrated_sqlite

GRANT = 10_000


def books(tmp_path: Path) -> tuple[Store, Ledger, Hub]:
    url = migrated_sqlite(tmp_path, "taash.db")
    engine = make_engine(url)
    store = Store(engine)
    ledger = Ledger(engine, starting_grant=GRANT)
    hub = Hub(store, bot_delay=0, away_seconds=0, turn_seconds=0, ledger=ledger)
    return store, ledger, hub


async def staked_table(hub: Hub, game: str, players: int, length: Any, stake: int, people: int) -> Live:
    settings = adapter(game).settings(players, adapter(game).presets[0], length, "easy", True)
    live = await hub.create(settings, "g0", stake)
    for seat in range(people):
        await hub.act(live, {"type": "sit", "seat": seat, "name": f"P{seat}"}, f"g{seat}")
    if people < players:
        await hub.act(live, {"type": "bots"}, "g0")
    return live


async def played_out(hub: Hub, live: Live) -> None:
    """Nobody is connected, so bots play every seat until the match ends (their moves are work in worker threads,
    waited for here, not time)."""
    hub.schedule_bots(live)
    for _ in range(6000):
        if live.table.status == "finished":
            # The last move's status and settlement are written under the table's lock, after the table in memory
            # finished: once the lock is free, they are done (no guess at how long a worker thread takes).
            async with live.lock:
                return
        await asyncio.sleep(0.01)
    raise AssertionError("the match did not finish")


def expected(live: Live, stake: int) -> dict[int, int]:
    """Each seat's chips by the rules as the README states them, from the results alone."""
    results = live.table.results()
    game, length = live.table.settings.game, live.table.settings.length
    if game == "seep":
        key = (lambda r: r.stats["baazis"]) if isinstance(length, int) and length > 0 else (lambda r: r.points)
        cap = stake * (length if isinstance(length, int) and length > 0 else 100)
        side = {r.team: key(r) for _, _, r in results}
        return {i: max(-cap, min(cap, stake * (side[r.team] - side[1 - r.team]))) for i, _, r in results}
    (winner,) = [i for i, _, r in results if r.won]
    lost = {i: (min(80 * stake, stake * r.points) if length == "points" else stake)
            for i, _, r in results if i != winner}
    return {i: (sum(lost.values()) if i == winner else -lost[i]) for i, _, _ in results}


@pytest.mark.parametrize(("game", "players", "length", "stake"), [
    ("seep", 2, 0, 3), ("seep", 4, 1, 50), ("rummy", 3, "points", 2), ("rummy", 2, "deals2", 100)])
def test_a_staked_match_settles_each_seat_by_the_rules(tmp_path: Path, game: str, players: int, length: Any,
                                                       stake: int) -> None:
    store, ledger, hub = books(tmp_path)

    async def scenario() -> dict[int, int]:
        for g in ("g0", "g1"):
            ledger.open_wallet(g)
        house = ledger.balance(HOUSE_ACCOUNT)
        live = await staked_table(hub, game, players, length, stake, people=2)
        await hub.act(live, {"type": "start"}, "g0")
        held = ledger.match(match_id(live.table.id))
        assert held is not None and held.state == "pending" and len(held.stakes) == players
        await played_out(hub, live)
        want = expected(live, stake)
        assert sum(want.values()) == 0 and (any(want.values()) or game == "seep")
        assert ledger.match(match_id(live.table.id)).state == "posted"  # type: ignore[union-attr]
        assert ledger.balance(wallet_of("g0")) - GRANT == want[0]
        assert ledger.balance(wallet_of("g1")) - GRANT == want[1]
        assert ledger.balance(HOUSE_ACCOUNT) - house == sum(v for s, v in want.items() if s >= 2)
        return want

    asyncio.run(scenario())
    assert audit(store.engine).faults == []
    store.close()


def test_a_short_wallet_refuses_the_start_and_changes_nothing(tmp_path: Path) -> None:
    store, ledger, hub = books(tmp_path)

    async def scenario() -> None:
        ledger.open_wallet("g0")
        ledger.open_wallet("g1")
        live = await staked_table(hub, "seep", 2, 2, GRANT, people=2)  # holds 2 x 10,000 from each
        version = live.table.version
        with pytest.raises(TableError, match="not enough chips") as refused:
            await hub.act(live, {"type": "start"}, "g0")
        assert refused.value.code == "short" and "\n" not in str(refused.value)
        assert live.table.status == "waiting" and live.table.version == version
        assert ledger.match(match_id(live.table.id)) is None
        assert ledger.balance(wallet_of("g0")) == GRANT

    asyncio.run(scenario())
    assert audit(store.engine).faults == []
    store.close()


def test_a_short_wallet_is_told_what_the_stake_holds_in_a_players_words(tmp_path: Path) -> None:
    """Issue 27, 5: a stake of 200 on a single deal said "... fewer than the 20,000 the match holds from
    wallet:72e64cd863af...". The refusal says what the stake holds and what the player has, and no wallet id."""
    store, ledger, hub = books(tmp_path)

    async def scenario() -> None:
        ledger.open_wallet("g0")
        ledger.open_wallet("g1")
        live = await staked_table(hub, "seep", 2, 0, 200, people=2)
        with pytest.raises(TableError) as refused:
            await hub.act(live, {"type": "start"}, "g1")  # the other player asks: P0's wallet is named by his name
        assert str(refused.value) == ("not enough chips to start: a stake of 200 a point on a single Seep deal holds "
                                      "20,000 chips from each player (a lead of up to 100 points is paid); P0 has "
                                      "10,000")
        with pytest.raises(TableError) as refused:
            await hub.act(live, {"type": "start"}, "g0")
        assert str(refused.value).endswith("; you have 10,000") and "wallet" not in str(refused.value)
        assert ledger.match(match_id(live.table.id)) is None

    asyncio.run(scenario())
    assert audit(store.engine).faults == []
    store.close()


@pytest.mark.parametrize(("query", "hold", "said"), [
    ("game=seep&players=2&baazis=0&stake=200", 20_000,
     "a stake of 200 a point on a single Seep deal holds 20,000 chips from each player (a lead of up to 100 points "
     "is paid)"),
    ("game=seep&players=4&baazis=5&stake=30", 150,
     "a stake of 30 a baazi in a match to 5 baazis holds 150 chips from each player (the most a match's lead can be)"),
    ("game=rummy&players=6&format=points&stake=10", 800,
     "a stake of 10 a point on a Rummy points deal holds 800 chips from each player (a loser pays for up to 80 "
     "points)"),
    ("game=rummy&players=3&format=pool101&stake=500", 500,
     "an entry fee of 500 to a Rummy pool 101 match holds 500 chips from each player (the winner takes the pool)"),
    ("game=rummy&players=3&format=deals3&stake=1000", 1000,
     "an entry fee of 1,000 to a Rummy 3 deals match holds 1,000 chips from each player (the winner takes the "
     "pool)"),
    ("game=seep&players=4&baazis=3&stake=0", 0, "not played for chips"),
])
def test_the_lobby_asks_what_a_stake_will_hold_before_creating_the_table(tmp_path: Path, query: str, hold: int,
                                                                         said: str) -> None:
    from fastapi.testclient import TestClient

    from taash.web.app import ServerConfig, create_app

    with TestClient(create_app(ServerConfig(database_url=f"sqlite:///{tmp_path / 't.db'}"))) as client:
        answer = client.get(f"/api/stakes/hold?{query}")
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"hold": hold, "said": said}
        refused = client.get("/api/stakes/hold?game=seep&players=3&stake=5")
        assert refused.status_code == 400 and "players" in refused.json()["detail"]
        assert client.get("/api/stakes/hold?game=seep&players=2&stake=-5").status_code == 422


def test_a_crash_between_the_end_and_the_settlement_is_settled_once_on_restart(tmp_path: Path) -> None:
    store, ledger, hub = books(tmp_path)
    settled: list[str] = []

    async def scenario() -> Live:
        ledger.open_wallet("g0")
        live = await staked_table(hub, "seep", 2, 0, 5, people=1)
        await hub.act(live, {"type": "start"}, "g0")
        hub.settle = lambda lv: settled.append(lv.table.id)  # type: ignore[method-assign]  # the crash
        await played_out(hub, live)
        return live

    live = asyncio.run(scenario())
    assert settled == [live.table.id]
    assert ledger.match(match_id(live.table.id)).state == "pending"  # type: ignore[union-attr]
    assert any("not settled" in f for f in audit(store.engine).faults)
    want = expected(live, 5)[0]
    for _ in range(2):  # restarted twice: settled once
        again = Hub(store, bot_delay=0, ledger=ledger)
        again.restore()
        assert ledger.balance(wallet_of("g0")) == GRANT + want
        assert audit(store.engine).faults == []
    store.close()


def test_an_abandoned_staked_match_is_refunded_even_after_a_crash(tmp_path: Path) -> None:
    store, ledger, hub = books(tmp_path)

    async def scenario() -> Live:
        ledger.open_wallet("g0")
        live = await staked_table(hub, "rummy", 2, "points", 10, people=1)
        await hub.act(live, {"type": "start"}, "g0")
        assert ledger.balance(wallet_of("g0")) == GRANT - 800
        hub.closing = True  # no bot moves
        await hub.abandon(live)
        return live

    live = asyncio.run(scenario())
    assert ledger.balance(wallet_of("g0")) == GRANT
    assert ledger.match(match_id(live.table.id)).state == "voided"  # type: ignore[union-attr]
    assert audit(store.engine).faults == []
    again = Hub(store, bot_delay=0, ledger=ledger)
    again.restore()
    assert live.table.id not in again.live and ledger.balance(wallet_of("g0")) == GRANT
    store.close()


def test_wallets_and_stakes_over_http(tmp_path: Path) -> None:
    from tests.web.server import Person, running_server

    with running_server(tmp_path, extra=("--starting-chips", "500", "--rake", "2.5")) as server:
        anil = Person(server, "Anil", account=True)  # free chips, and playing for them, need an account
        bonus = anil.post("/api/chips/bonus")
        assert bonus.status_code == 200 and bonus.json()["balance"] == 1500  # below the floor of 1,000
        wallet = anil.http.get("/api/chips").json()
        assert wallet["balance"] == 1500 and wallet["rake_percent"] == 2.5
        assert [(t["kind"], t["amount"]) for t in wallet["recent"]] == [("bonus", 1000), ("grant", 500)]
        assert Person(server).http.get("/api/chips").status_code == 401
        again = anil.post("/api/chips/bonus")
        assert again.status_code == 409 and again.json()["code"] == "no_bonus"
        table = anil.post("/api/tables", {"players": 2, "baazis": 0, "stake": 20}).json()
        assert table["stake"] == 20 and table["hold"] == 2000
        assert anil.post(f"/api/tables/{table['id']}/bots").status_code == 200
        short = anil.post(f"/api/tables/{table['id']}/start")
        assert short.status_code == 409 and short.json()["code"] == "short" and "\n" not in short.json()["detail"]
        assert anil.http.get(f"/api/tables/{table['id']}").json()["status"] == "waiting"
        assert anil.http.get("/api/chips").json()["balance"] == 1500
        assert anil.post("/api/tables", {"players": 2, "stake": -1}).status_code == 422
        started = anil.post("/api/quick", {"players": 2, "baazis": 3, "stake": 100, "level": "easy"}).json()
        assert started["status"] == "playing" and started["hold"] == 300
        assert anil.http.get("/api/chips").json()["recent"][0] == {
            "id": f"{started['id']}:1:0:hold", "kind": "hold", "amount": -300, "match_id": f"{started['id']}:1"}
        early = anil.post(f"/api/tables/{started['id']}/abandon")
        assert early.status_code == 409 and early.json()["code"] == "playing"
    bad = subprocess.run([sys.executable, "-m", "taash.cli.main", "serve", "--rake", "200"], capture_output=True,
                         text=True)
    assert bad.returncode != 0 and "--rake must be" in bad.stderr + bad.stdout


def test_a_crash_between_the_hold_and_the_start_writes_the_start_on_restart(tmp_path: Path) -> None:
    store, ledger, hub = books(tmp_path)

    async def scenario() -> Live:
        ledger.open_wallet("g0")
        live = await staked_table(hub, "seep", 2, 0, 5, people=1)

        async def crash(*_: Any) -> None:
            raise RuntimeError("killed")

        store.add_action = crash  # type: ignore[method-assign]  # the start's write never happens
        with pytest.raises(TableError):
            await hub.act(live, {"type": "start"}, "g0")
        return live

    live = asyncio.run(scenario())
    assert live.table.status == "waiting" and ledger.balance(wallet_of("g0")) == GRANT - 500
    again = Hub(Store(store.engine), bot_delay=0, ledger=ledger)
    again.restore()
    assert again.live[live.table.id].table.status == "playing"
    assert store.table(live.table.id).row.status == "playing"  # type: ignore[union-attr]
    assert ledger.match(match_id(live.table.id)).state == "pending"  # type: ignore[union-attr]
    assert audit(store.engine).faults == []
    store.close()
