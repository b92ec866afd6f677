"""POST /api/rummy/groups: the engine's word on a hand arranged in groups, for the browser's live labels."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from taash.web.app import ServerConfig, create_app
from tests.web.server import migrated_sqlite

# Wild rank 7 (eights are jokers): a pure run of four, an impure run, a set, and one loose king.
PURE = ["4s", "5s", "6s", "7s"]
IMPURE = ["9h", "Th", "8c"]
SET = ["Qc", "Qd", "Qh"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(ServerConfig(database_url=migrated_sqlite(tmp_path, "g.db")))) as c:
        yield c


def groups(client: TestClient, body: object) -> tuple[int, dict[str, object]]:
    r = client.post("/api/rummy/groups", json=body)
    return r.status_code, r.json()


def test_each_group_is_labelled_by_the_engine_and_the_points_follow_the_declaration_rule(client: TestClient) -> None:
    status, out = groups(client, {"rules": "octro", "wild": "8", "groups": [PURE, IMPURE, SET, ["Kd", "2c", "2d"]]})
    assert status == 200
    assert out == {"kinds": ["pure", "impure", "set", "invalid"], "valid": False, "points": 10 + 2 + 2}
    # The same cards with the twos and king apart: still invalid, the same points (only unmatched cards count).
    status, out = groups(client, {"rules": "octro", "wild": "8", "groups": [PURE, IMPURE, SET, ["2c", "2d", "JK"]]})
    assert out == {"kinds": ["pure", "impure", "set", "set"], "valid": True, "points": 0}
    # No pure run: every card counts (a ten, nine and queens at 10, the fours to sevens at face value).
    status, out = groups(client, {"rules": "octro", "wild": "8", "groups": [["4s", "5s", "JK"], IMPURE, SET,
                                                                            ["Kd", "2c", "2d", "3c"]]})
    assert out["kinds"] == ["impure", "impure", "set", "invalid"] and out["valid"] is False
    assert out["points"] == min(80, 4 + 5 + 0 + 9 + 10 + 0 + 30 + 10 + 2 + 2 + 3)
    # Jokers alone are free jokers; a group of one natural card is invalid.
    status, out = groups(client, {"rules": "classic", "wild": "A", "groups": [["JK", "Ad"], ["Kd"]]})
    assert out["kinds"] == ["free", "invalid"]


@pytest.mark.parametrize(("body", "says"), [
    ({"rules": "octro", "wild": "Z", "groups": [["Kd"]]}, "rank"),
    ({"rules": "octro", "wild": "8", "groups": [["Kx"]]}, "card"),
    ({"rules": "whist", "wild": "8", "groups": [["Kd"]]}, "whist"),
    ({"rules": "octro", "wild": "8", "groups": [["Kd"] * 15]}, "14 cards"),
    ({"rules": "octro", "wild": "8", "groups": "Kd"}, "groups"),
    ({"rules": "octro", "groups": [["Kd"]]}, "wild"),
    ("not an object", "body"),
])
def test_bad_input_is_refused_in_one_line(client: TestClient, body: object, says: str) -> None:
    status, out = groups(client, body)
    assert status in (400, 422), out
    detail = out["detail"]
    assert isinstance(detail, str) and "\n" not in detail and says in detail, detail
