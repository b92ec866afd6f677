"""The duplicate arena's seatings: two sides exchange seats; singles (Rummy at 3 to 6) rotate A and B round the
table so that each bot plays every seat, alone and in the field."""

from __future__ import annotations

import pytest

from taash.arena.duplicate import is_singles, play_pair, run_duplicate, seatings, summarise
from taash.games import make_game


def test_singles_seat_each_bot_alone_once_and_in_the_field_at_every_seat() -> None:
    assert seatings(3) == [(True, False, False), (False, True, True), (False, True, False), (True, False, True),
                           (False, False, True), (True, True, False)]
    for n in range(3, 7):
        games = seatings(n)
        assert len(games) == 2 * n and len(set(games)) == 2 * n
        for seat in range(n):
            assert sum(g[seat] for g in games) == n  # A: alone once, in the field n - 1 times
            assert sum(not g[seat] for g in games) == n
        assert sum(map(sum, games)) == n * n  # both bots hold the same number of seats over a pair


def test_only_games_of_three_singles_or_more_rotate() -> None:
    assert is_singles(make_game("rummy", players=3)) and is_singles(make_game("rummy", players=6))
    assert not is_singles(make_game("rummy", players=2))  # two sides: the seats are exchanged as before
    assert not is_singles(make_game("seep", players=4))


def test_a_pair_of_singles_plays_every_seating_and_scores_mean_returns() -> None:
    game = make_game("rummy", players=3)
    pair = play_pair("greedy", "random", game, 4)
    assert len(pair.a_game_margins) == 6
    assert pair.margin == pytest.approx(sum(pair.a_game_margins))
    assert pair.a_deals_won + pair.b_deals_won == sum(1 for m in pair.a_game_margins if m)
    assert all(a >= 0 and b >= 0 for a, b in pair.tallies.values())
    assert sum(pair.tallies["valid declarations"]) <= 6  # at most one a game
    assert pair.a_seconds and pair.b_seconds
    summary = summarise("greedy", "random", [pair])
    assert summary.mean_margin == pytest.approx(pair.margin / 6)  # per game, not per two games


def test_exchanging_the_bots_of_singles_only_changes_the_sign() -> None:
    game = make_game("rummy", players=4)
    ab = play_pair("greedy", "random", game, 2)
    ba = play_pair("random", "greedy", game, 2)
    assert ba.margin == pytest.approx(-ab.margin)
    assert (ba.a_deals_won, ba.b_deals_won) == (ab.b_deals_won, ab.a_deals_won)
    assert {name: (b, a) for name, (a, b) in ba.tallies.items()} == ab.tallies


def test_a_bot_against_itself_has_no_margin_at_any_seat_count() -> None:
    for players in (3, 5):
        assert play_pair("greedy", "greedy", make_game("rummy", players=players), 1).margin == pytest.approx(0)


def test_greedy_beats_random_at_a_table_of_four() -> None:
    summary, _ = run_duplicate("greedy", "random", make_game("rummy", players=4), pairs=6, seed=10)
    assert summary.mean_margin - summary.ci95 > 0


class ThreeSides:
    """Four seats in three sides (neither two sides nor singles): no fair seating is known."""

    name = "rummy"
    players = 4

    def team_of(self, seat: int) -> int:
        return min(seat, 2)


def test_a_game_neither_of_two_sides_nor_of_singles_is_refused() -> None:
    with pytest.raises(ValueError, match="two sides or singles; rummy at 4 seats has 3 sides"):
        play_pair("greedy", "random", ThreeSides(), 1)  # type: ignore[arg-type]
