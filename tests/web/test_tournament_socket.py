"""A tournament page's websocket through the protocol, against a real server: the tournament pushed at once and
on every change (registrations, its start, its matches), and its chat room, where the entrants and the watchers
talk apart, every line is kept as typed (the page escapes it) and bad messages are refused in one line."""

from __future__ import annotations

from pathlib import Path

from tests.web.server import Person, Socket, running_server


def tournament_socket(person: Person, tournament: str) -> Socket:
    return person.socket(f"tournaments/{tournament}")


def test_the_page_is_pushed_each_change_and_entrants_and_watchers_chat_apart(tmp_path: Path) -> None:
    with running_server(tmp_path, away_seconds=0.0, extra=("--turn-seconds", "0")) as server:
        ann, bob, cat, dev = (Person(server, n) for n in ("Ann", "Bob", "Cat", "Dev"))
        made = ann.post("/api/tournaments", {"name": "Friday", "game": "seep", "baazis": 0, "capacity": 3,
                                             "bots": False})
        tournament = made.json()["id"]
        for p in (ann, bob):
            assert p.post(f"/api/tournaments/{tournament}/register").status_code == 200
        a, b, c = (tournament_socket(p, tournament) for p in (ann, bob, cat))
        first = a.recv_until("tournament")["tournament"]
        assert first["status"] == "open" and first["entrants"] == 2 and first["registered"] is True
        assert c.recv_until("tournament")["tournament"]["registered"] is False
        b.recv_until("tournament")

        a.send({"type": "chat", "text": "<b>good luck</b> & <script>x</script>", "id": "a1"})
        a.recv_until("ack", id="a1")
        heard = b.recv_until("chat")
        assert heard["text"] == "<b>good luck</b> & <script>x</script>" and heard["name"] == "Ann"
        assert heard["channel"] == "players"
        c.send({"type": "chat", "phrase": "well_played", "id": "c1"})
        c.recv_until("ack", id="c1")  # his own line comes back to him first
        assert [m["channel"] for m in c.received if m["type"] == "chat"] == ["watchers"]
        for sock in (a, b):  # the entrants never hear the watchers, nor the watchers the entrants
            sock.drain()
            assert not [m for m in sock.received if m["type"] == "chat" and m["channel"] == "watchers"]
        c.drain()
        assert not [m for m in c.received if m["type"] == "chat" and m["channel"] == "players"]

        assert cat.post("/api/chat/report", {"line": heard["line"]}).status_code == 403  # he could not hear it
        reported = bob.post("/api/chat/report", {"line": heard["line"]})
        assert reported.status_code == 200 and reported.json() == {"reported": True}

        for bad, code in (({"type": "chat"}, "malformed"), ({"type": "chat", "text": "x" * 201}, "chat_too_long"),
                          ({"type": "chat", "emote": "nope"}, "malformed"), ({"type": "register"}, "malformed")):
            a.send({**bad, "id": "bad"})
            refused = a.recv_until("error")
            assert refused["code"] == code and "\n" not in refused["message"]

        late = tournament_socket(dev, tournament)  # the recent lines of his channel for one who joins
        history = late.recv_until("chat_history")
        assert [m.get("phrase") for m in history["lines"]] == ["well_played"]

        assert dev.post(f"/api/tournaments/{tournament}/register").status_code == 200  # full: it starts
        for sock in (a, c):  # pushed its start, then its tables (within 6 s: the fallback look is every 10 s)
            t = sock.recv_until("tournament", timeout=6)["tournament"]
            while not any(m["table"] for m in t["matches"]):
                t = sock.recv_until("tournament", timeout=6)["tournament"]
            assert t["status"] in ("running", "paying", "finished")
        for sock in (a, b, c, late):
            sock.close()


def test_an_unknown_tournament_is_refused_with_a_reason(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        ann = Person(server, "Ann")
        assert ann.refusal("tournaments/0123456789abcdef") == (1008, "no such tournament")
        assert ann.refusal("tournaments/nope") == (1008, "no such tournament")
