"""Arena points, streaks, pairing by score as players finish, and standings (pure)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from taash.tournaments.arena import arena_score, arena_standings, arena_tables, match_points, on_fire

RESULTS = st.lists(st.sampled_from([0.0, 0.5, 1.0]), max_size=12)


def test_a_win_is_two_points_a_draw_one_and_a_third_win_in_a_row_counts_double() -> None:
    assert arena_score([1.0]) == 2
    assert arena_score([0.5, 0.0]) == 1
    assert arena_score([1.0, 1.0, 1.0]) == 2 + 2 + 4
    assert arena_score([1.0, 1.0, 1.0, 1.0]) == 2 + 2 + 4 + 4


def test_a_draw_on_fire_counts_double_and_ends_the_streak() -> None:
    assert arena_score([1.0, 1.0, 0.5, 1.0]) == 2 + 2 + 2 + 2
    assert not on_fire([1.0, 1.0, 0.5])


def test_a_loss_on_fire_scores_nothing_and_ends_the_streak() -> None:
    assert arena_score([1.0, 1.0, 0.0, 1.0, 1.0]) == 2 + 2 + 0 + 2 + 2


@given(RESULTS)
def test_points_lie_between_the_plain_points_and_twice_them(results: list[float]) -> None:
    plain = sum(match_points(r) for r in results)
    assert plain <= arena_score(results) <= 2 * plain


@given(RESULTS, st.sampled_from([0.0, 0.5, 1.0]))
def test_one_more_match_never_takes_points_away(results: list[float], result: float) -> None:
    assert arena_score([*results, result]) >= arena_score(results)


WAITING = st.lists(st.sampled_from([f"e{i}" for i in range(12)]), unique=True, max_size=12)


@given(WAITING, st.dictionaries(st.sampled_from([f"e{i}" for i in range(12)]), st.integers(0, 20)),
       st.sampled_from([2, 3, 4]))
def test_the_waiting_fill_whole_tables_each_at_one_and_the_rest_wait(waiting: list[str], scores: dict[str, int],
                                                                      size: int) -> None:
    seeds = [f"e{i}" for i in range(12)]
    tables = arena_tables(waiting, scores, seeds, {}, size)
    seated = [e for t in tables for e in t]
    assert len(seated) == len(set(seated)) and set(seated) <= set(waiting)
    assert all(len(t) == size for t in tables)
    assert len(tables) == len(waiting) // size


@given(WAITING, st.dictionaries(st.sampled_from([f"e{i}" for i in range(12)]), st.integers(0, 20)))
def test_those_left_waiting_score_no_more_than_anyone_seated_first_at_a_table(waiting: list[str],
                                                                              scores: dict[str, int]) -> None:
    seeds = [f"e{i}" for i in range(12)]
    tables = arena_tables(waiting, scores, seeds, {}, 2)
    seated = {e for t in tables for e in t}
    for left in set(waiting) - seated:
        assert all(scores.get(left, 0) <= scores.get(t[0], 0) for t in tables)


def test_the_top_scorers_meet_unless_they_just_played_each_other() -> None:
    seeds = ["a", "b", "c", "d"]
    scores = {"a": 8, "b": 6, "c": 2, "d": 0}
    assert arena_tables(seeds, scores, seeds, {}, 2) == [["a", "b"], ["c", "d"]]
    last = {"a": {"b"}, "b": {"a"}}
    assert arena_tables(seeds, scores, seeds, last, 2) == [["a", "c"], ["b", "d"]]
    assert arena_tables(["a", "b"], scores, seeds, last, 2) == [["a", "b"]]  # nobody else waits: again


def test_the_standings_rank_by_points_then_wins_and_equals_share_a_place() -> None:
    results = {"a": [1.0, 0.0], "b": [0.5, 0.5], "c": [1.0, 1.0, 1.0], "d": [0.0, 1.0]}
    standings = arena_standings(results, ["a", "b", "c", "d"])
    assert [(s.entrant, s.place, s.score, s.tiebreak) for s in standings] == [
        ("c", 1, 8.0, 3.0), ("a", 2, 2.0, 1.0), ("d", 2, 2.0, 1.0), ("b", 4, 2.0, 0.0)]
