"""The learn API, the coach and what a seat is told of its moves: a wrong step refused with the engine's reason, a
right one accepted, the coach's move legal and decided from the asking seat's view alone (and refused at a table
played for chips), every card that cannot be played with its reason, a forced choice said, and a finished deal
explained."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient

from taash.games.api import Action
from taash.learn import coach as coach_module
from taash.learn.coach import COACH_LEVEL, advice, snapshot
from taash.rummy.deal import Discard, IllegalTurnError
from taash.seep.deal import Phase
from taash.seep.describe import no_play_reason
from taash.seep.view import PlayerView
from taash.tables import match as session_module
from taash.tables.adapter import adapter
from taash.tables.match import TableMatch
from taash.web import learn as learn_routes
from taash.web.app import ServerConfig, create_app
from taash.web.learn import coach_refusal
from tests.web.server import migrated_sqlite
from tests.web.test_stakes import books, staked_table


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    config = ServerConfig(database_url=migrated_sqlite(tmp_path), bot_delay=0.0)
    with TestClient(create_app(config)) as c:
        yield c


def test_a_wrong_step_is_refused_with_the_engines_reason_and_a_right_one_accepted(client: TestClient) -> None:
    page = client.get("/api/learn/seep").json()
    assert [s["title"] for s in page["steps"]] == ["The bid", "A capture", "A house", "Cementing a house", "A sweep"]
    wrong = client.post("/api/learn/seep/step", json={"step": 0, "action": {"type": "bid", "value": 5}}).json()
    assert wrong == {"verdict": "refused", "ok": False,
                     "said": "cannot bid 5: a bid is 9 to 13 and the bidder must hold a card of it"}
    right = client.post("/api/learn/seep/step", json={"step": 0, "action": {"type": "bid", "value": 13}}).json()
    assert right["verdict"] == "right" and right["ok"]
    refused = client.post("/api/learn/rummy/step", json={"step": 0, "action": {"type": "discard", "card": "8s"}})
    assert refused.json()["said"] == "take a card from the stock or the discard pile first (or drop)"
    assert client.get("/learn/rummy").status_code == 200


@pytest.mark.parametrize(("path", "body", "status"), [
    ("/api/learn/chess/step", {"step": 0, "action": {}}, 404),
    ("/api/learn/seep/step", {"step": 9, "action": {"type": "bid", "value": 13}}, 400),
    ("/api/learn/seep/step", {"step": 0, "action": {"type": "bid", "value": "x"}}, 400),
    ("/api/learn/seep/step", {"step": 0}, 422),
    ("/api/learn/seep/step", {"step": 0, "action": {"type": "bid", "value": 13}, "more": 1}, 422),
])
def test_bad_steps_get_one_line(client: TestClient, path: str, body: dict[str, Any], status: int) -> None:
    r = client.post(path, json=body)
    assert r.status_code == status
    assert r.json()["detail"] and "\n" not in r.json()["detail"]


def test_the_coach_gives_a_legal_move_to_the_player_to_move_only(client: TestClient) -> None:
    client.post("/api/guest", json={"name": "Asha"})
    table = client.post("/api/quick", json={"game": "rummy", "players": 2, "format": "points"}).json()
    said = client.post(f"/api/tables/{table['id']}/coach")
    deadline = time.monotonic() + 20
    while said.json().get("code") == "not_your_turn" and time.monotonic() < deadline:  # the bot moves first
        time.sleep(0.05)
        said = client.post(f"/api/tables/{table['id']}/coach")
    assert said.status_code == 200, said.text
    assert said.json()["move"]["type"] in ("take", "drop") and said.json()["why"]
    other = TestClient(client.app)
    other.post("/api/guest", json={"name": "Bela"})
    assert other.post(f"/api/tables/{table['id']}/coach").json()["code"] == "forbidden"
    assert client.post("/api/tables/0123456789abcdef/coach").status_code == 404


class Spy:
    """A bot that records what it is shown and plays the first legal action."""

    seen: ClassVar[list[Any]] = []
    name = "spy"

    def choose(self, view: Any) -> Action:
        Spy.seen.append(view)
        return view.legal_actions()[0]

    def explain(self, view: Any, action: Action) -> str:
        Spy.seen.append(view)
        return "the first legal action"


def test_the_coach_decides_from_the_seats_view_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot is handed the asking seat's view, nothing else: a PlayerView holding that seat's hand only."""
    game = adapter("seep")
    session = TableMatch(game, game.settings(4, None, 0, "easy", True), 7, ["A", "B", "C", "D"])
    while session.state.match.deal.phase is Phase.BID or session.to_move() != 2:
        session.move(None, session.first_legal())
    levels: list[str] = []
    monkeypatch.setattr(session_module, "make_bot", lambda level, seed, game: levels.append(level) or Spy())
    Spy.seen = []
    said = advice(snapshot(session), 2)
    assert levels == [COACH_LEVEL]
    assert Spy.seen and all(isinstance(v, PlayerView) and v.seat == 2 for v in Spy.seen)
    assert all(v.hand == session.state.match.deal.hands[2] for v in Spy.seen)
    assert session.read(2, said["move"])  # legal for that seat now
    with pytest.raises(Exception, match="not your turn"):
        advice(snapshot(session), 1)


