from __future__ import annotations

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
