"""Books for the tests: a fresh SQLite database copied from one migrated once, or a new PostgreSQL database when
``TAASH_TEST_POSTGRES_URL`` names a server (``scripts/ensure-postgres`` prints one)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from taash.chips import Ledger
from taash.web.db import make_engine, migrate
from tests.web.server import POSTGRES, postgres_database

NO_POSTGRES = "TAASH_TEST_POSTGRES_URL is not set (scripts/ensure-postgres prints one; the CI sets it)"
needs_postgres = pytest.mark.skipif(not POSTGRES, reason=NO_POSTGRES)
DATABASES = ["sqlite", pytest.param("postgresql", marks=needs_postgres)]


@pytest.fixture(scope="session")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite database with the newest schema, to copy."""
    path = tmp_path_factory.mktemp("template") / "books.db"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    engine.dispose()
    return path


def fresh_sqlite(migrated: Path, directory: Path, name: str = "books.db") -> str:
    """The URL of a new copy of the migrated database in ``directory``."""
    path = directory / name
    shutil.copyfile(migrated, path)
    return f"sqlite:///{path}"


@pytest.fixture
def sqlite_url(migrated: Path, tmp_path: Path) -> str:
    return fresh_sqlite(migrated, tmp_path)


@pytest.fixture
def engine(sqlite_url: str) -> Iterator[Engine]:
    engine = make_engine(sqlite_url)
    yield engine
    engine.dispose()


@pytest.fixture
def ledger(engine: Engine) -> Ledger:
    return Ledger(engine)


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, sqlite_url: str) -> Iterator[str]:
    """A migrated database of each kind (PostgreSQL only where one is offered)."""
    if request.param == "sqlite":
        yield sqlite_url
        return
    with postgres_database(migrated=True) as url:
        yield url
