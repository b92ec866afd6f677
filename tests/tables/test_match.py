"""A session of any game: undo of a person's last move and the bots' replies, save and resume, saves refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taash.tables.adapter import adapter
from taash.tables.match import SaveError, TableMatch

GAMES = [("seep", 4, 1), ("seep", 2, 0), ("rummy", 2, "points"), ("rummy", 3, "pool101")]


def session(game: str, players: int, length: int | str, seed: int = 11) -> TableMatch:
    g = adapter(game)
    settings = g.settings(players, g.presets[0], length, "medium", False)
    return TableMatch(g, settings, seed, ["You", "Asha (bot)", "Dev (bot)", "Vikram (bot)"][:players])


def bots_play(s: TableMatch) -> None:
    """The bots move until it is seat 0's turn (or the match is over)."""
    while not s.over and s.to_move() != 0:
        bot, view = s.bot_choice(s.settings.level)
        s.move(None, s.game.action_to(bot.choose(view)))


def person_plays(s: TableMatch, turns: int) -> None:
    """Seat 0 takes the hints for ``turns`` moves, the bots answering."""
    bots_play(s)
    for _ in range(turns):
        if s.over:
            return
        action, _ = s.hint(0, "hard")
        s.make(action)
        bots_play(s)


@pytest.mark.parametrize(("game", "players", "length"), GAMES)
def test_undo_takes_back_the_persons_last_move_and_the_bots_replies(game: str, players: int,
                                                                    length: int | str) -> None:
    s = session(game, players, length)
    assert not s.undo(0) and not s.can_undo(0)
    person_plays(s, 6)
    moves, log = list(s.moves), list(s.log)
    last = len(s.movers) - 1 - s.movers[::-1].index(0)
    assert s.undo(0)
    assert s.moves == moves[:last] and s.to_move() == 0
    assert s.log[-1].startswith("Undone")
    # The same move again, and the bots answer exactly as they did.
    s.move(0, moves[last])
    bots_play(s)
    assert s.moves == moves
    assert [line for line in s.log if not line.startswith("Undone")] == log


@pytest.mark.parametrize(("game", "players", "length"), GAMES)
def test_a_saved_match_resumes_where_it_was(game: str, players: int, length: int | str, tmp_path: Path) -> None:
    s = session(game, players, length)
    person_plays(s, 9)
    path = tmp_path / "match.json"
    s.save(path, [0])
    data = json.loads(path.read_text())
    assert data["game"] == game and data["record"] == s.record()
    again, people = TableMatch.load(path)
    assert people == [0]
    assert again.moves == s.moves and again.log == s.log and again.names == s.names
    assert again.to_json() == s.to_json()
    assert again.state.key() == s.state.key()
    # It plays on alike.
    person_plays(s, 3)
    person_plays(again, 3)
    assert again.moves == s.moves


def saved(tmp_path: Path) -> dict[str, object]:
    s = session("rummy", 2, "points")
    person_plays(s, 4)
    return s.to_json()


@pytest.mark.parametrize("change", ["move", "seed", "names", "check", "level"])
def test_a_save_changed_by_hand_is_refused(tmp_path: Path, change: str) -> None:
    data = saved(tmp_path)
    if change == "move":
        data["moves"][1] = {"type": "take", "from": "discard"}  # type: ignore[index]
    elif change == "seed":
        data["seed"] = 12
    elif change == "names":
        data["names"] = ["Me", "You"]
    elif change == "check":
        data["check"] = "0" * 64
    else:
        data["settings"]["level"] = "easy"  # type: ignore[index]
    with pytest.raises(SaveError, match="changed after it was saved"):
        TableMatch.from_json(data)


@pytest.mark.parametrize(("text", "said"), [
    ("not json", "not valid JSON"), ("[1, 2]", "not a taash save file"), ('{"game": "rummy"}', "not a taash save"),
    ("\udcff", "not UTF-8"),
])
def test_garbage_is_refused_in_one_line(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(SaveError, match=said) as e:
        TableMatch.load(path)
    assert "\n" not in str(e.value)


def test_a_consistent_save_of_moves_that_do_not_apply_is_refused(tmp_path: Path) -> None:
    """A file whose check was made again after an edit still has to replay: an illegal move is named."""
    from taash.tables.match import _check

    data = saved(tmp_path)
    data["moves"].insert(0, {"type": "discard", "card": "Kd"})  # type: ignore[attr-defined]
    data["check"] = _check(data)
    with pytest.raises(SaveError, match="move 1"):
        TableMatch.from_json(data)
    data = saved(tmp_path)
    data["game"] = "chess"
    data["check"] = _check(data)
    with pytest.raises(SaveError, match="no tables for the game"):
        TableMatch.from_json(data)
    data = saved(tmp_path)
    data["settings"]["length"] = "pool999"  # type: ignore[index]
    data["check"] = _check(data)
    with pytest.raises(SaveError, match="format must be one of"):
        TableMatch.from_json(data)


def test_a_save_of_a_level_the_game_has_no_bot_for_is_refused(tmp_path: Path) -> None:
    # Both games now have a bot of every level: a level of no game stands in for one this game lacks.
    from taash.tables.match import _check

    data = saved(tmp_path)
    data["settings"]["level"] = "grandmaster"  # type: ignore[index]
    data["check"] = _check(data)
    with pytest.raises(SaveError, match="grandmaster"):
        TableMatch.from_json(data)
