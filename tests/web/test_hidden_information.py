"""No message to any connection ever holds a card that connection could not see at the table.

Whole matches are played through the websocket API by people and bots, with a spectator watching; every message
each connection received is then checked against the match's record (fetched once the match is over): a card
named in a message must be in the seat's own hand, face up on the floor, or already played; never in another
hand or still to be dealt. The deck and the seed must never appear at all.
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


def check_connection(sock: Socket, seat: int | None, steps: list[list[Deal]], start_version: int) -> int:
    checked = 0
    for raw, message in zip(sock.raw, sock.received, strict=True):
        assert '"deck"' not in raw and '"seed"' not in raw
        if "version" not in message or message["version"] < start_version:
            continue
        if message["type"] == "ack":
            continue
        shown, acted = deals_at(steps, message["version"] - start_version)
        body = dict(message)
        state = dict(body.pop("state", None) or {})
        log = state.pop("log", [])
        said = body.pop("said", "")
        missed = body.pop("missed", [])
        hidden = hidden_from(shown, seat)
        leaked = cards_named([body, state]) & set(range(52)) & {c for c in range(52) if hidden >> c & 1}
        assert not leaked, (seat, message["version"], leaked)
        # The log's lines since the last deal began are about the deal shown; earlier ones are of finished
        # deals, every card of which was played face up.
        starts = [i for i, line in enumerate(log) if line.startswith("Deal ")]
        current = log[starts[-1]:] if starts else log
        assert not {c for c in cards_named(current) if hidden >> c & 1}, (seat, message["version"], current)
        late = hidden & hidden_from(acted, seat)
        assert not {c for c in cards_named([said, missed]) if late >> c & 1}, (seat, message["version"], said)
        checked += 1
    return checked


def play_out(socks: list[Socket], observers: list[Socket], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "the match did not finish"
        for s in socks + observers:
            s.drain(0.02)
        if socks[0].state and socks[0].state["status"] == "finished":
            break
        mover = next((s for s in socks if s.my_turn()), None)
        if mover is not None:
            mover.move(pick=mover.version)
            mover.recv_until("ack")
    for s in socks + observers:
        s.drain(0.3)


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
        play_out(list(socks.values()), [watcher])
        record = owner.http.get(f"/api/tables/{tid}/record").json()
        steps = timeline(record)
        total = sum(check_connection(s, seat, steps, start_version) for seat, s in socks.items())
        total += check_connection(watcher, None, steps, start_version)
        assert total > 49 * len(socks)
        # The checker itself can fail: a hand leaked to the spectator is caught.
        some_hand = record["deals"][0]["deck"][0]
        watcher.received.append({"type": "update", "version": start_version, "state": {"x": [some_hand]}})
        watcher.raw.append("{}")
        with pytest.raises(AssertionError):
            check_connection(watcher, None, steps, start_version)
