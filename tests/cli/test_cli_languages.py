"""The command line's refusals of its own options, and its help, in the player's language (``--lang`` or the
environment's), in a real process: one line on standard error, exit status 2, no traceback; English as it was."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

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
    for file, text, command, _named in RULES_REFUSALS[:9]:
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
    ]


def test_an_english_reader_reads_the_bad_cards_he_always_read(tmp_path: Path) -> None:
    said = []
    for file, text, command, _named in RULES_REFUSALS[-2:]:
        (tmp_path / file).write_text(text + "\n", encoding="utf-8")
        said.append(one_line_error(run([*command, "--rules", file], None, tmp_path), 2))
    assert said == [
        "taash: bad card in rule restricted_cards: unknown card 'Zz' (ranks A23456789TJQK, suits shdc)",
        "taash: bad card in rule floor_redeal_cards: a card must be a string such as 'Ts', not 5",
    ]
