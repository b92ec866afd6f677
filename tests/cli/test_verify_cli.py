"""``taash verify RECORD``: one line per deal and exit 0 for a fairly dealt record; one line and exit 1 for a
changed one (a card, the secret, the commitment); exit 2 for a file that is not JSON."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_rummy_cli import Runner, one_line_error, taash  # noqa: F401 - the fixture
from tests.tables.test_fair_dealing import finished_table


@pytest.fixture(scope="module", params=[("seep", 2, 2), ("rummy", 2, "deals2")], ids=["seep", "rummy"])
def record(request: pytest.FixtureRequest) -> dict[str, Any]:
    table, _ = finished_table(*request.param)
    data: dict[str, Any] = table.record()
    return data


def write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_a_fair_record_gets_a_line_per_deal_and_exit_0(taash: Runner, record: dict[str, Any],  # noqa: F811
                                                      tmp_path: Path) -> None:
    proc = taash("verify", write(tmp_path, record))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == len(record["deals"]) + 1
    assert all(line.startswith(f"Deal {i}: ") for i, line in enumerate(lines[:-1], 1))
    assert lines[-1].startswith("Fair: ") and record["fairness"]["commitment"][:16] in lines[-1]
    piped = taash("verify", "-", stdin=json.dumps(record))
    assert piped.returncode == 0 and piped.stdout == proc.stdout


def test_a_changed_card_secret_or_commitment_gets_one_line_and_exit_1(taash: Runner,  # noqa: F811
                                                                       record: dict[str, Any],
                                                                       tmp_path: Path) -> None:
    key = "deck" if "deck" in record["deals"][0] else "pack"
    card = copy.deepcopy(record)
    pack = card["deals"][0][key]
    other = next(i for i in range(1, len(pack)) if pack[i] != pack[0])
    pack[0], pack[other] = pack[other], pack[0]
    secret = copy.deepcopy(record)
    secret["fairness"]["secret"] = "0" * 64
    commitment = copy.deepcopy(record)
    commitment["fairness"]["commitment"] = "f" * 64
    for changed, says in ((card, "deal 1"), (secret, "does not match the commitment"),
                          (commitment, "does not match the commitment")):
        line = one_line_error(taash("verify", write(tmp_path, changed)), 1)
        assert says in line


def test_not_json_or_not_a_fair_record(taash: Runner, tmp_path: Path) -> None:  # noqa: F811
    path = tmp_path / "bad.json"
    path.write_text("[1", encoding="utf-8")
    one_line_error(taash("verify", str(path)), 2)
    assert "no fairness block" in one_line_error(taash("verify", write(tmp_path, {"deals": []})), 1)
    assert "No such file" in one_line_error(taash("verify", str(tmp_path / "missing.json")), 2)
