"""The person's match behind ``taash play`` (Seep, through the tables' :class:`TableMatch`): bots' turns, undo, hints,
save and resume (old saves too), whole matches, every preset."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from taash.cards import cards_of
from taash.seep.deal import Phase
from taash.seep.errors import IllegalPlayError, RecordError
from taash.seep.match import Match
from taash.seep.plays import Play
from taash.seep.record import record_from_json, record_of, replay
from taash.seep.rules import PRESETS
from taash.tui.seep.persons_match import PersonsMatch

STANDARD = PRESETS["standard"]


def person(session: PersonsMatch) -> Play | int:
    """A stand-in for the person: takes the hint."""
    return session.hint()[0]


def move(session: PersonsMatch) -> None:
    if session.humans_turn():
        choice = person(session)
        if isinstance(choice, int):
            session.bid(choice)
        else:
            session.play(choice)
    else:
        session.bot_step()


def finish_deal(session: PersonsMatch) -> None:
    while not session.deal_over:
        move(session)


def finish_match(session: PersonsMatch) -> None:
    while True:
        finish_deal(session)
        if session.over:
            return
        session.next_deal()


def test_the_same_seed_and_choices_give_the_same_match() -> None:
    a, b = PersonsMatch(STANDARD, 4, seed=5, baazis=2), PersonsMatch(STANDARD, 4, seed=5, baazis=2)
    finish_match(a)
    finish_match(b)
    assert a.to_json() == b.to_json()
    results = replay(record_from_json(a.record().to_json()))
    assert [r.score.score for r in results] == [r.score.score for r in a.results()]
    assert a.match.baazis[a.match.winner() or 0] == 2


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_deal_under_every_preset(players: int, preset: str) -> None:
    s = PersonsMatch(PRESETS[preset], players, "easy", 0, seed=11)
    finish_deal(s)
    assert s.over and len(s.results()) == 1
    assert [r.score for r in replay(record_from_json(s.record().to_json()))] == [r.score for r in s.results()]
    if players == 2:
        assert any(e.text.startswith("Second half") for e in s.log)


def test_undo_goes_back_to_the_persons_last_move_and_replays_the_same() -> None:
    s = PersonsMatch(STANDARD, 4, seed=3)
    assert not s.can_undo() and not s.undo()
    while s.deal.phase is Phase.BID or len(s.deal.plays) < 10:
        move(s)
    while not s.humans_turn():
        move(s)
    before = s.to_json()
    choice = person(s)
    assert isinstance(choice, tuple)
    s.play(choice)
    while not s.humans_turn():
        s.bot_step()
    assert s.to_json() != before
    assert s.undo()
    assert s.to_json() == before and s.humans_turn()
    s.play(choice)
    while not s.humans_turn():
        s.bot_step()
    again = s.to_json()
    assert s.undo() and s.to_json() == before
    s.play(choice)
    while not s.humans_turn():
        s.bot_step()
    assert s.to_json() == again


def test_undo_reaches_back_into_a_finished_deal() -> None:
    s = PersonsMatch(STANDARD, 4, seed=8, baazis=3)
    finish_deal(s)
    s.next_deal()
    while not s.can_undo() or (s.deal_number == 2 and not s.humans_turn()):
        move(s)
    while s.deal_number == 2 and s.undo():
        pass
    assert s.deal_number == 1 and not s.deal_over and s.humans_turn()


def test_a_saved_match_resumes_where_it_was_and_goes_on_the_same(tmp_path: Path) -> None:
    s = PersonsMatch(STANDARD, 4, "hard", 2, seed=21, name="Priya")
    finish_deal(s)
    s.next_deal()
    for _ in range(30):
        move(s)
    path = tmp_path / "save.json"
    s.save(path)
    data = json.loads(path.read_text())
    assert data["kind"] == "taash-session" and data["game"] == "seep" and data["people"] == [0]
    assert data["names"][0] == "Priya" and (data["seed"], data["settings"]["level"], data["settings"]["length"]) == \
        (21, "hard", 2)
    resumed = PersonsMatch.load(path)
    assert resumed.to_json() == s.to_json()
    assert resumed.view() == s.view() and resumed.deal_number == 2
    assert [e.text for e in resumed.log] == [e.text for e in s.log]
    finish_match(s)
    finish_match(resumed)
    assert resumed.to_json() == s.to_json()


def old_save(s: PersonsMatch) -> dict[str, Any]:
    """The save file ``taash play`` wrote before it played through the tables: the game record of the deals the
    person had gone on from and the deal shown, with the match's settings in a ``taash`` block."""
    data = s.record().to_json()
    data["taash"] = {"seed": s.seed, "level": s.level, "baazis": s.baazis, "human": s.human}
    return data


