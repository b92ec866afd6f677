"""Rematch offers and invitations to tables survive a server restart (in-process: a new hub, books and services
on the same database, with a clock whose monotonic time starts again while the wall clock goes on): an open offer
is there with its answers and its expiry, a rematch started still sends a late connection on, an invitation is
there until it runs out; and the tables ``0020_tourney2`` makes are as their models say."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine

from taash.tables.adapter import adapter
from taash.web.db import make_engine, migrate
from taash.web.friend_store import INVITE_SECONDS, Friends, FriendStore
from taash.web.hub import Connection, FakeClock, Hub, Live
from taash.web.lease import LEASE_SECONDS, DatabaseLease
from taash.web.rematch import REMATCH_SECONDS, Rematches
from taash.web.store import Store
from tests.web.server import migrated_sqlite
from tests.web.test_stakes import played_out, staked_table
from tests.web.test_tournaments import DATABASES, database


def told(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        assert text is not None
        out.append(json.loads(text))
    return out


class Life:
    """One run of a server over the database: its store, hub, rematches and friends."""

    def __init__(self, engine: Engine, clock: FakeClock, server: str | None = None):
        """``server``: one server among several sharing the database (its tables under leases), named so."""
        self.store = Store(engine)
        self.clock = clock
        lease = None if server is None else DatabaseLease(engine, server, seconds=LEASE_SECONDS, clock=clock.time)
        self.hub = Hub(self.store, bot_delay=0, away_seconds=0, turn_seconds=0, clock=clock, lease=lease)
        self.hub.restore()
        self.rematches = Rematches(self.hub)
        self.friends = Friends(FriendStore(self.store), self.hub)

    async def start(self) -> None:
        await self.rematches.restore()
        self.friends.restore()

    async def stop(self) -> None:
        """The server stops (or dies): its offers' timers end with it."""
        for offer in self.rematches.offers.values():
            if offer.timer is not None:
                offer.timer.cancel()
        await self.hub.close()
        self.store.close()


def restarted(clock: FakeClock, after: float = 5.0) -> FakeClock:
    """The clock of a server started again ``after`` seconds later: a new monotonic origin, the same wall."""
    return FakeClock(start=3.0, wall=clock.time() + after)


async def finished(hub: Hub) -> Live:
    live = await staked_table(hub, "seep", 2, 0, 0, people=2)
    await hub.act(live, {"type": "start"}, "g0")
    await played_out(hub, live)
    return live


def test_an_open_rematch_offer_survives_a_restart_with_its_answers_and_starts_when_accepted(tmp_path: Path) -> None:
    engine = make_engine(migrated_sqlite(tmp_path, "taash.db"))

    async def run() -> None:
        first = Life(engine, FakeClock())
        live = await finished(first.hub)
        first.hub.join(live, "g1", None)
        await first.rematches.answer(live, 0, "propose")
        until = first.clock.time() + REMATCH_SECONDS
        await first.stop()

        second = Life(engine, restarted(first.clock))
        await second.start()
        old = second.hub.get(live.table.id)
        assert old is not None
        conn = second.hub.join(old, "g1", None)
        second.rematches.greet(old, conn)
        assert told(conn)[-1] == {"type": "rematch", "version": old.table.version, "by": 0,
                                  "seats": ["accepted", "waiting"], "until": until}
        await second.rematches.answer(old, 1, "accept")
        started = [m for m in told(conn) if m["type"] == "rematch_started"]
        assert len(started) == 1
        new = second.hub.live[started[0]["table"]]
        assert [s.guest for s in new.table.seats] == ["g0", "g1"]
        await second.stop()

        third = Life(engine, restarted(second.clock))  # a late connection of the old table is sent on
        await third.start()
        late = third.hub.join(third.hub.get(live.table.id), None, None)  # type: ignore[arg-type]
        third.rematches.greet(third.hub.get(live.table.id), late)  # type: ignore[arg-type]
        assert told(late)[-1]["table"] == new.table.id
        with pytest.raises(Exception, match="started already"):
            await third.rematches.answer(third.hub.get(live.table.id), 1, "propose")  # type: ignore[arg-type]
        await third.stop()

    asyncio.run(run())
    engine.dispose()


