"""Issue 27, 11: a match that bots finished for people who had all left (both closed their browsers mid-match of a
private, unstaked table) counted as a loss and moved both ratings. It is recorded as finished by bots, moves no
rating, and a person's page says it counts as abandoned."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fastapi.testclient import TestClient

from taash.tables.adapter import adapter
from taash.web.app import ServerConfig, create_app
from taash.web.db import make_engine
from taash.web.history import ABANDONED, finished_by_bots, rate
from taash.web.hub import Hub, Live
from taash.web.store import Store
from tests.web.server import migrated_sqlite

PEOPLE = ("a0", "a1")


def hub_on(tmp_path: Path) -> tuple[str, Store, Hub]:
    url = migrated_sqlite(tmp_path, "taash.db")
    engine = make_engine(url)
    store = Store(engine)
    return url, store, Hub(store, bot_delay=0, away_seconds=0, turn_seconds=0)


async def unstaked_table(hub: Hub, store: Store, people: int, public: bool) -> Live:
    """A single deal of 2-player Seep, ``people`` of its seats taken by people (the other by a bot), started."""
    for guest in PEOPLE:
        await store.add_guest(guest, guest.upper())
    settings = adapter("seep").settings(2, "standard", 0, "easy", public)
    live = await hub.create(settings, PEOPLE[0])
    for seat in range(people):
        await hub.act(live, {"type": "sit", "seat": seat, "name": PEOPLE[seat].upper()}, PEOPLE[seat])
    if people < 2:
        await hub.act(live, {"type": "bots"}, PEOPLE[0])
    await hub.act(live, {"type": "start"}, PEOPLE[0])
    return live


async def finished(hub: Hub, live: Live, mover: str | None = None) -> None:
    """Until the match ends: ``mover`` (connected) makes the engine's first legal move at each of his turns, bots
    the others' (and his, were he away)."""
    for _ in range(20000):
        if live.table.status == "finished":
            await asyncio.sleep(0.01)  # the results are written just after the status changes in memory
            return
        if mover is not None and live.table.to_move() == live.table.seat_of(mover):
            await hub.act(live, live.table.first_legal_action(), mover)
        else:
            await asyncio.sleep(0.002)
    raise AssertionError("the match did not finish")


def test_a_match_bots_finished_for_people_who_all_left_moves_no_rating(tmp_path: Path) -> None:
    url, store, hub = hub_on(tmp_path)

    async def scenario() -> str:
        # Nobody connected: both are away, and bots play for them (public, so that a stranger sees the match).
        live = await unstaked_table(hub, store, people=2, public=True)
        await finished(hub, live)
        return live.table.id

    table_id = asyncio.run(scenario())
    rows, levels = store.results_for_game("seep")
    assert {r.table_id for r in rows} == {table_id} and all(finished_by_bots(r) for r in rows)
    assert rate(rows, levels) == []  # nobody's rating moved
    with TestClient(create_app(ServerConfig(database_url=url))) as client:
        page = client.get(f"/api/people/{PEOPLE[0]}").json()
        board = client.get("/api/leaderboard/seep").json()
    assert board["players"] == []
    [match] = page["matches"]
    assert not match["rated"] and match["counts_as"] == ABANDONED and "finished_by_bots" not in match["stats"]
    store.close()


def test_a_match_a_person_played_to_the_end_is_rated(tmp_path: Path) -> None:
    _, store, hub = hub_on(tmp_path)

    async def scenario() -> None:
        live = await unstaked_table(hub, store, people=1, public=False)
        hub.join(live, PEOPLE[0], None)  # he is here, and moves himself
        await finished(hub, live, PEOPLE[0])

    asyncio.run(scenario())
    rows, levels = store.results_for_game("seep")
    assert rows and not any(finished_by_bots(r) for r in rows)
    assert {p.player for p in rate(rows, levels)} == {PEOPLE[0], "bot:easy"}
    store.close()
