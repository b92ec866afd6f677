"""The hub in-process, with a database that answers when the test says so: nobody is told of an action (not
even a connection opened meanwhile) before its write has committed, and a write that fails changes nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from taash.tables.adapter import Settings, TableError
from taash.web.hub import Connection, FakeClock, Hub, Live
from tests.web.server import migrated_sqlite


class HeldStore:
    """A store whose action writes wait for :attr:`release` and fail while :attr:`fail` is set."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.release.set()
        self.fail = False
        self.actions: list[tuple[str, int, dict[str, Any]]] = []
        self.statuses: list[str] = []
        self.results: list[Any] = []

    async def add_table(self, row: Any) -> None:
        return None

    async def add_action(self, table_id: str, version: int, guest: str | None, client_id: str | None,
                         body: dict[str, Any], extra_spent: float | None = None) -> None:
        await self.release.wait()
        if self.fail:
            raise RuntimeError("disk full")
        self.actions.append((table_id, version, body))

    async def set_status(self, table_id: str, status: str, results: Any = ()) -> None:
        self.statuses.append(status)
        self.results.extend(results)

    async def add_deals(self, table_id: str, first: int, dealt: list[Any]) -> None:
        return None

    def table(self, table_id: str) -> None:
        return None

    def table_id_of_code(self, code: str) -> None:
        return None


