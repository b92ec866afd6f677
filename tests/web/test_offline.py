"""Offline play without a browser: the engine that answers a table's messages in Pyodide (run here by CPython, and by
a Python with nothing but the standard library and the bundle), the bundle, the installable app's files, and the
upload of finished offline matches back online."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from taash.cli.plain_play import new_session
from taash.cli.play_options import PlayOptions
from taash.i18n import client_catalogue
from taash.tables.adapter import TableError
from taash.web.app import create_app
from taash.web.http import ServerConfig
from taash.web.hub.clock import FakeClock
from taash.web.hub.live import Connection, Live
from taash.web.hub.messages import Messages
from taash.web.hub.turns import Turns
from taash.web.offline.bundle import build, bundled_files
from taash.web.offline.engine import OTHER_REFUSAL, OfflineMatch, Setup, opened
from taash.web.offline.routes import PYODIDE, cached_paths
from tests.web.server import migrated_sqlite


def setup(game: str = "seep", level: str = "hard", seed: int = 7) -> Setup:
    return Setup(game, 2 if game == "rummy" else 4, level, 0 if game == "seep" else None, None, seed, "You")


def played_out(match: OfflineMatch) -> OfflineMatch:
    """The match played to its end: the person's seat plays as its level's bot would, through messages."""
    for _ in range(2000):
        if match.over:
            return match
        if match.bot_to_move():
            match.bot_move()
            continue
        action = match.table.bot_action()
        answers = match.receive(json.dumps({**action, "version": match.table.version, "id": "m1"}))
        assert json.loads(answers[-1])["type"] == "ack", answers[-1]
    raise AssertionError("the match did not end")


# -- the engine -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["seep", "rummy"])
def test_the_same_seed_and_settings_give_the_same_match_as_taash_play(game: str) -> None:
    offline = played_out(OfflineMatch(setup(game, "medium", seed=41)))
    given = frozenset({"players", "seed", "level", *(["baazis"] if game == "seep" else [])})
    options = PlayOptions(offline.setup.players, "standard", None, "medium", 0, 41, "You", None, None, False, 0.0,
                          given, True)
    session = new_session(game, options)
    assert session.settings == offline.table.settings
    for action, _person in offline.actions:
        session.make(session.read(session.to_move(), action))
    assert session.over
    # The same record (deals, plays, scores); a table's bots' names say "(bot)" where taash play's do not.
    ours, theirs = offline.table.record(), session.record()
    assert [n.removesuffix(" (bot)") for n in ours.pop("names")] == theirs.pop("names")
    assert ours == theirs


def test_a_snapshot_is_the_servers_message_for_the_same_table() -> None:
    match = OfflineMatch(setup("rummy"))
    live = Live(match.table)
    live.connections.add(Connection("offline", 0))
    server = json.loads(Messages(Turns(FakeClock(), 0.8, 30.0, 0.0, 60.0)).message_for(live, 0, "snapshot",
                                                                                     "offline"))
    assert json.loads(match.message("snapshot")) == server


def test_a_stale_a_malformed_and_an_illegal_move_are_refused_in_one_line_and_change_nothing() -> None:
    match = OfflineMatch(setup("seep"))
    while match.bot_to_move():
        match.bot_move()
    version, saved = match.table.version, match.save()
    stale = json.loads(match.receive(json.dumps({"type": "bid", "value": 13, "version": 0, "id": "a"}))[0])
    assert stale["code"] == "stale" and stale["state"]["you"] == 0
    assert json.loads(match.receive("not json")[0])["code"] == "malformed"
    assert json.loads(match.receive(json.dumps({"type": "timeout", "version": version}))[0])["code"] == "malformed"
    illegal = match.receive(json.dumps({"type": "play", "play": {"card": "ZZ"}, "version": version, "id": "b"}))
    refusal = json.loads(illegal[0])
    assert refusal["type"] == "error" and "\n" not in refusal["message"]
    assert (match.table.version, match.save()) == (version, saved)


@pytest.mark.parametrize(("game", "rules"), [("rummy", "classic"), ("seep", "punjab_30")])
def test_the_rules_chosen_offline_make_the_table_and_survive_its_save(game: str, rules: str) -> None:
    chosen = Setup(game, 2, "easy", None, rules, 5, "You")
    match = OfflineMatch(chosen)
    assert json.loads(match.message("snapshot"))["state"]["rules"] == rules
    assert json.loads(OfflineMatch.load(match.save()).message("snapshot"))["state"]["rules"] == rules
    with pytest.raises(TableError, match="rules must be one of"):
        OfflineMatch(Setup(game, 2, "easy", None, "no_such_rules", 5, "You"))


BAD_SETUPS = {
    "expert": {"game": "seep", "players": 4, "level": "expert", "length": 0, "rules": None, "seed": 1, "name": "x"},
    "rules": {"game": "rummy", "players": 2, "level": "easy", "length": None, "rules": "karan", "seed": 1, "name": "x"},
    "name": {"game": "seep", "players": 4, "level": "easy", "length": 0, "rules": None, "seed": 1, "name": " "},
    "seed": {"game": "seep", "players": 4, "level": "easy", "length": 0, "rules": None, "seed": "1", "name": "x"},
}


@pytest.mark.parametrize("bad", sorted(BAD_SETUPS))
def test_a_refused_setup_is_a_message_of_the_catalogue_translated_in_hindi_and_punjabi(bad: str) -> None:
    match, refusal = opened("start", json.dumps(BAD_SETUPS[bad]))
    assert match is None and refusal is not None
    said = json.loads(refusal)
    english = said["message"].format(**said["values"])
    assert "\n" not in english and "{" not in english
    for lang in ("hi", "pa"):
        assert said["message"] in client_catalogue(lang)["messages"], (lang, said["message"])


def test_a_setup_refused_by_the_games_own_settings_is_said_with_its_reason() -> None:
    match, refusal = opened("start", json.dumps({**BAD_SETUPS["expert"], "level": "easy", "players": 3}))
    assert match is None and refusal is not None
    said = json.loads(refusal)
    assert said["message"] == OTHER_REFUSAL and said["values"]["why"]
    assert opened("resume", "not json") == (None, json.dumps(
        {"message": "this saved match cannot be read: it is not JSON", "values": {}}))
    started, none = opened("start", json.dumps({**BAD_SETUPS["expert"], "level": "easy"}))
    assert started is not None and none is None


def test_a_saved_match_resumes_where_it_was() -> None:
    match = OfflineMatch(setup("rummy"))
    for _ in range(9):
        match.make(match.table.bot_action(), not match.bot_to_move())
    resumed = OfflineMatch.load(match.save())
    assert resumed.message("snapshot") == match.message("snapshot")


@pytest.mark.parametrize("bad", ["[]", '{"setup": {"game": "chess"}, "actions": []}',
                                 '{"setup": {"game": "seep", "players": 4, "level": "expert", "seed": 1, "name": "x"},'
                                 ' "actions": []}',
                                 '{"setup": {"game": "seep", "players": 3, "level": "hard", "seed": 1, "name": "x"},'
                                 ' "actions": []}'])
def test_a_bad_save_is_refused_in_one_line(bad: str) -> None:
    with pytest.raises(TableError) as refused:
        OfflineMatch.load(bad)
    assert "\n" not in str(refused.value)


def test_the_rummy_groups_and_the_log_are_answered_offline() -> None:
    match = OfflineMatch(setup("rummy"))
    deal = match.table.state_for(0)["deal"]
    body = json.dumps({"rules": deal["rules"], "wild": deal["wild"], "groups": [deal["hand"]]})
    answer = json.loads(match.api("POST", "/api/rummy/groups", body))
    assert set(answer) == {"kinds", "valid", "points"}
    assert json.loads(match.api("GET", "/api/tables/offline/log"))["log"] == match.table.log
    with pytest.raises(TableError):
        match.api("GET", "/api/me")


# -- the bundle -------------------------------------------------------------------------------------------------


def test_the_bundle_plays_hard_matches_on_the_standard_library_alone(tmp_path: Path) -> None:
    """What Pyodide gets: the zip on an interpreter with no site-packages (no numpy, Babel, orjson, compiled cores)."""
    bundle = tmp_path / "engine.zip"
    bundle.write_bytes(build())
    code = f"""
