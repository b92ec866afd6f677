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