def test_an_old_save_file_still_resumes_where_it_was_and_goes_on_the_same(tmp_path: Path) -> None:
    s = PersonsMatch(STANDARD, 4, "hard", 2, seed=21, name="Priya")
    finish_deal(s)
    s.next_deal()
    for _ in range(30):
        move(s)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old_save(s)) + "\n")
    resumed = PersonsMatch.load(path)
    assert resumed.to_json() == s.to_json()  # the same match: seed, names, settings, deals and every move
    assert resumed.view() == s.view() and resumed.deal_number == 2 and resumed.names[0] == "Priya"
    resumed.save(path)  # saved again, it is a save of the tables
    assert json.loads(path.read_text())["kind"] == "taash-session"
    finish_match(s)
    finish_match(resumed)
    assert resumed.to_json() == s.to_json()


def test_any_record_can_be_resumed_in_seat_zero() -> None:
    match = Match(STANDARD, 4, seed=2)
    rng = random.Random(2)
    match.make_bid(rng.choice(match.legal_bids()))
    for _ in range(20):
        match.play(rng.choice(match.legal_plays()))
    data = record_of(match).to_json()
    s = PersonsMatch.from_json(data)
    assert s.level == "medium" and s.human == 0
    assert len(s.deal.plays) == 20
    finish_deal(s)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(taash={"seed": "x"}), "taash.seed"),
    (lambda d: d.update(taash={"level": "godlike"}), "taash.level"),
    (lambda d: d.update(taash={"baazis": -1}), "taash.baazis"),
    (lambda d: d.update(taash={"human": 7}), "taash.human"),
    (lambda d: d.update(deals=[]), "no deal"),
    (lambda d: d["deals"][0]["plays"].append(d["deals"][0]["plays"][0]), "deal 1"),
])
def test_a_bad_old_save_file_is_refused_with_a_reason(change, message: str) -> None:  # type: ignore[no-untyped-def]
    s = PersonsMatch(STANDARD, 4, seed=4)
    for _ in range(12):
        move(s)
    data = old_save(s)
    change(data)
    with pytest.raises(RecordError, match=message):
        PersonsMatch.from_json(data)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(seed=5), "changed after it was saved"),
    (lambda d: d.update(people=[0, 1]), "2 people"),
    (lambda d: d.update(game="rummy"), "changed after it was saved"),
])
def test_a_bad_save_file_is_refused_with_a_reason(change, message: str) -> None:  # type: ignore[no-untyped-def]
    from taash.tables.match import SaveError, _check

    s = PersonsMatch(STANDARD, 4, seed=4)
    for _ in range(12):
        move(s)
    data = s.to_json()
    change(data)
    if message != "changed after it was saved":
        data["check"] = _check(data)
    with pytest.raises(SaveError, match=message):
        PersonsMatch.from_json(data)


def test_moves_out_of_turn_are_refused_and_change_nothing() -> None:
    s = PersonsMatch(STANDARD, 4, seed=6)
    while s.humans_turn():
        move(s)
    before = s.to_json()
    with pytest.raises(IllegalPlayError):
        s.bid(13)
    with pytest.raises(IllegalPlayError):
        s.play((1, 0, 0, 0, 0))
    with pytest.raises(IllegalPlayError):
        s.hint()
    assert s.to_json() == before
    while not s.humans_turn():
        s.bot_step()
    with pytest.raises(IllegalPlayError):
        s.bot_step()
    if s.deal.phase is Phase.PLAY:
        with pytest.raises(IllegalPlayError):
            s.play((1, 51 if not s.view().hand >> 51 & 1 else 50, 0, 0, 0))


def test_redeals_are_told() -> None:
    seed = next(seed for seed in range(300) if PersonsMatch(STANDARD, 4, seed=seed).match.redeals)
    s = PersonsMatch(STANDARD, 4, seed=seed)
    assert s.log[0].text.startswith("Dealt again: ")


def test_the_interface_gets_only_the_persons_view() -> None:
    s = PersonsMatch(STANDARD, 4, seed=9)
    while s.deal.phase is Phase.BID or len(s.deal.plays) < 5:
        move(s)
    v = s.view()
    assert v.seat == 0 and v.hand == s.deal.hands[0]
    assert not hasattr(v, "hands") and not hasattr(v, "deck")


