"""The database's helpers (taash.web.db), on SQLite and on PostgreSQL when the CI provides one: the servers' keys
made once even when servers start together on a new database (the cluster's servers did, and the one whose insert
lost failed to start)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy.orm import Session

from taash.web.db import make_engine, migrate, server_key

# ``database``: SQLite, and PostgreSQL when the CI provides one (tests/web/conftest.py).


def test_a_key_is_made_once_and_read_back(database: str) -> None:
    engine = make_engine(database)
    migrate(engine)
    try:
        first = server_key(engine, "address")
        assert len(first) == 64
        assert server_key(engine, "address") == first
        assert server_key(engine) != first  # another name, another key
    finally:
        engine.dispose()


def test_a_server_whose_insert_loses_the_race_reads_the_winners_key(database: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Another server makes the key between this one's read and its insert: this one's insert fails, and it
    answers the key the other made."""
    engine = make_engine(database)
    migrate(engine)
    try:
        other = make_engine(database)
        winner = server_key(other, "address")
        other.dispose()
        real_get = Session.get
        reads: list[Any] = []

        def stale_first_read(self: Session, *args: Any, **kwargs: Any) -> Any:
            reads.append(args)
            return None if len(reads) == 1 else real_get(self, *args, **kwargs)

        monkeypatch.setattr(Session, "get", stale_first_read)
        assert server_key(engine, "address") == winner
        assert len(reads) == 2
    finally:
        engine.dispose()


def test_servers_starting_together_on_a_new_database_agree_on_one_key(database: str) -> None:
    migrate(make_engine(database))
    engines = [make_engine(database) for _ in range(6)]
    start = threading.Barrier(len(engines))
    keys: list[str] = []
    errors: list[BaseException] = []

    def start_server(index: int) -> None:
        start.wait()
        try:
            keys.append(server_key(engines[index], "address"))
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=start_server, args=(i,)) for i in range(len(engines))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for engine in engines:
        engine.dispose()
    assert not errors, errors
    assert len(keys) == len(engines) and len(set(keys)) == 1
