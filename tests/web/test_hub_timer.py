"""The hub's turn timer on a fake clock (a turn of 30 s, 60 s of extra time a match, moved on by the test: no
test here sleeps for time to pass): at Rummy a connected person out of time has the rule book's timeout made for
him (the stock's card discarded; the third in a row drops him), stored like any action, so that a restart and the
record play it again the same way; a person away is still played for by a bot; the extra time is spent once a
match. The waits left are for work (a bot thinks in a worker thread), never for the clock."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from taash.packs import face_name
from taash.tables.adapter import adapter
from taash.web.db import make_engine
from taash.web.hub import Connection, FakeClock, Hub, Live, rebuild
from taash.web.store import Store
from tests.web.server import migrated_sqlite

TURN = 30.0
EXTRA = 60.0


def drain(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


async def rummy_table(hub: Hub) -> Live:
    """Anil (g0, seat 0) against a bot, at 13-card Rummy, points."""
    settings = adapter("rummy").settings(2, "octro", "points", "easy", False)
    live = await hub.create(settings, "g0")
    await hub.act(live, {"type": "sit", "seat": 0, "name": "Anil"}, "g0")
    await hub.act(live, {"type": "bots"}, "g0")
    await hub.act(live, {"type": "start"}, "g0")
    return live


async def done(check: Callable[[], bool], what: str) -> None:
    """Wait for work in progress (a bot thinking in a worker thread, a write) until ``check``; the clock stays."""
    for _ in range(4000):
        if check():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(what)


async def his_turn(live: Live, seat: int = 0) -> None:
    await done(lambda: live.table.to_move() == seat and live.table.status == "playing",
               f"his turn never came: {live.table.status} {live.table.log[-4:]}")


async def not_moved(live: Live, version: int) -> None:
    """Let every task that is due run (none should move the table)."""
    for _ in range(20):
        await asyncio.sleep(0)
    assert live.table.version == version, live.table.log[-2:]


async def moved(live: Live, version: int) -> None:
    await done(lambda: live.table.version != version, "nobody moved")


def plain_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots that take from the stock and discard at once, never drop nor declare: the deal lasts, whatever the
    table's seed."""
    from taash.rummy.deal import Discard, Take
    from taash.tables.table import BotTurn

    def action(turn: BotTurn) -> dict[str, Any]:
        legal = turn.view.legal_actions()
        move = Take("stock") if Take("stock") in legal else next(a for a in legal if isinstance(a, Discard))
        return turn.game.action_to(move)

    monkeypatch.setattr(BotTurn, "action", action)


