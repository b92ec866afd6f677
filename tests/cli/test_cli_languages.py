"""The command line's refusals of its own options, and its help, in the player's language (``--lang`` or the
environment's), in a real process: one line on standard error, exit status 2, no traceback; English as it was."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_seep_cli import TAASH, one_line_error

#: Letters of each script: a line said in Hindi has Devanagari, in Punjabi Gurmukhi.
SCRIPT = {"hi": re.compile("[\u0900-\u097f]"), "pa": re.compile("[\u0a00-\u0a7f]")}
#: English words of Click's refusals and ours, none of which a Hindi or Punjabi line may hold.
ENGLISH = re.compile(r"\b(Invalid|Input|No such|Option|requires|Missing|argument|must|not|unexpected|unknown|"
                     r"known|file|directory|folder|characters|terminal|this|value|option|command|mean|Expecting|"
                     r"delimiter|rule|card|rank|ranks|suits|twice)\b")


def run(args: list[str], lang: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``taash ARGS`` with the environment asking for ``lang`` (LANG) or for none of ours."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["LANG"] = f"{lang}_IN.UTF-8" if lang else "C.UTF-8"
    return subprocess.run([*TAASH, *args], capture_output=True, text=True, timeout=120, env=env,
                          stdin=subprocess.DEVNULL, cwd=cwd)


def said_in(lang: str, line: str) -> None:
    assert SCRIPT[lang].search(line), line
    assert not ENGLISH.search(line), line


#: A refusal of each kind, from each command players use, with the word it must name.
REFUSALS = [
    (["play", "--players", "x"], "--players"),  # Click: not a whole number
    (["play", "--delay", "soon"], "--delay"),  # Click: not a number
    (["play", "--nope"], "--nope"),  # Click: no such option, with its suggestion
    (["play", "--players"], "--players"),  # Click: an option without its value
    (["play", "--ascii=3"], "--ascii"),  # Click: a flag given a value
    (["replay"], "file"),  # Click: the missing argument
    (["replay", "a.json", "b.json"], "b.json"),  # Click: words left over
    (["replay", "missing.json"], "missing.json"),  # ours: a missing file
    (["play", "--level", "foo"], "'foo'"),  # ours: the game's levels
    (["play", "--players", "3"], "3"),
    (["play", "--rules", "nope"], "'nope'"),
    (["play", "--game", "chess"], "'chess'"),
    (["play", "--lang", "xx"], "'xx'"),
    (["rummy", "play", "--players", "9"], "9"),
    (["rummy", "play", "--format", "pool999"], "'pool999'"),
    (["rummy", "play", "--seed", "1.5"], "--seed"),
    (["plya"], "plya"),  # Click: a mistyped command, with its suggestions
    (["rummy", "plya"], "plya"),  # the same under a game's group
]


@pytest.mark.parametrize(("args", "named"), REFUSALS)
def test_a_refusal_reaches_stderr_in_hindi_in_one_line(args: list[str], named: str, tmp_path: Path) -> None:
    line = one_line_error(run(args, "hi", tmp_path), 2)
    assert named in line
    said_in("hi", line.replace(named, ""))  # the option or value as the player wrote it, and the rest in Hindi


@pytest.mark.parametrize(("args", "named"), REFUSALS[:6:2])
def test_lang_on_the_command_line_chooses_punjabi_over_the_environment(args: list[str], named: str) -> None:
    line = one_line_error(run([*args, "--lang", "pa"], "hi"), 2)
    assert named in line
    said_in("pa", line.replace(named, ""))


def test_an_english_reader_reads_what_he_always_read(tmp_path: Path) -> None:
    said = [one_line_error(run(args, None, tmp_path), 2) for args, _named in REFUSALS[:8]]
    assert said == [
        "taash: Invalid value for '--players' / '-p': Input should be a valid integer, unable to parse string as an "
        "integer",
        "taash: Invalid value for '--delay': Input should be a valid number, unable to parse string as a number",
        "taash: No such option: --nope (Possible options: --name)",
        "taash: Option '--players' requires an argument.",
        "taash: Option '--ascii' does not take a value.",
        "taash: Missing argument 'file'.",
        "taash: Got unexpected extra argument(s) (b.json)",
        "taash: missing.json: No such file or directory",
    ]


def test_a_command_players_do_not_use_keeps_clicks_english() -> None:
    line = one_line_error(run(["seep", "simulate", "--deals", "x"], "hi"), 2)
    assert line.startswith("taash: Invalid value for '--deals'")


@pytest.mark.parametrize(("args", "lang"), [(["play", "--help"], "hi"), (["rummy", "play", "--help"], "pa"),
                                            (["replay", "--help", "--lang", "hi"], None)])
def test_the_help_of_a_players_command_is_in_his_language(args: list[str], lang: str | None) -> None:
    proc = run(args, lang)
    assert proc.returncode == 0 and not proc.stderr
    said = lang or "hi"
    lines = proc.stdout.splitlines()
    assert SCRIPT[said].search(lines[0]) and "taash" in lines[0]  # "Usage: taash play [OPTIONS]" in it
    english = [line for line in lines if re.search(r"\b(the|a|and|of|or|Usage|Options|Arguments|default|required|"
                                                   r"Show|exit)\b", line)]
    assert not english, english
    if args[0] != "replay":  # the default name said in the language; a level's name as it is typed
        name = next(line for line in lines if "--name" in line)
        assert "You" not in name and SCRIPT[said].search(name.split("[")[-1]), name
        assert "medium" in proc.stdout or "easy" in proc.stdout


def test_a_file_that_is_not_json_is_refused_in_hindi(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{bad", encoding="utf-8")
    line = one_line_error(run(["replay", "bad.json"], "hi", tmp_path), 2)
    assert line.startswith("taash: bad.json: ") and "सही JSON नहीं" in line and "कॉलम 2" in line, line
    english = one_line_error(run(["replay", "bad.json"], None, tmp_path), 2)
    assert english == "taash: bad.json: not valid JSON: Expecting property name enclosed in double quotes (column 2)"


#: Rules files a player may get wrong, each refused with the word it must name: ``(file, text, command, named)``.
RULES_REFUSALS = [
    ("r.json", '{"sweep_points": -5}', ["play"], "sweep_points"),  # Seep's rules refuse a value
    ("r.json", '{"nonsense": 1}', ["play"], "'nonsense'"),  # the rulebook: an unknown parameter
    ("r.json", '{"preset": 5}', ["play"], "5"),  # the rulebook: a preset that is not a name
    ("r.json", "[1, 2]", ["play"], ""),  # the rulebook: neither a name nor an object
    ("r.json", '{"a": }', ["play"], "r.json"),  # JSON's "Expecting value", with line and column
    ("r.json", '{"a": 1,}', ["play"], "r.json"),  # JSON's "Expecting property name ..."
    ("r.toml", "a = ", ["play"], "r.toml"),  # TOML's "Invalid value"
    ("r.toml", "a = 1 2", ["play"], "r.toml"),  # TOML's "Expected newline or end of document ..."
    (None, "", ["play"], "missing.json"),  # the system's "No such file or directory"
    ("r.json", '{"card_points": {"Ts": -1}}', ["play"], "Ts"),  # Seep: a card's points
    ("r.json", '{"max_houses": 7}', ["play"], "max_houses"),
    ("r.json", '{"runs_required": 9}', ["rummy", "play"], "runs_required"),  # Rummy's rules
    ("r.json", '{"packs": 5}', ["rummy", "play"], "packs"),
    ("r.json", '{"break_with_loose": 1}', ["play"], "break_with_loose"),
    ("bad.json", "[1 2]", ["replay"], "bad.json"),  # a record that is not JSON: "Expecting ',' delimiter"
    ("r.json", '{"restricted_cards": ["Zz"]}', ["play"], "restricted_cards"),  # a card that is none
    ("r.json", '{"floor_redeal_cards": [5]}', ["play"], "floor_redeal_cards"),  # a card that is not a string
]


@pytest.mark.parametrize("lang", ["hi", "pa"])
@pytest.mark.parametrize(("file", "text", "command", "named"), RULES_REFUSALS)
def test_a_rules_file_is_refused_in_the_players_language(file: str | None, text: str, command: list[str],
                                                         named: str, lang: str, tmp_path: Path) -> None:
    if file is not None:
        (tmp_path / file).write_text(text + "\n", encoding="utf-8")
    target = file or "missing.json"
    args = [*command, target] if command == ["replay"] else [*command, "--rules", target]
    line = one_line_error(run(args, lang, tmp_path), 2)
    assert named in line, line
    said_in(lang, line.replace(named, "").replace(target, ""))


def test_an_english_reader_reads_the_rules_refusals_he_always_read(tmp_path: Path) -> None:
    said = []
    for file, text, command, _named in [*RULES_REFUSALS[:9], *RULES_REFUSALS[-2:]]:  # [-2:]: a card that is none
        if file is not None:
            (tmp_path / file).write_text(text + "\n", encoding="utf-8")
        said.append(one_line_error(run([*command, "--rules", file or "missing.json"], None, tmp_path), 2))
    assert said == [
        "taash: rule sweep_points must be a whole number from 0 to 1000, not -5",
        "taash: unknown rule parameter 'nonsense' (known: baazi_lead, bid_sweep_points, break_with_loose, card_points, "
        "floor_redeal_cards, last_sweep_points, majority_points, max_houses, minimum_deal_score, restricted_cards, "
        "satthi_points, sweep_points, sweep_scores_card_value)",
        "taash: rule preset must be a preset name (known: standard, karan, limited_houses, break_with_loose, "
        "punjab_30, punjab_30_qasim), not 5",
        "taash: rules must be a preset name or an object of rule parameters",
        "taash: rules file r.json is not valid JSON: Expecting value: line 1 column 7 (char 6)",
        "taash: rules file r.json is not valid JSON: Expecting property name enclosed in double quotes: line 1 "
        "column 9 (char 8)",
        "taash: rules file r.toml is not valid TOML: Invalid value (at line 1, column 5)",
        "taash: rules file r.toml is not valid TOML: Expected newline or end of document after a statement (at line 1, "
        "column 7)",
        "taash: cannot read rules file missing.json: No such file or directory",
        "taash: bad card in rule restricted_cards: unknown card 'Zz' (ranks A23456789TJQK, suits shdc)",
        "taash: bad card in rule floor_redeal_cards: a card must be a string such as 'Ts', not 5",
    ]


#: English words of a record's refusals (the place, the engines' words), none of which a Hindi or Punjabi line may
#: hold besides the JSON keys and values each case names.
RECORD_ENGLISH = re.compile(r"\b(deal|deals|play|turn|seat|seats|pack|packs|deck|record|holds|hold|cannot|illegal|"
                            r"over|printed|jokers|whole|number|list|object|key|fairness|secret|stock|discard|hand|"
                            r"the|of|and|or|is|to|but|be|than|has|made)\b")


def _seep_deal(change: Callable[[dict[str, Any]], object]) -> Callable[[dict[str, Any]], None]:
    return lambda record: (change(record["deals"][0]), None)[1]


def _rummy_turn(turn: int, change: Callable[[dict[str, Any]], object]) -> Callable[[dict[str, Any]], None]:
    return lambda record: (change(record["deals"][0]["turns"][turn]), None)[1]


#: Bad records of both games: ``(name, game, change, exit status, words kept as the file writes them)``.
RECORD_REFUSALS: list[tuple[str, str, Callable[[dict[str, Any]], None], int, tuple[str, ...]]] = [
    ("card", "seep", _seep_deal(lambda d: d["deck"].__setitem__(0, "Zq")), 2, ("'Zq'",)),
    ("deck", "seep", _seep_deal(lambda d: d.__setitem__("deck", d["deck"][:51])), 2, ()),
    ("dealer", "seep", _seep_deal(lambda d: d.__setitem__("dealer", 7)), 2, ("dealer",)),
    ("bid", "seep", _seep_deal(lambda d: d.__setitem__("bid", "x")), 2, ("bid", "null")),
    ("illegal-bid", "seep", _seep_deal(lambda d: d.__setitem__("bid", 5)), 1, ()),
    ("illegal-play", "seep", _seep_deal(lambda d: d["plays"].__setitem__(2, {"card": d["plays"][1]["card"]})), 1,
     ("Ts",)),
    ("play-key", "seep", _seep_deal(lambda d: d["plays"][1].__setitem__("nope", 1)), 2, ("'nope'",)),
    ("more-plays", "seep", _seep_deal(lambda d: d["plays"].append({"card": "2c"})), 2, ()),
    ("dealer-order", "seep", lambda r: r["deals"][1].__setitem__("dealer", 1 - r["deals"][1]["dealer"]), 1, ()),
    ("plays", "seep", _seep_deal(lambda d: d.__setitem__("plays", 5)), 2, ("plays",)),
    ("pack", "rummy", lambda r: r["deals"][0]["pack"].__setitem__(0, "Kd"), 2, ()),
    ("short-pack", "rummy", lambda r: r["deals"][0].__setitem__("pack", r["deals"][0]["pack"][:10]), 2, ()),
    ("turn-key", "rummy", _rummy_turn(0, lambda t: t.__setitem__("nope", 1)), 2, ("'nope'",)),
    ("take", "rummy", _rummy_turn(0, lambda t: t.__setitem__("take", "hand")), 2,
     ("take", "'stock'", "'discard'", "'hand'")),
    ("seat", "rummy", _rummy_turn(0, lambda t: t.__setitem__("seat", 9)), 2, ("seat",)),
    ("wrong-seat", "rummy", _rummy_turn(0, lambda t: t.__setitem__("seat", (t["seat"] + 1) % 4)), 1, ()),
    ("not-held", "rummy", _rummy_turn(1, lambda t: t.__setitem__("discard", "Kh")), 1, ("Kh",)),
    ("wild", "rummy", lambda r: r["deals"][0].__setitem__("wild", "Q"), 2, ("wild", "'Q'")),
    ("fairness", "rummy", lambda r: r.__setitem__("fairness", {"algorithm": "x"}), 2, ("(fairness)", "taash-fair/1")),
]


@cache
def _record(game: str) -> str:
    """A record the engine writes: a Seep match of 2 whose first deal is played out and whose second is dealt, or
    a Rummy deal of 4 three turns in (each the first legal play, a card from the stock and the first discard)."""
    if game == "seep":
        from taash.seep.match import Match
        from taash.seep.record import record_of
        from taash.seep.rules import PRESETS

        seep = Match(PRESETS["standard"], 2, seed=3, baazis_to_win=5)
        seep.make_bid(seep.legal_bids()[0])
        while not seep.deal.over:
            seep.play(seep.legal_plays()[0])
        seep.next_deal()
        return json.dumps(record_of(seep).to_json())
    from taash.rummy.deal import Take
    from taash.rummy.match import Match as RummyMatch
    from taash.rummy.record import record_of as rummy_record_of
    from taash.rummy.rules import rules_from_json

    rummy = RummyMatch(rules_from_json("octro"), 4, seed=5)
    for _turn in range(3):
        rummy.act(Take("stock"))
        rummy.act(rummy.legal_actions()[0])
    return json.dumps(rummy_record_of(rummy).to_json())


def _bad_record(game: str, change: Callable[[dict[str, Any]], None], folder: Path, name: str) -> str:
    """A record of ``game`` with ``change`` made to it, written to ``folder/name.json``."""
    record = json.loads(_record(game))
    change(record)
    (folder / f"{name}.json").write_text(json.dumps(record), encoding="utf-8")
    return f"{name}.json"


@pytest.mark.parametrize("lang", ["hi", "pa"])
@pytest.mark.parametrize(("name", "game", "change", "status", "kept"), RECORD_REFUSALS,
                         ids=[case[0] for case in RECORD_REFUSALS])
def test_a_bad_record_is_refused_in_the_players_language(name: str, game: str, change: Callable[[dict[str, Any]], None],
                                                         status: int, kept: tuple[str, ...], lang: str,
                                                         tmp_path: Path) -> None:
    file = _bad_record(game, change, tmp_path, name)
    line = one_line_error(run(["replay", file], lang, tmp_path), status)
    assert line.startswith(f"taash: {file}: "), line
    said = line.removeprefix(f"taash: {file}: ")
    for word in kept:
        assert word in said, (word, line)
        said = said.replace(word, "")
    said_in(lang, said)
    assert not RECORD_ENGLISH.search(said), line


def test_an_english_reader_reads_the_record_refusals_he_always_read(tmp_path: Path) -> None:
    said = []
    for name, game, change, status, _kept in RECORD_REFUSALS:
        file = _bad_record(game, change, tmp_path, name)
        said.append(one_line_error(run(["replay", file], None, tmp_path), status))
    assert said == [
        "taash: card.json: deal 1: unknown card 'Zq' (ranks A23456789TJQK, suits shdc)",
        "taash: deck.json: deal 1: the deck must hold each of the 52 cards once",
        "taash: dealer.json: deal 1: dealer must be a whole number from 0 to 1, not 7",
        "taash: bid.json: deal 1: bid must be a number or null, not 'x'",
        "taash: illegal-bid.json: deal 1: cannot bid 5: a bid is 9 to 13 and the bidder must hold a card of it",
        "taash: illegal-play.json: deal 1, play 3: illegal play for seat 1: Ts thrown",
        "taash: play-key.json: deal 1, play 2: unknown key 'nope' in play",
        "taash: more-plays.json: deal 1, play 49: more plays than the deal has",
        "taash: dealer-order.json: deal 2: seat 1 deals, but the rules say seat 0 deals",
        "taash: plays.json: deal 1: plays must be a list",
        "taash: pack.json: deal 1: the pack must hold 3 packs of 52 and 6 printed jokers (162 cards) for 4 players",
        "taash: short-pack.json: deal 1: the pack is too short to deal 4 hands, the open card and the wild card",
        "taash: turn-key.json: deal 1, turn 1: unknown turn key 'nope'",
        "taash: take.json: deal 1, turn 1: take must be 'stock' or 'discard', not 'hand'",
        "taash: seat.json: deal 1, turn 1: seat must be a whole number from 0 to 3, not '9'",
        "taash: wrong-seat.json: deal 1, turn 1: seat 0 plays, but it is seat 3's turn",
        "taash: not-held.json: deal 1, turn 2: you have no Kh to discard",
        "taash: wild.json: deal 1: wild 'Q' is not what the wild card Tc makes",
        "taash: fairness.json: fairness: unknown fairness algorithm 'x' (known: taash-fair/1)",
    ]
