"""Tables under leases with an epoch (taash.web.lease): two hubs on one database, as two servers of a cluster, on
SQLite here and on PostgreSQL when the CI provides one. One server owns a table at a time; a lapsed lease is
taken by another with the next epoch; and the database refuses the writes of the server that lost it (fencing),
so that no action is written twice or behind the new owner's back. Time is the hub's fake clock (the leases read its
Unix time): no test here waits for a lease to lapse."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import select

from taash.chips.ledger import Ledger
from taash.tables.adapter import Settings, TableError
from taash.web.db import ActionRow, make_engine, migrate
from taash.web.hub import FakeClock, Hub, Live
from taash.web.hub.ownership import Renewer
from taash.web.lease import DatabaseLease, LeaseLost, SoleLease, fence, renew_period
from taash.web.store import Store
from tests.web.server import POSTGRES, migrated_sqlite, postgres_database


def server(url: str, name: str, clock: FakeClock) -> tuple[Hub, Store, DatabaseLease]:
    """A server among several on the database ``url``: its hub, store and lease, on ``clock``."""
    engine = make_engine(url)
    migrate(engine)
    store = Store(engine)
    lease = DatabaseLease(engine, name, seconds=3.0, clock=clock.time)
    return Hub(store, bot_delay=0, lease=lease, clock=clock), store, lease


@contextlib.asynccontextmanager
async def two_servers(url: str) -> AsyncIterator[tuple[FakeClock, tuple[Hub, DatabaseLease],
                                                         tuple[Hub, DatabaseLease]]]:
    """Servers "a" and "b" sharing the database ``url`` and one fake clock; closed at the end."""
    clock = FakeClock()
    a, store_a, lease_a = server(url, "a", clock)
    b, store_b, lease_b = server(url, "b", clock)
    try:
        yield clock, (a, lease_a), (b, lease_b)
    finally:
        store_a.close()
        store_b.close()


async def new_tables(hub: Hub, count: int) -> list[Live]:
    """``count`` new two-player tables, each made by a guest of its own."""
    return [await hub.create(Settings(players=2, length=0), f"g{i}") for i in range(count)]


async def two_player_table(hub: Hub) -> Live:
    live = await hub.create(Settings(players=2, length=0), "g0")
    await hub.act(live, {"type": "sit", "seat": 0, "name": "Anil"}, "g0")
    await hub.act(live, {"type": "sit", "seat": 1, "name": "Bela"}, "g1")
    await hub.act(live, {"type": "start"}, "g0")
    return live


def test_one_server_owns_a_table_until_its_lease_lapses_then_another_takes_it_with_the_next_epoch(
        database: str) -> None:
    async def scenario() -> None:
        async with two_servers(database) as (clock, (a, lease_a), (b, lease_b)):
            live = await two_player_table(a)
            assert live.epoch == 1 and lease_a.owner(live.table.id) == "a"
            view = b.get(live.table.id)
            assert view is not None and view.owner == "a" and live.table.id not in b.live  # a view, not b's
            assert view.table.version == live.table.version
            clock.advance(2)
            assert lease_a.renew() == set()  # renewed in time: still a's
            clock.advance(2)
            view = b.get(live.table.id)
            assert view is not None and view.owner == "a"
            clock.advance(3.5)  # a stopped renewing (killed)
            assert lease_b.lapsed() == [live.table.id]
            assert b.ownership.take_lapsed(lease_b.lapsed()) == 1
            taken = b.live[live.table.id]
            assert taken.owner is None and taken.epoch == 2 and taken.table.version == live.table.version
            assert lease_a.renew() == {live.table.id}  # a learns it lost the table

    asyncio.run(scenario())


def test_a_server_that_lost_its_lease_can_no_longer_write_and_nothing_is_applied_twice(database: str) -> None:
    async def scenario() -> None:
        async with two_servers(database) as (clock, (a, _), (b, lease_b)):
            live = await two_player_table(a)
            clock.advance(10)  # a paused (a long GC, a cut network): its lease lapsed and b took the table
            b.ownership.take_lapsed(lease_b.lapsed())
            taken = b.live[live.table.id]
            before = live.table.version
            seat = live.table.to_move()
            with pytest.raises(TableError) as refused:  # a still believes it owns the table: the database says no
                await a.act(live, live.table.bot_action(), f"g{seat}", "m1")
            assert refused.value.code == "moved" and live.table.version == before
            with pytest.raises(LeaseLost):
                await a.store.add_action(live.table.id, before + 1, "g0", None, {"type": "x"}, epoch=1)
            action = taken.table.bot_action()
            made = await b.act(taken, action, f"g{seat}", "m1")  # the new owner plays it
            assert made == before + 1
            assert await b.act(taken, json.loads(json.dumps(action)), f"g{seat}", "m1") == made  # sent again: once
            with b.store.engine.connect() as c:
                versions = [v for (v,) in c.execute(select(ActionRow.version).where(
                    ActionRow.table_id == live.table.id).order_by(ActionRow.version))]
            assert versions == list(range(1, made + 1))  # every version once: none lost, none twice

    asyncio.run(scenario())


def test_a_server_that_learns_it_lost_a_table_lets_it_go_and_closes_its_connections(database: str) -> None:
    async def scenario() -> None:
        async with two_servers(database) as (clock, (a, _), (b, lease_b)):
            live = await two_player_table(a)
            conn = a.join(live, "g0", None)
            clock.advance(10)
            b.ownership.take_lapsed(lease_b.lapsed())
            await a.ownership.once()
            assert live.table.id not in a.live and live.gone
            while (message := conn.queue.get_nowait()) is not None:
                assert message
            assert conn.close_code == 1012

    asyncio.run(scenario())


def test_a_write_fenced_by_its_epoch_lets_the_table_go_at_once_and_asking_again_finds_the_new_owner(
        database: str) -> None:
    """Regression (a relayed sit refused with 503 while tables were set up on a loaded machine): the server whose
    write was fenced kept the table, and its stale epoch, until its next renewal, so every retry failed again."""

    async def scenario() -> None:
        async with two_servers(database) as (clock, (a, lease_a), (b, lease_b)):
            live = await a.create(Settings(players=2, length=0), "g0")
            conn = a.join(live, "g0", None)
            clock.advance(10)  # a's loop was held up: its lease lapsed and b took the table
            b.ownership.take_lapsed(lease_b.lapsed())
            with pytest.raises(TableError) as refused:
                await a.act(live, {"type": "sit", "seat": 0, "name": "Anil"}, "g0")
            assert refused.value.code == "moved"
            assert live.table.id not in a.live and live.table.id not in lease_a.held  # let go at once
            assert conn.close_code == 1012
            again = a.get(live.table.id)  # what the HTTP request asks again: a view of b's table
            assert again is not None and again.owner == "b"

    asyncio.run(scenario())


def test_a_table_let_go_is_taken_at_once_by_whoever_asks_but_no_scan_takes_it(database: str) -> None:
    async def scenario() -> None:
        async with two_servers(database) as (_, (a, lease_a), (b, lease_b)):
            live = await a.create(Settings(players=2, length=0), "g0")
            a.registry.drop(live)
            assert lease_b.lapsed() == []  # nobody died: nothing to take over
            again = b.get(live.table.id)
            assert again is not None and again.owner is None and again.epoch == 2
            assert lease_a.owner(live.table.id) == "b"

    asyncio.run(scenario())


def test_leases_are_renewed_on_a_thread_of_their_own_while_the_event_loop_is_held_up(database: str) -> None:
    """Regression (a lease lapsed mid-setup on a loaded machine): renewals ran on the event loop, so a loop busy
    for longer than the lease let it lapse. The loop here is blocked outright until three renewals are seen."""

    async def scenario() -> None:
        async with two_servers(database) as (clock, (a, lease_a), (b, lease_b)):
            live = await two_player_table(a)
            renewals = 0
            renewed_thrice = threading.Event()
            renew = lease_a.renew

            def counted() -> set[str]:
                nonlocal renewals
                lost = renew()
                clock.now += 2.5  # each renewal comes 2.5 s of the fake clock after the last: in time
                renewals += 1
                if renewals == 3:
                    renewed_thrice.set()
                return lost

            lease_a.renew = counted  # type: ignore[method-assign]
            keeper = asyncio.create_task(a.ownership.keep_forever(every=0.01))
            await asyncio.sleep(0)
            assert renewed_thrice.wait(timeout=20), "the leases were not renewed while the event loop was busy"
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper
            assert renewals >= 3 and lease_a.owner(live.table.id) == "a"
            assert lease_b.lapsed() == [] and b.get(live.table.id) is not None  # 7.5 s later, still a's
            assert b.live.get(live.table.id) is None

    asyncio.run(scenario())


def test_the_renewer_hands_the_tables_it_lost_to_the_event_loop(database: str) -> None:
    async def scenario() -> None:
        async with two_servers(database) as (clock, (a, lease_a), (b, lease_b)):
            live = await two_player_table(a)
            clock.advance(10)
            b.ownership.take_lapsed(lease_b.lapsed())
            threads: list[int] = []

            def lost(table_ids: set[str]) -> int:
                threads.append(threading.get_ident())
                return a.ownership.lost(table_ids)

            renewer = Renewer(lease_a, 1.0, lost, asyncio.get_running_loop())
            await asyncio.to_thread(renewer.once)  # from another thread, as the renewer's own
            await asyncio.sleep(0)
            assert threads == [threading.get_ident()]  # let go on the event loop's thread
            assert live.table.id not in a.live and live.gone

    asyncio.run(scenario())


def test_a_staked_match_that_ended_on_a_server_that_died_before_writing_its_end_is_settled_once_by_its_taker(
        database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The owner commits the match's last action, then dies before writing the status and settling: the table
    still says "playing", so its lease lapses and another server takes it; that one finds the match over and
    writes its end and settlement (once: the ledger's match id), rather than holding it in memory for ever."""
    from taash.chips.audit import audit
    from taash.chips.ledger import wallet_of
    from taash.web.stakes import match_id

    async def scenario() -> None:
        async with two_servers(database) as (clock, (a, _), (b, lease_b)):
            live, ledger = await staked_and_started(a, b)

            async def died(*_: object, **__: object) -> None:
                raise ConnectionError("the server died")

            monkeypatch.setattr(a.store, "set_status", died)  # the match's end is never written by a
            while live.table.status != "finished":
                seat = live.table.to_move()
                await a.act(live, live.table.bot_action(), f"g{seat}")
            monkeypatch.undo()
            pending = ledger.match(match_id(live.table.id))
            assert pending is not None and pending.state == "pending"  # held, never settled by a
            clock.advance(10)
            assert lease_b.lapsed() == [live.table.id]  # its row still says "playing"
            b.ownership.take_lapsed(lease_b.lapsed())
            await asyncio.gather(*b.ownership.finishing)
            held = ledger.match(match_id(live.table.id))
            assert held is not None and held.state == "posted"
            assert lease_b.lapsed() == [] and live.table.id not in b.live
            with b.store.engine.connect() as c:
                status = c.exec_driver_sql(f"SELECT status FROM tables WHERE id = '{live.table.id}'").scalar()
            assert status == "finished"
            found = audit(b.store.engine)
            assert found.clean, found.faults  # the finished table's match posted, every chip accounted for
            total = sum(ledger.balance(wallet_of(g)) for g in ("g0", "g1"))
            assert total == 2 * ledger.starting_grant  # a two-player match between people moves chips, makes none
            b.ownership.take_lapsed([live.table.id])  # asked again: settled once, nothing moves
            await asyncio.gather(*b.ownership.finishing)
            assert sum(ledger.balance(wallet_of(g)) for g in ("g0", "g1")) == total

    asyncio.run(scenario())