def test_a_connected_rummy_player_out_of_time_has_the_rule_books_timeout_made_and_three_in_a_row_drop_him(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain_bot(monkeypatch)
    engine = make_engine(migrated_sqlite(tmp_path, "t.db"))
    store = Store(engine)

    async def scenario() -> tuple[str, dict[str, Any]]:
        clock = FakeClock()
        hub = Hub(store, bot_delay=0, away_seconds=3600, turn_seconds=TURN, extra_seconds=EXTRA, clock=clock)
        live = await rummy_table(hub)
        conn = hub.join(live, "g0", None)  # connected throughout: never away
        hub.schedule_bots(live)
        match = live.table.session.state.match  # type: ignore[union-attr]

        async def time_out(first: bool) -> dict[str, Any]:
            await his_turn(live)
            timer = hub.timer(live)
            assert timer is not None and timer["seat"] == 0 and timer["then"] == "timeout"
            assert timer["seconds"] == TURN and timer["extra"] == EXTRA and timer["left"] == TURN
            assert timer["bank"] == (EXTRA if first else 0.0), timer  # the extra time is spent once a match
            assert timer["deadline"] == round(clock.time() + TURN + timer["bank"], 3)
            hand = sorted(live.table.state_for(0)["deal"]["hand"])
            stock_card = face_name(match.deal.stock[-1])
            drain(conn)
            version = live.table.version
            # The turn's own time, then the extra time the first time only: a moment before, nothing happens.
            clock.advance(TURN + (EXTRA if first else 0.0) - 0.1)
            await not_moved(live, version)
            clock.advance(0.1)
            await moved(live, version)
            update = next(m for m in drain(conn) if m["type"] == "update")
            assert update["said"].startswith("Anil ran out of time"), update["said"]
            told = update["state"]["deal"]  # what he was told as the timeout was made
            if told["hand"]:
                assert sorted(told["hand"]) == hand and told["pile"][-1]["card"] == stock_card
            return update

        await time_out(first=True)
        await time_out(first=False)
        assert live.table.state_for(0)["deal"]["timeouts"][0] == 2 and not live.idle
        # A restart now: the table the restarted server restores from the database is the table in memory.
        restarted = Hub(store, turn_seconds=TURN, extra_seconds=EXTRA, clock=FakeClock())
        assert restarted.restore() == 1
        assert restarted.live[live.table.id].table.state_for(0) == live.table.state_for(0)
        await his_turn(live)
        await hub.act(live, {"type": "take", "from": "stock"}, "g0", "m1", live.table.version)
        discard = live.table.state_for(0)["deal"]["arrangement"]["discard"]
        await hub.act(live, {"type": "discard", "card": discard}, "g0", "m2", live.table.version)
        assert live.table.state_for(0)["deal"]["timeouts"][0] == 0  # his own turn: the run starts again
        await time_out(first=False)
        await time_out(first=False)
        last = await time_out(first=False)
        assert last["said"].endswith("and he is dropped after three turns out of time (middle drop: 40 points)")
        assert live.table.status == "finished" and match.totals[0] == 40
        assert not live.idle and not hub.presence(live)[0]["idle"]  # Rummy's own rule, never a bot in his seat
        async with live.lock:  # the timeout's status is written under the lock, after the table moved on
            stored = store.table(live.table.id)
            assert stored is not None and stored.row.status == "finished"
        hub.leave(live, conn)
        await hub.close()
        record = live.table.record()
        assert record is not None
        return live.table.id, record

    try:
        table_id, record = asyncio.run(scenario())
        # The server restarted: the finished match, rebuilt from its actions, is the same match.
        stored = store.table(table_id)
        assert stored is not None and stored.row.status == "finished"
        again = rebuild(stored)
        assert again.record() == record and again.replay() is not None
        timeouts = [t for t in record["deals"][0]["turns"] if t.get("timeout")]
        assert len(timeouts) == 5 and timeouts[-1]["seat"] == 0
        path = tmp_path / "match.json"
        path.write_text(json.dumps(record))
        proc = subprocess.run([sys.executable, "-m", "taash.cli.main", "rummy", "replay", str(path)],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
    finally:
        store.close()


def test_a_rummy_player_away_is_played_for_by_a_bot_not_timed_out(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    plain_bot(monkeypatch)  # the bot opposite never drops: his turn comes, whatever the table's seed
    engine = make_engine(migrated_sqlite(tmp_path, "t.db"))
    store = Store(engine)

    async def scenario() -> None:
        clock = FakeClock()
        hub = Hub(store, bot_delay=0, away_seconds=20, turn_seconds=TURN, extra_seconds=EXTRA, clock=clock)
        live = await rummy_table(hub)  # Anil never connects: he is away since he sat down
        hub.schedule_bots(live)
        await his_turn(live)
        version = live.table.version
        clock.advance(20 - 0.1)
        await not_moved(live, version)
        clock.advance(0.1)  # away long enough: a bot, long before his time is up
        await moved(live, version)
        assert not any(t.timeout for t in live.table.session.state.match.deal.turns)  # type: ignore[union-attr]
        assert "ran out of time" not in " ".join(live.table.log)
        await hub.close()

    try:
        asyncio.run(scenario())
    finally:
        store.close()


def test_seep_still_has_a_bot_play_a_lapsed_turn_after_the_extra_time(tmp_path: Path) -> None:
    engine = make_engine(migrated_sqlite(tmp_path, "t.db"))
    store = Store(engine)

    async def scenario() -> None:
        clock = FakeClock()
        hub = Hub(store, bot_delay=0, away_seconds=3600, turn_seconds=TURN, extra_seconds=EXTRA, clock=clock)
        settings = adapter("seep").settings(2, "standard", 0, "easy", False)
        live = await hub.create(settings, "g0")
        await hub.act(live, {"type": "sit", "seat": 0, "name": "Anil"}, "g0")
        await hub.act(live, {"type": "bots"}, "g0")
        await hub.act(live, {"type": "start"}, "g0")
        conn = hub.join(live, "g0", None)
        hub.schedule_bots(live)
        await his_turn(live)
        timer = hub.timer(live)
        assert timer is not None and timer["then"] == "bot" and timer["bank"] == EXTRA
        version = live.table.version
        clock.advance(TURN + EXTRA - 0.1)
        await not_moved(live, version)
        clock.advance(0.1)
        await moved(live, version)
        assert live.timeouts == {0: 1} and live.bank[0] == 0.0
        assert "ran out of time" not in " ".join(live.table.log)
        hub.leave(live, conn)
        await hub.close()

    try:
        asyncio.run(scenario())
    finally:
        store.close()


def turns_played(live: Live, seat: int = 0) -> int:
    """How many turns of the deal ``seat`` has played to their end (a discard)."""
    turns = live.table.session.state.match.deal.turns  # type: ignore[union-attr]
    return sum(1 for t in turns if t.seat == seat and t.discard is not None)


async def until_played(live: Live, played: int, seat: int = 0) -> None:
    """Wait for ``seat`` to end another turn than the ``played`` before."""
    await done(lambda: turns_played(live, seat) != played, "his turn never ended")


async def take_and_discard(hub: Hub, live: Live, guest: str = "g0") -> None:
    await hub.act(live, {"type": "take", "from": "stock"}, guest, None, live.table.version)
    discard = live.table.state_for(0)["deal"]["arrangement"]["discard"]
    await hub.act(live, {"type": "discard", "card": discard}, guest, None, live.table.version)


def test_the_extra_time_a_seat_has_spent_survives_a_restart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each action stores what the seat to move had spent of its extra time: a server restarted on the same
    database gives him back only what he had left, after a turn he ended and after a take in the middle of one."""
    plain_bot(monkeypatch)
    engine = make_engine(migrated_sqlite(tmp_path, "t.db"))
    store = Store(engine)
    over = 20.0

    async def restart(hub: Hub, table_id: str) -> tuple[Hub, Live, FakeClock]:
        await hub.close()  # as a kill: its tasks stop, nothing more is written
        clock = FakeClock(start=5000.0)
        again = Hub(store, bot_delay=0, away_seconds=3600, turn_seconds=TURN, extra_seconds=EXTRA, clock=clock)
        assert again.restore() == 1
        live = again.live[table_id]
        again.join(live, "g0", None)
        again.schedule_bots(live)
        return again, live, clock

    async def scenario() -> None:
        clock = FakeClock()
        hub = Hub(store, bot_delay=0, away_seconds=3600, turn_seconds=TURN, extra_seconds=EXTRA, clock=clock)
        live = await rummy_table(hub)
        hub.join(live, "g0", None)
        hub.schedule_bots(live)
        await his_turn(live)
        clock.advance(TURN + over)  # the turn's own seconds, then some of the extra time
        await take_and_discard(hub, live)
        left = live.bank[0]
        assert left == EXTRA - over
        # A restart after the turn he ended: the same extra time left (not all of it again).
        hub, live, clock = await restart(hub, live.table.id)
        assert live.bank[0] == pytest.approx(left, abs=1e-3)
        await his_turn(live)
        timer = hub.timer(live)
        assert timer is not None and timer["bank"] == round(left, 1) and timer["extra"] == EXTRA, timer
        # Some more of it in his next turn, up to a take; then a restart before his discard.
        clock.advance(TURN + over)
        await hub.act(live, {"type": "take", "from": "stock"}, "g0", None, live.table.version)
        hub, live, clock = await restart(hub, live.table.id)
        assert live.bank[0] == pytest.approx(left - over, abs=1e-3)
        timer = hub.timer(live)
        assert timer is not None and timer["seat"] == 0 and timer["bank"] == round(live.bank[0], 1), timer
        await hub.close()

    try:
        asyncio.run(scenario())
    finally:
        store.close()


def test_time_away_while_a_bot_plays_for_him_is_not_taken_from_his_extra_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A person who leaves in his turn is played for by a bot once he has been away ``away_seconds``: what his
    turn took beyond its own seconds while he was there comes out of his extra time, the time he was away does not
    (and a restart keeps it so)."""
    plain_bot(monkeypatch)
    engine = make_engine(migrated_sqlite(tmp_path, "t.db"))
    store = Store(engine)
    away, stayed = 20.0, 10.0

    async def scenario() -> None:
        clock = FakeClock()
        hub = Hub(store, bot_delay=0, away_seconds=away, turn_seconds=TURN, extra_seconds=EXTRA, clock=clock)
        live = await rummy_table(hub)
        conn = hub.join(live, "g0", None)
        hub.schedule_bots(live)
        await his_turn(live)
        # He leaves as his turn begins: the bot plays it once he has been away long enough, and none of it is
        # taken from his extra time.
        played = turns_played(live)
        hub.leave(live, conn)
        version = live.table.version
        clock.advance(away - 0.1)
        await not_moved(live, version)
        clock.advance(0.1)
        await until_played(live, played)  # the bot's take and discard: his turn is over
        assert live.bank[0] == EXTRA and not live.timeouts
        # Back, he stays past his turn's own seconds, then leaves: only the time he was there is his.
        conn = hub.join(live, "g0", None)
        await his_turn(live)
        clock.advance(TURN + stayed)
        played = turns_played(live)
        hub.leave(live, conn)
        clock.advance(away)  # away long enough, well before his extra time is up
        await until_played(live, played)
        assert live.bank[0] == EXTRA - stayed
        left = live.bank[0]
        await hub.close()
        again = Hub(store, bot_delay=0, away_seconds=away, turn_seconds=TURN, extra_seconds=EXTRA, clock=FakeClock())
        assert again.restore() == 1
        assert again.live[live.table.id].bank[0] == pytest.approx(left, abs=1e-3)

    try:
        asyncio.run(scenario())
    finally:
        store.close()