def drain(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        assert text is not None
        out.append(json.loads(text))
    return out


async def two_player_table(hub: Hub) -> Live:
    live = await hub.create(Settings(players=2, length=0), "g0")
    await hub.act(live, {"type": "sit", "seat": 0, "name": "Anil"}, "g0")
    await hub.act(live, {"type": "sit", "seat": 1, "name": "Bela"}, "g1")
    await hub.act(live, {"type": "start"}, "g0")
    return live


def test_nobody_is_told_of_an_action_before_it_is_committed() -> None:
    async def scenario() -> None:
        store = HeldStore()
        hub = Hub(store, bot_delay=0)  # type: ignore[arg-type]
        live = await two_player_table(hub)
        bidder = live.table.to_move()
        assert bidder is not None
        watcher = hub.join(live, None, None)
        drain(watcher)
        before = live.table.version
        bid = live.table.session.state.match.legal_bids()[0]  # type: ignore[union-attr]
        store.release.clear()
        task = asyncio.create_task(hub.act(live, {"type": "bid", "value": bid}, f"g{bidder}", "m1", before))
        for _ in range(5):
            await asyncio.sleep(0)
        assert not task.done()
        # The write is not committed: the table, a new connection's snapshot and the watchers know nothing of it.
        assert live.table.version == before and live.table.summary()["version"] == before
        late = hub.join(live, None, None)
        snapshot = drain(late)[0]
        assert snapshot["version"] == before and snapshot["state"]["deal"]["phase"] == "bid"
        assert drain(watcher) == []
        store.release.set()
        assert await task == before + 1
        for conn in (watcher, late):
            update = drain(conn)[0]
            assert update["type"] == "update" and update["version"] == before + 1
            assert update["state"]["deal"]["phase"] == "play"
        assert store.actions[-1][1] == before + 1

    asyncio.run(scenario())


def test_an_action_the_database_refuses_changes_nothing() -> None:
    async def scenario() -> None:
        store = HeldStore()
        hub = Hub(store, bot_delay=0)  # type: ignore[arg-type]
        live = await two_player_table(hub)
        bidder = live.table.to_move()
        watcher = hub.join(live, None, None)
        drain(watcher)
        before = live.table.version
        state = json.dumps(live.table.state_for(bidder), sort_keys=True)
        bid = live.table.session.state.match.legal_bids()[0]  # type: ignore[union-attr]
        store.fail = True
        with pytest.raises(TableError) as refused:
            await hub.act(live, {"type": "bid", "value": bid}, f"g{bidder}", "m1", before)
        assert refused.value.code == "server"
        assert live.table.version == before
        assert json.dumps(live.table.state_for(bidder), sort_keys=True) == state
        assert drain(watcher) == [] and not live.seen
        # The same message again, once the database is back: applied (it was not remembered as done).
        store.fail = False
        assert await hub.act(live, {"type": "bid", "value": bid}, f"g{bidder}", "m1", before) == before + 1
        assert await hub.act(live, {"type": "bid", "value": bid}, f"g{bidder}", "m1", before) == before + 1
        assert [v for _, v, _ in store.actions].count(before + 1) == 1

    asyncio.run(scenario())


def test_an_action_the_table_refuses_is_never_written() -> None:
    async def scenario() -> None:
        store = HeldStore()
        hub = Hub(store, bot_delay=0)  # type: ignore[arg-type]
        live = await two_player_table(hub)
        written = len(store.actions)
        waiting = 1 - (live.table.to_move() or 0)
        for action, code in [({"type": "bid", "value": 13}, "not_your_turn"), ({"type": "dance"}, "bad"),
                             ({"type": "sit", "seat": 1, "name": "X"}, "started")]:
            with pytest.raises(TableError) as refused:
                await hub.act(live, action, f"g{waiting}")
            assert refused.value.code == code
        assert len(store.actions) == written
        assert store.statuses == ["playing"]

    asyncio.run(scenario())


def test_a_bot_moves_at_once_after_a_person_who_came_back_plays() -> None:
    """Regression: a bot waiting to play for an away person kept the table's bot task for its whole wait, so
    when the person came back and played, the next bot did not move for up to ``away_seconds``."""

    async def scenario() -> None:
        clock = FakeClock()  # it never moves: no bot may wait for Anil's 30 seconds to pass
        hub = Hub(HeldStore(), bot_delay=0, away_seconds=30, clock=clock)  # type: ignore[arg-type]
        live = await hub.create(Settings(players=2, length=0), "g0")
        await hub.act(live, {"type": "sit", "seat": 0, "name": "Anil"}, "g0")  # and never connects, yet
        await hub.act(live, {"type": "bots"}, "g0")
        await hub.act(live, {"type": "start"}, "g0")
        hub.schedule_bots(live)
        for _ in range(2000):  # the bot's moves, each thought out in a worker thread
            if live.table.to_move() == 0:
                break
            await asyncio.sleep(0.005)
        assert live.table.to_move() == 0 and live.bot_task is not None  # waiting out Anil's 30 seconds
        assert live.bot_due == live.away_since[0] + 30
        conn = hub.join(live, "g0", None)
        while live.table.to_move() == 0:  # Anil is back and bids, and plays
            await hub.act(live, live.table.bot_action(), "g0", f"m{live.table.version}", live.table.version)
        before = live.table.version
        for _ in range(2000):
            if live.table.version > before:
                break
            await asyncio.sleep(0.005)
        assert live.table.version > before, "the bot did not answer Anil's play"
        hub.leave(live, conn)
        await hub.close()

    asyncio.run(scenario())


def test_a_restart_puts_right_a_status_the_crash_left_unwritten(tmp_path: Path) -> None:
    """The status is written just after the action that changed it: if the server died in between, the restart
    works it out from the actions (a finished match is not loaded again as a live table)."""
    from sqlalchemy import update

    from taash.web.db import TableRow, make_engine
    from taash.web.store import Store

    engine = make_engine(migrated_sqlite(tmp_path, "t.db"))

    async def play_a_deal() -> str:
        store = Store(engine)
        hub = Hub(store, bot_delay=0)
        live = await two_player_table(hub)
        while live.table.status != "finished":
            seat = live.table.to_move()
            await hub.act(live, live.table.bot_action(), f"g{seat}")
        store.close()
        return live.table.id

    table_id = asyncio.run(play_a_deal())
    with engine.begin() as c:  # as if killed before the status was written
        c.execute(update(TableRow).where(TableRow.id == table_id).values(status="playing"))
    store = Store(make_engine(f"sqlite:///{tmp_path / 't.db'}"))
    try:
        hub = Hub(store)
        assert hub.restore() == 0 and table_id not in hub.live
        stored = store.table(table_id)
        assert stored is not None and stored.row.status == "finished"
    finally:
        store.close()


def test_a_restart_deals_the_stored_packs_even_when_taash_now_shuffles_otherwise(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each deal's pack is stored before anyone sees it: a server upgraded to a taash that shuffles differently
    continues a match in progress with the cards it was dealt (the seed alone would deal others)."""
    from sqlalchemy import delete

    import taash.seep.match
    from taash.web.db import DealRow, make_engine
    from taash.web.store import Store

    engine = make_engine(migrated_sqlite(tmp_path, "t.db"))

    async def into_the_second_deal() -> Live:
        store = Store(engine)
        hub = Hub(store, bot_delay=0)
        live = await hub.create(Settings(players=2, length=3), "g0")
        await hub.act(live, {"type": "sit", "seat": 0, "name": "Anil"}, "g0")
        await hub.act(live, {"type": "sit", "seat": 1, "name": "Bela"}, "g1")
        await hub.act(live, {"type": "start"}, "g0")
        assert live.table.session.state.match is not None
        while len(live.table.session.state.match.dealt) < 2 or len(live.table.session.state.match.deal.plays) < 5:
            await hub.act(live, live.table.bot_action(), f"g{live.table.to_move()}")
        store.close()
        return live

    before = asyncio.run(into_the_second_deal())
    assert before.table.session.state.match is not None and before.deals_stored == 2
    original = taash.seep.match.fair_deck

    def upgraded(*args: Any) -> tuple[list[int], list[str]]:
        """The upgrade: the cards below the bidder's four and the floor's four in the reverse order (a valid deal)."""
        deck, redeals = original(*args)
        return deck[:8] + deck[8:][::-1], redeals

    monkeypatch.setattr(taash.seep.match, "fair_deck", upgraded)

    store = Store(make_engine(f"sqlite:///{tmp_path / 't.db'}"))
    try:
        hub = Hub(store)
        assert hub.restore() == 1
        after = hub.live[before.table.id]
        assert after.table.session.state.match is not None
        assert after.table.session.state.match.dealt == before.table.session.state.match.dealt
        assert after.table.session.state.match.deal.deck == before.table.session.state.match.deal.deck
        for seat in (None, 0, 1):
            assert after.table.state_for(seat) == before.table.state_for(seat)

        async def on_to_the_third_deal() -> None:
            assert after.table.session.state.match is not None
            while len(after.table.session.state.match.dealt) < 3 and after.table.status == "playing":
                await hub.act(after, after.table.bot_action(), f"g{after.table.to_move()}")

        asyncio.run(on_to_the_third_deal())
        stored = store.table(before.table.id)
        assert stored is not None and stored.deals == after.table.dealt_so_far()
    finally:
        store.close()
    with engine.begin() as c:  # without the stored packs, the new shuffle deals other cards: the plays no longer fit
        c.execute(delete(DealRow))
    store = Store(make_engine(f"sqlite:///{tmp_path / 't.db'}"))
    try:
        assert Hub(store).restore() == 0
    finally:
        store.close()


def test_a_table_whose_actions_no_longer_replay_does_not_stop_the_others(tmp_path: Path) -> None:
    """Say a stored play became illegal (a bug, a changed rule): the server starts, leaves that table out (and
    says so in its log), and every other table is restored."""
    from sqlalchemy import update

    from taash.web.db import ActionRow, make_engine
    from taash.web.store import Store

    engine = make_engine(migrated_sqlite(tmp_path, "t.db"))

    async def two_tables() -> tuple[str, str]:
        store = Store(engine)
        hub = Hub(store, bot_delay=0)
        good, bad = await two_player_table(hub), await two_player_table(hub)
        for live in (good, bad):
            while live.table.version < 8:
                seat = live.table.to_move()
                await hub.act(live, live.table.bot_action(), f"g{seat}")
        store.close()
        return good.table.id, bad.table.id

    good, bad = asyncio.run(two_tables())
    with engine.begin() as c:
        c.execute(update(ActionRow).where(ActionRow.table_id == bad, ActionRow.version == 6)
                  .values(body=json.dumps({"type": "play", "play": {"card": "Zz"}})))
    store = Store(make_engine(f"sqlite:///{tmp_path / 't.db'}"))
    try:
        hub = Hub(store)
        assert hub.restore() == 1 and good in hub.live and bad not in hub.live
        assert hub.get(bad) is None and hub.get(good) is hub.live[good]
        assert hub.live[good].table.version == 8
    finally:
        store.close()


def test_a_bot_that_fails_is_replaced_by_the_engine_s_first_legal_move(monkeypatch: pytest.MonkeyPatch) -> None:
    from taash.tables.table import BotTurn

    def broken(self: BotTurn) -> dict[str, Any]:
        raise RuntimeError("a bug in a bot")

    monkeypatch.setattr(BotTurn, "action", broken)

    async def scenario() -> None:
        hub = Hub(HeldStore(), bot_delay=0)  # type: ignore[arg-type]
        live = await hub.create(Settings(players=2, length=0), "g0")
        await hub.act(live, {"type": "bots"}, "g0")
        await hub.act(live, {"type": "start"}, "g0")
        hub.schedule_bots(live)
        for _ in range(500):
            if live.table.status == "finished":
                break
            await asyncio.sleep(0.01)
        assert live.table.status == "finished"
        await hub.close()

    asyncio.run(scenario())


def test_abandoned_waiting_tables_make_room_when_the_server_is_full() -> None:
    async def scenario() -> None:
        hub = Hub(HeldStore(), max_tables=3)  # type: ignore[arg-type]
        abandoned = await hub.create(Settings(players=2), "g1")
        watched = await hub.create(Settings(players=2), "g2")
        conn = hub.join(watched, None, None)
        playing = await two_player_table(hub)
        with pytest.raises(TableError) as full:
            await hub.create(Settings(players=2), "g3")
        assert full.value.code == "full"  # nothing is old enough yet
        for live in (abandoned, watched, playing):
            live.last_active -= 3600
        fresh = await hub.create(Settings(players=2), "g3")
        assert abandoned.table.id not in hub.live and abandoned.table.code not in hub.codes
        assert {watched.table.id, playing.table.id, fresh.table.id} <= set(hub.live)
        hub.leave(watched, conn)

    asyncio.run(scenario())


def test_a_bot_whose_play_is_refused_does_not_stop_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from taash.tables.table import BotTurn

    def nonsense(self: BotTurn) -> dict[str, Any]:
        return {"type": "play", "play": {"card": "Zz"}} if self.view.phase.name == "PLAY" else {
            "type": "bid", "value": 99}

    monkeypatch.setattr(BotTurn, "action", nonsense)

    async def scenario() -> None:
        hub = Hub(HeldStore(), bot_delay=0)  # type: ignore[arg-type]
        live = await hub.create(Settings(players=2, length=0), "g0")
        await hub.act(live, {"type": "bots"}, "g0")
        await hub.act(live, {"type": "start"}, "g0")
        hub.schedule_bots(live)
        for _ in range(500):
            if live.table.status == "finished":
                break
            await asyncio.sleep(0.01)
        assert live.table.status == "finished"
        await hub.close()

    asyncio.run(scenario())


def test_a_pool_match_goes_on_being_told_once_a_seat_is_out_of_the_pool() -> None:
    """Regression: the seats out of a pool were keyed by number, which the messages' JSON encoder refuses, so the
    move that put a seat out (and every one after it) was committed but never told to anyone."""
    async def scenario() -> None:
        store = HeldStore()
        hub = Hub(store, bot_delay=3600, turn_seconds=0)  # type: ignore[arg-type]
        live = await hub.create(Settings("rummy", 2, None, "pool101", "easy", True), "g0")
        await hub.act(live, {"type": "sit", "seat": 0, "name": "Anil"}, "g0")
        await hub.act(live, {"type": "sit", "seat": 1, "name": "Bela"}, "g1")
        watcher = hub.join(live, None, None)
        await hub.act(live, {"type": "start"}, "g0")
        table = live.table
        while table.status == "playing":  # Bela drops at each of her turns, 20 points a deal, until she is out
            seat = table.to_move()
            legal = table.state_for(seat)["deal"]["legal"]
            action = {"type": "drop"} if seat == 1 else next(m for m in legal if m["type"] != "drop")
            await hub.act(live, action, f"g{seat}", None, table.version)
        last = drain(watcher)[-1]
        assert last["version"] == table.version
        assert last["state"]["score"]["eliminated"] == {"1": 6} and last["state"]["score"]["winner"] == 0

    asyncio.run(scenario())


@pytest.mark.parametrize(("game", "players", "length"), [("rummy", 6, "pool101"), ("seep", 4, 1)])
def test_every_message_is_the_state_encoded_whole(game: str, players: int, length: int | str) -> None:
    """The parts every seat shares are encoded once a version: each message is, byte for byte, its seat's whole
    state encoded (each seat, a spectator, and the owner's message apart from theirs)."""
    import orjson

    from taash.tables.adapter import adapter

    async def scenario() -> None:
        hub = Hub(HeldStore(), bot_delay=3600, turn_seconds=0)  # type: ignore[arg-type]
        settings = adapter(game).settings(players, None, length, "easy", True)
        live = await hub.create(settings, "g0")
        for seat in range(players):
            await hub.act(live, {"type": "sit", "seat": seat, "name": f"P{seat}"}, f"g{seat}")
        conns = [hub.join(live, f"g{seat}", None) for seat in range(players)] + [hub.join(live, None, None)]
        await hub.act(live, {"type": "start"}, "g0")
        table = live.table
        for _ in range(60):
            said = drain(conns[0])[-1]["said"]
            for conn in conns:
                told = drain(conn) if conn is not conns[0] else []
                seat = conn.seat
                state = table.state_for(seat)
                state.update(seats_present=hub.presence(live), seats_account=[False] * players, timer=None,
                             can_manage=seat is not None)
                whole = orjson.dumps({"type": "update", "version": table.version, "said": said, "state": state})
                assert hub.message_for(live, seat, "update", conn.guest, said=said).encode() == whole
                if told:
                    assert told[-1] == orjson.loads(whole)
            if table.status != "playing":
                break
            await hub.act(live, table.bot_action(), None)

    asyncio.run(scenario())


def test_a_move_is_read_and_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table reads a move once (its step is made after the write, not read again), and a refused one is read
    once too: the session's reading is the only check."""
    from taash.tables.match import TableMatch

    reads: list[dict[str, Any]] = []
    read = TableMatch.read

    def counted(self: TableMatch, seat: int | None, message: Any) -> Any:
        reads.append(dict(message))
        return read(self, seat, message)

    async def scenario() -> None:
        hub = Hub(HeldStore(), bot_delay=0)  # type: ignore[arg-type]
        live = await two_player_table(hub)
        monkeypatch.setattr(TableMatch, "read", counted)
        bidder = live.table.to_move()
        bid = live.table.session.state.match.legal_bids()[0]  # type: ignore[union-attr]
        with pytest.raises(TableError):
            await hub.act(live, {"type": "bid", "value": 99}, f"g{bidder}")
        await hub.act(live, {"type": "bid", "value": bid}, f"g{bidder}")
        assert reads == [{"type": "bid", "value": 99}, {"type": "bid", "value": bid}]

    asyncio.run(scenario())
