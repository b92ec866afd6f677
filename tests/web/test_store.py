"""The server's writes: awaited until committed, grouped into one commit when they come together, on SQLite on the
event loop itself and elsewhere (``on_loop=False``, PostgreSQL's way) in one writer thread."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from taash.web.db import GuestRow, make_engine
from taash.web.store import Store
from tests.web.server import migrated_sqlite


def store_at(tmp_path: Path, on_loop: bool | None = None) -> Store:
    engine = make_engine(migrated_sqlite(tmp_path, "store.db"))
    return Store(engine, on_loop)


def guests(store: Store) -> list[str]:
    with store.engine.connect() as c:
        return sorted(c.execute(select(GuestRow.id)).scalars())


def watch_commits(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """(thread, writes in the commit) of each commit the store makes from now on."""
    seen: list[tuple[int, int]] = []
    commit = store._commit

    def watched(batch: list[Any]) -> None:
        seen.append((threading.get_ident(), len(batch)))
        commit(batch)

    monkeypatch.setattr(store, "_commit", watched)
    return seen


def test_sqlite_writes_made_together_share_one_commit_made_on_the_event_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = store_at(tmp_path)
    assert store.on_loop and store._thread is None
    seen = watch_commits(store, monkeypatch)

    async def main() -> None:
        await asyncio.gather(*(store.add_guest(f"g{i}", f"Name {i}") for i in range(10)))
        await store.add_guest("later", "Later")  # alone in its turn of the loop: a commit of its own

    asyncio.run(main())
    loop_thread = threading.get_ident()
    assert seen == [(loop_thread, 10), (loop_thread, 1)]
    assert guests(store) == sorted([f"g{i}" for i in range(10)] + ["later"])
    store.close()


@pytest.mark.parametrize("on_loop", [True, False], ids=["on-loop", "writer-thread"])
def test_a_bad_write_fails_alone_and_the_others_of_its_commit_are_kept(tmp_path: Path, on_loop: bool) -> None:
    store = store_at(tmp_path, on_loop)

    async def main() -> list[BaseException | None]:
        await store.add_guest("taken", "First")
        return await asyncio.gather(store.add_guest("a", "A"), store.add_guest("taken", "Again"),
                                    store.add_guest("b", "B"), return_exceptions=True)

    first, bad, last = asyncio.run(main())
    assert first is None and last is None
    assert isinstance(bad, IntegrityError)
    assert guests(store) == ["a", "b", "taken"]
    store.close()


def test_the_writer_thread_commits_off_the_event_loop_and_each_write_waits_for_its_commit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = store_at(tmp_path, on_loop=False)
    assert store._thread is not None and store._thread.is_alive()
    seen = watch_commits(store, monkeypatch)

    async def main() -> int:
        await asyncio.gather(*(store.add_guest(f"g{i}", "N") for i in range(20)))
        with store.engine.connect() as c:  # every write awaited has committed
            return int(c.execute(select(func.count()).select_from(GuestRow)).scalar_one())

    assert asyncio.run(main()) == 20
    assert seen and all(thread == store._thread.ident for thread, _ in seen)
    assert sum(n for _, n in seen) == 20
    store.close()
    assert not store._thread.is_alive()


def test_postgresql_is_written_by_the_writer_thread() -> None:
    from sqlalchemy import create_engine

    engine = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")  # never connected to
    store = Store(engine)
    try:
        assert not store.on_loop and store._thread is not None
    finally:
        store.close()
