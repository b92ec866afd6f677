"""Rematch, in-process on a real database (:mod:`taash.web.rematch`): a finished match proposed again starts at a
new table with the same seats and settings once every seated person accepts, stakes held again by the start's own
path; a seat that declines, leaves or does not answer in time gets a bot; the proposer may take it back; watchers
are told where the new table is; bad answers are refused in one sentence and change nothing; the audit is clean."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from taash.chips.audit import audit
from taash.chips.books import HOUSE_ACCOUNT
from taash.chips.ledger import Ledger, wallet_of
from taash.tables.adapter import TableError
from taash.web.db import make_engine
from taash.web.hub import Connection, FakeClock, Hub, Live
from taash.web.rematch import REMATCH_SECONDS, Rematches
from taash.web.stakes import match_id
from taash.web.store import Store
from tests.web.server import Person, migrated_sqlite, running_server
from tests.web.test_stakes import GRANT, played_out, staked_table


def told(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        assert text is not None
        out.append(json.loads(text))
    return out


def kinds(conn: Connection, prefix: str = "rematch") -> list[dict[str, Any]]:
    return [m for m in told(conn) if m["type"].startswith(prefix)]


Scenario = Callable[[Hub, Ledger, Rematches, FakeClock], Awaitable[None]]


def run(tmp_path: Path, scenario: Scenario) -> None:
    engine = make_engine(migrated_sqlite(tmp_path, "taash.db"))
    store = Store(engine)
    ledger = Ledger(engine, starting_grant=GRANT)
    clock = FakeClock()
    hub = Hub(store, bot_delay=0, away_seconds=0, turn_seconds=0, ledger=ledger, clock=clock)

    async def go() -> None:
        for g in ("g0", "g1"):
            ledger.open_wallet(g)
        await scenario(hub, ledger, Rematches(hub), clock)
        await hub.close()

    asyncio.run(go())
    assert audit(engine).faults == []
    store.close()
    engine.dispose()


async def finished(hub: Hub, stake: int = 5) -> tuple[Live, Connection, Connection, Connection]:
    """A staked two-player Seep deal played out by bots, then its two people and a watcher connected."""
    live = await staked_table(hub, "seep", 2, 0, stake, people=2)
    await hub.act(live, {"type": "start"}, "g0")
    await played_out(hub, live)
    conns = hub.join(live, "g0", None), hub.join(live, "g1", None), hub.join(live, None, None)
    for c in conns:
        told(c)
    return live, *conns


def new_table(hub: Hub, message: dict[str, Any]) -> Live:
    assert message["type"] == "rematch_started"
    new = hub.live[message["table"]]
    return new


def test_a_rematch_everyone_accepts_starts_the_same_seats_with_the_stakes_held_again(tmp_path: Path) -> None:
    async def scenario(hub: Hub, ledger: Ledger, rematches: Rematches, clock: FakeClock) -> None:
        live, _c0, c1, watcher = await finished(hub)
        await rematches.answer(live, 0, "propose")
        (offer,) = kinds(c1)
        assert offer == {"type": "rematch", "version": live.table.version, "by": 0,
                         "seats": ["accepted", "waiting"], "until": clock.time() + REMATCH_SECONDS}
        assert kinds(watcher)[0]["seats"] == ["accepted", "waiting"]
        before = {g: ledger.balance(wallet_of(g)) for g in ("g0", "g1")}
        await rematches.answer(live, 1, "accept")
        said = kinds(watcher)
        assert [m["type"] for m in said] == ["rematch", "rematch_started"]
        assert said[0]["seats"] == ["accepted", "accepted"]
        new = new_table(hub, said[1])
        assert new.table.status == "playing" and new.table.settings == live.table.settings
        assert [(s.guest, s.name, s.bot) for s in new.table.seats] == [
            (s.guest, s.name, s.bot) for s in live.table.seats]
        assert new.table.owner == "g0" and new.stake == live.stake
        held = ledger.match(match_id(new.table.id))
        assert held is not None and held.state == "pending"
        hold = 5 * 100  # a single deal of Seep holds 100 points' worth of the stake
        assert {g: ledger.balance(wallet_of(g)) for g in ("g0", "g1")} == {g: b - hold for g, b in before.items()}
        with pytest.raises(TableError) as again:
            await rematches.answer(live, 1, "propose")
        assert again.value.code == "rematch_started"
        late = hub.join(live, None, None)
        rematches.greet(live, late)
        assert kinds(late) == [{"type": "rematch_started", "version": live.table.version, "table": new.table.id}]
        await played_out(hub, new)
        assert sum(ledger.balance(wallet_of(g)) for g in ("g0", "g1")) == 2 * GRANT

    run(tmp_path, scenario)


def test_everyone_connected_is_told_the_new_table(tmp_path: Path) -> None:
    async def scenario(hub: Hub, ledger: Ledger, rematches: Rematches, clock: FakeClock) -> None:
        live, c0, c1, watcher = await finished(hub)
        await rematches.answer(live, 1, "propose")
        await rematches.answer(live, 0, "accept")
        started = [[m for m in kinds(c) if m["type"] == "rematch_started"] for c in (c0, c1, watcher)]
        assert started[0] == started[1] == started[2] and len(started[0]) == 1
        assert new_table(hub, started[0][0]).table.owner == "g1"

    run(tmp_path, scenario)


@pytest.mark.parametrize("how", ["decline", "leave", "silence"])
def test_a_seat_that_declines_leaves_or_does_not_answer_is_played_by_a_bot(tmp_path: Path, how: str) -> None:
    async def scenario(hub: Hub, ledger: Ledger, rematches: Rematches, clock: FakeClock) -> None:
        live, _c0, c1, watcher = await finished(hub)
        await rematches.answer(live, 0, "propose")
        before = ledger.balance(wallet_of("g1"))
        if how == "decline":
            await rematches.answer(live, 1, "decline")
        elif how == "leave":
            hub.leave(live, c1)
            await rematches.left(live, c1)
        said = []
        if how == "silence":
            clock.advance(REMATCH_SECONDS - 1)
            await asyncio.sleep(0.05)
            assert [m["type"] for m in kinds(watcher)] == ["rematch"]  # the offer only
            clock.advance(1)
            for _ in range(500):
                said += kinds(watcher)
                if said and said[-1]["type"] == "rematch_started":
                    break
                await asyncio.sleep(0.01)
        said += kinds(watcher)
        assert said[-2]["seats"] == ["accepted", {"decline": "declined", "leave": "left", "silence": "declined"}[how]]
        new = new_table(hub, said[-1])
        assert new.table.seats[0].guest == "g0" and new.table.seats[1].bot
        assert new.table.status == "playing"
        assert ledger.balance(wallet_of("g1")) == before  # nothing held from the one who said no
        house, mine = ledger.balance(HOUSE_ACCOUNT), ledger.balance(wallet_of("g0"))
        await played_out(hub, new)
        # The bot plays with the house's chips: both holds (500 each) come back between g0 and the house, and g1
        # is not touched.
        assert (ledger.balance(wallet_of("g0")) - mine) + (ledger.balance(HOUSE_ACCOUNT) - house) == 2 * 500
        assert ledger.balance(wallet_of("g1")) == before

    run(tmp_path, scenario)


def test_a_person_away_when_it_is_proposed_counts_as_left(tmp_path: Path) -> None:
    async def scenario(hub: Hub, ledger: Ledger, rematches: Rematches, clock: FakeClock) -> None:
        live, _c0, c1, watcher = await finished(hub)
        hub.leave(live, c1)
        await rematches.answer(live, 0, "propose")  # nobody to wait for: it starts at once
        said = kinds(watcher)
        assert said[0]["seats"] == ["accepted", "left"]
        assert new_table(hub, said[1]).table.seats[1].bot

    run(tmp_path, scenario)


def test_the_proposer_may_take_it_back_and_then_nothing_starts(tmp_path: Path) -> None:
    async def scenario(hub: Hub, ledger: Ledger, rematches: Rematches, clock: FakeClock) -> None:
        live, _c0, c1, _watcher = await finished(hub)
        tables = len(hub.live)
        await rematches.answer(live, 0, "propose")
        await rematches.answer(live, 0, "decline")
        said = kinds(c1)
        assert said[-1] == {"type": "rematch_over", "version": live.table.version,
                            "reason": "P0 took back the rematch"}
        assert len(hub.live) == tables and not rematches.offers
        with pytest.raises(TableError) as e:
            await rematches.answer(live, 1, "accept")
        assert e.value.code == "no_rematch"
        clock.advance(REMATCH_SECONDS)
        await asyncio.sleep(0)
        assert len(hub.live) == tables

    run(tmp_path, scenario)


def test_a_short_wallet_refuses_the_rematch_and_nothing_is_held(tmp_path: Path) -> None:
    async def scenario(hub: Hub, ledger: Ledger, rematches: Rematches, clock: FakeClock) -> None:
        live, _c0, _c1, watcher = await finished(hub, stake=5)
        short = ledger.balance(wallet_of("g1")) - 100  # the rematch holds 500 from each
        ledger.transfer("test-short-g1", wallet_of("g1"), HOUSE_ACCOUNT, short)
        tables = set(hub.live)
        await rematches.answer(live, 0, "propose")
        await rematches.answer(live, 1, "accept")
        over = kinds(watcher)[-1]
        assert over["type"] == "rematch_over" and over["reason"].startswith("the rematch could not start: ")
        assert "\n" not in over["reason"] and "500" in over["reason"]
        assert set(hub.live) == tables  # the new table was abandoned
        assert ledger.balance(wallet_of("g1")) == 100

    run(tmp_path, scenario)


@pytest.mark.parametrize(("seat", "said", "code"), [
    (None, "propose", "not_seated"), (0, "maybe", "malformed"), (0, None, "malformed"), (0, "accept", "no_rematch")])
def test_bad_answers_are_refused_in_one_sentence(tmp_path: Path, seat: int | None, said: Any, code: str) -> None:
    async def scenario(hub: Hub, ledger: Ledger, rematches: Rematches, clock: FakeClock) -> None:
        live, c0, _c1, _watcher = await finished(hub)
        with pytest.raises(TableError) as e:
            await rematches.answer(live, seat, said)
        assert e.value.code == code and "\n" not in str(e.value)
        assert not rematches.offers and not kinds(c0)

    run(tmp_path, scenario)


def test_a_match_still_playing_has_no_rematch(tmp_path: Path) -> None:
    async def scenario(hub: Hub, ledger: Ledger, rematches: Rematches, clock: FakeClock) -> None:
        live = await staked_table(hub, "seep", 2, 0, 0, people=2)
        with pytest.raises(TableError) as e:
            await rematches.answer(live, 0, "propose")
        assert e.value.code == "not_finished"

    run(tmp_path, scenario)


def test_the_rematch_over_the_websocket(tmp_path: Path) -> None:
    """Through a real server: refusals answer the message's id in one sentence; a proposal against bots starts at
    once; a later proposal, and a new connection to the old table, are sent on to the new one."""
    with running_server(tmp_path) as server:
        me = Person(server, "Solo")
        old = me.post("/api/quick", {"game": "seep", "players": 2, "baazis": 0, "level": "easy"}).json()["id"]
        sock = me.socket(old)
        sock.recv()
        deadline = time.monotonic() + 120
        while sock.state["status"] != "finished":  # type: ignore[index]
            assert time.monotonic() < deadline
            if sock.my_turn():
                sock.move()
                sock.recv_until("ack")
            else:
                sock.recv()
        sock.drain()
        for answer, code in (("maybe", "malformed"), ("accept", "no_rematch")):
            sock.send({"type": "rematch", "answer": answer, "id": f"bad-{answer}"})
            refusal = sock.recv_until("error")
            assert refusal["id"] == f"bad-{answer}" and refusal["code"] == code and "\n" not in refusal["message"]
        sock.send({"type": "rematch", "answer": "propose", "id": "r1"})
        offer = sock.recv_until("rematch")
        assert offer["seats"] == ["accepted", "bot"] and offer["by"] == 0
        new = sock.recv_until("rematch_started")["table"]
        sock.send({"type": "rematch", "answer": "propose", "id": "r2"})
        assert sock.recv_until("error")["code"] == "rematch_started"
        assert sock.recv_until("rematch_started")["table"] == new
        sock.close()
        late = me.socket(old)
        assert late.recv()["type"] == "snapshot"
        assert late.recv_until("rematch_started") == {"type": "rematch_started", "version": offer["version"],
                                                      "table": new}
        late.close()
        table = me.http.get(f"/api/tables/{new}").json()
        assert table["status"] == "playing" and table["public"] is False
        assert table["seats"][0]["name"] == "Solo" and table["seats"][1]["bot"]