def test_in_plain_ascii_hints_and_the_log_have_no_suit_symbols() -> None:
    s = PersonsMatch(STANDARD, 4, "medium", 0, seed=13, ascii_only=True)
    reasons = []
    while not s.deal_over:
        if s.humans_turn():
            reasons.append(s.hint()[1])
        move(s)
    assert len(reasons) >= 12 and all(r.isascii() for r in reasons), reasons
    assert all(e.text.isascii() for e in s.log)
    unicode = PersonsMatch(STANDARD, 4, "medium", 0, seed=13)
    finish_deal(unicode)
    assert [e.text.translate(str.maketrans("♠♥♦♣", "shdc")) for e in unicode.log] == [e.text for e in s.log]


def test_the_bid_hint_gives_the_bots_bid_and_a_true_reason() -> None:
    for seed in range(40):
        s = PersonsMatch(STANDARD, 4, seed=seed)
        while not s.humans_turn():
            s.bot_step()
        if s.deal.phase is not Phase.BID:
            continue
        value, reason = s.hint()
        bids = s.view().legal_bids()
        assert isinstance(value, int) and value in bids and reason.startswith(f"Bid {value} (")
        if len(bids) == 1:
            assert reason.endswith("the only value you can bid")
        else:
            counts = {v: sum(1 for c in cards_of(s.view().hand) if c % 13 + 1 == v) for v in bids}
            assert counts[value] == max(counts.values()) and f"you hold {counts[value]} " in reason


def test_long_names_from_a_record_are_shortened_on_the_screen() -> None:
    s = PersonsMatch(STANDARD, 4, seed=1, names=["Me", "An   extremely long name", "", "Bo"])
    assert [s.who(seat) for seat in range(4)] == ["You", "An extremel.", "Seat 2", "Bo"]  # the partner as named


def test_the_match_is_played_through_the_tables_match_shared_with_the_web() -> None:
    """Every bid and play goes to a :class:`taash.tables.match.TableMatch` as the table's message, in order."""
    from taash.tables.adapter import adapter
    from taash.tables.match import TableMatch

    s = PersonsMatch(STANDARD, 4, seed=4, baazis=2)
    finish_deal(s)
    s.next_deal()
    for _ in range(9):
        move(s)
    assert isinstance(s.table, TableMatch)
    game = adapter("seep")
    expected = []
    for d in s.record().deals:
        expected.append(game.action_to(d.bid))
        expected.extend(game.action_to(p) for p in d.plays)
    assert s.table.moves == expected
    with pytest.raises(IllegalPlayError):
        s.bid(13)  # refused: nothing reaches the table
    assert s.table.moves == expected


def test_a_finished_deal_stays_shown_until_the_person_goes_on() -> None:
    s = PersonsMatch(STANDARD, 2, seed=6, baazis=2)
    finish_deal(s)
    finished = s.deal
    assert s.deal_over and finished.over and s.view().phase is Phase.OVER
    assert s.match.deal is not finished and not s.match.deal.over  # the match has dealt the next deal already
    assert s.deal_number == 1 and len(s.record().deals) == 1 and s.record().deals[0].plays == finished.plays
    assert not s.humans_turn() and not s.bots_turn()
    s.next_deal()
    assert s.deal is s.match.deal and s.deal_number == 2 and not s.deal_over
    assert len(s.record().deals) == 2


def test_undo_in_the_first_deal_keeps_its_opening_line() -> None:
    s = PersonsMatch(STANDARD, 4, seed=3)
    for _ in range(12):
        move(s)
    opening = s.log[0].text
    assert opening.startswith("Deal 1:")
    assert s.undo()
    assert s.log[0].text == opening and s.log[-1].text.startswith("Undone")


def test_a_save_file_written_by_the_terminal_game_before_the_tables_still_resumes() -> None:
    """``data/seep-save-before-tables.json`` was saved by ``taash play`` as it was before it played through the
    tables (its own session, saving a game record): the same deals, names and moves come back, and it goes on."""
    path = Path(__file__).parent / "data" / "seep-save-before-tables.json"
    saved = json.loads(path.read_text())
    s = PersonsMatch.load(path)
    assert (s.seed, s.level, s.baazis, s.human) == (21, "hard", 2, 0)
    assert s.names == saved["names"] and s.names[0] == "Priya"
    assert s.record().to_json()["deals"] == saved["deals"]
    assert s.deal_number == 2 and len(s.deal.plays) == 29
    assert s.log[0].text.startswith("Deal 2:")
    finish_match(s)
    assert s.over
