"""A split of the prize on agreement (taash.tables.split): who may propose it, every person left must accept, one
who declines lets play go on, the bots answer by their rule, and a split match ends with every seat's share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taash.tables.adapter import TableError, adapter
from taash.tables.split import bot_accepts, divide, split_returns
from taash.tables.table import Table

PROPOSE = {"type": "split", "answer": "propose"}
ACCEPT = {"type": "split", "answer": "accept"}
DECLINE = {"type": "split", "answer": "decline"}


def table_of(game: str, players: int, length: Any, people: int, seed: int = 5) -> tuple[Table, list[dict[str, Any]]]:
    """A started table with ``people`` persons (g0, g1, ...) and bots in the other seats, and its actions so far."""
    g = adapter(game)
    table = Table("t", "CODE", g.settings(players, g.presets[0], length, "easy", True), seed, "g0")
    actions: list[dict[str, Any]] = []

    def act(action: dict[str, Any], guest: str | None) -> None:
        table.check(action, guest)
        table.apply(action, guest)
        actions.append({"action": action, "guest": guest})

    for seat in range(people):
        act({"type": "sit", "seat": seat, "name": f"P{seat}"}, f"g{seat}")
    if people < players:
        act({"type": "bots"}, "g0")
    act({"type": "start"}, "g0")
    table.act = act  # type: ignore[attr-defined]
    return table, actions


def drop_until(table: Table, wanted: Callable[[tuple[int, ...]], bool]) -> None:
    """Whoever is to move drops (a first drop) until the pool's totals are as ``wanted``."""
    for _ in range(4):
        totals = table.state_for(None)["score"]["totals"]
        if wanted(tuple(totals)):
            return
        table.act({"type": "drop"}, None)  # type: ignore[attr-defined]
    raise AssertionError("the totals never came out as wanted")


@pytest.mark.parametrize(("game", "players", "length", "why"), [
    ("rummy", 2, "points", "a points match is one deal"),
    ("rummy", 4, "pool101", "needs 2 to 3 players left, not 4"),
    ("seep", 2, 0, "Seep has no prize pool")])
def test_a_split_is_refused_in_one_line_where_the_rules_allow_none(game: str, players: int, length: Any,
                                                                    why: str) -> None:
    table, _ = table_of(game, players, length, people=2)
    version = table.version
    with pytest.raises(TableError, match=why) as refused:
        table.check(PROPOSE, "g0")
    assert refused.value.code == "no_split" and "\n" not in str(refused.value)
    assert table.version == version and table.offer is None and table.split_state() is None


def test_only_a_player_answers_and_only_what_is_asked() -> None:
    table, _ = table_of("rummy", 2, "pool101", people=2)
    for action, guest, code in ((PROPOSE, "stranger", "forbidden"), (PROPOSE, None, "forbidden"),
                                ({"type": "split", "answer": "maybe"}, "g0", "malformed"),
                                (ACCEPT, "g1", "no_split"), (DECLINE, "g1", "no_split")):
        with pytest.raises(TableError) as refused:
            table.check(action, guest)
        assert refused.value.code == code


def test_a_proposal_pauses_the_deal_and_a_decline_lets_play_go_on() -> None:
    table, _ = table_of("rummy", 3, "pool201", people=3)
    seat = table.to_move()
    assert seat is not None
    table.act(PROPOSE, "g1")  # type: ignore[attr-defined]
    state = table.split_state()
    assert state == {"agreed": False, "proposer": 1, "weights": {"0": 201, "1": 201, "2": 201}, "accepted": [1],
                     "waiting_for": [0, 2]}
    assert table.to_move() is None and table.status == "playing"
    with pytest.raises(TableError) as paused:
        table.check({"type": "take", "from": "stock"}, f"g{seat}")
    assert paused.value.code == "split_pending"
    with pytest.raises(TableError):
        table.check(PROPOSE, "g0")  # one at a time
    table.act(ACCEPT, "g0")  # type: ignore[attr-defined]
    with pytest.raises(TableError) as again:
        table.check(ACCEPT, "g0")
    assert again.value.code == "accepted"
    table.act(DECLINE, "g2")  # type: ignore[attr-defined]
    assert table.offer is None and table.split is None and table.to_move() == seat
    assert "P2 declines the split: play goes on" in table.log
    table.act({"type": "take", "from": "stock"}, f"g{seat}")  # type: ignore[attr-defined]