def test_an_offer_keeps_its_expiry_across_a_restart(tmp_path: Path) -> None:
    engine = make_engine(migrated_sqlite(tmp_path, "taash.db"))

    async def run() -> None:
        first = Life(engine, FakeClock())
        live = await finished(first.hub)
        first.hub.join(live, "g1", None)
        await first.rematches.answer(live, 0, "propose")
        await first.stop()

        second = Life(engine, restarted(first.clock, after=REMATCH_SECONDS / 2))
        await second.start()
        old = second.hub.get(live.table.id)
        assert old is not None and live.table.id in second.rematches.offers
        watcher = second.hub.join(old, None, None)
        second.clock.advance(REMATCH_SECONDS / 2 - 1)  # not yet
        await asyncio.sleep(0)
        assert live.table.id in second.rematches.offers
        second.clock.advance(2)  # run out: the silent seat declined, played by a bot
        for _ in range(200):
            if any(m["type"] == "rematch_started" for m in told(watcher)):
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("the offer never ran out")
        assert live.table.id not in second.rematches.offers
        await second.stop()

    asyncio.run(run())
    engine.dispose()


@pytest.mark.parametrize("kind", DATABASES)
def test_among_several_servers_only_the_tables_owner_takes_up_its_restored_offer(tmp_path: Path, kind: str) -> None:
    """Servers sharing a database: one starting while another holds a finished table with an open offer leaves the
    offer to it (before, every server took up every offer, and each started its own rematch when it ran out);
    once that owner is gone, the next server to start takes the offer up alone, and starts the rematch once."""
    with database(kind, tmp_path) as engine:
        async def run() -> None:
            clock = FakeClock()
            a = Life(engine, clock, "a")
            await a.start()
            live = await finished(a.hub)
            a.hub.join(live, "g1", None)
            await a.rematches.answer(live, 0, "propose")
            b = Life(engine, clock, "b")
            await b.start()
            assert live.table.id not in b.rematches.offers and live.table.id not in b.hub.live
            view = b.hub.get(live.table.id)
            assert view is not None and view.owner == "a"  # its connections go to a, which has the offer
            await a.stop()
            clock.advance(LEASE_SECONDS + 1)  # a died: its lease lapses
            c = Life(engine, clock, "c")
            await c.start()
            assert live.table.id in c.rematches.offers and c.hub.live[live.table.id].epoch == 2
            clock.advance(REMATCH_SECONDS)  # the silent seat declines: c starts the rematch, b does nothing
            for _ in range(300):
                if live.table.id in c.rematches.started and not c.rematches.starting:
                    break
                await asyncio.sleep(0.01)
            else:
                raise AssertionError("the offer never ran out")
            assert not b.rematches.offers and not b.rematches.started
            assert len(b.store.tables(unfinished_only=True)) == 1  # one rematch table, made by c
            assert live.table.id not in c.hub.live  # kept for its offer alone: let go, with its lease
            assert c.hub.lease.owner(live.table.id) is None
            await b.stop()
            await c.stop()

        asyncio.run(run())


def died(life: Life) -> None:
    """A server killed (``kill -9``): its offers' timers end, nothing is handed over, its leases lapse in time."""
    for offer in life.rematches.offers.values():
        if offer.timer is not None:
            offer.timer.cancel()


@pytest.mark.parametrize("kind", DATABASES)
def test_a_live_server_takes_up_the_offer_of_a_holder_that_died_with_its_answers(tmp_path: Path, kind: str) -> None:
    """Regression (issue 30): an open offer whose holder died while other servers ran waited for a server to
    start. Now the servers' scan for lapsed leases takes it up once the finished table's lease lapses: one server
    alone (the lease claimed first), the seats' answers kept, and the rematch started once when the last accepts."""
    with database(kind, tmp_path) as engine:
        async def run() -> None:
            clock = FakeClock()
            a, b, c = Life(engine, clock, "a"), Life(engine, clock, "b"), Life(engine, clock, "c")
            for life in (a, b, c):
                await life.start()
            live = await staked_table(a.hub, "seep", 4, 0, 0, people=4)
            await a.hub.act(live, {"type": "start"}, "g0")
            await played_out(a.hub, live)
            for guest in ("g1", "g2", "g3"):
                a.hub.join(live, guest, None)
            await a.rematches.answer(live, 0, "propose")
            await a.rematches.answer(live, 1, "accept")
            died(a)
            await asyncio.gather(b.hub.ownership.scan(), c.hub.ownership.scan())
            assert not b.rematches.offers and not c.rematches.offers  # its lease has not lapsed yet
            clock.advance(LEASE_SECONDS + 1)
            await asyncio.gather(b.hub.ownership.scan(), c.hub.ownership.scan())  # both look, one takes it
            takers = [life for life in (b, c) if live.table.id in life.rematches.offers]
            assert len(takers) == 1, "no server (or both) took the offer up"
            (taker,) = takers
            other = c if taker is b else b
            old = taker.hub.live[live.table.id]
            assert old.epoch == 2 and taker.rematches.offers[live.table.id].answers == [
                "accepted", "accepted", "waiting", "waiting"]
            await other.hub.ownership.scan()
            assert not other.rematches.offers  # the taker holds it now
            conn = taker.hub.join(old, "g2", None)
            taker.rematches.greet(old, conn)
            assert told(conn)[-1]["seats"] == ["accepted", "accepted", "waiting", "waiting"]
            await taker.rematches.answer(old, 2, "accept")
            await taker.rematches.answer(old, 3, "accept")
            started = [m for m in told(conn) if m["type"] == "rematch_started"]
            assert len(started) == 1
            new = taker.hub.live[started[0]["table"]]
            assert [(s.guest, s.bot) for s in new.table.seats] == [(f"g{i}", False) for i in range(4)]
            assert new.table.status == "playing"
            await asyncio.gather(b.hub.ownership.scan(), c.hub.ownership.scan())
            assert not other.rematches.offers and not other.rematches.started
            assert [t.row.id for t in taker.store.tables(unfinished_only=True)] == [new.table.id]  # one rematch
            await b.stop()
            await c.stop()
            a.store.close()

        asyncio.run(run())


