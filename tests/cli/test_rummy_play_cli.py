"""`taash rummy play` and `taash play --game rummy` from the command line: a real pseudo-terminal, every option
reaching the game and the save, resume, and one-line errors with exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taash.tables.adapter import adapter
from taash.tables.match import TableMatch
from tests.cli.in_process import taash as run
from tests.cli.test_play_cli import in_a_terminal, screen_words
from tests.cli.test_seep_cli import one_line_error


def test_every_option_reaches_the_game_and_resume_keeps_them(tmp_path: Path) -> None:
    shown = in_a_terminal(["rummy", "play", "--players", "3", "--rules", "classic", "--format", "pool101",
                           "--level", "hard", "--name", "Priya", "--seed", "7", "--save", "m.json", "--delay", "0"],
                          [("Your hand", b"q")], tmp_path)
    words = screen_words(shown)
    assert "13-card Rummy · classic rules · pool101 · hard bots · deal 1" in words
    assert "Priya" in words and "Asha" in words and "Dev" in words and "Vikram" not in words
    assert "Saved to m.json" in words
    saved = json.loads((tmp_path / "m.json").read_text())
    assert saved["game"] == "rummy" and saved["seed"] == 7 and saved["names"][0] == "Priya"
    assert saved["settings"] == {"players": 3, "rules": "classic", "length": "pool101", "level": "hard"}
    assert saved["record"]["game"] == "rummy" and saved["record"]["format"] == "pool101"
    assert TableMatch.load(tmp_path / "m.json")[0].to_json() == saved

    for command in (["rummy", "play"], ["play"]):  # taash play knows a Rummy save by itself
        again = screen_words(in_a_terminal([*command, "--resume", "m.json", "--delay", "0"], [("Your hand", b"q")],
                                           tmp_path))
        assert "13-card Rummy · classic rules · pool101 · hard bots · deal 1" in again
        assert "Resume with: taash rummy play --resume m.json" in again


def test_taash_play_game_rummy_starts_rummy_with_its_defaults(tmp_path: Path) -> None:
    shown = screen_words(in_a_terminal(["play", "--game", "rummy", "--seed", "3", "--delay", "0"],
                                       [("Your hand", b"q")], tmp_path))
    assert "13-card Rummy · octro rules · points · medium bots · deal 1" in shown
    saved = json.loads((tmp_path / "taash-rummy-match.json").read_text())
    assert saved["settings"]["players"] == 4 and saved["seed"] == 3


def test_a_finished_match_resumes_to_its_score_sheet(tmp_path: Path) -> None:
    game = adapter("rummy")
    s = TableMatch(game, game.settings(2, "octro", "points", "easy", False), 1, ["You", "Asha (bot)"])
    while not s.over:
        bot, view = s.bot_choice("medium")
        s.move(None, game.action_to(bot.choose(view)))
    s.save(tmp_path / "done.json")
    proc = run("rummy", "play", "--resume", str(tmp_path / "done.json"))  # nothing to play: no terminal needed
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    assert "total" in proc.stdout and "Points: one deal" in proc.stdout
    assert "This match is over; taash replay" in proc.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["rummy", "play", "--players", "7"], "--players must be 2 to 6"),
    (["rummy", "play", "--players", "1"], "--players must be 2 to 6"),
    (["rummy", "play", "--format", "pool7"], "--format must be one of points, pool101"),
    (["rummy", "play", "--level", "grandmaster"], "--level must be one of easy, medium, hard, expert"),
    (["rummy", "play", "--level", "godlike"], "--level must be one of"),
    (["rummy", "play", "--rules", "nope"], "unknown rules preset 'nope'"),
    (["rummy", "play", "--delay", "99"], "--delay"),
    (["rummy", "play", "--name", " "], "--name"),
    (["rummy", "play", "--seed", "abc"], "--seed"),
    (["rummy", "play", "--resume", "missing.json"], "missing.json"),
    (["rummy", "play", "--save", "no/such/folder/m.json"], "no folder"),
    (["rummy", "play", "--save", "."], "is a folder"),
    (["rummy", "play"], "needs an interactive terminal"),
    (["play", "--game", "chess"], "--game must be seep or rummy"),
    (["play", "--game", "rummy", "--baazis", "2"], "--baazis is Seep's"),
    (["play", "--format", "pool101"], "--format is Rummy's"),
    (["play", "-g", "rummy", "-f", "deals9"], "--format must be one of"),
    (["play", "-g", "rummy", "-p", "9"], "--players must be 2 to 6"),
    (["play", "-g", "rummy"], "needs an interactive terminal"),
    (["play", "-g", "rummy", "-n", "Priya"], "-n is not short for --name"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str, tmp_path: Path) -> None:
    assert message in one_line_error(run(*args, cwd=tmp_path), 2)


def a_save(tmp_path: Path) -> Path:
    game = adapter("rummy")
    s = TableMatch(game, game.settings(2, "octro", "points", "easy", False), 1, ["You", "Asha (bot)"])
    bot, view = s.bot_choice("easy")
    s.move(None, game.action_to(bot.choose(view)))
    path = tmp_path / "m.json"
    s.save(path)
    return path


def test_resume_refuses_the_settings_it_would_ignore_and_changed_or_broken_saves(tmp_path: Path) -> None:
    path = a_save(tmp_path)
    for command in (["rummy", "play"], ["play"]):
        line = one_line_error(run(*command, "--resume", "m.json", "--format", "pool101", "-p", "3", cwd=tmp_path), 2)
        assert "leave out" in line and "--players" in line and "--format" in line, line
    data = json.loads(path.read_text())
    data["seed"] = 2
    path.write_text(json.dumps(data))
    for command in (["rummy", "play"], ["play"]):
        assert "changed after it was saved" in one_line_error(run(*command, "--resume", str(path)), 2)
    path.write_text("{not json")
    assert "not valid JSON" in one_line_error(run("rummy", "play", "--resume", str(path)), 2)
    path.write_text('{"game": "rummy", "deals": []}')  # a game record, not a save
    assert "not a taash save file" in one_line_error(run("rummy", "play", "--resume", str(path)), 2)


def test_the_help_lists_the_keys_and_the_formats() -> None:
    proc = run("rummy", "play", "--help")
    assert proc.returncode == 0, proc.stderr
    shown = " ".join(proc.stdout.split())
    for words in ("1 takes from the stock, 2 from the discard pile, 3 drops", "h a hint", "u undo your last move",
                  "s save", "On the score sheet: Enter the next deal", "pool101", "deals6"):
        assert words in shown, words
    assert "--game" in " ".join(run("play", "--help").stdout.split())


def test_taash_replay_steps_through_a_rummy_record_and_a_save_in_a_terminal(tmp_path: Path) -> None:
    game = adapter("rummy")
    s = TableMatch(game, game.settings(2, "octro", "points", "medium", False), 4, ["Priya", "Asha (bot)"])
    while not s.over:
        bot, view = s.bot_choice("medium")
        s.move(None, game.action_to(bot.choose(view)))
    (tmp_path / "r.json").write_text(json.dumps(s.record()))
    s.save(tmp_path / "m.json")
    for file in ("r.json", "m.json"):
        shown = screen_words(in_a_terminal(["replay", file], [("turn 0/", b"\x1b[F"), ("The deal is over", b"q")],
                                           tmp_path))
        assert "Deal 1: " in shown and "Wild joker" in shown and "After it" in shown


def test_taash_replay_refuses_a_rummy_record_that_breaks_the_rules(tmp_path: Path) -> None:
    game = adapter("rummy")
    s = TableMatch(game, game.settings(2, "octro", "points", "medium", False), 4, ["Priya", "Asha (bot)"])
    for _ in range(6):
        bot, view = s.bot_choice("medium")
        s.move(None, game.action_to(bot.choose(view)))
    record = s.record()
    record["deals"][0]["turns"][1]["seat"] = record["deals"][0]["turns"][0]["seat"]  # the same seat twice
    (tmp_path / "r.json").write_text(json.dumps(record))
    line = one_line_error(run("replay", str(tmp_path / "r.json")), 1)
    assert "deal 1" in line and "turn 2" in line, line


def test_keys_in_a_real_terminal_take_discard_and_hint(tmp_path: Path) -> None:
    """In a pseudo-terminal: 1 takes from the stock, a card's letter and 1 discard it, h gives a hint, q saves."""
    shown = screen_words(in_a_terminal(
        ["rummy", "play", "--seed", "0", "--delay", "0", "--save", "m.json"],
        [("1. Take the top card", b"1"), ("declares with it", b"a"), ("2. Declare, laying", b"1"),
         ("1. Take the top card", b"h"), ("Hint: ", b"q")], tmp_path))
    assert "You take from the stock" in shown and "You discard" in shown
    session, _ = TableMatch.load(tmp_path / "m.json")
    mine = [m for m, seat in zip(session.moves, session.movers, strict=True) if seat == 0]
    assert mine[0] == {"type": "take", "from": "stock"} and mine[1]["type"] == "discard"


def test_rummy_play_speaks_lang_and_names_the_person_in_it(tmp_path: Path) -> None:
    """`taash rummy play --lang hi` speaks Hindi as `taash play --game rummy --lang hi` does (its screens, and "You"
    in Hindi when no --name is given); a language we do not have is one line, exit status 2."""
    from taash.i18n import say_in

    hand = say_in("hi", "Your hand")
    shown = in_a_terminal(["rummy", "play", "--lang", "hi", "--seed", "7", "--delay", "0", "--save", "m.json"],
                          [(hand, b"q")], tmp_path, env={"LANG": "C.UTF-8", "LANGUAGE": ""})
    words = screen_words(shown)
    assert hand in words and "Your hand" not in words
    assert json.loads((tmp_path / "m.json").read_text())["names"][0] == say_in("hi", "You")
    assert "--lang must be one of en, hi, pa" in one_line_error(run("rummy", "play", "--lang", "fr"), 2)
