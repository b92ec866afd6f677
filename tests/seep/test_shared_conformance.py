"""The independent implementation's data in shared/conformance: every position and every record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taash.seep.notation import legal_outcomes, position_from_json
from taash.seep.record import record_from_json, replay, replay_to_json


def outcome_key(o: dict) -> tuple:
    houses = tuple(sorted((h["value"], tuple(sorted(h["cards"])), h["cemented"], tuple(h["owners"]))
                          for h in o["houses"]))
    return (o["play"]["card"], tuple(sorted(o["loose"])), houses, tuple(sorted(o["captured"])))


def test_every_conformance_position_has_exactly_the_expected_outcomes(conformance_dir: Path) -> None:
    positions = (conformance_dir / "legal.jsonl").read_text().splitlines()
    expected = (conformance_dir / "legal.expected.jsonl").read_text().splitlines()
    assert len(positions) == len(expected) > 0
    for n, (line, want_line) in enumerate(zip(positions, expected, strict=True), 1):
        got = legal_outcomes(position_from_json(json.loads(line)))
        want = json.loads(want_line)
        got_keys = {outcome_key(o): o for o in got}
        want_keys = {outcome_key(o): o for o in want}
        assert len(got_keys) == len(got), f"line {n}: two plays with one outcome"
        assert set(got_keys) == set(want_keys), f"line {n}"
        for key, o in got_keys.items():
            w = want_keys[key]
            assert (o["kind"], o["sweep"], o["play"]) == (w["kind"], w["sweep"], w["play"]), f"line {n}"


@pytest.mark.parametrize("name", ["standard-4p", "standard-2p", "karan-4p", "punjab30-4p"])
def test_conformance_record_replays_to_the_expected_scores(conformance_dir: Path, name: str) -> None:
    record = record_from_json(json.loads((conformance_dir / f"{name}.record.json").read_text()))
    expected = json.loads((conformance_dir / f"{name}.expected.json").read_text())
    assert replay_to_json(replay(record)) == expected