async def staked_and_started(a: Hub, b: Hub) -> tuple[Live, Ledger]:
    """A two-person match for 1 chip a point on server ``a``, started (the stakes held), both servers keeping the
    books."""
    ledger = Ledger(a.store.engine)
    a.ledger = b.ledger = ledger
    for guest in ("g0", "g1"):
        ledger.open_wallet(guest)
    live = await a.create(Settings(players=2, length=0), "g0", stake=1)
    await a.act(live, {"type": "sit", "seat": 0, "name": "Anil"}, "g0")
    await a.act(live, {"type": "sit", "seat": 1, "name": "Bela"}, "g1")
    await a.act(live, {"type": "start"}, "g0")
    return live, ledger


async def play_out(a: Hub, live: Live) -> asyncio.Task[None]:
    """Play ``live`` on ``a`` in a task until its match is over in memory (its last action committed and told);
    returns the task, whose last action may still be writing the end."""

    async def play() -> None:
        while live.table.status != "finished":
            seat = live.table.to_move()
            await a.act(live, live.table.bot_action(), f"g{seat}")

    task = asyncio.create_task(play())
    while live.table.status != "finished":
        await asyncio.sleep(0.001)
    return task


def test_the_last_watcher_leaving_while_the_end_is_written_keeps_the_lease_so_a_death_there_is_settled_by_the_taker(
        database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The match's last action is committed and told; its end (status, settlement) is being written when the last
    connection leaves. Before, leaving dropped the table and let its lease go at once: the owner dying before the end
    was written left the table "playing" under nobody's lease, which no scan takes (a lease let go is not lapsed), its
    stakes held for ever in a cluster. Now the lease is kept until the end is written, so it lapses and the server
    that takes the table writes the end and settles it."""
    from taash.web.stakes import match_id

    async def scenario() -> None:
        async with two_servers(database) as (clock, (a, lease_a), (b, lease_b)):
            live, ledger = await staked_and_started(a, b)
            conn = a.join(live, "g0", None)
            stuck = asyncio.Event()

            async def hung(*_: object, **__: object) -> None:
                await stuck.wait()  # a dies while writing the end: it never comes

            monkeypatch.setattr(a.store, "set_status", hung)
            await play_out(a, live)
            a.leave(live, conn)  # the last connection goes while the end is being written
            assert lease_a.owner(live.table.id) == "a" and live.table.id in a.live  # kept, with its lease
            clock.advance(10)  # a died there: its lease lapses
            assert lease_b.lapsed() == [live.table.id]
            b.ownership.take_lapsed(lease_b.lapsed())
            await asyncio.gather(*b.ownership.finishing)
            held = ledger.match(match_id(live.table.id))
            assert held is not None and held.state == "posted"

    asyncio.run(scenario())


def test_an_owner_dying_between_writing_the_end_and_settling_leaves_the_settlement_to_the_taker(
        database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The end is written ("finished") but the owner dies before paying out: a finished table is not taken over,
    save one whose stakes are still held, which the taker settles (before, only a lone server's restart did)."""
    from taash.web.stakes import match_id

    async def scenario() -> None:
        async with two_servers(database) as (clock, (a, _), (b, lease_b)):
            live, ledger = await staked_and_started(a, b)
            monkeypatch.setattr(a.pipeline, "settle", lambda _: None)  # the end written, then a dies: never paid
            await (await play_out(a, live))
            pending = ledger.match(match_id(live.table.id))
            assert pending is not None and pending.state == "pending"
            clock.advance(10)
            assert lease_b.lapsed() == [live.table.id]
            b.ownership.take_lapsed(lease_b.lapsed())
            await asyncio.gather(*b.ownership.finishing)
            held = ledger.match(match_id(live.table.id))
            assert held is not None and held.state == "posted"
            assert lease_b.lapsed() == []  # settled: nothing is taken again

    asyncio.run(scenario())


def test_a_renewal_comes_every_third_of_the_lease() -> None:
    assert renew_period(3.0) == 1.0 and renew_period(30.0) == 10.0


def test_a_lone_server_keeps_no_leases_and_fences_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = make_engine(migrated_sqlite(tmp_path, "t.db"))
        store = Store(engine)
        try:
            hub = Hub(store, bot_delay=0)
            assert isinstance(hub.lease, SoleLease)
            live = await two_player_table(hub)
            assert live.epoch is None and live.owner is None
            with engine.connect() as c:
                assert c.exec_driver_sql("SELECT COUNT(*) FROM table_leases").scalar() == 0
        finally:
            store.close()

    asyncio.run(scenario())


def test_the_leases_migration_goes_down_and_up_again_and_tables_made_before_it_are_taken_when_asked_for(
        database: str) -> None:
    from sqlalchemy import inspect

    from tests.web.test_migrations import downgrade

    clock = FakeClock()

    async def before() -> tuple[str, int]:
        store = Store(make_engine(database))
        try:
            live = await two_player_table(Hub(store, bot_delay=0))
            return live.table.id, live.table.version
        finally:
            store.close()

    engine = make_engine(database)
    migrate(engine)
    engine.dispose()
    downgrade(database, "0017_tourney")
    engine = make_engine(database)
    assert "table_leases" not in inspect(engine).get_table_names()
    engine.dispose()
    migrate(make_engine(database), "0017_tourney")
    table_id, version = asyncio.run(before())
    b, store_b, _ = server(database, "b", clock)  # upgrades to the head
    try:
        live = b.get(table_id)
        assert live is not None and live.owner is None and live.epoch == 1 and live.table.version == version
    finally:
        store_b.close()


@pytest.mark.skipif(not POSTGRES, reason="TAASH_TEST_POSTGRES_URL is not set (row locks are PostgreSQL's)")
def test_a_renewal_and_a_batch_of_writes_lock_the_leases_in_one_order_and_never_deadlock() -> None:
    """The writer commits many tables' actions in one transaction (fencing each lease) while the renewer's thread
    renews them all: both lock the rows in the tables' order, so PostgreSQL never finds a deadlock (it did, and the
    renewal failed: "could not renew the leases: deadlock detected")."""
    with postgres_database() as url:
        clock = FakeClock()
        hub, store, lease = server(url, "a", clock)
        try:
            made = asyncio.run(new_tables(hub, 30))
            fenced = [(live.table.id, lease.held[live.table.id]) for live in made]
            failures: list[BaseException] = []

            def write_batches(order: list[tuple[str, int]]) -> None:
                try:
                    for _ in range(150):
                        with store.engine.begin() as c:
                            fence(c, order)
                except BaseException as e:
                    failures.append(e)

            def renew() -> None:
                try:
                    for _ in range(150):
                        assert lease.renew() == set()
                except BaseException as e:
                    failures.append(e)

            threads = [threading.Thread(target=write_batches, args=(list(reversed(fenced)),)),
                       threading.Thread(target=write_batches, args=(fenced[10:] + fenced[:10],)),
                       threading.Thread(target=renew)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
            assert failures == []
        finally:
            store.close()


@pytest.mark.skipif(not POSTGRES, reason="TAASH_TEST_POSTGRES_URL is not set (the pool is PostgreSQL's)")
def test_a_renewal_does_not_wait_for_the_pool_that_the_servers_requests_share() -> None:
    """Regression: under load the server's requests (worker threads reading the database) held every pooled
    connection, a renewal waited for one longer than a lease lasts, and the server lost tables it was serving (seen
    on 16 cores: "its lease was taken by another server")."""
    with postgres_database() as url:
        clock = FakeClock()
        hub, store, lease = server(url, "a", clock)
        try:
            asyncio.run(new_tables(hub, 3))
            busy = [store.engine.connect() for _ in range(store.engine.pool.size() + 5)]  # type: ignore[attr-defined]
            try:
                done = threading.Event()
                renewed: list[set[str]] = []
                threading.Thread(target=lambda: (renewed.append(lease.renew()), done.set()), daemon=True).start()
                assert done.wait(5), "the renewal waited for the shared pool"
                assert renewed == [set()]
            finally:
                for c in busy:
                    c.close()
        finally:
            lease.hand_over()
            store.close()
