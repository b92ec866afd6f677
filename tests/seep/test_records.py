"""Game records: reading, writing, and what replay refuses."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from taash.seep.errors import RecordError
from taash.seep.match import Match
from taash.seep.record import record_from_json, record_of, replay
from taash.seep.rules import PRESETS
from taash.seep.simulate import random_matches


@pytest.fixture(scope="module")
def record4(conformance_dir: Path) -> dict:
    return json.loads((conformance_dir / "standard-4p.record.json").read_text())


def refuse(data: dict, deal: int | None, play: int | None = None, illegal: bool = False) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(record_from_json(data))
    assert info.value.deal == deal and info.value.play == play and info.value.illegal == illegal, str(info.value)
    return info.value


def test_an_illegal_play_names_its_deal_and_play(record4: dict) -> None:
    data = copy.deepcopy(record4)
    data["deals"][2]["plays"][10] = {"card": data["deals"][2]["plays"][10]["card"], "house": 13, "loose": []}
    refuse(data, 2, 10, illegal=True)


def test_a_wrong_dealer_is_illegal(record4: dict) -> None:
    data = copy.deepcopy(record4)
    data["deals"][3]["dealer"] = (data["deals"][3]["dealer"] + 2) % 4
    refuse(data, 3, illegal=True)


def test_a_wrong_bid_is_illegal(record4: dict) -> None:
    data = copy.deepcopy(record4)
    data["deals"][0]["bid"] = 13 if data["deals"][0]["bid"] != 13 else 9
    error = refuse(data, 0, illegal=True)
    assert "bid" in str(error)


@pytest.mark.parametrize("change", [
    lambda d: d["deals"][0].update(deck=d["deals"][0]["deck"][:51]),
    lambda d: d["deals"][0]["deck"].__setitem__(0, d["deals"][0]["deck"][1]),
    lambda d: d["deals"][0]["deck"].__setitem__(0, "Xx"),
    lambda d: d["deals"][0]["plays"].__setitem__(0, {"card": "Ks", "bogus": 1}),
    lambda d: d["deals"][0]["plays"].__setitem__(0, "Ks"),
    lambda d: d.update(players=3),
    lambda d: d.update(format="other/1"),
])
def test_malformed_records_are_refused(record4: dict, change) -> None:
    data = copy.deepcopy(record4)
    change(data)
    with pytest.raises(RecordError) as info:
        replay(record_from_json(data))
    assert not info.value.illegal


def test_an_unfinished_last_deal_is_accepted_but_not_scored(record4: dict) -> None:
    data = copy.deepcopy(record4)
    data["deals"][-1]["plays"] = data["deals"][-1]["plays"][:20]
    assert len(replay(record_from_json(data))) == len(data["deals"]) - 1
    data["deals"].append(copy.deepcopy(record4["deals"][-1]))
    with pytest.raises(RecordError, match="unfinished"):
        replay(record_from_json(data))


def test_a_match_in_progress_writes_a_record_that_replays() -> None:
    match = Match(PRESETS["standard"], 4, seed=11)
    rng = random.Random(1)
    match.make_bid(rng.choice(match.legal_bids()))
    for _ in range(30):
        match.play(rng.choice(match.legal_plays()))
    data = record_of(match, names=["N", "W", "S", "E"]).to_json()
    assert data["names"] == ["N", "W", "S", "E"] and len(data["deals"][0]["plays"]) == 30
    assert replay(record_from_json(json.loads(json.dumps(data)))) == []


def test_simulated_2_player_records_replay() -> None:
    for sim in random_matches(PRESETS["standard"], 2, deals=4, seed=5):
        assert replay(sim.record()) == sim.match.results
