"""Play now's queue in-process on a real database: people who want the same match meet at one table, others do
not mix, the first-come's wait fills the table with bots, cancelling and leaving take a person out, and a staked
match holds and settles as any staked table (a wallet that can no longer pay drops its person; the audit stays
clean)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from taash.chips.audit import audit
from taash.chips.books import HOUSE_ACCOUNT
from taash.chips.ledger import Ledger, wallet_of
from taash.tables.adapter import TableError, adapter
from taash.web.db import make_engine
from taash.web.hub import Hub, Live
from taash.web.matchmaking import Entry, Matchmaker, Wanted, unique_name
from taash.web.stakes import match_id
from taash.web.store import Store
from tests.web.server import migrated_sqlite

GRANT = 10_000
SEEP_2 = Wanted("seep", 2, "standard", 1, 0)
SEEP_4 = Wanted("seep", 4, "standard", 1, 0)


def books(tmp_path: Path) -> tuple[Store, Ledger, Matchmaker]:
    engine = make_engine(migrated_sqlite(tmp_path, "taash.db"))
    store = Store(engine)
    ledger = Ledger(engine, starting_grant=GRANT)
    hub = Hub(store, bot_delay=0, away_seconds=0, turn_seconds=0, ledger=ledger)
    hub.closing = True  # closing: no bot moves (the tables stay as they were seated) until a test lets them
    return store, ledger, Matchmaker(hub)


class Person:
    """Someone who pressed Play now: what he was told."""

    def __init__(self, guest: str, ledger: Ledger | None = None):
        self.guest = guest
        self.told: list[dict[str, Any] | None] = []
        if ledger is not None:
            ledger.open_wallet(guest)

    def tell(self, message: dict[str, Any] | None) -> None:
        self.told.append(message)

    def entry(self, wanted: Wanted, wait: float = 30, name: str | None = None) -> Entry:
        return Entry(self.guest, name or self.guest.title(), wanted, "easy", wait, self.tell)

    def matched(self) -> dict[str, Any] | None:
        return next((m for m in self.told if m is not None and m["type"] == "matched"), None)

    def errors(self) -> list[dict[str, Any]]:
        return [m for m in self.told if m is not None and m["type"] == "error"]


async def settled(queue: Matchmaker) -> None:
    """Let the timers due now fire and every match being made finish."""
    for _ in range(5):
        await asyncio.sleep(0.01)
        while queue.matching:
            await asyncio.gather(*queue.matching)


def table_of(queue: Matchmaker, person: Person) -> Live:
    matched = person.matched()
    assert matched is not None, f"{person.guest} was not matched: {person.told}"
    live = queue.hub.live[matched["table"]]
    assert live.table.seat_of(person.guest) == matched["seat"]
    return live


def run(tmp_path: Path, scenario: Callable[[Matchmaker, Ledger], Coroutine[Any, Any, None]]) -> None:
    store, ledger, queue = books(tmp_path)
    asyncio.run(scenario(queue, ledger))
    assert audit(store.engine).faults == []
    store.close()


def test_two_people_who_want_the_same_match_are_seated_at_one_started_public_table(tmp_path: Path) -> None:
    async def scenario(queue: Matchmaker, _: Ledger) -> None:
        anil, bela = Person("anil"), Person("bela")
        queue.press(anil.entry(SEEP_2))
        await settled(queue)
        assert anil.matched() is None and anil.told[-1] == {
            "type": "waiting", "waiting": 1, "players": 2, "bots_at": anil.told[-1]["bots_at"], "wait": 30}
        queue.press(bela.entry(SEEP_2))
        await settled(queue)
        live = table_of(queue, anil)
        assert table_of(queue, bela) is live and anil.told[-1] is None  # matched, then the connection closes
        table = live.table
        assert table.status == "playing" and table.settings.public and table.owner is None
        assert [s.guest for s in table.seats] == ["anil", "bela"] and not any(s.bot for s in table.seats)
        assert queue.waiting() == 0 and not queue.pools

    run(tmp_path, scenario)


def test_different_stakes_formats_players_or_rules_do_not_mix(tmp_path: Path) -> None:
    wanted = [SEEP_2, Wanted("seep", 2, "standard", 1, 5), Wanted("seep", 2, "standard", 0, 0),
              Wanted("seep", 2, "karan", 1, 0), SEEP_4, Wanted("rummy", 2, "octro", "points", 0),
              Wanted("rummy", 2, "octro", "pool101", 0), Wanted("rummy", 3, "octro", "points", 0)]

    async def scenario(queue: Matchmaker, ledger: Ledger) -> None:
        people = [Person(f"p{i}", ledger) for i in range(len(wanted))]
        for person, w in zip(people, wanted, strict=True):
            queue.press(person.entry(w))
        await settled(queue)
        assert all(p.matched() is None for p in people) and queue.waiting() == len(wanted)
        assert len(queue.pools) == len(wanted) and not queue.hub.live
        late = Person("late", ledger)
        queue.press(late.entry(Wanted("rummy", 2, "octro", "pool101", 0)))
        await settled(queue)
        assert table_of(queue, late) is table_of(queue, people[6])
        assert all(p.matched() is None for i, p in enumerate(people) if i != 6)

    run(tmp_path, scenario)


def test_the_first_comes_wait_fills_a_four_player_seep_with_a_bot_and_starts(tmp_path: Path) -> None:
    async def scenario(queue: Matchmaker, _: Ledger) -> None:
        people = [Person(g) for g in ("anil", "bela", "chetan")]
        queue.press(people[0].entry(SEEP_4, wait=1.0))
        queue.press(people[1].entry(SEEP_4, wait=0))  # a shorter wait: the first-come's rules the pool
        await asyncio.sleep(0.1)
        queue.press(people[2].entry(SEEP_4, wait=120))
        await settled(queue)
        assert all(p.matched() is None for p in people) and people[2].told[-1]["waiting"] == 3  # type: ignore[index]
        await asyncio.sleep(1.0)
        await settled(queue)
        live = table_of(queue, people[0])
        assert all(table_of(queue, p) is live for p in people)
        assert [s.guest for s in live.table.seats[:3]] == ["anil", "bela", "chetan"]
        assert live.table.seats[3].bot and live.table.status == "playing"

    run(tmp_path, scenario)


def test_no_wait_starts_at_once_with_bots(tmp_path: Path) -> None:
    async def scenario(queue: Matchmaker, _: Ledger) -> None:
        anil = Person("anil")
        queue.press(anil.entry(Wanted("rummy", 4, "octro", "deals2", 0), wait=0))
        await settled(queue)
        live = table_of(queue, anil)
        assert live.table.status == "playing" and sum(s.bot for s in live.table.seats) == 3

    run(tmp_path, scenario)


def test_a_cancelled_person_is_not_seated(tmp_path: Path) -> None:
    async def scenario(queue: Matchmaker, _: Ledger) -> None:
        anil, bela = Person("anil"), Person("bela")
        entry = anil.entry(SEEP_2, wait=0.2)
        queue.press(entry)
        assert queue.cancel(entry) and not queue.cancel(entry)
        queue.press(bela.entry(SEEP_2))
        await asyncio.sleep(0.3)
        await settled(queue)
        assert anil.matched() is None and bela.matched() is None and queue.waiting() == 1

    run(tmp_path, scenario)


def test_a_person_gone_while_his_match_is_made_is_left_out_and_a_bot_sits_instead(tmp_path: Path) -> None:
    async def scenario(queue: Matchmaker, _: Ledger) -> None:
        anil, bela = Person("anil"), Person("bela")
        entry = anil.entry(SEEP_2)
        queue.press(entry)
        queue.press(bela.entry(SEEP_2))  # full: the match is being made
        queue.cancel(entry)  # and anil's page closes before it is
        await settled(queue)
        live = table_of(queue, bela)
        assert anil.matched() is None and live.table.seat_of("anil") is None and live.table.seats[0].bot

    run(tmp_path, scenario)


def test_pressing_again_replaces_the_entry(tmp_path: Path) -> None:
    async def scenario(queue: Matchmaker, _: Ledger) -> None:
        anil, bela, other_tab = Person("anil"), Person("bela"), Person("anil")
        queue.press(anil.entry(SEEP_2))
        queue.press(other_tab.entry(SEEP_4))
        assert anil.told[-1] == {"type": "cancelled", "reason": "you pressed Play now again elsewhere"}
        assert queue.waiting() == 1 and list(queue.pools) == [SEEP_4]
        queue.press(bela.entry(SEEP_2))
        await settled(queue)
        assert bela.matched() is None and other_tab.matched() is None

    run(tmp_path, scenario)


def test_the_same_name_twice_at_one_table_gets_a_number() -> None:
    assert unique_name("Priya", set()) == "Priya"
    assert unique_name("priya", {"priya"}) == "priya 2"
    assert unique_name("P" * 24, {"p" * 24, "p" * 22 + " 2"}) == "P" * 22 + " 3"


def test_the_queue_checks_the_wait_and_the_settings(tmp_path: Path) -> None:
    async def scenario(queue: Matchmaker, _: Ledger) -> None:
        assert queue.check(Wanted("seep", 2, "standard", 3, 7), "easy", 15) == 21
        assert queue.check(Wanted("rummy", 2, "octro", "points", 2), "easy", 0) == 160
        for wanted, wait, says in [(SEEP_2, 7, "wait must be one of 0, 15, 30, 60, 120"),
                                   (Wanted("seep", 3, "standard", 1, 0), 30, "players"),
                                   (Wanted("rummy", 2, "octro", "pool7", 0), 30, "format"),
                                   (Wanted("seep", 2, "nope", 1, 0), 30, "rules")]:
            with pytest.raises(TableError, match=says):
                queue.check(wanted, "easy", wait)
        assert queue.waiting() == 0

    run(tmp_path, scenario)


def test_a_staked_play_now_match_holds_and_settles(tmp_path: Path) -> None:
    stake = Wanted("seep", 2, "standard", 0, 3)  # a single deal: 3 chips a point, 300 held from each

    async def scenario(queue: Matchmaker, ledger: Ledger) -> None:
        anil, bela = Person("anil", ledger), Person("bela", ledger)
        assert queue.short_of("anil", 300) is None
        queue.press(anil.entry(stake))
        queue.press(bela.entry(stake))
        await settled(queue)
        live = table_of(queue, anil)
        held = ledger.match(match_id(live.table.id))
        assert held is not None and held.state == "pending" and [s.amount for s in held.stakes] == [300, 300]
        assert ledger.balance(wallet_of("anil")) == GRANT - 300
        # Only now do the bots play for the two (away at once): before, a fast machine's bots could finish the single
        # deal, and settle it, before the hold was looked at.
        queue.hub.closing = False
        queue.hub.schedule_bots(live)
        for _ in range(3000):
            if live.table.status == "finished":
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)  # the settlement runs in a worker thread after the status is written
        assert ledger.match(match_id(live.table.id)).state == "posted"  # type: ignore[union-attr]
        assert ledger.balance(wallet_of("anil")) + ledger.balance(wallet_of("bela")) == 2 * GRANT

    run(tmp_path, scenario)


def test_a_wallet_that_can_no_longer_pay_at_the_start_drops_its_person_and_nothing_is_lost(tmp_path: Path) -> None:
    stake = Wanted("rummy", 2, "octro", "pool101", 500)

    async def scenario(queue: Matchmaker, ledger: Ledger) -> None:
        anil, bela = Person("anil", ledger), Person("bela", ledger)
        house = ledger.balance(HOUSE_ACCOUNT)
        queue.press(anil.entry(stake))
        ledger.transfer("spent:anil", wallet_of("anil"), HOUSE_ACCOUNT, GRANT - 100)  # elsewhere, meanwhile
        queue.press(bela.entry(stake))
        await settled(queue)
        assert anil.matched() is None
        assert [e["code"] for e in anil.errors()] == ["short"] and "dropped" in anil.errors()[0]["message"]
        live = table_of(queue, bela)
        assert live.table.status == "playing" and live.table.seats[0].bot and live.table.seat_of("anil") is None
        held = ledger.match(match_id(live.table.id))
        assert held is not None and [(s.payer, s.amount) for s in held.stakes] == [
            (HOUSE_ACCOUNT, 500), (wallet_of("bela"), 500)]
        assert ledger.balance(wallet_of("anil")) == 100 and ledger.balance(wallet_of("bela")) == GRANT - 500
        assert ledger.balance(HOUSE_ACCOUNT) == house + GRANT - 100 - 500

    run(tmp_path, scenario)


def test_if_nobody_can_pay_the_table_is_abandoned_and_nothing_is_held(tmp_path: Path) -> None:
    stake = Wanted("seep", 2, "standard", 1, 1000)

    async def scenario(queue: Matchmaker, ledger: Ledger) -> None:
        anil = Person("anil", ledger)
        queue.press(anil.entry(stake, wait=0))
        ledger.transfer("spent:anil", wallet_of("anil"), HOUSE_ACCOUNT, GRANT)
        await settled(queue)
        assert anil.matched() is None and [e["code"] for e in anil.errors()] == ["short"]
        assert not queue.hub.live  # the table was abandoned before it started
        assert ledger.balance(wallet_of("anil")) == 0

    run(tmp_path, scenario)


def test_closing_the_server_tells_everyone_waiting(tmp_path: Path) -> None:
    async def scenario(queue: Matchmaker, _: Ledger) -> None:
        anil = Person("anil")
        queue.press(anil.entry(SEEP_4))
        await queue.close()
        assert anil.told[-2]["code"] == "closing" and anil.told[-1] is None  # type: ignore[index]
        assert queue.waiting() == 0 and not queue.timers

    run(tmp_path, scenario)


def crash_on_start(store: Store) -> None:
    """The database refuses to write a start (every other action is written)."""
    write = store.add_action

    async def add_action(table_id: str, version: int, guest: str | None, client_id: str | None,
                         action: dict[str, Any], extra_spent: float | None = None) -> None:
        if action.get("type") == "start":
            raise RuntimeError("killed")
        await write(table_id, version, guest, client_id, action, extra_spent)

    store.add_action = add_action  # type: ignore[method-assign]


def test_a_start_that_cannot_be_written_gives_the_held_stakes_back_at_once(tmp_path: Path) -> None:
    store, ledger, queue = books(tmp_path)
    crash_on_start(store)

    async def scenario() -> None:
        anil = Person("anil", ledger)
        queue.press(anil.entry(Wanted("seep", 2, "standard", 2, 10), wait=0))
        await settled(queue)
        assert anil.matched() is None and [e["code"] for e in anil.errors()] == ["server"]
        (table_id,) = [t.row.id for t in store.tables()]
        assert ledger.match(match_id(table_id)).state == "voided"  # type: ignore[union-attr]
        assert ledger.balance(wallet_of("anil")) == GRANT and not queue.hub.live

    asyncio.run(scenario())
    assert audit(store.engine).faults == []
    store.close()


def test_a_crash_between_the_hold_and_the_start_of_a_table_with_no_creator_is_started_on_restart(
        tmp_path: Path) -> None:
    store, ledger, queue = books(tmp_path)
    hub = queue.hub

    async def scenario() -> Live:
        ledger.open_wallet("anil")
        live = await hub.create(adapter("seep").settings(2, "standard", 0, "easy", True), None, 5)
        await hub.act(live, {"type": "sit", "seat": 0, "name": "Anil"}, "anil")
        await hub.act(live, {"type": "bots"}, None)
        crash_on_start(store)
        with pytest.raises(TableError):
            await hub.act(live, {"type": "start"}, None)  # held, and then the process is killed
        return live

    live = asyncio.run(scenario())
    assert ledger.balance(wallet_of("anil")) == GRANT - 500
    again = Hub(Store(store.engine), bot_delay=0, ledger=ledger)
    again.restore()
    assert again.live[live.table.id].table.status == "playing"
    assert ledger.match(match_id(live.table.id)).state == "pending"  # type: ignore[union-attr]
    assert audit(store.engine).faults == []
    store.close()


def test_a_database_that_fails_while_the_match_is_made_is_told_not_left_waiting(tmp_path: Path) -> None:
    store, _, queue = books(tmp_path)

    async def broken(*_: Any) -> None:
        raise RuntimeError("the database is gone")

    store.add_table = broken  # type: ignore[method-assign]

    async def scenario() -> None:
        anil = Person("anil")
        queue.press(anil.entry(SEEP_2, wait=0))
        await settled(queue)
        assert [e["code"] for e in anil.errors()] == ["server"] and queue.waiting() == 0

    asyncio.run(scenario())
    store.close()
