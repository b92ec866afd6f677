"""`taash play` and `taash replay` from the command line: a real pseudo-terminal, and one-line errors."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from taash.cards import card_symbol
from taash.seep.rules import PRESETS
from taash.tui.seep.persons_match import PersonsMatch
from tests.cli.in_process import taash as run
from tests.cli.test_seep_cli import one_line_error

TAASH = [sys.executable, "-m", "taash.cli.main"]


def in_a_terminal(args: list[str], keys: list[tuple[str, bytes]], cwd: Path, timeout: float = 60,
                  env: dict[str, str] | None = None) -> bytes:
    """Run taash in an 80x24 pseudo-terminal; each key is sent once its screen shows the text before it."""
    import fcntl
    import termios

    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, in the terminal
        os.chdir(cwd)
        os.environ.update(TERM="xterm-256color", COLUMNS="80", LINES="24", **(env or {}))
        os.execv(sys.executable, [sys.executable, "-m", "taash.cli.main", *args])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    seen = b""
    deadline = time.monotonic() + timeout
    pending = list(keys)
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            if pending and pending[0][0].encode() in seen:
                time.sleep(0.3)
                os.write(fd, pending.pop(0)[1])
        else:
            raise AssertionError(f"the game did not finish in time; it showed: {seen[-2000:]!r}")
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0, seen[-2000:]
    return seen


def screen_words(shown: bytes) -> str:
    """What a terminal shows, roughly: the output without its escape sequences."""
    return re.sub(rb"\x1b\[[0-9;?<>=$]*[A-Za-z~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[=>]", b"", shown).decode(
        "utf-8", "replace")


def test_every_option_reaches_the_game_and_resume_keeps_them(tmp_path: Path) -> None:
    shown = in_a_terminal(["play", "--players", "2", "--rules", "punjab_30", "--level", "hard", "--baazis", "3",
                           "--name", "Priya", "--seed", "7", "--save", "m.json", "--delay", "0"],
                          [("Your hand", b"q")], tmp_path)
    words = screen_words(shown)
    assert "Seep · punjab 30 rules · hard bots · first to 3 baazis · deal 1" in words
    assert "You" in words and "Asha" in words and "Partner" not in words  # two players
    saved = json.loads((tmp_path / "m.json").read_text())
    settings = saved["settings"]
    assert settings["players"] == 2 and settings["rules"] == "punjab_30" and saved["names"][0] == "Priya"
    assert (saved["seed"], settings["level"], settings["length"], saved["people"]) == (7, "hard", 3, [0])
    assert PersonsMatch.load(tmp_path / "m.json").to_json() == saved

    again = screen_words(in_a_terminal(["play", "--resume", "m.json", "--delay", "0"], [("Your hand", b"q")],
                                       tmp_path))
    assert "Seep · punjab 30 rules · hard bots · first to 3 baazis · deal 1" in again
    assert "Saved to m.json" in again


def test_a_rules_file_and_a_single_deal(tmp_path: Path) -> None:
    (tmp_path / "house.toml").write_text('preset = "karan"\nbaazi_lead = 150\n')
    shown = in_a_terminal(["play", "--rules", "house.toml", "--baazis", "0", "--seed", "3", "--delay", "0"],
                          [("Your hand", b"q")], tmp_path)
    assert "Seep · custom karan rules · medium bots · a single deal · deal 1" in screen_words(shown)
    saved = json.loads((tmp_path / "taash-seep-match.json").read_text())
    assert saved["settings"]["rules"] == {"preset": "karan", "baazi_lead": 150} and saved["settings"]["length"] == 0


def test_ctrl_q_saves_too(tmp_path: Path) -> None:
    shown = in_a_terminal(["play", "--seed", "5", "--save", "c.json"], [("Your hand", b"\x11")], tmp_path)
    assert b"Saved to c.json" in shown and (tmp_path / "c.json").exists()


def test_a_finished_match_resumes_to_its_summary(tmp_path: Path) -> None:
    s = PersonsMatch(PRESETS["standard"], 4, "easy", 0, seed=9)
    while not s.deal_over:
        if s.humans_turn():
            choice = s.hint()[0]
            s.bid(choice) if isinstance(choice, int) else s.play(choice)
        else:
            s.bot_step()
    s.save(tmp_path / "done.json")
    proc = run("play", "--resume", str(tmp_path / "done.json"))  # no terminal needed: nothing to play
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    a, b = s.results()[0].score.score
    assert f"{a}:{b}" in proc.stdout and "A single deal" in proc.stdout
    assert "This match is over; taash replay" in proc.stdout


def a_seed_where_you_bid_on_a_king() -> tuple[int, int]:
    """The first seed whose first deal starts with the person bidding on a king (and nothing higher), and that king.

    Found from the engine, so a change to how packs are shuffled cannot make the tests below look at another deal."""
    from taash.cards import cards_of
    from taash.seep.deal import Phase

    for seed in range(1, 1000):
        s = PersonsMatch(PRESETS["standard"], 4, seed=seed)
        if s.humans_turn() and s.deal.phase is Phase.BID and s.view().legal_bids() == [13]:
            return seed, next(c for c in cards_of(s.view().hand) if c % 13 == 12)
    raise AssertionError("no seed under 1000 has the person bid on a king")


def test_taash_play_starts_in_a_terminal_and_saves_on_quit(tmp_path: Path) -> None:
    seed, king = a_seed_where_you_bid_on_a_king()
    shown = in_a_terminal(["play", "--seed", str(seed), "--delay", "0"], [("Your hand", b"q")], tmp_path)
    assert b"Bid 13 (king)" in shown and card_symbol(king).encode() in shown
    saved = tmp_path / "taash-seep-match.json"
    assert b"Saved to taash-seep-match.json" in shown and saved.exists()
    assert PersonsMatch.load(saved).seed == seed


def test_taash_play_plain_ascii(tmp_path: Path) -> None:
    seed, king = a_seed_where_you_bid_on_a_king()
    shown = in_a_terminal(["play", "--seed", str(seed), "--ascii", "--save", "m.json"], [("Your hand", b"q")],
                          tmp_path)
    assert card_symbol(king, ascii_only=True).encode() in shown and "♠".encode() not in shown
    assert "♥".encode() not in shown and "♦".encode() not in shown and "♣".encode() not in shown
    assert (tmp_path / "m.json").exists()


def test_a_terminal_that_cannot_show_suits_gets_ascii_by_itself(tmp_path: Path) -> None:
    seed, king = a_seed_where_you_bid_on_a_king()
    shown = in_a_terminal(["play", "--seed", str(seed)], [("Your hand", b"q")], tmp_path,
                          env={"PYTHONIOENCODING": "ascii"})
    assert card_symbol(king, ascii_only=True).encode() in shown and "♠".encode() not in shown
    assert "♥".encode() not in shown and "♦".encode() not in shown and "♣".encode() not in shown


def test_taash_replay_steps_through_a_record_in_a_terminal(tmp_path: Path) -> None:
    s = PersonsMatch(PRESETS["standard"], 4, seed=17)
    while not s.deal_over:
        if s.humans_turn():
            choice = s.hint()[0]
            s.bid(choice) if isinstance(choice, int) else s.play(choice)
        else:
            s.bot_step()
    (tmp_path / "r.json").write_text(json.dumps(s.to_json()))
    shown = in_a_terminal(["replay", "r.json"], [("play 0/48", b"\x1b[F"), ("play 48/48", b"q")], tmp_path)
    assert b"Deal score" in shown
    hindi = in_a_terminal(["replay", "--lang", "hi", "r.json"], [("चाल 0/48", b"\x1b[F"), ("चाल 48/48", b"q")],
                          tmp_path, env={"LANG": "C.UTF-8"})
    assert "डील का स्कोर".encode() in hindi and b"Deal score" not in hindi


@pytest.mark.parametrize(("args", "message"), [
    (["play", "--level", "godlike"], "--level must be one of"),
    (["play", "--players", "3"], "--players must be 2 or 4"),
    (["play", "--rules", "nope"], "nope"),
    (["play", "--baazis", "-1"], "--baazis must be 0"),
    (["play", "--delay", "99"], "--delay"),
    (["play", "--resume", "missing.json"], "missing.json"),
    (["play", "--resume", "."], "Is a directory"),
    (["play", "--rules", "no-such-rules.toml"], "cannot read rules file"),
    (["play", "--players", "0"], "--players must be 2 or 4"),
    (["play", "--seed", "abc"], "--seed"),
    (["play", "--name", " "], "--name"),
    (["play", "--save", "no/such/folder/m.json"], "no folder"),
    (["play", "--save", "."], "is a folder"),
    (["play"], "needs an interactive terminal"),
    (["replay", "missing.json"], "missing.json"),
    (["replay", "--lang", "fr", "missing.json"], "--lang must be one of en, hi, pa, not 'fr'"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str, tmp_path: Path) -> None:
    assert message in one_line_error(run(*args, cwd=tmp_path), 2)


@pytest.mark.parametrize("columns", ["80", "120"])
def test_play_and_replay_help_list_the_keys_and_the_levels(columns: str) -> None:
    from taash.games.registry import levels

    def words(*args: str) -> str:
        proc = subprocess.run([*TAASH, *args, "--help"], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "COLUMNS": columns})
        assert proc.returncode == 0, proc.stderr
        return " ".join(proc.stdout.replace("│", " ").split())  # as one line, however it was wrapped

    shown = words("play")
    assert all(f"{level} " in shown for level in levels("seep")) and "expert searches guessed deals, 0.5 s a play" \
        in shown
    assert "learned (Seep only) a small network" in shown  # a level not every game offers says whose it is
    for key in ("Left/Right choose a card", "Up/Down and Enter, or 1-9", "h a hint", "u undo your last move",
                "s save", "q or Ctrl+Q save and quit", "On the score sheet: Enter the next deal"):
        assert key in shown, key
    shown = words("replay")
    for key in ("Left/Right a play back or forward", "Up/Down (or PageUp/PageDown) a deal", "Home/End", "q leave"):
        assert key in shown, key


def test_resume_refuses_the_settings_it_would_ignore(tmp_path: Path) -> None:
    """A resumed match keeps its own players, rules, level, baazis, seed and name: given with --resume, they are
    refused in one line naming them, before anything starts; --save, --ascii and --delay still go with it."""
    PersonsMatch(PRESETS["standard"], 4, "easy", 3, seed=9).save(tmp_path / "m.json")
    before = (tmp_path / "m.json").read_text()
    for args, named in ((["--level", "expert"], "--level"), (["-r", "punjab_30", "-b", "5"], "--rules, --baazis"),
                        (["-p", "2", "--seed", "3", "--name", "Priya"], "--players, --seed, --name"),
                        (["--level", "medium"], "--level")):  # the default, given: still refused
        line = one_line_error(run("play", "--resume", "m.json", *args, cwd=tmp_path), 2)
        assert "--resume" in line and f"leave out {named}" in line, line
    assert (tmp_path / "m.json").read_text() == before
    proc = run("play", "--resume", "m.json", "--save", "n.json", "--ascii", "--delay", "0", cwd=tmp_path)
    assert "needs an interactive terminal" in one_line_error(proc, 2)  # got as far as starting the game


def test_a_broken_save_file_or_record_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert "not valid JSON" in one_line_error(run("play", "--resume", str(bad)), 2)
    assert "not valid JSON" in one_line_error(run("replay", str(bad)), 2)
    for text, message in (("[]", "must be a JSON object"), ("{}", "list of deals"), ("\xff", "not UTF-8")):
        bad.write_bytes(text.encode("latin-1"))
        assert message in one_line_error(run("play", "--resume", str(bad)), 2)
        assert message in one_line_error(run("replay", str(bad)), 2)
    s = PersonsMatch(PRESETS["standard"], 4, seed=4)
    while len(s.deal.plays) < 6:
        choice = s.hint()[0] if s.humans_turn() else None
        if choice is None:
            s.bot_step()
        else:
            s.bid(choice) if isinstance(choice, int) else s.play(choice)
    data = {**s.record().to_json(), "taash": {"seed": 4}}  # a save from before the tables: a record
    data["deals"][0]["plays"][3] = data["deals"][0]["plays"][0]  # a card played twice: illegal
    bad.write_text(json.dumps(data))
    line = one_line_error(run("replay", str(bad)), 1)
    assert "deal 1, play 4" in line  # counted from 1, as on the screens
    assert "deal 1, play 4" in one_line_error(run("play", "--resume", str(bad)), 1)
