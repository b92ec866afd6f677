"""The web tests' shared fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.server import DATABASES, migrated_database


@pytest.fixture(params=DATABASES)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a new database with the newest schema, on SQLite and on PostgreSQL where the CI offers one: a
    copy of one migrated once per test process (tests/web/server.py's ``migrated_database``)."""
    with migrated_database(tmp_path, request.param) as url:
        yield url