def test_the_expert_coachs_move_is_legal() -> None:
    game = adapter("seep")
    session = TableMatch(game, game.settings(2, None, 0, "easy", True), 3, ["A", "B"])
    for _ in range(3):
        seat = session.to_move()
        assert seat is not None
        said = advice(snapshot(session), seat)
        assert said["why"]
        session.move(seat, said["move"])
    assert coach_module.COACH_LEVEL == "expert"


def test_the_coach_is_refused_at_a_table_played_for_chips(tmp_path: Path) -> None:
    store, ledger, hub = books(tmp_path)

    async def main() -> None:
        ledger.open_wallet("g0")
        ledger.open_wallet("g1")
        live = await staked_table(hub, "seep", 2, 0, 20, people=2)
        await hub.act(live, {"type": "start"}, "g0")
        assert coach_refusal(live, "g0") == ("forbidden", "The coach is not available at tables played for chips.")
        live.stake = 0
        assert coach_refusal(live, "g0") is None
        assert coach_refusal(live, "nobody") is not None
        await hub.close()
    asyncio.run(main())
    store.close()


def seep_seat_at(seed: int) -> tuple[TableMatch, dict[str, Any]]:
    game = adapter("seep")
    session = TableMatch(game, game.settings(4, None, 0, "easy", True), seed, ["A", "B", "C", "D"])
    return session, session.state


def test_a_forced_bid_and_the_bid_plays_unplayable_cards_say_why() -> None:
    game = adapter("seep")
    forced = blocked = None
    for seed in range(300):
        session = TableMatch(game, game.settings(4, None, 0, "easy", True), seed, ["A", "B", "C", "D"])
        seat = session.to_move()
        assert seat is not None
        part = game.seat_part(session.state, seat, game.public(session.state, session.names, False)["deal"])
        if len(part["bids"]) == 1 and forced is None:
            forced = part["forced"]
            assert forced == f"Your only bid is {part['bids'][0]}: the only card of 9 to king you hold."
        session.move(seat, {"type": "bid", "value": session.view(seat).legal_bids()[0]})
        part = game.seat_part(session.state, seat, game.public(session.state, session.names, False)["deal"])
        if part["blocked"] and blocked is None:
            blocked = part["blocked"]
            view = session.view(seat)
            for name, reason in blocked.items():
                assert not any(p[1] == view_card(name) for p in view.legal_plays())
                assert reason == no_play_reason(view, view_card(name))
                assert reason.startswith("the bid play must use the bid")
        if forced and blocked:
            return
    raise AssertionError("no forced bid or unplayable card in 300 deals")


