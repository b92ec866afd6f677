"""Seeding, knockout tables, Swiss pairings, standings and prizes (pure)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taash.tournaments.pairing import (
    SeatOutcome,
    Standing,
    TournamentError,
    goers,
    knockout_rounds,
    knockout_standings,
    knockout_tables,
    points,
    prizes,
    seeded,
    swiss_standings,
    swiss_tables,
    table_sizes,
)

SEEDS = [f"s{i}" for i in range(1, 9)]


def test_seeding_puts_the_best_rated_first_and_keeps_registration_order_among_equals() -> None:
    assert seeded({"late": 30.0, "b": 2.0}, ["a", "b", "late", "c"]) == ["late", "b", "a", "c"]


def test_the_two_best_seeds_meet_only_in_the_final_of_a_knockout_of_eight() -> None:
    tables = knockout_tables(SEEDS, 2)
    assert tables == [["s1", "s8"], ["s2", "s7"], ["s3", "s6"], ["s4", "s5"]]
    semis = knockout_tables([t[0] for t in tables], 2)
    assert semis == [["s1", "s4"], ["s2", "s3"]]


def test_a_table_of_four_gets_a_snake_of_seeds() -> None:
    assert knockout_tables(SEEDS, 4) == [["s1", "s4", "s5", "s8"], ["s2", "s3", "s6", "s7"]]


@given(st.integers(1, 64), st.integers(2, 6))
def test_every_entrant_sits_once_at_tables_no_larger_than_the_game_seats(entrants: int, size: int) -> None:
    seeds = [f"e{i}" for i in range(entrants)]
    tables = knockout_tables(seeds, size)
    assert sorted(e for t in tables for e in t) == sorted(seeds)
    assert all(1 <= len(t) <= size for t in tables)
    assert max(map(len, tables)) - min(map(len, tables)) <= 1
    assert len(tables) == -(-entrants // size)


def test_a_table_seats_two_or_more() -> None:
    with pytest.raises(TournamentError):
        table_sizes(8, 1)


def test_rounds_of_a_knockout() -> None:
    assert knockout_rounds(8, 2) == 3
    assert knockout_rounds(8, 4, goers_per_table=2) == 2


def test_the_winners_go_on_and_a_drawn_table_sends_the_best_seeded_team() -> None:
    table = [SeatOutcome("a", 0, False, -1), SeatOutcome("b", 1, True, 1)]
    assert goers(table, ["a", "b"]) == ["b"]
    drawn = [SeatOutcome("a", 0, False, 0), SeatOutcome("b", 1, False, 0), SeatOutcome("c", 0, False, 0),
             SeatOutcome("d", 1, False, 0)]
    assert goers(drawn, ["b", "a", "c", "d"]) == ["b", "d"]


def test_a_filling_bot_that_wins_sends_on_the_best_entrant() -> None:
    table = [SeatOutcome("a", 0, False, -3), SeatOutcome(None, 1, True, 5), SeatOutcome("c", 2, False, -1)]
    assert goers(table, ["a", "c"]) == ["c"]


def test_swiss_points_for_a_win_a_loss_and_a_draw() -> None:
    assert points([SeatOutcome("a", 0, True, 1), SeatOutcome("b", 1, False, -1)]) == {"a": 1.0, "b": 0.0}
    assert points([SeatOutcome("a", 0, False, 0), SeatOutcome("b", 1, False, 0)]) == {"a": 0.5, "b": 0.5}


def test_swiss_pairs_by_score_and_avoids_a_second_meeting() -> None:
    scores = {"s1": 1, "s2": 1, "s3": 1, "s4": 1, "s5": 0, "s6": 0, "s7": 0, "s8": 0}
    met = {"s1": {"s2"}, "s2": {"s1"}, "s3": {"s4"}, "s4": {"s3"}}
    tables = swiss_tables(scores, SEEDS, met, 2)
    assert tables[:2] == [["s1", "s3"], ["s2", "s4"]]
    assert sorted(e for t in tables[2:] for e in t) == ["s5", "s6", "s7", "s8"]


@given(st.lists(st.integers(0, 3), min_size=2, max_size=20), st.integers(2, 4), st.data())
def test_swiss_seats_everyone_once_and_nobody_twice_with_the_same_opponent_while_avoidable(
        raw: list[int], size: int, data: st.DataObject) -> None:
    seeds = [f"e{i}" for i in range(len(raw))]
    scores = {e: float(s) for e, s in zip(seeds, raw, strict=True)}
    tables = swiss_tables(scores, seeds, {}, size)
    assert sorted(e for t in tables for e in t) == sorted(seeds)
    # With nobody met yet, the first table takes the leaders.
    leaders = sorted(seeds, key=lambda e: (-scores[e], seeds.index(e)))[:len(tables[0])]
    assert tables[0] == leaders


def test_swiss_standings_by_score_then_buchholz() -> None:
    scores = {"a": 2.0, "b": 2.0, "c": 1.0, "d": 0.0}
    met = {"a": {"c", "d"}, "b": {"d"}, "c": {"a"}, "d": {"a", "b"}}
    found = swiss_standings(scores, met, ["d", "c", "b", "a"])
    assert [(s.place, s.entrant) for s in found] == [(1, "a"), (2, "b"), (3, "c"), (4, "d")]


def test_knockout_standings_champions_then_by_round_reached() -> None:
    reached = {"a": 3, "b": 3, "c": 2, "d": 2, "e": 1}
    found = knockout_standings(reached, ["a"], ["a", "b", "c", "d", "e"])
    assert [(s.place, s.entrant) for s in found] == [(1, "a"), (2, "b"), (3, "c"), (3, "d"), (5, "e")]


def test_prizes_shared_between_equal_places_and_bots_skipped() -> None:
    standings = [Standing(1, "a", 3, 0), Standing(1, "b", 3, 0), Standing(3, "bot:1", 1, 0), Standing(4, "c", 1, 0)]
    assert prizes(101, [50, 30, 20], standings, paid=["a", "b", "c"]) == {"a": 41, "b": 40, "c": 20}


def test_prize_shares_must_add_up_to_100() -> None:
    with pytest.raises(TournamentError):
        prizes(100, [50, 40], [Standing(1, "a", 1, 0)])


@given(st.integers(0, 10**9), st.lists(st.integers(0, 100), min_size=1, max_size=6).filter(lambda s: sum(s) <= 100),
       st.lists(st.integers(1, 4), min_size=1, max_size=12))
def test_the_prizes_pay_out_the_whole_pool_exactly(pool: int, shares: list[int], gaps: list[int]) -> None:
    shares = [*shares[:-1], shares[-1] + 100 - sum(shares)]
    standings, place = [], 1
    for i, gap in enumerate(gaps):
        standings.append(Standing(place, f"e{i}", 0, 0))
        place += gap % 2  # some share a place
    paid = prizes(pool, shares, standings)
    assert sum(paid.values()) == pool
    assert all(v > 0 for v in paid.values())
