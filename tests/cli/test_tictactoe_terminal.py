"""The proof's terminal half: the tests' tic-tac-toe, registered by the process alone
(:mod:`tests.games.tictactoe_plugin`), is played to its end with ``taash play --plain`` through the generic plain
terminal game; a process that does not register it does not know it."""

from __future__ import annotations

import os
import subprocess
import sys

#: ``taash`` with tic-tac-toe registered first.
WITH_TICTACTOE = ("from tests.games.tictactoe_plugin import register_tictactoe; register_tictactoe(); "
                  "from taash.cli.main import run; run()")


def taash(*args: str, stdin: str = "", register: bool = True) -> subprocess.CompletedProcess[str]:
    launcher = ["-c", WITH_TICTACTOE] if register else ["-m", "taash.cli"]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, *launcher, *args], input=stdin, capture_output=True, text=True,
                          timeout=120, env=env)


def test_a_whole_game_of_tictactoe_in_the_plain_terminal() -> None:
    proc = taash("play", "--plain", "--game", "tictactoe", "--players", "2", "--seed", "5", "--level", "easy",
                 stdin="1\n" * 9)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "plays X and moves first" in out and "Mark square" in out
    assert "You take square" in out and "Asha takes square" in out  # the log's words, "You" in the second person
    last = [line for line in out.splitlines() if line.strip()][-1]
    assert last.endswith("wins: three X in a row.") or last.endswith("wins: three O in a row.") \
        or last == "A draw.", last


def test_a_bad_square_changes_nothing() -> None:
    proc = taash("play", "--plain", "--game", "tictactoe", "--players", "2", "--seed", "5",
                 stdin="10\nx\n" + "1\n" * 9)
    assert proc.returncode == 0, proc.stderr
    assert "Type a number from 1 to" in proc.stdout


def test_its_own_settings_are_refused_in_one_line() -> None:
    proc = taash("play", "--plain", "--game", "tictactoe", "--players", "4")
    assert proc.returncode == 2 and proc.stderr.strip() == "taash: --plain: tic-tac-toe is for 2 players"


def test_a_process_that_does_not_register_it_does_not_know_it() -> None:
    proc = taash("play", "--plain", "--game", "tictactoe", register=False)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "taash: --game must be seep or rummy with --plain, not 'tictactoe'"
