"""A split of the prize at a staked table, in-process on a real database: everyone left accepts and the ledger
pays each his share of the pool (settled once, also after a crash), one declines and play goes on with the stakes
still held, and a points match refuses in one line; the audit is clean after each. Then over a real websocket."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from taash.chips.audit import audit
from taash.chips.ledger import wallet_of
from taash.tables.adapter import TableError
from taash.tables.split import divide
from taash.web.db import ResultRow
from taash.web.hub import Hub, Live
from taash.web.stakes import match_id
from tests.web.test_stakes import GRANT, books, staked_table

STAKE = 100
PROPOSE = {"type": "split", "answer": "propose"}


async def pool_of_two(hub: Hub) -> Live:
    for g in ("g0", "g1"):
        hub.ledger.open_wallet(g)  # type: ignore[union-attr]
    live = await staked_table(hub, "rummy", 2, "pool101", STAKE, people=2)
    await hub.act(live, {"type": "start"}, "g0")
    await hub.act(live, {"type": "drop"}, None)  # the seat to move drops: 20 points behind
    return live


def test_everyone_accepting_is_paid_the_split_once_and_the_match_ends_as_split(tmp_path: Path) -> None:
    store, ledger, hub = books(tmp_path)
    hub.closing = True  # no bot moves
    settled: list[str] = []

    async def scenario() -> Live:
        live = await pool_of_two(hub)
        await hub.act(live, PROPOSE, "g0")
        assert ledger.match(match_id(live.table.id)).state == "pending"  # type: ignore[union-attr]
        hub.settle = lambda lv: settled.append(lv.table.id)  # type: ignore[method-assign]  # a crash: unpaid
        await hub.act(live, {"type": "split", "answer": "accept"}, "g1")
        return live

    live = asyncio.run(scenario())
    assert live.table.status == "finished" and settled == [live.table.id]
    shares = divide(2 * STAKE, live.table.split)  # type: ignore[arg-type]
    assert shares[0] != shares[1] and sum(shares.values()) == 2 * STAKE
    for _ in range(2):  # restarted twice: paid once
        Hub(store, bot_delay=0, ledger=ledger).restore()
        assert [ledger.balance(wallet_of(g)) for g in ("g0", "g1")] == [GRANT - STAKE + shares[s] for s in (0, 1)]
        assert audit(store.engine).faults == []
    stored = store.table(live.table.id)
    assert stored is not None and stored.row.status == "finished"
    rows = store.results_of("g0")
    assert rows and [json.loads(r.stats)["split"] for r in rows[0][1]] == [1, 1]
    assert not any(r.won for r in rows[0][1] if isinstance(r, ResultRow))
    store.close()


def test_one_declining_lets_play_go_on_with_the_stakes_still_held(tmp_path: Path) -> None:
    store, ledger, hub = books(tmp_path)
    hub.closing = True

    async def scenario() -> Live:
        live = await pool_of_two(hub)
        await hub.act(live, PROPOSE, "g1")
        assert live.table.to_move() is None
        await hub.act(live, {"type": "split", "answer": "decline"}, "g0")
        seat = live.table.to_move()
        assert seat is not None
        await hub.act(live, {"type": "take", "from": "stock"}, f"g{seat}")
        return live

    live = asyncio.run(scenario())
    assert live.table.status == "playing" and live.table.split is None
    assert ledger.match(match_id(live.table.id)).state == "pending"  # type: ignore[union-attr]
    assert [ledger.balance(wallet_of(g)) for g in ("g0", "g1")] == [GRANT - STAKE] * 2
    assert audit(store.engine).faults == []
    store.close()


def test_a_points_match_refuses_a_split_in_one_line(tmp_path: Path) -> None:
    store, ledger, hub = books(tmp_path)
    hub.closing = True

    async def scenario() -> None:
        ledger.open_wallet("g0")
        live = await staked_table(hub, "rummy", 2, "points", 1, people=1)
        await hub.act(live, {"type": "start"}, "g0")
        version = live.table.version
        with pytest.raises(TableError) as refused:
            await hub.act(live, PROPOSE, "g0")
        assert refused.value.code == "no_split" and "\n" not in str(refused.value)
        assert live.table.version == version and store.table(live.table.id).row.version == version  # type: ignore

    asyncio.run(scenario())
    store.close()


def test_a_split_over_the_websocket(tmp_path: Path) -> None:
    from tests.web.server import Person, running_server

    with running_server(tmp_path) as server:
        # Accounts from two addresses: people who may play each other for chips.
        anil = Person(server, "Anil", account=True, address="127.0.0.2")
        bela = Person(server, "Bela", account=True, address="127.0.0.3")
        table = anil.post("/api/tables", {"game": "rummy", "players": 2, "format": "pool101", "stake": 10}).json()
        assert bela.post(f"/api/tables/{table['id']}/sit", {"seat": 1}).status_code == 200
        assert anil.post(f"/api/tables/{table['id']}/start").status_code == 200
        a, b = anil.socket(table["id"]), bela.socket(table["id"])
        watcher = Person(server, "Chitra").socket(table["id"])
        watcher.send({"type": "split", "answer": "propose", "id": "w1"})
        assert watcher.recv_until("error", id="w1")["code"] == "not_seated"
        a.send({"type": "split", "answer": "propose", "id": "a1"})
        a.recv_until("ack", id="a1")
        offer = b.recv_until("update")["state"]["split"]
        assert offer["waiting_for"] == [1] and offer["agreed"] is False
        b.send({"type": "split", "answer": "accept", "id": "b1"})
        b.recv_until("ack", id="b1")
        assert watcher.recv_until("update", version=b.version)["state"]["status"] == "finished"
        assert anil.http.get(f"/api/tables/{table['id']}").json()["status"] == "finished"
        assert anil.http.get("/api/chips").json()["balance"] == 10_000  # an equal split: his fee back
        for sock in (a, b, watcher):
            sock.close()