def view_card(name: str) -> int:
    from taash.cards import parse_card
    return parse_card(name)


def test_rummy_names_the_card_just_taken_as_not_discardable_with_the_engines_reason() -> None:
    game = adapter("rummy")
    session = TableMatch(game, game.settings(2, None, "points", "easy", True), 4, ["A", "B"])
    seat = session.to_move()
    assert seat is not None
    session.move(seat, {"type": "take", "from": "discard"})
    deal = session.state.match.deal
    taken = deal.taken_from_pile
    part = game.seat_part(session.state, seat, game.public(session.state, session.names, False)["deal"])
    with pytest.raises(IllegalTurnError) as engine:
        deal.check(Discard(taken))
    assert list(part["blocked"].values()) == [str(engine.value)] and "(R3)" in str(engine.value)


def test_rummy_blocks_no_card_taken_from_the_pile_whose_twin_the_hand_holds() -> None:
    """Two packs: with the twin of the card just taken in hand, that card may be discarded (one of the two)."""
    game = adapter("rummy")
    for seed in range(400):
        session = TableMatch(game, game.settings(2, None, "points", "easy", True), seed, ["A", "B"])
        seat = session.to_move()
        assert seat is not None
        session.move(seat, {"type": "take", "from": "discard"})
        deal = session.state.match.deal
        if deal.hands[seat].count(deal.taken_from_pile) == 2:
            part = game.seat_part(session.state, seat, game.public(session.state, session.names, False)["deal"])
            assert part["blocked"] == {}
            deal.check(Discard(deal.taken_from_pile))  # the engine agrees
            return
    raise AssertionError("no twin of the card taken in 400 deals")


@pytest.mark.parametrize(("name", "players", "length"), [("seep", 4, 0), ("seep", 2, 0), ("rummy", 3, "points")])
def test_a_finished_deal_is_explained(name: str, players: int, length: Any) -> None:
    game = adapter(name)
    names = ["Asha", "Bela", "Chand", "Dev"][:players]
    session = TableMatch(game, game.settings(players, None, length, "easy", True), 11, names)
    while not session.finished_deals():
        session.move(None, session.first_legal())
    last = game.public(session.state, names, True)["score"]["last"]
    explained = last["explained"]
    if name == "seep":
        for team, line in enumerate(explained[:2]):
            assert line.endswith(f": {last['score'][team]} in the deal")
            assert f"{last['card_points'][team]} point" in line
        assert explained[0].startswith("Asha and Chand: " if players == 4 else "Asha: ")
    else:
        assert len(explained) == players
        for seat, line in enumerate(explained):
            assert line.startswith(names[seat]) and f"{last['points'][seat]} points" in line


def test_the_coach_answers_one_question_a_seat_at_a_time(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The coach's search costs half a second: a second question while the first is being answered is refused
    (429 ``too_many``), and the seat may ask again once it is answered."""
    client.post("/api/guest", json={"name": "Asha"})
    table = client.post("/api/quick", json={"game": "rummy", "players": 2, "format": "points"}).json()
    release, started = threading.Event(), threading.Event()

    def slow_advice(session: TableMatch, seat: int) -> dict[str, Any]:
        started.set()
        release.wait(20)
        return advice(session, seat, "easy")

    monkeypatch.setattr(learn_routes, "advice", slow_advice)
    answers: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the bot may move first
        first = threading.Thread(target=lambda: answers.append(
            client.post(f"/api/tables/{table['id']}/coach").status_code))
        first.start()
        if started.wait(5):
            break
        first.join()
        answers.clear()
    second = client.post(f"/api/tables/{table['id']}/coach")
    assert second.status_code == 429 and second.json()["code"] == "too_many"
    release.set()
    first.join()
    assert answers == [200]
    assert client.post(f"/api/tables/{table['id']}/coach").status_code == 200
