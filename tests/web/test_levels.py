"""Each game's levels as the server offers and takes them: GET /api/games lists the registry's, a table or Play now
takes one of its game's (Seep's learned level, not Rummy's) and refuses another in one sentence, and a table that
names none gets the game's default."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from taash.games.registry import levels
from taash.web.app import ServerConfig, create_app
from tests.web.server import migrated_sqlite


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(ServerConfig(database_url=migrated_sqlite(tmp_path, "a.db")))) as c:
        assert c.post("/api/guest", json={"name": "Asha"}).status_code == 200
        yield c


def test_the_games_list_each_games_own_levels_default_and_words(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["seep"]["levels"] == ["easy", "medium", "hard", "learned", "expert"] == list(levels("seep"))
    assert games["rummy"]["levels"] == ["easy", "medium", "hard", "expert"] == list(levels("rummy"))
    for game in games.values():
        assert game["default_level"] == "medium" and set(game["level_words"]) == set(game["levels"])
    assert "network" in games["seep"]["level_words"]["learned"]


def test_a_seep_table_seats_the_learned_bot_and_one_without_a_level_gets_the_default(client: TestClient) -> None:
    made = client.post("/api/tables", json={"game": "seep", "players": 2, "level": "learned"})
    assert made.status_code == 200, made.text
    assert made.json()["level"] == "learned"
    plain = client.post("/api/tables", json={"game": "rummy", "players": 2})
    assert plain.status_code == 200 and plain.json()["level"] == "medium"


@pytest.mark.parametrize(("body", "words"), [
    ({"game": "rummy", "players": 2, "level": "learned"}, "level must be one of easy, medium, hard, expert at "
                                                          "13-card Rummy, not 'learned'"),
    ({"game": "seep", "level": "godlike"}, "level must be one of easy, medium, hard, learned, expert at Seep"),
    ({"game": "seep", "level": 3}, "level"),
])
def test_a_level_the_game_does_not_offer_is_one_sentence_and_makes_nothing(client: TestClient, body: dict[str, object],
                                                                           words: str) -> None:
    refused = client.post("/api/tables", json=body)
    assert refused.status_code == 422 and refused.json()["code"] == "invalid", refused.text
    assert words in refused.json()["detail"] and "\n" not in refused.json()["detail"]
    assert client.get("/api/tables").json() == []


def test_the_schema_lists_every_games_levels() -> None:
    schema = create_app(ServerConfig(database_url="sqlite:///:memory:")).openapi()["components"]["schemas"]
    level = schema["TableIn"]["properties"]["level"]
    assert {"type": "string", "enum": ["easy", "medium", "hard", "learned", "expert"]} in level["anyOf"]
