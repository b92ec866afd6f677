"""The chat on a real server, over its websockets and HTTP (SQLite, and PostgreSQL when the CI provides one):
players and watchers apart, a private table's watchers told nothing, the limits and the filter, a report read back
by ``taash admin reports``, and the chat of one's own match with its replay."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.server import POSTGRES, Person, Server, Socket, running_server
from tests.web.test_history import play_to_the_end

DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
    not POSTGRES, reason="TAASH_TEST_POSTGRES_URL is not set (the CI script sets it)"))]
XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture(params=DATABASES)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    with running_server(tmp_path, request.param) as s:
        yield s


def two_at_a_table(server: Server, public: bool = True) -> tuple[str, Person, Person, str]:
    """Asha's table (public or private), Bela in its other seat, started; its id and invite code."""
    asha, bela = Person(server, "Asha"), Person(server, "Bela")
    made = asha.post("/api/tables", {"players": 2, "baazis": 0, "public": public, "seat": 0})
    assert made.status_code == 200, made.text
    table = made.json()
    assert bela.post(f"/api/tables/{table['id']}/sit", {"seat": 1, "code": table["code"]}).status_code == 200
    assert asha.post(f"/api/tables/{table['id']}/start").status_code == 200
    return table["id"], asha, bela, table["code"]


def chat_lines(sock: Socket) -> list[dict[str, Any]]:
    sock.drain(0.4)
    lines = [m for m in sock.received if m["type"] == "chat"]
    sock.received.clear()
    return lines


def say(sock: Socket, **message: Any) -> dict[str, Any]:
    """Send a chat message; its answer (an ack or an error)."""
    mid = sock.person.next_id()
    sock.send({"type": "chat", "id": mid, **message})
    while True:
        m = sock.recv()
        if m.get("id") == mid:
            return m


