"""Game records: the conformance deals, round trips, and tampered records refused naming deal and turn."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taash.packs import face_name, parse_face
from taash.rummy.deal import Deal, Discard, Drop
from taash.rummy.errors import RecordError
from taash.rummy.match import Match, deal_stream
from taash.rummy.record import _replay_turn, record_from_json, record_of, replay, replay_json
from taash.rummy.rules import PRESETS
from taash.rummy.simulate import play_match, random_matches

OCTRO = PRESETS["octro"]


def conformance_deals(conformance_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (conformance_dir / "rummy-deals.jsonl").read_text().splitlines()]


def test_the_conformance_deals_give_the_expected_winner_and_points(conformance_dir: Path) -> None:
    cases = conformance_deals(conformance_dir)
    assert len(cases) == 6
    for case in cases:
        out = replay_json(case["record"])
        assert len(out["deals"]) == 1
        deal = out["deals"][0]
        assert deal["winner"] == case["expected"]["winner"] and deal["points"] == case["expected"]["points"]
        assert out["winner"] == deal["winner"] and out["totals"] == deal["points"]


def test_the_conformance_deals_read_and_write_back_unchanged(conformance_dir: Path) -> None:
    for case in conformance_deals(conformance_dir):
        written = record_from_json(case["record"]).to_json()
        assert written == case["record"]


def finished_match(players: int = 4, fmt: str = "pool101", seed: int = 5) -> Match:
    return play_match(Match(OCTRO, players, fmt, seed), random.Random(seed))


def test_a_record_round_trips_and_replays_to_the_same_scores() -> None:
    match = finished_match()
    data = json.loads(json.dumps(record_of(match, names=["Asha", "Ravi", "Meera", "Dev"]).to_json()))
    assert data["names"] == ["Asha", "Ravi", "Meera", "Dev"] and data["format"] == "pool101"
    assert record_from_json(data).to_json() == data
    replayed = replay(record_from_json(data))
    assert [r.points for r in replayed.results] == [r.points for r in match.results]
    assert replayed.tally.totals == list(match.totals) and replayed.tally.winner == match.winner
    out = replayed.to_json()
    assert out["eliminated"] == [match.tally.eliminated.get(s) for s in range(4)]
    assert out["standing"][0] == match.winner


def test_cards_are_written_by_face_with_jk_and_twins_alike() -> None:
    data = record_of(Match(OCTRO, 2, seed=1)).to_json()
    pack = data["deals"][0]["pack"]
    assert pack.count("JK") == 4 and pack.count("Ts") == 2 and len(pack) == 108
    assert data["deals"][0]["wild"] in "A23456789TJQK"


def test_an_unfinished_record_replays_its_finished_deals() -> None:
    match = Match(OCTRO, 3, "deals2", seed=2)
    match.act(match.legal_actions()[1])  # a take, and the turn stops there
    data = record_of(match).to_json()
    assert data["deals"][0]["turns"] == [{"seat": match.deal.order[0], "take": "stock"}]
    assert replay_json(data)["deals"] == []


def tampered(data: dict[str, Any], deal: int, turn: int, **change: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    out["deals"][deal - 1]["turns"][turn - 1].update(change)
    return out


def refused(data: Any) -> RecordError:
    with pytest.raises(RecordError) as caught:
        replay_json(data)
    return caught.value


def test_tampered_turns_are_illegal_naming_deal_and_turn() -> None:
    data = record_of(finished_match(3, "deals3", seed=8)).to_json()
    turns = data["deals"][1]["turns"]
    j = next(k for k, t in enumerate(turns, 1) if "discard" in t)
    seat = turns[j - 1]["seat"]
    e = refused(tampered(data, 2, j, seat=(seat + 1) % 3))
    assert (e.deal, e.turn, e.illegal) == (2, j, True) and "turn" in str(e)
    e = refused(tampered(data, 2, j, drop=True))
    assert (e.deal, e.turn, e.illegal) == (2, j, False)  # a drop that also takes and discards: malformed
    e = refused(tampered(data, 2, j, take="discard", discard=turns[j - 1]["discard"]))
    assert e.deal == 2 and e.illegal and e.turn is not None and e.turn >= j  # the game goes otherwise


def test_a_wrong_dealer_a_missing_card_or_an_extra_deal_is_refused() -> None:
    data = record_of(finished_match(4, "deals2", seed=3)).to_json()
    wrong_dealer = copy.deepcopy(data)
    wrong_dealer["deals"][1]["dealer"] = (data["deals"][1]["dealer"] + 1) % 4
    e = refused(wrong_dealer)
    assert (e.deal, e.illegal) == (2, True) and "deals" in str(e)
    short = copy.deepcopy(data)
    short["deals"][0]["pack"][-1] = short["deals"][0]["pack"][0] if short["deals"][0]["pack"][0] != "JK" else "As"
    e = refused(short)
    assert (e.deal, e.illegal) == (1, False)
    extra = copy.deepcopy(data)
    extra["deals"].append(copy.deepcopy(data["deals"][0]))
    e = refused(extra)
    assert e.deal == len(extra["deals"]) and e.illegal


@pytest.mark.parametrize("change", [
    {"game": "seep"}, {"players": 7}, {"players": True}, {"format": "pool150"}, {"seed": "x"}, {"rules": "bogus"},
    {"deals": {}}, {"names": ["a"]},
])
def test_malformed_records_are_refused_as_such(change: dict[str, Any]) -> None:
    data = record_of(Match(OCTRO, 2, seed=1)).to_json()
    data.update(change)
    e = refused(data)
    assert not e.illegal


@pytest.mark.parametrize("turn", [
    {"seat": 0, "take": "deck", "discard": "As"}, {"seat": 0, "take": "stock", "discard": "Zz"},
    {"seat": 0, "take": "stock", "discard": "As", "declare": {"discard": "As", "melds": []}},
    {"seat": 0, "take": "stock", "declare": {"discard": "As", "melds": [[]]}},
    {"seat": 0, "take": "stock", "declare": ["As"]}, {"seat": 0, "take": "stock", "bogus": 1}, [1],
    {"seat": "0", "drop": True}, {"seat": 0}, {"seat": 0, "take": "stock"},
])
def test_malformed_turns_are_refused_as_such(turn: Any) -> None:
    data = record_of(Match(OCTRO, 2, seed=1)).to_json()
    data["deals"][0]["turns"] = [turn, {"seat": 1, "drop": True}]
    e = refused(data)
    assert (e.deal, e.turn, e.illegal) == (1, 1, False)


def test_wild_must_match_the_wild_card() -> None:
    data = record_of(Match(OCTRO, 2, seed=1)).to_json()
    data["deals"][0]["wild"] = "K" if data["deals"][0]["wild"] != "K" else "Q"
    assert not refused(data).illegal


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6))
def test_a_discard_of_a_card_not_held_is_refused_at_its_turn(seed: int) -> None:
    match = play_match(Match(OCTRO, 3, "points", seed), random.Random(seed))
    data = record_of(match).to_json()
    deal = match.past[0]
    rng = random.Random(seed)
    discards = [k for k, t in enumerate(deal.turns) if t.discard is not None and not t.timeout]
    if not discards:
        return
    k = rng.choice(discards)
    # the hand at that turn: replay the record up to it
    cut = copy.deepcopy(data)
    cut["deals"][0]["turns"] = [*cut["deals"][0]["turns"][:k], {"seat": deal.turns[k].seat,
                                                                 "take": deal.turns[k].take}]
    probe = Deal(OCTRO, 3, deal.dealer, deal.pack, deal_stream(seed, 0))
    for j, raw in enumerate(cut["deals"][0]["turns"], 1):
        _replay_turn(probe, raw, 1, j, last=j == len(cut["deals"][0]["turns"]))
    held = set(probe.hands[deal.turns[k].seat])
    missing = next(f for f in range(53) if f not in held)
    e = refused(tampered(data, 1, k + 1, discard=face_name(missing)))
    assert (e.deal, e.turn, e.illegal) == (1, k + 1, True)
    assert Discard(missing) not in probe.legal_actions() and parse_face(face_name(missing)) == missing


def test_a_tie_break_deal_is_written_with_its_seats_and_replays() -> None:
    (sim,) = random_matches(OCTRO, 3, "deals2", 1, seed=6)  # deals 1-2 leave seats 0 and 1 tied
    data = sim.record().to_json()
    assert len(data["deals"]) == 3 and "seats" not in data["deals"][1] and data["deals"][2]["seats"] == [0, 1]
    out = replay_json(data)
    assert out["deals"][2]["points"][2] is None and out["winner"] == sim.match.winner
    wrong = copy.deepcopy(data)
    wrong["deals"][2]["seats"] = [0, 2]
    e = refused(wrong)
    assert (e.deal, e.illegal) == (3, True)


def test_input_may_name_tens_as_10_and_suits_by_symbol_but_output_is_short(conformance_dir: Path) -> None:
    record = conformance_deals(conformance_dir)[2]["record"]
    symbols = dict(zip("shdc", "♠♥♦♣", strict=True))
    loose = copy.deepcopy(record)
    deal = loose["deals"][0]
    deal["pack"] = [("10" + c[1] if c[0] == "T" else c[0] + symbols[c[1]]) if c != "JK" else "jk"
                    for c in deal["pack"]]
    assert replay_json(loose) == replay_json(record)
    assert record_from_json(loose).to_json() == record


def test_timed_out_turns_are_written_and_replay_to_the_same_drop() -> None:
    match = Match(OCTRO, 3, "points", seed=12)
    rng = random.Random(1)
    late = match.deal.order[0]
    while not match.deal.over:
        if match.to_move == late:
            if match.deal.phase.value == "take" and rng.random() < 0.5:
                match.act(match.legal_actions()[1])  # takes, then runs out of time
            match.timeout()
        elif match.deal.status[late].value != "in":
            match.act(Drop())  # the late player is out: the others end the deal
        else:
            legal = match.legal_actions()
            match.act(legal[1] if len(legal) > 1 and not isinstance(legal[0], Discard) else legal[-1])
    data = json.loads(json.dumps(record_of(match).to_json()))
    timed = [t for t in data["deals"][0]["turns"] if t.get("timeout")]
    assert len(timed) == 3 and all("discard" in t for t in timed)
    assert match.deal.points[late] == 40
    assert [t.timed_out_drop for t in match.deal.turns if t.timeout] == [False, False, True]
    out = replay_json(data)
    assert out["deals"][0]["points"] == list(match.deal.result().points)
    cheat = copy.deepcopy(data)
    j = data["deals"][0]["turns"].index(timed[0])
    other = next(c for c in data["deals"][0]["pack"] if c != timed[0]["discard"])
    cheat["deals"][0]["turns"][j]["discard"] = other
    e = refused(cheat)
    assert (e.deal, e.turn, e.illegal) == (1, j + 1, True)