import json, sys
sys.path.insert(0, {str(bundle)!r})
from taash.web.offline.engine import OfflineMatch, Setup
for game, players, length in (("seep", 4, 0), ("rummy", 2, None)):
    m = OfflineMatch(Setup(game, players, "hard", length, None, 5, "You"))
    while not m.over:
        m.make(m.table.bot_action(), not m.bot_to_move())
banned = {{"numpy", "babel", "pydantic", "fastapi"}} & set(sys.modules)
assert not banned, banned
assert sys.modules["orjson"].__file__.startswith({str(bundle)!r})
assert all(m.__file__ is None or m.__file__.startswith({str(bundle)!r}) or "taash" not in m.__name__
           for m in list(sys.modules.values()) if m.__name__.startswith("taash"))
print("ok")
"""
    done = subprocess.run([sys.executable, "-S", "-I", "-c", code], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "TAASH_PURE": "1"})
    assert done.stdout.strip() == "ok", done.stderr[-2000:]


def test_the_bundle_ships_only_python_and_the_same_bytes_each_time() -> None:
    data = build()
    assert data == build()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "taash/web/offline/engine.py" in names and "orjson.py" in names
    assert not [n for n in names if n.endswith((".so", ".c", ".npz"))]
    assert not [n for n in names if n.startswith(("taash/web/hub", "taash/chips", "taash/cli"))]
    assert len(names) == len(bundled_files()) + 1


# -- the installable app, over HTTP -----------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    with TestClient(create_app(ServerConfig(database_url=migrated_sqlite(tmp_path, "db.sqlite")))) as c:
        yield c


def test_the_manifest_names_the_app_its_icons_and_how_it_opens(client: TestClient) -> None:
    r = client.get("/manifest.webmanifest")
    assert r.headers["content-type"].startswith("application/manifest+json")
    m = r.json()
    assert m["display"] == "standalone" and m["start_url"].startswith("/") and m["short_name"] and m["theme_color"]
    sizes = {(i["sizes"], i["purpose"]) for i in m["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in m["icons"]:
        image = Image.open(io.BytesIO(client.get(icon["src"]).content))
        assert f"{image.width}x{image.height}" == icon["sizes"] and image.format == "PNG"


def test_the_service_worker_caches_the_client_the_engine_and_pyodide(client: TestClient) -> None:
    r = client.get("/sw.js")
    assert r.headers["content-type"].startswith("text/javascript")
    assert "__FILES__" not in r.text and "__BUNDLE__" not in r.text
    paths = cached_paths()
    for needed in ("/offline/play", "/offline/engine.zip", "/static/table.js", "/static/offline/worker.js",
                   "/pyodide/pyodide.asm.wasm", "/pyodide/python_stdlib.zip", "/static/offline/bench.html",
                   "/api/i18n/en", "/api/i18n/hi", "/api/i18n/pa"):
        assert needed in paths and json.dumps(needed) in r.text
    for path in paths:
        if not path.startswith("/pyodide/") or PYODIDE.is_dir():
            assert client.get(path).status_code == 200, path


def test_only_pyodides_own_files_are_served(client: TestClient) -> None:
    assert client.get("/pyodide/package.json").status_code == 404
    assert client.get("/pyodide/..%2F..%2Fpyproject.toml").status_code == 404


# -- uploads ----------------------------------------------------------------------------------------------------


def guest(client: TestClient, name: str = "Priya") -> None:
    assert client.post("/api/guest", json={"name": name}).status_code == 200


def test_a_finished_match_is_added_to_the_history_once_and_never_rated(client: TestClient) -> None:
    guest(client)
    save = played_out(OfflineMatch(setup("seep", seed=3))).save()
    first = client.post("/api/offline/matches", json={"save": save})
    assert first.status_code == 200, first.text
    assert client.post("/api/offline/matches", json={"save": save}).json()["id"] == first.json()["id"]
    listed = client.get("/api/offline/matches").json()
    assert [m["id"] for m in listed] == [first.json()["id"]]
    assert listed[0]["summary"]["seats"][0]["name"] == "You"
    board = client.get("/api/leaderboard/seep")
    assert board.status_code == 200
    assert "You" not in board.text and "bot:hard" not in board.text


def test_the_persons_page_lists_his_offline_matches_apart_and_never_rated(client: TestClient) -> None:
    guest(client)
    me = client.get("/api/me").json()["id"]
    assert client.get(f"/api/people/{me}/offline").json() == []
    save = played_out(OfflineMatch(setup("seep", seed=3))).save()
    assert client.post("/api/offline/matches", json={"save": save}).status_code == 200
    listed = client.get(f"/api/people/{me}/offline").json()
    assert [m["game"] for m in listed] == ["seep"] and listed[0]["summary"]["level"] == "hard"
    person = client.get(f"/api/people/{me}").json()
    assert person["matches"] == [] and person["stats"] == {}  # not a match at a table: no statistics, no rating
    client.cookies.clear()  # anyone may look at a person's page
    assert client.get(f"/api/people/{me}/offline").json() == listed
    for unknown in ("0123abcd", "not-an-id"):
        r = client.get(f"/api/people/{unknown}/offline")
        assert r.status_code == 404 and "no such person" in r.text


def tampered(save: str, change: str) -> str:
    data = json.loads(save)
    actions = data["actions"]
    if change == "bot move":
        bot = next(a for a in actions if not a["person"] and a["action"]["type"] == "play")
        other = next(a for a in actions if a is not bot and a["action"]["type"] == "play")
        bot["action"]["play"] = other["action"]["play"]
    elif change == "unfinished":
        del actions[-3:]
    elif change == "seed":
        data["setup"]["seed"] += 1
    return json.dumps(data)


@pytest.mark.parametrize("change", ["bot move", "unfinished", "seed"])
def test_a_tampered_record_is_refused_in_one_line(client: TestClient, change: str) -> None:
    guest(client)
    save = played_out(OfflineMatch(setup("seep", seed=3))).save()
    r = client.post("/api/offline/matches", json={"save": tampered(save, change)})
    assert r.status_code == 400, r.text
    message = r.json()["message"] if "message" in r.json() else r.json()["detail"]
    assert message.startswith("this offline match was refused: ") and "\n" not in message
    assert client.get("/api/offline/matches").json() == []


def test_an_upload_needs_a_person(client: TestClient) -> None:
    assert client.post("/api/offline/matches", json={"save": "{}"}).status_code == 401


# -- the migration ----------------------------------------------------------------------------------------------


def migrated_both_ways(url: str) -> None:
    """0019_offline makes the table of offline matches, and going back to 0018_cluster drops it (and nothing else)."""
    from sqlalchemy import inspect

    from taash.web.db import make_engine, migrate
    from tests.web.test_migrations import downgrade

    engine = make_engine(url)
    migrate(engine, "0019_offline")  # exactly this step: the later ones add tables of their own
    assert "offline_matches" in inspect(engine).get_table_names()
    before = set(inspect(engine).get_table_names())
    engine.dispose()
    downgrade(url, "0018_cluster")
    engine = make_engine(url)
    assert set(inspect(engine).get_table_names()) == before - {"offline_matches"}
    migrate(engine)
    assert "offline_matches" in inspect(engine).get_table_names()
    engine.dispose()


def test_the_offline_matches_migration_goes_up_and_down_on_sqlite(tmp_path: Path) -> None:
    migrated_both_ways(f"sqlite:///{tmp_path / 'm.db'}")


@pytest.mark.skipif(not os.environ.get("TAASH_TEST_POSTGRES_URL"), reason="no PostgreSQL (TAASH_TEST_POSTGRES_URL)")
def test_the_offline_matches_migration_goes_up_and_down_on_postgresql() -> None:
    from tests.web.server import postgres_database

    with postgres_database() as url:
        migrated_both_ways(url)


def test_a_long_match_uploads_whole_though_it_is_over_the_usual_body_limit(client: TestClient) -> None:
    guest(client)
    save = played_out(OfflineMatch(Setup("seep", 4, "easy", 2, None, 9, "You"))).save()
    assert len(save) > ServerConfig().max_body
    assert client.post("/api/offline/matches", json={"save": save}).status_code == 200
    huge = client.post("/api/offline/matches", json={"save": "x" * (600 * 1024)})
    assert huge.status_code == 413 and "\n" not in huge.text
