"""A bot's seat is marked "(bot)" where a player reads it, in his own language; records and what an English reader
is sent keep the name as records have always stored it ("Asha (bot)")."""

from __future__ import annotations

import json
from pathlib import Path

import orjson

from taash.i18n import in_language, speaking
from taash.seep.record import record_from_json
from taash.tables.match import TableMatch
from taash.tables.names import bare_name, bot_name, marked, shown_name
from tests.tables.test_table import started


def seat_names(state: object) -> list[str | None]:
    assert isinstance(state, dict)
    return [s["name"] for s in state["seats"]]


def test_the_web_table_marks_its_bots_in_each_readers_language_and_sends_english_as_before() -> None:
    table = started("seep", 4, 1)
    english = json.loads(orjson.dumps(table.state_for(0)))
    assert seat_names(english) == ["Anil", "Asha (bot)", "Dev (bot)", "Vikram (bot)"]
    assert seat_names(in_language("hi", table.state_for(0))) == ["Anil", "Asha (बॉट)", "Dev (बॉट)", "Vikram (बॉट)"]
    assert seat_names(in_language("pa", table.state_for(0))) == ["Anil", "Asha (ਬੌਟ)", "Dev (ਬੌਟ)", "Vikram (ਬੌਟ)"]
    log = in_language("hi", table.state_for(0))["log"]
    assert any("(बॉट)" in line for line in log) and not any("(bot)" in line for line in log)
    record = table.record()
    assert isinstance(record, dict) and record["names"] == ["Anil", "Asha (bot)", "Dev (bot)", "Vikram (bot)"]


def test_a_saved_match_read_again_marks_its_bots_in_the_readers_language(tmp_path: Path) -> None:
    table = started("rummy", 3, "pool101")
    assert table.session is not None
    path = tmp_path / "save.json"
    path.write_text(json.dumps(table.session.to_json()), encoding="utf-8")
    assert json.loads(path.read_text(encoding="utf-8"))["names"] == ["Anil", "Asha (bot)", "Dev (bot)"]
    session, _people = TableMatch.load(path)
    assert [in_language("hi", n) for n in session.names] == ["Anil", "Asha (बॉट)", "Dev (बॉट)"]
    assert session.names == ["Anil", "Asha (bot)", "Dev (bot)"]  # the same words in English


def test_an_old_records_bot_names_are_stripped_and_marked() -> None:
    assert marked("Asha (bot)") == "Asha (bot)" and in_language("hi", marked("Asha (bot)")) == "Asha (बॉट)"
    assert marked("Anil") == "Anil" and bare_name("Asha (bot)") == "Asha"
    assert bot_name("Dev") == "Dev (bot)"
    with speaking("pa"):
        assert shown_name("Asha (bot)") == "Asha (ਬੌਟ)" and shown_name("Anil") == "Anil"
        assert bot_name("Dev") == "Dev (bot)"  # stored in English whatever is spoken


def test_the_terminal_replay_names_the_bots_in_its_language() -> None:
    from taash.tui.seep.replay import Timeline

    table = started("seep", 4, 0)
    while table.status == "playing":
        table.apply(table.bot_action(), None)
    record = json.loads(orjson.dumps(table.record()))
    with speaking("hi"):
        timeline = Timeline(record_from_json(record), False)
    assert timeline.names == ["Anil", "Asha (बॉट)", "Dev (बॉट)", "Vikram (बॉट)"]
    assert timeline.teams == ("Anil और Dev", "Asha और Vikram")  # a team is named by its players, unmarked
