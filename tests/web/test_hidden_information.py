"""No message to any connection ever holds a card that connection could not see at the table.

Whole matches are played through the websocket API by people and bots, with a spectator watching; along the way
people send stale and refused messages, reconnect from the version they last saw (and get what they missed) or
afresh (a snapshot), and more spectators join mid-deal. Every message each connection received is then checked
against the match's record (fetched once the match is over): a card named in a message must be in the seat's
own hand, face up on the floor, or already played; never in another hand or still to be dealt. Messages without a
version (errors) are checked against the version the connection last saw. The deck and the seed never appear.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from taash.cards import FULL_PACK, mask_of, parse_card
from taash.seep.deal import Deal, Phase
from taash.seep.notation import play_from_json
from taash.seep.record import record_from_json
from tests.web.server import Person, Socket, running_server

ASCII_CARD = re.compile(r'"([A2-9TJQK][shdc])"')
SYMBOL_CARD = re.compile(r"([A2-9TJQK])([♠♥♦♣])")
SUITS = dict(zip("♠♥♦♣", "shdc", strict=True))


def cards_named(obj: Any) -> set[int]:
    text = json.dumps(obj, ensure_ascii=False)
    found = {parse_card(m) for m in ASCII_CARD.findall(text)}
    found |= {parse_card(rank + SUITS[suit]) for rank, suit in SYMBOL_CARD.findall(text)}
    return found


def hidden_from(deal: Deal, seat: int | None) -> int:
    """Cards ``seat`` (None: a spectator) cannot see in ``deal``: other hands, the undealt rest, and the floor
    while it lies face down for the bid."""
    hands = 0
    for s, hand in enumerate(deal.hands):
        if s != seat:
            hands |= hand
    seen = deal.loose | deal.piles[0] | deal.piles[1] | mask_of(p[1] for p in deal.plays)
    for cards, _, _ in deal.houses.values():
        seen |= cards
    if deal.phase is not Phase.BID:
        seen |= mask_of(deal.deck[4:8])
    own = deal.hands[seat] if seat is not None else 0
    undealt = FULL_PACK & ~(seen | own | hands)
    hidden = hands | undealt
    if deal.phase is Phase.BID:
        hidden |= deal.loose
    return hidden & ~own


def timeline(record_json: dict[str, Any]) -> list[list[Deal]]:
    """Each deal of the record after 0, 1, ... of its actions (the bid, then each play)."""
    record = record_from_json(record_json)
    out = []
    for d in record.deals:
        deal = Deal(record.rules, record.players, d.dealer, list(d.deck))
        steps = [deal.clone()]
        deal.make_bid(d.bid)
        steps.append(deal.clone())
        for raw in d.plays:
            deal.play(play_from_json(raw, deal.houses))
            steps.append(deal.clone())
        out.append(steps)
    return out


def deals_at(steps: list[list[Deal]], k: int) -> tuple[Deal, Deal]:
    """(the deal the state shows, the deal the action was made in) after ``k`` actions since the start."""
    per = len(steps[0]) - 1  # actions per deal: the bid and every play
    index, i = divmod(k, per)
    if index >= len(steps):
        return steps[-1][-1], steps[-1][-1]
    if i == 0 and index > 0:
        return steps[index][0], steps[index - 1][-1]
    return steps[index][i], steps[index][i]


def check_explained(state: dict[str, Any], shown: Deal, steps: list[list[Deal]], seat: int | None,
                    version: int) -> None:
    """The finished deal's explanation (``score.last.explained``) names only cards captured in that deal, all
    face up then; it is taken out of ``state``, whose other cards are checked against the deal shown."""
    score = dict(state.get("score") or {})
    last = dict(score.get("last") or {})
    explained = last.pop("explained", [])
    if not explained:
        return
    index = next(i for i, deal_steps in enumerate(steps) if any(d is shown for d in deal_steps))
    finished = shown if shown.phase is Phase.OVER else steps[index - 1][-1]
    captured = finished.piles[0] | finished.piles[1]
    assert not {c for c in cards_named(explained) if not captured >> c & 1}, (seat, version, explained)
    state["score"] = {**score, "last": last}


def check_connection(sock: Socket, seat: int | None, steps: list[list[Deal]], start_version: int) -> int:
    checked = 0
    last = -1
    for raw, message in zip(sock.raw, sock.received, strict=True):
        assert '"deck"' not in raw and '"seed"' not in raw
        version = message.get("version", last)
        last = version
        if version < start_version or message["type"] in ("ack", "pong", "presence"):
            continue
        shown, acted = deals_at(steps, version - start_version)
        body = dict(message)
        state = dict(body.pop("state", None) or {})
        log = state.pop("log", [])
        said = body.pop("said", "")
        missed = body.pop("missed", [])
        hidden = hidden_from(shown, seat)
        check_explained(state, shown, steps, seat, version)
        leaked = cards_named([body, state]) & set(range(52)) & {c for c in range(52) if hidden >> c & 1}
        assert not leaked, (seat, version, leaked)
        # The log's lines since the last deal began are about the deal shown; earlier ones are of finished
        # deals, every card of which was played face up.
        starts = [i for i, line in enumerate(log) if line.startswith("Deal ")]
        current = log[starts[-1]:] if starts else log
        assert not {c for c in cards_named(current) if hidden >> c & 1}, (seat, version, current)
        late = hidden & hidden_from(acted, seat)
        assert not {c for c in cards_named(said) if late >> c & 1}, (seat, version, said)
        for item in missed:  # each thing missed is told as of its own version
            shown_then, acted_then = deals_at(steps, item["version"] - start_version)
            then = hidden_from(shown_then, seat) & hidden_from(acted_then, seat)
            assert not {c for c in cards_named(item["said"]) if then >> c & 1}, (seat, item)
        checked += 1
    return checked


def play_out(socks: dict[int, list[Socket]], observers: list[Socket], late_watcher: Person,
             timeout: float = 150) -> None:
    """Play the match to its end from what each seat is offered; now and then a person sends a stale message or
    a refused play, reconnects (from his last version, or afresh), or a new spectator comes to watch."""
    deadline = time.monotonic() + timeout
    moves = 0
    done: list[Socket] = []
    while True:
        assert time.monotonic() < deadline, "the match did not finish"
        current = [s[-1] for s in socks.values()]
        for s in current + observers:
            s.drain(0.01)
        if current[0].state and current[0].state["status"] == "finished":
            break
        mover = next((s for s in current if s.my_turn()), None)
        if mover is None:
            continue
        moves += 1
        seat = mover.state["you"]  # type: ignore[index]
        deal = mover.state["deal"]  # type: ignore[index]
        if moves % 7 == 3:  # a stale version: refused with a fresh state
            mover.send({"type": "play", "play": {"card": deal["hand"][0]}, "version": mover.version - 1,
                        "id": mover.person.next_id()})
            assert mover.recv_until("error")["code"] == "stale"
        if moves % 7 == 5 and deal["legal"]:  # a card of one's own that cannot be played so, or no play at all
            offered = {json.dumps(x["play"], sort_keys=True) for x in deal["legal"]}
            bad = next(({"card": c, "capture": [c]} for c in deal["hand"]
                        if json.dumps({"card": c, "capture": [c]}, sort_keys=True) not in offered), None)
            mover.send({"type": "play", "play": bad, "version": mover.version, "id": mover.person.next_id()})
            assert mover.recv_until("error")["code"] in ("illegal", "malformed")
        mover.move(pick=mover.version)
        mover.recv_until("ack")
        if moves % 9 == 4:  # gone for a moment; back from the version last seen
            seen = mover.version
            mover.close()
            time.sleep(0.05)
            back = mover.person.socket(current[0].state["id"], since=seen)  # type: ignore[index]
            assert back.recv()["type"] in ("resume", "snapshot")
            socks[seat].append(back)
        elif moves % 9 == 8:  # a reload: a fresh snapshot
            mover.close()
            back = mover.person.socket(current[0].state["id"])  # type: ignore[index]
            assert back.recv()["type"] == "snapshot"
            socks[seat].append(back)
        if moves % 11 == 6:  # a spectator comes mid-deal (and the one who came before him goes)
            late = late_watcher.socket(current[0].state["id"])  # type: ignore[index]
            assert late.recv()["type"] == "snapshot"
            if len(observers) > 1:
                observers[-1].close()
                done.append(observers.pop())
            observers.append(late)
    for s in [x[-1] for x in socks.values()] + observers:
        s.drain(0.3)
    observers.extend(done)


@pytest.mark.parametrize(("players", "humans"), [(4, (0, 2)), (4, (1,)), (2, (0, 1))])
def test_no_connection_ever_receives_a_card_it_could_not_see(tmp_path: Path, players: int,
                                                              humans: tuple[int, ...]) -> None:
    with running_server(tmp_path) as server:
        people = {seat: Person(server, f"P{seat}") for seat in humans}
        owner = people[humans[0]]
        table = owner.post("/api/tables", {"players": players, "baazis": 1, "level": "easy", "public": True}).json()
        tid = table["id"]
        socks = {}
        for seat, person in people.items():
            assert person.post(f"/api/tables/{tid}/sit", {"seat": seat}).status_code == 200
            socks[seat] = person.socket(tid)
        watcher = Person(server).socket(tid)
        if len(humans) < players:
            owner.post(f"/api/tables/{tid}/bots")
        start_version = owner.post(f"/api/tables/{tid}/start").json()["version"]
        seats = {seat: [sock] for seat, sock in socks.items()}
        observers = [watcher]
        play_out(seats, observers, Person(server))
        record = owner.http.get(f"/api/tables/{tid}/record").json()
        steps = timeline(record)
        total = sum(check_connection(s, seat, steps, start_version) for seat, ss in seats.items() for s in ss)
        for observer in observers:
            total += check_connection(observer, None, steps, start_version)
        assert total > 49 * len(socks)
        assert sum(len(ss) for ss in seats.values()) > len(seats) and len(observers) > 1  # reconnects happened
        kinds = {m["type"] for ss in seats.values() for s in ss for m in s.received}
        assert {"snapshot", "update", "ack", "error", "resume"} <= kinds, kinds
        # The checker itself can fail: a hand leaked to the spectator is caught.
        some_hand = record["deals"][0]["deck"][0]
        watcher.received.append({"type": "update", "version": start_version, "state": {"x": [some_hand]}})
        watcher.raw.append("{}")
        with pytest.raises(AssertionError):
            check_connection(watcher, None, steps, start_version)
