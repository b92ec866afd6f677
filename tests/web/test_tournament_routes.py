"""Tournaments over HTTP on the real server: made, registered for and withdrawn from, refused in one sentence, run
to their end at its tables, and listed on each player's page."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from tests.web.server import Person, running_server

FREE = {"name": "Friday knockout", "game": "seep", "players": 2, "baazis": 0, "capacity": 4}


def test_a_free_tournament_over_http_from_registration_to_each_players_page(tmp_path: Path) -> None:
    with running_server(tmp_path, away_seconds=0.0, extra=("--turn-seconds", "0")) as server:
        asha, *others = [Person(server, name) for name in ("Asha", "Bela", "Chetan", "Dev")]
        made = asha.post("/api/tournaments", FREE)
        assert made.status_code == 200, made.text
        tournament = made.json()
        assert tournament["mine"] and tournament["status"] == "open" and tournament["people"] == []
        path = f"/api/tournaments/{tournament['id']}"
        assert asha.post(f"{path}/register").json()["registered"]
        again = asha.post(f"{path}/register")
        assert again.status_code == 409 and again.json() == {"detail": "you are registered already",
                                                             "code": "refused"}
        assert not asha.post(f"{path}/withdraw").json()["registered"]
        assert asha.post(f"{path}/withdraw").status_code == 409
        for p in [asha, *others]:
            assert p.post(f"{path}/register").status_code == 200
        deadline = time.monotonic() + 120
        while (found := asha.http.get(path).json())["status"] != "finished":
            assert time.monotonic() < deadline, found["status"]
            time.sleep(0.2)
        assert [m["round"] for m in found["matches"]] == [1, 1, 2]
        assert [s["place"] for s in found["standings"]] == [1, 2, 3, 3]
        assert all(m["table"] and m["status"] == "done" for m in found["matches"])
        late = asha.post(f"{path}/withdraw")
        assert late.status_code == 409 and "started" in late.json()["detail"]
        champion = found["standings"][0]
        page = asha.http.get(f"/api/people/{champion['id']}/tournaments").json()
        assert page == [{"id": found["id"], "name": "Friday knockout", "game": "seep", "kind": "knockout",
                         "status": "finished", "place": 1, "prize": 0}]
        assert [t["id"] for t in asha.http.get("/api/tournaments").json()] == [found["id"]]
        for page_path in ("/tournaments", f"/tournaments/{found['id']}"):
            r = httpx.get(server.url + page_path)
            assert r.status_code == 200 and r.text.lower().startswith("<!doctype html")


def test_tournament_refusals_are_one_sentence_and_change_nothing(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        guest = Person(server, "Guest")
        for body, code in [({**FREE, "prizes": [60, 30]}, "bad"), ({**FREE, "game": "rummy"}, "bad"),
                           ({**FREE, "players": 3}, "bad"), ({**FREE, "capacity": 100}, "invalid"),
                           ({**FREE, "fee": "10"}, "invalid"), ({**FREE, "kind": "ladder"}, "invalid"),
                           ({**FREE, "kind": "arena"}, "bad")]:  # an arena needs its minutes
            refused = guest.post("/api/tournaments", body)
            assert refused.json()["code"] == code, refused.text
            assert "\n" not in refused.json()["detail"]
        assert guest.http.get("/api/tournaments").json() == []
        chips = guest.post("/api/tournaments", {**FREE, "fee": 100}).json()
        short = guest.post(f"/api/tournaments/{chips['id']}/register")
        assert short.status_code == 409 and short.json()["code"] == "account_needed"
        assert guest.http.get(f"/api/tournaments/{chips['id']}").json()["people"] == []
        for missing in ("/api/tournaments/0123456789abcdef", "/api/tournaments/nope"):
            assert guest.http.get(missing).status_code == 404
        assert guest.post("/api/tournaments/0123456789abcdef/register").status_code == 404
