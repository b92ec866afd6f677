"""``taash rummy check`` and ``taash rummy bench`` (added to a Typer app by ``register``): the protocol's hand
check, exit statuses, one-line errors, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from taash.cli.rummy_hands import register
from taash.rummy.check import check_json
from taash.rummy.core import CORE
from taash.rummy.errors import BadHandError

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)


@app.callback()
def _group() -> None:
    """A stand-in for the `taash rummy` group."""


register(app)
runner = CliRunner()

VALID = {"hand": ["4s", "5s", "6s", "7s", "9h", "Th", "Jh", "Qc", "Qd", "Qh", "2c", "2d", "JK"], "wild": "8",
         "rules": "octro"}


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def one_line_error(code: int, stderr: str) -> str:
    assert code == 2, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("taash: ") and "Traceback" not in stderr, stderr
    return lines[0]


def test_protocol_example() -> None:
    code, out, _ = run("check", stdin=json.dumps(VALID))
    assert code == 0
    answer = json.loads(out)
    assert answer == {"valid": True, "points": 0, "discard": None,
                      "melds": [{"kind": "pure", "cards": ["4s", "5s", "6s", "7s"]},
                                {"kind": "pure", "cards": ["9h", "Th", "Jh"]},
                                {"kind": "set", "cards": ["Qh", "Qd", "Qc"]},
                                {"kind": "set", "cards": ["2d", "2c", "JK"]}],
                      "free": [], "unmatched": []}


def test_fourteen_cards_name_a_discard(tmp_path: Path) -> None:
    doc = dict(VALID, hand=[*VALID["hand"], "Kd"])
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(doc))
    code, out, _ = run("check", str(path))
    answer = json.loads(out)
    assert code == 0 and answer["discard"] == "Kd" and answer["valid"] and answer["points"] == 0
    shown = [c for m in answer["melds"] for c in m["cards"]] + answer["free"] + answer["unmatched"]
    assert sorted(shown) == sorted(VALID["hand"])


def test_json_lines_one_answer_each(conformance_dir: Path) -> None:
    text = (conformance_dir / "rummy-hands.jsonl").read_text()
    expected = [json.loads(line) for line in (conformance_dir / "rummy-hands.expected.jsonl").read_text().splitlines()]
    code, out, _ = run("check", stdin=text)
    assert code == 0
    answers = [json.loads(line) for line in out.splitlines()]
    assert [{"valid": a["valid"], "points": a["points"]} for a in answers] == expected


def test_rules_object_and_input_spellings() -> None:
    doc = {"hand": ["10s", "J♠", "Qs", "As", "2s", "3s", "4s", "9h", "9d", "9c", "Kh", "Kd", "jk"], "wild": "10",
           "rules": {"preset": "classic", "ace_points": 1}}
    answer = check_json(doc)  # tens wild: T-J-Q of spades is pure with the ten as itself (R2)
    assert answer["valid"] and {"kind": "pure", "cards": ["Ts", "Js", "Qs"]} in answer["melds"]
    doc = {"hand": ["Ts", "Js", "Qs", "2s", "3s", "4s", "9h", "9d", "9c", "Kh", "Kd", "JK", "Ad"], "wild": "5"}
    assert check_json(dict(doc, rules="classic"))["points"] == 10  # the ace left over
    assert check_json(dict(doc, rules={"preset": "classic", "ace_points": 1}))["points"] == 1
    assert check_json(dict(doc, rules="octro"))["points"] == 21  # the joker makes T-J-Q-JK: Kh Kd Ad left


@pytest.mark.parametrize(("doc", "says"), [
    ("[1, 2", "not valid JSON"),
    ('"hand"', "a hand check is an object"),
    ('{"hand": ["As"], "wild": "5"}', "13 or 14 cards"),
    ('{"hand": "As 2s", "wild": "5"}', "must be a list"),
    (json.dumps(dict(VALID, hand=["Zz", *VALID["hand"][1:]])), "unknown card 'Zz'"),
    (json.dumps(dict(VALID, wild="X")), "wild: unknown rank"),
    (json.dumps(dict(VALID, rules="karan")), "unknown rules preset"),
    (json.dumps(dict(VALID, rules={"ace_points": 99})), "ace_points"),
    (json.dumps(dict(VALID, colour="red")), "unknown field 'colour'"),
    (json.dumps({"hand": VALID["hand"]}), "needs a hand and a wild rank"),
    (json.dumps(dict(VALID, hand=["As"] * 4 + VALID["hand"][4:])), "As appears 4 times"),
    (json.dumps(dict(VALID, hand=["As"] * 3 + VALID["hand"][3:], rules="classic")), "As appears 3 times"),
    (json.dumps(dict(VALID, hand=["JK"] * 7 + VALID["hand"][6:12])), "JK appears 7 times"),
    (json.dumps(dict(VALID, hand=["JK"] * 3 + VALID["hand"][2:12], rules="classic")), "JK appears 3 times"),
])
def test_bad_input_is_one_line_and_exit_2(doc: str, says: str) -> None:
    code, out, err = run("check", stdin=doc)
    assert says in one_line_error(code, err) and not out


def test_three_packs_allow_three_twins() -> None:
    """octro deals 4-6 players from three packs: three of a face may be in one hand."""
    assert check_json(dict(VALID, hand=["As"] * 3 + VALID["hand"][3:]))["points"] >= 0


def test_json_lines_error_names_the_line() -> None:
    text = json.dumps(VALID) + "\n" + json.dumps(dict(VALID, wild="Z")) + "\n"
    code, _, err = run("check", stdin=text)
    assert one_line_error(code, err).startswith("taash: line 2: wild")


def test_echoed_values_are_cut_short() -> None:
    with pytest.raises(BadHandError) as info:
        check_json(dict(VALID, hand=["x" * 5000, *VALID["hand"][1:]]))
    assert len(str(info.value)) < 200
    with pytest.raises(BadHandError) as info:
        check_json("y" * 5000)
    assert len(str(info.value)) < 200


def test_missing_file_is_one_line() -> None:
    code, _, err = run("check", "/no/such/hand.json")
    assert "/no/such/hand.json" in one_line_error(code, err)


def test_bench_json() -> None:
    code, out, err = run("bench", "--json", "--repeats", "1", "--hands", "20", "--discards", "3", "--warmup", "0")
    assert code == 0, err
    data = json.loads(out)
    assert data["hands_per_sec"] > 0 and data["discards_per_sec"] > 0 and data["rules"] == "octro"
    assert data["values_per_sec"] > 0 and data["pure_values_per_sec"] > 0 and data["pure_discards_per_sec"] > 0
    assert data["core"] == CORE  # the solver's core in use, named
    assert data["interpreter"]


def test_bench_table_and_bad_preset() -> None:
    code, out, _ = run("bench", "--repeats", "1", "--hands", "10", "--discards", "2", "--warmup", "0", "-r",
                       "classic")
    assert code == 0 and "hands solved" in out and "hands valued" in out and "best discards" in out
    assert f"{CORE.split()[0]} core" in out  # the solver's core in use, named
    code, _, err = run("bench", "-r", "nope")
    assert "unknown rules preset" in one_line_error(code, err)


def test_empty_input_and_bad_bytes(tmp_path: Path) -> None:
    code, _, err = run("check", stdin="")
    assert "no hand given" in one_line_error(code, err)
    path = tmp_path / "hand.json"
    path.write_bytes(b"\xff\xfe{")
    code, _, err = run("check", str(path))
    assert "not UTF-8" in one_line_error(code, err)


def test_a_hand_over_several_lines_is_one_object() -> None:
    code, out, _ = run("check", stdin=json.dumps(VALID, indent=2))
    assert code == 0 and len(out.splitlines()) == 1 and json.loads(out)["valid"]
