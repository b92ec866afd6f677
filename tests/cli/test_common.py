"""``user_errors``: a game's refusal is its own sentence (exit 1 for a record that breaks the rules, else 2); any
other ValueError is bad input."""

from __future__ import annotations

from dataclasses import replace

import pytest
import typer

from taash.cli.common import BAD_INPUT, ILLEGAL, user_errors
from taash.games import registry
from taash.games.registry import register
from taash.rummy.errors import RecordError as RummyRecordError
from taash.seep.errors import IllegalPlayError
from taash.seep.errors import RecordError as SeepRecordError
from tests.games.tictactoe_plugin import PLUGIN


class TicTacToeError(ValueError):
    """The test game's own refusals."""

    illegal = True


def refused(error: Exception, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(typer.Exit) as exit_, user_errors("game.json"):
        raise error
    return exit_.value.exit_code, capsys.readouterr().err.strip()


@pytest.mark.parametrize(("error", "code", "line"), [
    (SeepRecordError("no such card", 0, 3, illegal=True), ILLEGAL, "taash: game.json: deal 1, play 4: no such card"),
    (SeepRecordError("not a list", 1), BAD_INPUT, "taash: game.json: deal 2: not a list"),
    (RummyRecordError("a bad turn", 2, 5, illegal=True), ILLEGAL, "taash: game.json: deal 2, turn 5: a bad turn"),
    (IllegalPlayError("not your turn"), BAD_INPUT, "taash: game.json: not your turn"),
    (ValueError("too many digits"), BAD_INPUT, "taash: game.json: bad input: too many digits"),
])
def test_each_games_errors_keep_their_words_and_status(error: Exception, code: int, line: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(error, capsys) == (code, line)


def test_a_registered_games_errors_are_its_sentences(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(registry, "_PLUGINS", dict(registry._PLUGINS))
    monkeypatch.setattr(registry, "_FACTORIES", dict(registry._FACTORIES))
    monkeypatch.setattr(registry, "_ERRORS", dict(registry._ERRORS))
    assert refused(TicTacToeError("that square is taken"), capsys) == (
        BAD_INPUT, "taash: game.json: bad input: that square is taken")
    register(replace(PLUGIN, errors="tests.cli.test_common:TicTacToeError"))
    assert refused(TicTacToeError("that square is taken"), capsys) == (
        ILLEGAL, "taash: game.json: that square is taken")