@pytest.mark.parametrize("kind", DATABASES)
def test_a_connection_to_the_finished_table_of_a_dead_holder_takes_its_offer_up_at_once(
        tmp_path: Path, kind: str) -> None:
    """A person reconnecting after the holder died, before any scan took the offer up, reaches a server that reads
    the finished table with nobody holding it: that server takes the offer up there and then, with his connection
    in it (before, he saw the finished table without the offer until he connected again), and one server alone."""
    with database(kind, tmp_path) as engine:
        async def run() -> None:
            clock = FakeClock()
            a, b, c = Life(engine, clock, "a"), Life(engine, clock, "b"), Life(engine, clock, "c")
            for life in (a, b, c):
                await life.start()
            live = await finished(a.hub)
            a.hub.join(live, "g1", None)
            await a.rematches.answer(live, 0, "propose")
            died(a)
            clock.advance(LEASE_SECONDS + 1)
            view = b.hub.get(live.table.id)
            assert view is not None and view.owner is None and live.table.id not in b.hub.live
            conn = b.hub.join(view, "g1", None)
            await b.rematches.take_up_here(view)
            b.rematches.greet(view, conn)
            assert b.hub.live[live.table.id] is view and view.epoch == 2
            assert told(conn)[-1]["seats"] == ["accepted", "waiting"]
            await c.hub.ownership.scan()
            other = c.hub.get(live.table.id)
            assert not c.rematches.offers and other is not None and other.owner == "b"
            await c.rematches.take_up_here(other)
            assert not c.rematches.offers
            await b.rematches.answer(view, 1, "accept")
            assert [m["type"] for m in told(conn)][-1] == "rematch_started"
            await b.stop()
            await c.stop()
            a.store.close()

        asyncio.run(run())


@pytest.mark.parametrize("kind", DATABASES)
def test_an_invitation_survives_a_restart_until_it_runs_out(tmp_path: Path, kind: str) -> None:
    with database(kind, tmp_path) as engine:
        async def run() -> None:
            first = Life(engine, FakeClock())
            settings = adapter("seep").settings(2, adapter("seep").presets[0], 0, "easy", True)
            live = await first.hub.create(settings, "g0")
            await first.friends.invite(live, "g0", "Ann", "g1")
            await first.stop()

            second = Life(engine, restarted(first.clock, after=60))
            await second.start()
            (kept,) = second.friends.invites_of("g1")
            assert (kept.table_id, kept.by, kept.by_name, kept.game) == (live.table.id, "g0", "Ann", "seep")
            await second.friends.forget("g1", live.table.id)
            await second.stop()

            third = Life(engine, restarted(second.clock))
            await third.start()
            assert third.friends.invites_of("g1") == []  # used up: gone for good
            await third.friends.invite(third.hub.live[live.table.id], "g0", "Ann", "g1")
            await third.stop()

            fourth = Life(engine, restarted(third.clock, after=INVITE_SECONDS + 1))
            await fourth.start()
            assert fourth.friends.invites_of("g1") == []  # it ran out while the server was down
            await fourth.stop()

        asyncio.run(run())


@pytest.mark.parametrize("kind", DATABASES)
def test_the_offer_tables_are_as_their_models_say(tmp_path: Path, kind: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from taash.web.db import Base
    from tests.web.test_migrations import downgrade

    with database(kind, tmp_path) as engine:
        with engine.connect() as c:
            differences = [d for d in compare_metadata(MigrationContext.configure(c), Base.metadata)
                           if any(t in repr(d) for t in ("rematch_offers", "table_invites", "'window'", "ends_at"))]
        assert differences == []
        url = engine.url.render_as_string(hide_password=False)
        engine.dispose()
        downgrade(url, "0019_offline")
        old = make_engine(url)
        migrate(old)
        old.dispose()
