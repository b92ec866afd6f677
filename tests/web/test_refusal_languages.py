"""Refusals that carry values (a tournament's spec, a table's settings and moves, Play now's presses) are
messages of the catalogue with their values, not sentences built in English: each reader gets his own language,
over HTTP (``Accept-Language``) and over a socket (``?lang=``), and English readers the very bytes they got before."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taash.i18n import said_of, say_in
from taash.seep.errors import BadPositionError
from taash.seep.notation import play_from_json
from taash.tables.adapter import Settings, TableError, adapter
from taash.tables.table import check_settings
from taash.tournaments.pairing import TournamentError
from taash.web.app import ServerConfig, create_app
from taash.web.matchmaking import Matchmaker, Wanted
from taash.web.play_now import PlayNowIn, wanted_of
from taash.web.tournament_book import TournamentSpec, _checked
from tests.web.server import migrated_sqlite

DEVANAGARI = re.compile(r"[\u0900-\u097f]")
GURMUKHI = re.compile(r"[\u0a00-\u0a7f]")
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def spec(**changes: Any) -> Callable[[], object]:
    return lambda: _checked(TournamentSpec(name="Friday", game="seep", **changes), NOW)


def rummy_move(message: dict[str, Any]) -> object:
    """A Rummy table's reading of a move of seat 0's (a card in it that is none: the card's own refusal inside)."""
    rummy = adapter("rummy")
    return rummy.action_from(rummy.new_state(rummy.settings(2, "octro", "points", "easy", True), 7), 0, message)


#: A refusal, the English it always said (byte for byte), and the values the Hindi must keep.
REFUSALS: list[tuple[str, Callable[[], object], str, tuple[str, ...]]] = [
    ("capacity", spec(capacity=100), "a tournament takes 2 to 64 entrants, not 100", ("64", "100")),
    ("kind", spec(kind="ladder"), "a tournament is one of knockout, swiss, arena, not 'ladder'", ("'ladder'",)),
    ("fee", spec(fee=-5), "an entry fee is 0 to 1,000,000,000 chips, not -5", ("1,000,000,000", "-5")),
    ("arena", spec(kind="arena"), "an arena (and only an arena) lasts 0.25 to 1440 minutes, not 0", ("1440",)),
    ("rounds", spec(rounds=13), "a Swiss tournament plays 1 to 12 rounds (0: as many as it needs), not 13", ("13",)),
    ("prizes", spec(prizes=(60, 30)),
     "prizes are up to 10 percents of the pool, by place, adding up to 100, not [60, 30]", ("[60, 30]",)),
    ("tables", spec(players=3), "its tables cannot be played: players must be 2 or 4", ()),
    ("game", lambda: adapter("chess"), "no tables for the game 'chess' (games: ", ("'chess'",)),
    ("level", lambda: check_settings(Settings("seep", 2, None, 0, "genius", True)),
     "level must be one of ", ("easy",)),
    ("format", lambda: adapter("rummy").settings(2, "octro", "marathon", "easy", True),
     "format must be one of ", ("points",)),
    ("wait", lambda: Matchmaker(None).check(Wanted("seep", 2, "standard", 0, 0), "easy", 7),  # type: ignore[arg-type]
     "wait must be one of 0, 15, 30, 60, 120 seconds", ("0, 15, 30, 60, 120",)),
    ("no format", lambda: wanted_of(PlayNowIn.model_validate({"game": "seep", "format": "pool101"})),
     "Seep takes no format (it plays to baazis)", ("Seep",)),
    ("card", lambda: rummy_move({"type": "discard", "card": "Zz"}),
     "malformed discard: unknown card 'Zz' (ranks A23456789TJQK, suits shdc, or JK)", ("'Zz'", "A23456789TJQK")),
    ("card type", lambda: rummy_move({"type": "discard", "card": 7}),
     "malformed discard: a card must be a string such as 'Ts' or 'JK', not 7", ("'Ts'", "7")),
]


@pytest.mark.parametrize(("refusal", "english", "kept"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_a_refusal_with_values_is_said_in_hindi_and_punjabi_and_english_as_before(
        refusal: Callable[[], object], english: str, kept: tuple[str, ...]) -> None:
    with pytest.raises((TableError, TournamentError)) as raised:
        refusal()
    said = said_of(raised.value)
    assert str(said).startswith(english) and str(raised.value) == str(said)
    hindi, punjabi = say_in("hi", said), say_in("pa", said)
    assert DEVANAGARI.search(hindi) and GURMUKHI.search(punjabi), (hindi, punjabi)
    assert not re.search(r"\b(not|must|one of|takes|cannot|unknown|card|ranks|suits)\b", hindi), hindi  # no English
    assert all(value in hindi and value in punjabi for value in kept), (hindi, kept)
    assert say_in("en", said) == str(said)


def test_a_refusal_inside_a_refusal_is_said_in_the_same_language() -> None:
    with pytest.raises(TournamentError) as raised:
        spec(players=3)()
    hindi = say_in("hi", said_of(raised.value))
    assert hindi == say_in("hi", "its tables cannot be played: {why}", why=say_in("hi", "players must be 2 or 4"))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(ServerConfig(database_url=migrated_sqlite(tmp_path), bot_delay=0))
    with TestClient(app) as c:
        yield c


def test_a_tournament_refused_over_http_in_the_language_asked(client: TestClient) -> None:
    assert client.post("/api/guest", json={"name": "Asha"}).status_code == 200
    body = {"name": "Friday", "game": "seep", "baazis": 0, "capacity": 4, "prizes": [60, 30]}
    english = client.post("/api/tournaments", json=body)
    assert english.status_code == 400 and english.json() == {
        "detail": "prizes are up to 10 percents of the pool, by place, adding up to 100, not [60, 30]", "code": "bad"}
    hindi = client.post("/api/tournaments", json=body, headers={"Accept-Language": "hi"})
    assert hindi.status_code == 400 and hindi.json()["code"] == "bad"
    assert hindi.json()["detail"] == say_in("hi", "prizes are up to 10 percents of the pool, by place, adding up to "
                                                  "100, not {prizes}", prizes="[60, 30]")
    assert DEVANAGARI.search(hindi.json()["detail"])
    wrong = client.post("/api/tournaments", json={**body, "prizes": [100], "format": "pool101"},
                        headers={"Accept-Language": "pa"})
    assert wrong.json()["detail"] == say_in("pa", "{game} takes baazis, not a format", game="Seep")
    assert client.get("/api/tournaments").json() == []  # nothing was made


def test_a_stale_move_and_a_bad_frame_are_refused_on_the_tables_socket_in_its_language(client: TestClient) -> None:
    assert client.post("/api/guest", json={"name": "Asha"}).status_code == 200
    made = client.post("/api/tables", json={"players": 2, "baazis": 0, "level": "easy", "seat": 0})
    assert made.status_code == 200, made.text
    table = made.json()["id"]
    told = {}
    for lang in ("hi", None):
        with client.websocket_connect(f"/ws/{table}" + (f"?lang={lang}" if lang else "")) as ws:
            snapshot = ws.receive_json()
            ws.send_json({"type": "bid", "value": 9, "version": snapshot["version"] + 7, "id": f"w-{lang}"})
            while (m := ws.receive_json())["type"] != "error":
                pass
            assert m["code"] == "stale"
            told[lang] = (m["message"], snapshot["version"])
            ws.send_text("{not json")
            assert ws.receive_json()["message"] == ("not JSON" if lang is None else say_in(lang, "not JSON"))
    message, version = told[None]
    assert message == f"stale version {version + 7}: the table is at version {version}"
    hindi, version = told["hi"]
    assert hindi == say_in("hi", "stale version {version}: the table is at version {now}", version=version + 7,
                           now=version)
    assert DEVANAGARI.search(hindi) and str(version + 7) in hindi


def test_play_now_refusals_come_back_in_the_language_of_the_socket(client: TestClient) -> None:
    assert client.post("/api/guest", json={"name": "Asha"}).status_code == 200
    presses = [{"type": "play_now", "game": "seep", "players": 2, "format": "pool101"},
               {"type": "play_now", "game": "seep", "players": 2, "wait": 7},
               {"type": "dance"}]
    told: dict[str | None, list[dict[str, Any]]] = {}
    for lang in ("hi", "pa", None):
        with client.websocket_connect("/ws/play-now" + (f"?lang={lang}" if lang else "")) as ws:
            told[lang] = []
            for press in presses:
                ws.send_json(press)
                told[lang].append(ws.receive_json())
    assert told[None] == [
        {"type": "error", "code": "bad", "message": "Seep takes no format (it plays to baazis)"},
        {"type": "error", "code": "bad", "message": "wait must be one of 0, 15, 30, 60, 120 seconds"},
        {"type": "error", "code": "malformed", "message": "unknown message type 'dance'"}]
    for lang, script in (("hi", DEVANAGARI), ("pa", GURMUKHI)):
        assert [m["code"] for m in told[lang]] == ["bad", "bad", "malformed"]
        assert all(script.search(m["message"]) for m in told[lang]), told[lang]
        assert told[lang][0]["message"] == say_in(lang, "{game} takes no format (it plays to baazis)", game="Seep")
        assert "0, 15, 30, 60, 120" in told[lang][1]["message"] and "'dance'" in told[lang][2]["message"]


def test_play_now_across_servers_carries_the_language_and_the_holder_says_it() -> None:
    """A press forwarded to the server keeping the queue carries its connection's language (``pn_press``'s
    ``lang``), and what that server tells the person comes back said in it; a press from a server that sends no
    language is told in English, as before."""
    from types import SimpleNamespace

    from taash.web.matchmaking import Entry
    from taash.web.play_now_shared import SharedQueue

    queue = SharedQueue(Matchmaker(None), SimpleNamespace(server="s1", redis=None, handlers={}))  # type: ignore[arg-type]
    queue.holder = "s2"
    queue.press(Entry("g1", "Asha", Wanted("seep", 2, "standard", 0, 0), "easy", 15, lambda _m: None, lang="hi"))
    holder, press = queue.outbox.get_nowait()
    assert holder == "s2" and press["op"] == "pn_press" and press["lang"] == "hi"
    restarting = "the server is restarting: press Play now again in a moment"
    for lang, told in (("hi", say_in("hi", restarting)), ("pa", say_in("pa", restarting)), (None, restarting)):
        queue._pressed({**press, "from": "s3", "lang": lang})  # s1 no longer keeps the queue: press again
        origin, tell = queue.outbox.get_nowait()
        assert origin == "s3" and tell["op"] == "pn_tell" and tell["message"]["code"] == "closing"
        assert tell["message"]["message"] == told
        assert queue.outbox.get_nowait()[1]["message"] is None  # and done with


def test_a_private_tables_log_is_refused_to_a_stranger_in_his_language(client: TestClient) -> None:
    assert client.post("/api/guest", json={"name": "Asha"}).status_code == 200
    made = client.post("/api/tables", json={"players": 2, "baazis": 0, "public": False, "seat": 0})
    assert made.status_code == 200, made.text
    client.cookies.clear()
    assert client.post("/api/guest", json={"name": "Bela"}).status_code == 200
    path = f"/api/tables/{made.json()['id']}/log"
    refused = "a private table: only its players may see its log"
    assert client.get(path).json() == {"detail": refused, "code": "forbidden"}
    hindi = client.get(path, headers={"Accept-Language": "hi"})
    assert hindi.status_code == 403 and hindi.json()["detail"] == say_in("hi", refused) != refused


def test_a_seep_play_naming_a_card_that_is_none_is_refused_in_each_readers_language() -> None:
    with pytest.raises(BadPositionError) as raised:
        play_from_json({"card": "Zz"}, {})
    said = said_of(raised.value)
    assert str(said) == "unknown card 'Zz' (ranks A23456789TJQK, suits shdc)"  # English as it always was
    hindi, punjabi = say_in("hi", said), say_in("pa", said)
    assert DEVANAGARI.search(hindi) and GURMUKHI.search(punjabi) and "'Zz'" in hindi and "'Zz'" in punjabi
    assert not re.search(r"\b(unknown|card|ranks|suits)\b", hindi + punjabi), (hindi, punjabi)
