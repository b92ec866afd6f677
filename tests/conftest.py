from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = (REPO / ".." / "shared").resolve()


@pytest.fixture(scope="session")
def conformance_dir() -> Path:
    path = SHARED / "conformance"
    if not path.is_dir():
        pytest.skip(f"shared conformance data not found at {path}")
    return path


# CI explores the same examples every run (no flaky failures); locally hypothesis keeps exploring new ones.
import os  # noqa: E402

from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After a test's fixtures are gone: the Chromium that tests/web/server.py's ``chromium()`` lends stays open
    only for a next test of the same module that wants a browser."""
    yield
    if nextitem is None or nextitem.path != item.path or "browser" not in getattr(nextitem, "fixturenames", ()):
        server = sys.modules.get("tests.web.server")
        if server is not None:
            server.close_chromium()


#: Modules that take the longest (``make test --durations``) besides the browser modules: run first as well.
LONG_MODULES = ("test_hidden_information.py", "test_rummy_hidden_information.py", "test_cluster.py",
                "test_cluster_shared.py", "test_schema_fuzz.py", "test_websocket_fuzz.py", "test_stakes_kill.py",
                "test_tournaments_kill.py", "test_tournament_arena_kill.py", "test_tournaments.py")


def start_rank(item: pytest.Item) -> int:
    """0: a long web module (a browser's, or one of :data:`LONG_MODULES`); 1: the other web tests; 2: the rest."""
    path = item.path
    if path.parent.name != "web":
        return 2
    return 0 if path.name.endswith("_browser.py") or path.name in LONG_MODULES else 1


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest modules first, the many short tests last: with two workers (``-n``) the run then ends with
    both busy on short tests, not one idle while the other finishes a minute-long match. A module's tests stay
    together and in their order (a stable sort by module)."""
    items.sort(key=start_rank)
