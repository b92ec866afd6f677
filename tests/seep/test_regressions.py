"""Regressions: bugs found by review, each pinned by the test named after it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from taash.seep.deal import Deal
from taash.seep.errors import IllegalPlayError, RecordError
from taash.seep.game import SeepGame
from taash.seep.plays import THROW
from taash.seep.record import record_from_json, replay
from taash.seep.rules import PRESETS


@pytest.mark.parametrize("bad", [(THROW, 52, 0, 0, 0), (THROW, -1, 0, 0, 0), (THROW, "Ks", 0, 0, 0), ()])
def test_a_play_naming_no_card_of_the_pack_is_refused_as_illegal(bad: tuple) -> None:
    deal = Deal.shuffled(PRESETS["standard"], 4, 0, random.Random(1))
    deal.make_bid(deal.legal_bids()[0])
    with pytest.raises(IllegalPlayError):
        deal.play(bad)
    assert deal.plays == []


def test_a_record_read_from_json_can_be_written_again(conformance_dir: Path) -> None:
    data = json.loads((conformance_dir / "standard-4p.record.json").read_text())
    record = record_from_json(data)
    again = record_from_json(json.loads(json.dumps(record.to_json())))
    assert replay(again) == replay(record)
    assert [d["plays"] for d in record.to_json()["deals"]] == [d["plays"] for d in data["deals"]]


def test_a_state_not_from_its_seed_names_its_first_deal_as_deal_1() -> None:
    """``SeepGame.state_from_json`` passed the deal counted from 1 while the error still added 1 (deal 2 for the
    first); the error now counts from 1 and the state names the deal that differs."""
    game = SeepGame()
    data = game.new_state(5).to_json()
    data["seed"] = 6
    with pytest.raises(RecordError) as info:
        game.state_from_json(data)
    assert info.value.deal == 1 and str(info.value).startswith("deal 1: ")
