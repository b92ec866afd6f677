"""The server reads its database off the event loop on the paths every player takes (a name, a table made and found,
a sit, a start, a websocket opened, a table read back from the database): on PostgreSQL each read is a round trip,
and one on the loop holds up every table of the server meanwhile."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from taash.tables.adapter import adapter
from taash.web.app import ServerConfig, create_app
from taash.web.db import make_engine
from taash.web.hub import Hub
from taash.web.hub.registry import Found
from taash.web.state import AppState
from taash.web.store import Store
from tests.web.server import migrated_sqlite


def on_the_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class LoopReads:
    """The statements run on a thread that runs an event loop, from :meth:`watch` on."""

    def __init__(self, state: AppState):
        self.engine = state.store.engine
        self.statements: list[str] = []
        self.watching = False
        event.listen(self.engine, "before_cursor_execute", self._seen)

    def _seen(self, _conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if self.watching and on_the_loop():
            self.statements.append(" ".join(statement.split())[:120])

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._seen)


@pytest.fixture
def served(database: str) -> Iterator[tuple[TestClient, AppState, LoopReads]]:
    app = create_app(ServerConfig(database_url=database))
    with TestClient(app) as client:
        state: AppState = app.state.taash
        reads = LoopReads(state)
        try:
            yield client, state, reads
        finally:
            reads.close()


def cookie_of(client: TestClient, name: str) -> str:
    client.cookies.clear()
    answer = client.post("/api/guest", json={"name": name})
    assert answer.status_code == 200, answer.text
    return str(client.cookies["taash_guest"])


def as_guest(client: TestClient, cookie: str) -> TestClient:
    client.cookies.clear()
    client.cookies.set("taash_guest", cookie)
    return client


def test_a_whole_table_from_names_to_sockets_reads_nothing_on_the_event_loop(
        served: tuple[TestClient, AppState, LoopReads]) -> None:
    client, state, reads = served
    reads.watching = True
    asha, bela = cookie_of(client, "Asha"), cookie_of(client, "Bela")
    made = as_guest(client, asha).post("/api/tables", json={"game": "seep", "players": 2, "baazis": 0, "seat": 0})
    assert made.status_code == 200, made.text
    table, code = made.json()["id"], made.json()["code"]
    assert as_guest(client, bela).get(f"/api/join/{code}").status_code == 200
    assert client.post(f"/api/tables/{table}/sit", json={"seat": 1}).status_code == 200
    assert as_guest(client, asha).post(f"/api/tables/{table}/start").status_code == 200
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert ws.receive_json()["type"] == "snapshot"
    # The table leaves memory (as an idle one does, or one another server owned): read back from the database.
    live = state.hub.registry.live.pop(table)
    state.hub.registry.codes.pop(live.table.code)
    assert as_guest(client, bela).get(f"/api/tables/{table}").status_code == 200
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert ws.receive_json()["type"] == "snapshot"
    assert state.hub.registry.live[table] is not live  # read back, and kept again
    reads.watching = False
    # SQLite's writes commit on the loop by design (microseconds, group-committed per turn of the loop); on
    # PostgreSQL the writer thread commits them. Reads never run on the loop.
    on_loop = [s for s in reads.statements if s.startswith("SELECT") or state.store.engine.dialect.name != "sqlite"]
    assert on_loop == [], "\n".join(on_loop)


def test_one_table_asked_for_by_many_at_once_is_read_once_and_kept_once(tmp_path: Path) -> None:
    """Many connections asking at once for a table that is not in memory wait for one read of it: one server never
    claims a table's lease twice at once (two claims would make two tables in memory, one fenced out)."""
    engine = make_engine(migrated_sqlite(tmp_path))
    store = Store(engine)
    hub = Hub(store, bot_delay=0)
    released = threading.Event()
    reads: list[str] = []
    read = hub.registry._read

    def slow_read(table_id: str) -> Found | None:
        reads.append(table_id)
        assert released.wait(10)  # a worker thread: the loop goes on meanwhile (it sets the event below)
        return read(table_id)

    async def scenario() -> None:
        seep = adapter("seep")
        made = await hub.create(seep.settings(2, seep.presets[0], 0, "easy", True), "g0", 0)
        table_id = made.table.id
        hub.registry.live.pop(table_id)
        hub.registry.codes.pop(made.table.code)
        hub.registry._read = slow_read  # type: ignore[method-assign]
        asking = [asyncio.ensure_future(hub.find(table_id)) for _ in range(20)]
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        released.set()  # reached only because the loop is free while the table is read
        found = await asyncio.gather(*asking)
        assert reads == [table_id]
        assert all(live is found[0] for live in found) and hub.registry.live[table_id] is found[0]
        assert hub.registry.reading == {}

    try:
        asyncio.run(scenario())
    finally:
        store.close()
