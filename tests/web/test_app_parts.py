"""The server's parts as create_app assembles them: the routers' routes as one app answers for them, the published
schema's model names, and a connection's throttle."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from taash.web.app import ServerConfig, create_app
from taash.web.sockets import Throttle
from taash.web.state import AppState


def test_a_405_names_every_method_of_its_path_whichever_router_serves_it(tmp_path: Path) -> None:
    # Regression: the routes of included routers (the wallet's, the accounts') were left out of ``Allow``.
    with TestClient(create_app(ServerConfig(database_url=f"sqlite:///{tmp_path / 'a.db'}"))) as client:
        for method, path, allowed in [("DELETE", "/api/me", "GET"), ("PUT", "/api/chips/bonus", "POST"),
                                      ("OPTIONS", "/api/tables", "GET, POST"), ("POST", "/api/health", "GET"),
                                      ("DELETE", "/api/leaderboard/chips", "GET")]:
            answer = client.request(method, path)
            assert answer.status_code == 405 and answer.headers["allow"] == allowed, (method, path)
            assert answer.json() == {"detail": "that method is not allowed here", "code": "method_not_allowed"}


def test_the_app_state_is_typed_and_its_services_open_with_the_server(tmp_path: Path) -> None:
    app = create_app(ServerConfig(database_url=f"sqlite:///{tmp_path / 'a.db'}"))
    state = app.state.taash
    assert isinstance(state, AppState) and state.started is None
    with TestClient(app) as client:
        assert state.started is not None
        assert client.get("/api/health").json() == {"tables": 0, "connections": 0, "play_now": 0}
        guest = client.post("/api/guest", json={"name": "Asha"}).json()["id"]
        row = state.store.guest(guest)  # the route wrote through the state's store
        assert row is not None and row.name == "Asha"


def test_the_schema_keeps_the_names_of_its_models() -> None:
    # The tables' seat and the history's seat share a name: the schema tells them apart by their first modules.
    schemas = create_app(ServerConfig(database_url="sqlite:///:memory:")).openapi()["components"]["schemas"]
    assert {"taash__web__app__SeatOut", "taash__web__history__SeatOut", "TableOut", "GuestOut"} <= set(schemas)


def test_a_connection_may_send_a_burst_of_twice_its_rate_then_its_rate() -> None:
    now = [100.0]
    throttle = Throttle(2, clock=lambda: now[0])
    assert [throttle.take() for _ in range(5)] == [True, True, True, True, False]
    assert throttle.strikes == 1
    now[0] += 0.5  # one more message's worth
    assert [throttle.take(), throttle.take()] == [True, False]
    now[0] += 60  # never more than the burst
    assert sum(throttle.take() for _ in range(10)) == 4 and throttle.strikes == 8


def test_each_page_is_served_by_its_path_and_none_is_in_the_schema(tmp_path: Path) -> None:
    app = create_app(ServerConfig(database_url=f"sqlite:///{tmp_path / 'a.db'}"))
    with TestClient(app) as client:
        lobby = ">taash · Seep and Rummy</title>"
        for path, title in [("/", lobby), ("/join/ABC123", lobby), ("/t/x1", "table.js"),
                            ("/r/x1", "replay.js"), ("/p/g1", "person.js"), ("/leaderboard", "leaderboard.js")]:
            answer = client.get(path)
            assert answer.status_code == 200 and answer.headers["cache-control"] == "no-cache", path
            assert title in answer.text, path
        assert client.get("/t/x1/more").status_code == 404
    assert not any(path in ("/", "/leaderboard") or path.startswith(("/t/", "/r/", "/p/", "/join/"))
                   for path in app.openapi()["paths"])
