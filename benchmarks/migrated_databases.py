"""What a new migrated database costs the tests, as docs/results/test-suite.md publishes it. From the repository
root, after ``make venv`` (with ``TAASH_TEST_POSTGRES_URL`` set for the PostgreSQL rows):

    .venv/bin/python benchmarks/migrated_databases.py [--rounds 8]

Each round, in turns so that all see the same load: a new SQLite file migrated (what each test's server or
fixture did), a copy of one migrated once (tests/web/server.py's ``migrated_database``), and on PostgreSQL a
database created, migrated and dropped against one made from the migrated template and dropped. Prints the median,
the fastest and the slowest of each.

Not a test: the numbers depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.web import server

from taash.web.db import make_engine, migrate


def migrated_sqlite_file() -> None:
    engine = make_engine(f"sqlite:///{Path(tempfile.mkdtemp()) / 'taash.db'}")
    migrate(engine)
    engine.dispose()


def copied_sqlite_file() -> None:
    with server.migrated_database(Path(tempfile.mkdtemp())):
        pass


def migrated_postgres_database() -> None:
    with server.postgres_database() as url:
        engine = make_engine(url)
        migrate(engine)
        engine.dispose()


def copied_postgres_database() -> None:
    with server.migrated_database(Path(tempfile.gettempdir()), "postgres"):
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    rounds = parser.parse_args().rounds
    ways: list[Callable[[], None]] = [migrated_sqlite_file, copied_sqlite_file]
    if server.POSTGRES:
        ways += [migrated_postgres_database, copied_postgres_database]
    for way in ways[1::2]:
        way()  # the templates are made once, before the rounds
    seconds: dict[str, list[float]] = {way.__name__: [] for way in ways}
    for _ in range(rounds):
        for way in ways:
            start = time.perf_counter()
            way()
            seconds[way.__name__].append(time.perf_counter() - start)
    for name, times in seconds.items():
        print(f"{name:28} median {statistics.median(times):.3f} s, fastest {min(times):.3f} s, "
              f"slowest {max(times):.3f} s ({len(times)} rounds)")


if __name__ == "__main__":
    main()
