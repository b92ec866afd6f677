"""The shared conformance data (made by an independent implementation): every position and every record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taash.seep.notation import legal_outcomes, play_from_json, position_from_json
from taash.seep.record import record_from_json, replay, replay_to_json


def outcome_key(o: dict[str, Any]) -> tuple[Any, ...]:
    """What a legal play does: card played, loose cards after, houses after, cards captured (order-free)."""
    houses = tuple(sorted((h["value"], tuple(sorted(h["cards"])), h["cemented"], tuple(sorted(h["owners"])))
                          for h in o["houses"]))
    return (o["play"]["card"], tuple(sorted(o["loose"])), houses, tuple(sorted(o["captured"])))


def canonical_play(play: dict[str, Any]) -> dict[str, Any]:
    return {k: sorted(v) if isinstance(v, list) else v for k, v in play.items()}


def conformance_lines(conformance_dir: Path) -> list[tuple[int, str, str]]:
    positions = (conformance_dir / "legal.jsonl").read_text().splitlines()
    expected = (conformance_dir / "legal.expected.jsonl").read_text().splitlines()
    assert len(positions) == len(expected) > 0, "legal.jsonl and legal.expected.jsonl must match line for line"
    return [(n, line, want) for n, (line, want) in enumerate(zip(positions, expected, strict=True), 1)]


def test_every_conformance_position_has_exactly_the_expected_outcomes(conformance_dir: Path) -> None:
    failures = []
    for n, line, want_line in conformance_lines(conformance_dir):
        pos = position_from_json(json.loads(line))
        got = legal_outcomes(pos)
        want = json.loads(want_line)
        got_by_key = {outcome_key(o): o for o in got}
        want_by_key = {outcome_key(o): o for o in want}
        assert len(got_by_key) == len(got), f"line {n}: two legal plays with one outcome"
        assert len(want_by_key) == len(want)
        if set(got_by_key) != set(want_by_key):
            failures.append(f"line {n}: missing {sorted(set(want_by_key) - set(got_by_key))}, "
                            f"extra {sorted(set(got_by_key) - set(want_by_key))}")
            continue
        for key, o in got_by_key.items():
            w = want_by_key[key]
            assert o["kind"] == w["kind"], f"line {n}: kind of {w['play']}"
            assert o["sweep"] == w["sweep"], f"line {n}: sweep of {w['play']}"
            assert canonical_play(o["play"]) == canonical_play(w["play"]), f"line {n}: play of {key}"
            # The expected play, read back, is exactly the engine's play with this outcome.
            assert play_from_json(w["play"], pos.houses) in pos.legal_plays(), f"line {n}: {w['play']}"
    assert not failures, "\n".join(failures)


def test_conformance_outcomes_are_written_canonically(conformance_dir: Path) -> None:
    """Writers write canonical card names in canonical order: equal to the expected lines, list order aside."""
    for n, line, want_line in conformance_lines(conformance_dir):
        got = sorted(json.dumps(o, sort_keys=True) for o in legal_outcomes(position_from_json(json.loads(line))))
        want = sorted(json.dumps(o, sort_keys=True) for o in json.loads(want_line))
        assert got == want, f"line {n}"


RECORDS = ["standard-4p", "standard-2p", "karan-4p", "punjab30-4p"]


def test_every_conformance_record_is_tested(conformance_dir: Path) -> None:
    names = sorted(p.name.removesuffix(".record.json") for p in conformance_dir.glob("*.record.json"))
    assert names == sorted(RECORDS)
    for name in names:
        assert (conformance_dir / f"{name}.expected.json").is_file()


@pytest.mark.parametrize("name", RECORDS)
def test_conformance_record_replays_to_the_expected_scores(conformance_dir: Path, name: str) -> None:
    record = record_from_json(json.loads((conformance_dir / f"{name}.record.json").read_text()))
    expected = json.loads((conformance_dir / f"{name}.expected.json").read_text())
    assert replay_to_json(replay(record)) == expected