def test_everyone_accepting_ends_the_match_as_a_split_by_points_left() -> None:
    table, actions = table_of("rummy", 2, "pool101", people=2)
    drop_until(table, lambda totals: sorted(totals) == [0, 20])
    totals = table.state_for(None)["score"]["totals"]
    table.act(PROPOSE, "g0")  # type: ignore[attr-defined]
    table.act(ACCEPT, "g1")  # type: ignore[attr-defined]
    assert table.status == "finished" and table.to_move() is None and table.offer is None
    assert table.split == {s: 101 - totals[s] for s in (0, 1)}
    assert table.split_state() == {"agreed": True, "weights": {str(s): 101 - totals[s] for s in (0, 1)}}
    results = table.results()
    assert [r.won for _, _, r in results] == [False, False]
    assert [r.stats["split"] for _, _, r in results] == [1, 1]
    assert sum(r.result for _, _, r in results) == pytest.approx(0)
    record = table.record()
    assert record["ended"] == "split" and record["split"] == {str(s): 101 - totals[s] for s in (0, 1)}
    with pytest.raises(TableError) as over:
        table.check({"type": "drop"}, None)
    assert over.value.code == "over"
    with pytest.raises(TableError):
        table.check(PROPOSE, "g0")
    # The table rebuilt from its actions (a restart) is split alike.
    g = adapter("rummy")
    again = Table("t", "CODE", g.settings(2, g.presets[0], "pool101", "easy", True), 5, "g0")
    for a in actions:
        again.apply(a["action"], a["guest"])
    assert again.status == "finished" and again.split == table.split and again.results() == results


@pytest.mark.parametrize("bot_ahead", [True, False])
def test_a_bot_accepts_a_share_at_least_equal_and_declines_a_smaller_one(bot_ahead: bool) -> None:
    dropper = 0 if bot_ahead else 1  # the one behind: his first drop costs 20 points
    table = next(t for t, _ in (table_of("rummy", 2, "pool101", 1, seed) for seed in range(40))
                 if t.to_move() == dropper)
    table.act({"type": "drop"}, None)  # type: ignore[attr-defined]
    totals = table.state_for(None)["score"]["totals"]
    assert totals[dropper] == 20 and totals[1 - dropper] == 0
    table.act(PROPOSE, "g0")  # type: ignore[attr-defined]
    if bot_ahead:
        assert table.status == "finished" and table.split is not None
    else:
        assert table.status == "playing" and table.offer is None and table.to_move() is not None
        assert table.log[-1].endswith("(bot) declines")


def test_bot_rule_and_split_returns() -> None:
    assert bot_accepts({0: 81, 1: 101}, 1) and not bot_accepts({0: 81, 1: 101}, 0)
    assert all(bot_accepts({0: 1, 1: 1, 2: 1}, s) for s in range(3))
    assert split_returns(3, {0: 1}) == pytest.approx([1.0, -0.5, -0.5])  # as a pool won outright
    assert split_returns(4, {0: 1, 1: 1}) == pytest.approx([1 / 3, 1 / 3, -1 / 3, -1 / 3])


@given(st.integers(0, 10**9), st.dictionaries(st.integers(0, 5), st.integers(1, 201), min_size=1, max_size=3))
def test_a_split_pays_out_the_whole_prize_in_whole_chips_by_weight(prize: int, weights: dict[int, int]) -> None:
    shares = divide(prize, weights)
    assert sum(shares.values()) == prize and set(shares) == set(weights)
    total = sum(weights.values())
    for seat, w in weights.items():
        assert prize * w // total <= shares[seat] <= prize * w // total + 1


def test_divide_refuses_nonsense() -> None:
    for prize, weights in ((-1, {0: 1}), (10, {}), (10, {0: 0, 1: 3})):
        with pytest.raises(ValueError, match="positive weights"):
            divide(prize, weights)
