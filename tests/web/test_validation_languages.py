"""The refusals that were still English only: pydantic's validation sentences (``invalid``), a game's missing
browser module, the tournaments' pairing errors and a save file's refusals. Each is a message of the catalogue, said
in the reader's language (HTTP by ``Accept-Language``, a socket by ``?lang=``); English readers get the very bytes
they got before."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taash.i18n import said_of, say_in, translations
from taash.tables.match import SaveError, TableMatch
from taash.tournaments.pairing import TournamentError, prizes, table_sizes
from taash.web.app import ServerConfig, create_app

DEVANAGARI = re.compile(r"[\u0900-\u097f]")
GURMUKHI = re.compile(r"[\u0a00-\u0a7f]")
SCRIPTS = {"hi": DEVANAGARI, "pa": GURMUKHI}
#: English words that a translated sentence must not hold (the fields' own names aside).
ENGLISH = re.compile(r"\b(should|must|required|input|string|characters|less|equal|than|not|valid|one of|unknown|"
                     r"games?|level|seat|table|name|letters|digits|module|has|no)\b", re.IGNORECASE)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(ServerConfig(database_url=f"sqlite:///{tmp_path / 'taash.db'}", bot_delay=0))
    with TestClient(app) as c:
        yield c


def english_left(sentence: str, fields: tuple[str, ...]) -> list[str]:
    for field in fields:
        sentence = sentence.replace(f"{field}:", "")
    return ENGLISH.findall(sentence)


def said_in(lang: str, message: str, values: dict[str, Any]) -> str:
    """``message`` in ``lang`` with ``values``; with its plural form (``values["plural"]``) for the count ``n``."""
    values = dict(values)
    plural = values.pop("plural", None)
    if plural is None:
        return say_in(lang, message, **values)
    return translations(lang).ngettext(message, plural, values["n"]).format(**values)


#: A request the schema refuses: (method, path, body), the English sentence it always got (pinned byte for byte:
#: pydantic's words, or our validators'), the message of the catalogue a reader of another language gets with its
#: values, and the fields named.
SCHEMA_REFUSALS: list[tuple[str, tuple[str, str, dict[str, Any]], str, tuple[str, dict[str, Any]], tuple[str, ...]]] = [
    ("missing", ("post", "/api/guest", {}), "name: Field required",
     ("{field}: this is required", {"field": "name"}), ("name",)),
    ("too long", ("post", "/api/guest", {"name": "x" * 30}), "name: String should have at most 24 characters",
     ("{field}: must be at most {n} character long", {"field": "name", "n": 24,
                                                      "plural": "{field}: must be at most {n} characters long"}),
     ("name",)),
    ("not a name", ("post", "/api/guest", {"name": "!!"}), "a name is 1 to 24 letters, digits, spaces or . ' -",
     ("a name is 1 to 24 letters, digits, spaces or . ' -", {}), ()),
    ("too many", ("post", "/api/tables", {"players": 7, "baazis": 0, "level": "easy", "seat": 0}),
     "players: Input should be less than or equal to 6", ("{field}: must be {le} or less",
                                                          {"field": "players", "le": 6}), ("players",)),
    ("not a number", ("post", "/api/tables", {"players": "two", "baazis": 0}),
     "players: Input should be a valid integer", ("{field}: must be a whole number", {"field": "players"}),
     ("players",)),
    ("seat", ("post", "/api/tables", {"players": 2, "baazis": 0, "level": "easy", "seat": 3}),
     "seat must be from 0 to 1 at a table of 2", ("seat must be from 0 to {last} at a table of {players}",
                                                  {"last": 1, "players": 2}), ()),
    ("level", ("post", "/api/tables", {"players": 2, "baazis": 0, "level": "genius", "seat": 0}),
     "level must be one of easy, medium, hard, learned, expert at Seep, not 'genius'",
     ("level must be one of {levels} at {game}, not {level}",
      {"levels": "easy, medium, hard, learned, expert", "game": "Seep", "level": "'genius'"}), ()),
    ("game", ("post", "/api/tables", {"game": "chess", "players": 2}), "unknown game 'chess' (games: seep, rummy)",
     ("unknown game {game} (games: {games})", {"game": "'chess'", "games": "seep, rummy"}), ()),
    ("two wrong", ("post", "/api/guest", {"name": 5, "extra": 1}), "name: Input should be a valid string",
     ("{field}: must be text", {"field": "name"}), ("name",)),
    ("json", ("post", "/api/guest", "{not json"), "the body is not valid JSON",
     ("the body is not valid JSON", {}), ()),
]


@pytest.mark.parametrize(("request_", "english", "message", "fields"), [r[1:] for r in SCHEMA_REFUSALS],
                         ids=[r[0] for r in SCHEMA_REFUSALS])
def test_the_schemas_refusals_in_hindi_and_punjabi_and_english_as_before(
        client: TestClient, request_: tuple[str, str, Any], english: str, message: tuple[str, dict[str, Any]],
        fields: tuple[str, ...]) -> None:
    assert client.post("/api/guest", json={"name": "Asha"}).status_code == 200
    method, path, body = request_

    def ask(headers: dict[str, str]) -> Any:
        sent = {"content": body, "headers": {**headers, "Content-Type": "application/json"}} \
            if isinstance(body, str) else {"json": body, "headers": headers}
        answer = getattr(client, method)(path, **sent)
        assert answer.status_code == 422, answer.text
        return answer.json()

    assert ask({}) == {"detail": english, "code": "invalid"}
    assert ask({"Accept-Language": "en-GB,hi;q=0.5"}) == {"detail": english, "code": "invalid"}
    for lang, script in SCRIPTS.items():
        said = ask({"Accept-Language": lang})
        assert said["code"] == "invalid" and script.search(said["detail"]), said
        assert said["detail"] == said_in(lang, *message), said
        assert not english_left(said["detail"], fields), said["detail"]


def test_more_than_one_thing_wrong_is_counted_in_the_language(client: TestClient) -> None:
    body = {"players": "two", "baazis": "none"}
    assert client.post("/api/guest", json={"name": "Asha"}).status_code == 200
    english = client.post("/api/tables", json=body).json()["detail"]
    assert english == "players: Input should be a valid integer (and 1 more)"
    hindi = client.post("/api/tables", json=body, headers={"Accept-Language": "hi"}).json()["detail"]
    assert hindi == say_in("hi", "{said} (and {n} more)", said=say_in("hi", "{field}: must be a whole number",
                                                                      field="players"), n=1)


def test_a_missing_module_of_a_game_in_the_language(client: TestClient) -> None:
    english = client.get("/games/seep/nope.js")
    assert english.status_code == 404 and english.json() == {"detail": "Seep has no module 'nope.js'",
                                                             "code": "not_found"}
    for lang, script in SCRIPTS.items():
        said = client.get("/games/seep/nope.js", headers={"Accept-Language": lang}).json()
        assert said["detail"] == say_in(lang, "{game} has no module {file}", game="Seep", file="'nope.js'")
        assert script.search(said["detail"]) and "'nope.js'" in said["detail"]


def test_a_play_now_press_the_schema_refuses_is_said_in_the_sockets_language(client: TestClient) -> None:
    assert client.post("/api/guest", json={"name": "Asha"}).status_code == 200
    told = {}
    for lang in ("hi", None):
        with client.websocket_connect("/ws/play-now" + (f"?lang={lang}" if lang else "")) as ws:
            ws.send_json({"type": "play_now", "game": "seep", "players": 9})
            told[lang] = ws.receive_json()
    assert told[None] == {"type": "error", "code": "invalid",
                          "message": "players: Input should be less than or equal to 6"}
    assert told["hi"]["code"] == "invalid"
    assert told["hi"]["message"] == say_in("hi", "{field}: must be {le} or less", field="players", le=6)


#: Refusals of the tournaments' pairing and of a save file: the English they always said, the values kept.
ERRORS: list[tuple[str, Callable[[], object], str, tuple[str, ...]]] = [
    ("table sizes", lambda: table_sizes(3, 1), "tables of 1 for 3 entrants: a table seats 2 or more", ("1", "3")),
    ("prize shares", lambda: prizes(100, [50], []), "prize shares are percents adding up to 100, not [50]", ("[50]",)),
    ("save kind", lambda: TableMatch.from_json({"kind": "record"}),
     "not a taash save file (a game record? taash replay FILE shows one)", ("taash replay FILE",)),
    ("save version", lambda: TableMatch.from_json({"kind": "taash-session", "version": 7}),
     "a save file of another version (7; this taash reads version 1)", ("7", "1")),
]


@pytest.mark.parametrize(("refusal", "english", "kept"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_pairing_and_save_errors_are_said_in_hindi_and_punjabi(refusal: Callable[[], object], english: str,
                                                                kept: tuple[str, ...]) -> None:
    with pytest.raises((TournamentError, SaveError)) as raised:
        refusal()
    said = said_of(raised.value)
    assert str(raised.value) == english == say_in("en", said)
    for lang, script in SCRIPTS.items():
        told = say_in(lang, said)
        assert script.search(told) and not re.search(r"\b(not|must|of|for|file)\b", told.replace("FILE", "")), told
        assert all(value in told for value in kept), told


def test_a_broken_save_is_refused_in_the_language_of_the_terminal(tmp_path: Path) -> None:
    """``taash play --resume`` of a save changed by hand: the one line says why in Hindi."""
    from typer.testing import CliRunner

    from taash.cli.main import app

    save = tmp_path / "m.json"
    save.write_text(json.dumps({"kind": "taash-session", "version": 1, "check": "0"}))
    english = CliRunner().invoke(app, ["play", "--lang", "en", "--resume", str(save)])
    hindi = CliRunner().invoke(app, ["play", "--lang", "hi", "--resume", str(save)])
    changed = "the save file was changed after it was saved (its check does not match)"
    assert english.exit_code == hindi.exit_code != 0
    assert changed in english.output
    assert say_in("hi", changed) in hindi.output and changed not in hindi.output


def test_no_such_page_and_a_method_not_allowed_in_the_language(client: TestClient) -> None:
    assert client.get("/api/nothing-here").json() == {"detail": "no such page", "code": "not_found"}
    assert client.delete("/api/tables").json() == {"detail": "that method is not allowed here",
                                                   "code": "method_not_allowed"}
    for lang in SCRIPTS:
        headers = {"Accept-Language": lang}
        assert client.get("/api/nothing-here", headers=headers).json() == {
            "detail": say_in(lang, "no such page"), "code": "not_found"}
        refused = client.delete("/api/tables", headers=headers)
        assert refused.status_code == 405
        assert refused.json()["detail"] == say_in(lang, "that method is not allowed here")
        assert SCRIPTS[lang].search(refused.json()["detail"])


def test_a_record_whose_settings_do_not_fit_is_refused_in_the_language_of_the_terminal(tmp_path: Path) -> None:
    """``taash play --resume`` of a Seep record (an older save) whose ``taash`` block names a level there is not."""
    from typer.testing import CliRunner

    from taash.cli.main import app
    from tests.tui.test_replay import a_record

    record = a_record().to_json()
    save = tmp_path / "old.json"
    save.write_text(json.dumps({**record, "taash": {"level": "genius"}}))
    english = CliRunner().invoke(app, ["play", "--lang", "en", "--resume", str(save)])
    punjabi = CliRunner().invoke(app, ["play", "--lang", "pa", "--resume", str(save)])
    assert english.exit_code == punjabi.exit_code != 0
    assert "taash.level must be one of easy, medium, hard, learned, expert, not 'genius'" in english.output
    assert say_in("pa", "taash.level must be one of {levels}, not {level}", levels="easy, medium, hard, learned, "
                  "expert", level="'genius'") in punjabi.output
    assert GURMUKHI.search(punjabi.output) and "must be one of" not in punjabi.output