def test_players_and_watchers_chat_apart_within_limits_and_a_report_reaches_the_operator(server: Server) -> None:
    table_id, asha, bela, _ = two_at_a_table(server)
    wu, xi = Person(server, "Wu"), Person(server, "Xi")
    a, b, w, x = (p.socket(table_id) for p in (asha, bela, wu, xi))
    for sock in (a, b, w, x):
        sock.drain()
    version = b.version

    assert say(a, text=XSS)["type"] == "ack"
    heard = chat_lines(b)
    assert [(m["name"], m["seat"], m["channel"], m["text"]) for m in heard] == [("Asha", 0, "players", XSS)]
    assert chat_lines(a) == heard  # the speaker is told his own line too
    assert chat_lines(w) == [] and chat_lines(x) == []
    assert say(w, emote="wow")["type"] == "ack"
    assert [(m["name"], m["seat"], m["emote"]) for m in chat_lines(x)] == [("Wu", None, "wow")]
    chat_lines(w)
    assert chat_lines(a) == [] and chat_lines(b) == []

    # The limits: each refusal one line, nothing said.
    long = say(a, text="x" * 201)
    assert (long["type"], long["code"]) == ("error", "chat_too_long")
    assert say(a, phrase="no_such_phrase")["code"] == "malformed"
    for _ in range(4):
        assert say(a, phrase="good_luck")["type"] == "ack"
    rate = say(a, text="one too many")
    assert (rate["code"], rate["message"]) == ("chat_rate", "at most 5 chat messages in 10 seconds: wait a little")
    assert [m.get("phrase") for m in chat_lines(b)] == ["good_luck"] * 4
    chat_lines(a)
    assert say(b, text="shit, well played")["type"] == "ack"  # a public table: the filter is on
    assert [m["text"] for m in chat_lines(a)] == ["****, well played"]
    assert say(a, type="chat_filter", on=False)["code"] == "forbidden"  # a public table's filter stays on
    assert b.version == version and b.state is not None  # chat moved the table on by nothing

    # A report: by someone who heard the line, once; never by a watcher of the other channel or the speaker.
    line = heard[0]["line"]
    assert bela.post("/api/chat/report", {"line": line}).json() == {"reported": True}
    assert bela.post("/api/chat/report", {"line": line}).json() == {"reported": False}
    assert wu.post("/api/chat/report", {"line": line}).status_code == 403
    assert asha.post("/api/chat/report", {"line": line}).status_code == 400
    assert bela.post("/api/chat/report", {"line": "0" * 16}).status_code == 404
    assert bela.post("/api/chat/report", {"line": 5}).status_code == 422
    out = subprocess.run([sys.executable, "-m", "taash.cli", "admin", "reports", "--database-url",
                          server.database_url, "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert f'"table": "{table_id}"' in out.stdout and '"speaker_name": "Asha"' in out.stdout
    assert '"reporter_name": "Bela"' in out.stdout and '"text": "<img src=x onerror=alert(1)>"' in out.stdout

    # Whoever joins gets his channel's recent lines, the other channel's never.
    late = Person(server, "Late").socket(table_id)
    history = late.recv_until("chat_history")
    assert [m.get("emote") for m in history["lines"]] == ["wow"] and history["filter"] is True
    b2 = bela.socket(table_id)
    assert [m.get("text") or m.get("phrase") for m in b2.recv_until("chat_history")["lines"]] == [
        XSS, *["good_luck"] * 4, "****, well played"]


def test_a_private_table_s_watchers_get_nothing_and_its_creator_may_switch_the_filter_off(server: Server) -> None:
    asha, bela = Person(server, "Asha"), Person(server, "Bela")
    table = asha.post("/api/tables", {"players": 2, "baazis": 0, "public": False, "seat": 0}).json()
    table_id, code = table["id"], table["code"]
    a = asha.socket(table_id)
    watcher = bela.socket(table_id, code=code)  # holds the code, not yet seated: a watcher
    a.drain()
    watcher.drain()
    assert say(a, text="hello")["type"] == "ack"
    assert chat_lines(watcher) == []
    refused = say(watcher, text="hello?")
    assert (refused["code"], refused["message"]) == ("forbidden", "a private table: its watchers cannot chat")
    assert bela.http.get(f"/api/tables/{table_id}/chat-filter").status_code == 403  # nothing at all

    assert bela.post(f"/api/tables/{table_id}/sit", {"seat": 1, "code": code}).status_code == 200
    assert bela.http.get(f"/api/tables/{table_id}/chat-filter").json() == {"on": True, "may_switch": False}
    assert asha.post(f"/api/tables/{table_id}/start").status_code == 200
    b = bela.socket(table_id)
    assert [m["text"] for m in b.recv_until("chat_history")["lines"]] == ["hello"]
    assert say(b, type="chat_filter", on=False)["code"] == "forbidden"  # only the creator
    assert asha.http.get(f"/api/tables/{table_id}/chat-filter").json() == {"on": True, "may_switch": True}
    assert say(a, type="chat_filter", on=False)["type"] == "ack"
    assert b.recv_until("chat_filter")["on"] is False
    assert say(a, text="shit")["type"] == "ack"
    assert [m["text"] for m in chat_lines(b)] == ["shit"]
    assert Person(server, "Stranger").http.get(f"/api/tables/{table_id}/chat-filter").status_code == 403


def test_the_chat_of_one_s_own_match_comes_with_its_replay_and_to_nobody_else(server: Server) -> None:
    solo = Person(server, "Solo")
    table = solo.post("/api/quick", {"players": 2, "baazis": 0, "level": "medium"}).json()
    sock = solo.socket(table["id"])
    sock.recv()
    assert say(sock, text=XSS)["type"] == "ack"
    assert say(sock, emote="clap")["type"] == "ack"
    assert solo.http.get(f"/api/tables/{table['id']}/chat").status_code == 409  # not over yet
    sock.close()
    play_to_the_end(solo.socket(table["id"]))
    got = solo.http.get(f"/api/tables/{table['id']}/chat")
    assert got.status_code == 200, got.text
    lines = got.json()["lines"]
    assert [m.get("text") or m.get("emote") for m in lines if not m.get("bot")] == [XSS, "clap"]
    assert all(m.get("emote") == "namaste" for m in lines if m.get("bot"))
    stranger = Person(server, "Stranger").http.get(f"/api/tables/{table['id']}/chat")
    assert (stranger.status_code, stranger.json()) == (200, {"lines": []})  # nobody else's chat, ever
    assert solo.http.get("/api/chat/phrases?lang=hi").json()["phrases"][0] == {"id": "hello", "words": "नमस्ते!"}


def test_a_person_blocked_is_not_heard_at_the_table_and_heard_again_once_unblocked(server: Server) -> None:
    """The social part's block list reaches the chat: Bela blocks Asha (both accounts), Asha's lines and emotes
    reach Asha herself but not Bela; unblocked, Bela hears her again; Bela's own lines reach Asha throughout."""
    asha, bela = Person(server, "Asha", account=True), Person(server, "Bela", account=True)
    made = asha.post("/api/tables", {"players": 2, "baazis": 0, "public": True, "seat": 0})
    assert made.status_code == 200, made.text
    table = made.json()
    assert bela.post(f"/api/tables/{table['id']}/sit", {"seat": 1, "code": table["code"]}).status_code == 200
    assert asha.post(f"/api/tables/{table['id']}/start").status_code == 200
    a, b = asha.socket(table["id"]), bela.socket(table["id"])
    a.drain()
    b.drain()

    assert bela.post("/api/blocks", {"name": "Asha"}).status_code == 200
    assert say(a, text="can you hear me?")["type"] == "ack"
    assert say(a, emote="wow")["type"] == "ack"
    assert chat_lines(b) == []
    assert [m.get("text") or m.get("emote") for m in chat_lines(a)] == ["can you hear me?", "wow"]
    assert say(b, text="not you")["type"] == "ack"
    assert [m["text"] for m in chat_lines(a)] == ["not you"]
    assert [m["text"] for m in chat_lines(b)] == ["not you"]  # the speaker is told his own line

    assert bela.post("/api/blocks/remove", {"name": "Asha"}).status_code == 200
    assert say(a, text="and now?")["type"] == "ack"
    assert [m["text"] for m in chat_lines(b)] == ["and now?"]
