"""Websockets counted per address and per guest, with room kept for players (:mod:`taash.web.admissions`)."""

from __future__ import annotations

from taash.web.admissions import SERVER_FULL, Admission, Admissions


def test_admissions_count_per_address_and_guest_and_keep_room_for_players() -> None:
    doors = Admissions(max_connections=10, per_address=4, per_guest=2, reserved_for_players=0.2)
    watchers = [doors.admit("10.0.0.1", None, player=False) for _ in range(4)]
    assert all(isinstance(w, Admission) for w in watchers)
    assert "your address" in str(doors.admit("10.0.0.1", None, player=False))
    # A player at his own table is let in from the same address.
    assert isinstance(doors.admit("10.0.0.1", "p", player=True), Admission)
    assert isinstance(doors.admit("10.0.0.2", "g", player=False), Admission)
    assert isinstance(doors.admit("10.0.0.3", "g", player=False), Admission)
    assert "connections open" in str(doors.admit("10.0.0.4", "g", player=True))  # a guest's limit holds for all
    # 7 open: spectators stop at 8 (10 less the players' 2), players at 10.
    assert isinstance(doors.admit("10.0.0.5", None, player=False), Admission)
    assert doors.admit("10.0.0.6", None, player=False) == SERVER_FULL
    assert isinstance(doors.admit("10.0.0.6", "q", player=True), Admission)
    assert isinstance(doors.admit("10.0.0.6", "r", player=True), Admission)
    assert doors.admit("10.0.0.6", "s", player=True) == SERVER_FULL
    assert doors.open == 10
    first = watchers[0]
    assert isinstance(first, Admission)
    doors.release(first)
    assert doors.open == 9 and doors.by_address["10.0.0.1"] == 3
    assert doors.admit("10.0.0.1", None, player=False) == SERVER_FULL  # the address may, the server may not
