"""The sweep for idle tables, in-process on a real database (SQLite, and PostgreSQL where one is offered): an idle
staked match is abandoned and refunded, a waiting table expires, a seated person keeps his table, a crash between
the status and the refund is refunded exactly once on the restart, and a move racing the sweep either keeps the
table or is refused; the audit is clean after each."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from taash.chips.audit import audit
from taash.chips.ledger import Ledger, wallet_of
from taash.tables.adapter import Settings, TableError
from taash.web.db import make_engine
from taash.web.hub import Hub, Live
from taash.web.stakes import match_id
from taash.web.store import Store
from tests.web.test_stakes import GRANT, staked_table

HALF_HOUR = 1800.0


@pytest.fixture
def books(database: str) -> Iterator[tuple[Store, Ledger]]:
    engine = make_engine(database)
    store = Store(engine)
    yield store, Ledger(engine, starting_grant=GRANT)
    store.close()


def hub_of(store: Store, ledger: Ledger) -> Hub:
    hub = Hub(store, bot_delay=0, away_seconds=3600, turn_seconds=0, ledger=ledger)
    hub.closing = True  # no bot moves: the table stays as the test leaves it
    return hub


async def started(hub: Hub, ledger: Ledger) -> Live:
    ledger.open_wallet("g0")
    live = await staked_table(hub, "rummy", 2, "points", 10, people=1)
    await hub.act(live, {"type": "start"}, "g0")
    assert ledger.balance(wallet_of("g0")) == GRANT - 800
    return live


def test_an_idle_staked_match_is_abandoned_and_refunded_and_its_watchers_told(books: tuple[Store, Ledger]) -> None:
    store, ledger = books
    hub = hub_of(store, ledger)

    async def scenario() -> Live:
        live = await started(hub, ledger)
        watcher = hub.join(live, None, None)
        while not watcher.queue.empty():
            watcher.queue.get_nowait()
        soon = time.monotonic() + HALF_HOUR - 60
        assert await hub.sweep(HALF_HOUR, soon) == 0 and live.table.id in hub.live
        assert await hub.sweep(HALF_HOUR, soon + 120) == 1
        told = watcher.queue.get_nowait()
        assert told is not None and json.loads(told)["type"] == "abandoned"
        assert watcher.queue.get_nowait() is None and watcher.close_code == 1001
        with pytest.raises(TableError) as refused:
            await hub.act(live, live.table.first_legal_action(), None)
        assert refused.value.code == "abandoned"
        read_again = hub.get(live.table.id)  # from the database: abandoned, it takes no action either
        assert read_again is not None and read_again.gone and live.table.id not in hub.live
        with pytest.raises(TableError, match="abandoned"):
            await hub.act(read_again, read_again.table.first_legal_action(), None)
        return live

    live = asyncio.run(scenario())
    assert live.table.id not in hub.live and live.table.code not in hub.codes
    assert store.table(live.table.id).row.status == "abandoned"  # type: ignore[union-attr]
    assert ledger.match(match_id(live.table.id)).state == "voided"  # type: ignore[union-attr]
    assert ledger.balance(wallet_of("g0")) == GRANT
    assert audit(store.engine).faults == []


def test_a_waiting_table_expires_and_a_seated_person_connected_keeps_his(books: tuple[Store, Ledger]) -> None:
    store, ledger = books
    hub = hub_of(store, ledger)

    async def scenario() -> tuple[Live, Live]:
        waiting = await hub.create(Settings(players=2), "g1")
        kept = await started(hub, ledger)
        hub.join(kept, "g0", None)
        assert await hub.sweep(HALF_HOUR, time.monotonic() + HALF_HOUR) == 1
        return waiting, kept

    waiting, kept = asyncio.run(scenario())
    assert store.table(waiting.table.id).row.status == "abandoned"  # type: ignore[union-attr]
    assert kept.table.id in hub.live and ledger.match(match_id(kept.table.id)).state == "pending"  # type: ignore
    assert audit(store.engine).faults == []


def test_a_crash_between_the_status_and_the_refund_is_refunded_once_on_restart(books: tuple[Store, Ledger]) -> None:
    store, ledger = books
    hub = hub_of(store, ledger)

    def killed(*_: Any) -> None:
        raise RuntimeError("killed")

    async def scenario() -> Live:
        live = await started(hub, ledger)
        hub.ledger = Ledger(store.engine)
        hub.ledger.refund = killed  # type: ignore[method-assign]
        assert await hub.sweep(HALF_HOUR, time.monotonic() + HALF_HOUR) == 0
        return live

    live = asyncio.run(scenario())
    assert store.table(live.table.id).row.status == "abandoned"  # type: ignore[union-attr]
    assert ledger.balance(wallet_of("g0")) == GRANT - 800
    assert any("not refunded" in f for f in audit(store.engine).faults)
    for _ in range(2):  # restarted twice: refunded once
        again = Hub(store, bot_delay=0, ledger=ledger)
        again.restore()
        assert live.table.id not in again.live
        assert ledger.balance(wallet_of("g0")) == GRANT
        assert audit(store.engine).faults == []
    assert len([t for t in ledger.match(match_id(live.table.id)).transfers  # type: ignore[union-attr]
                if t.kind == "refund"]) == 2  # one per seat


@pytest.mark.parametrize("first", ["move", "sweep"])
def test_a_move_racing_the_sweep_keeps_the_table_or_is_refused(books: tuple[Store, Ledger], first: str) -> None:
    store, ledger = books
    hub = hub_of(store, ledger)

    async def scenario() -> tuple[Live, int, list[Any]]:
        live = await started(hub, ledger)
        await asyncio.sleep(0.06)  # idle for the sweep's short limit
        move = {"type": "take", "from": "stock"}  # the seat to move's first move (it ends nothing)
        version = live.table.version
        async with live.lock:  # both arrive while the table is busy: the first to ask for the lock goes first
            if first == "move":
                acting = asyncio.ensure_future(hub.act(live, move, None))
                await asyncio.sleep(0)
                sweeping = asyncio.ensure_future(hub.sweep(0.05))
            else:
                sweeping = asyncio.ensure_future(hub.sweep(0.05))
                await asyncio.sleep(0)
                acting = asyncio.ensure_future(hub.act(live, move, None))
            await asyncio.sleep(0.01)
        outcome = await asyncio.gather(acting, sweeping, return_exceptions=True)
        return live, version, outcome

    live, version, (acted, swept) = asyncio.run(scenario())
    stored = store.table(live.table.id)
    assert stored is not None
    if first == "move":
        assert acted == version + 1 and swept == 0 and live.table.id in hub.live
        assert stored.row.status == "playing" and stored.row.version == version + 1
        assert ledger.match(match_id(live.table.id)).state == "pending"  # type: ignore[union-attr]
    else:
        assert isinstance(acted, TableError) and acted.code == "abandoned" and swept == 1
        assert stored.row.status == "abandoned" and stored.row.version == version  # the move was never written
        assert ledger.balance(wallet_of("g0")) == GRANT
    assert audit(store.engine).faults == []


def test_the_server_sweeps_by_itself_every_so_often(books: tuple[Store, Ledger]) -> None:
    store, ledger = books
    hub = hub_of(store, ledger)
    hub.closing = False  # the sweep runs until the server closes (a waiting table has no bots to move)

    async def scenario() -> Live:
        waiting = await hub.create(Settings(players=2), "g1")
        sweeper = asyncio.create_task(hub.sweep_forever(0.01, 0.05))
        for _ in range(500):
            if waiting.gone:
                break
            await asyncio.sleep(0.01)
        sweeper.cancel()
        return waiting

    waiting = asyncio.run(scenario())
    assert waiting.gone and store.table(waiting.table.id).row.status == "abandoned"  # type: ignore[union-attr]
