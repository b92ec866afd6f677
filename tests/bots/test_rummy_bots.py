"""Rummy's bots: legal whole matches, decisions blind to hidden cards, and greedy clearly above random."""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest

from taash.arena.duplicate import play_pair, play_state, run_duplicate
from taash.bots import make_bot
from taash.games import make_game
from taash.rummy.deal import Declare
from taash.rummy.game import RummyState
from taash.rummy.view import PlayerView

BOTS = ["random", "greedy", "heuristic"]


class Checked:
    """Checks that every choice of the bot it wraps is legal in its seat's view, and explained."""

    def __init__(self, spec: str, seed: int):
        self.bot = make_bot(spec, seed, game="rummy")
        self.name = self.bot.name
        self.declared = 0

    def choose(self, view: PlayerView) -> Hashable:
        action = self.bot.choose(view)
        assert action in view.legal_actions()
        assert self.bot.explain(view, action)
        self.declared += isinstance(action, Declare)
        return action


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("preset", ["octro", "classic"])
def test_every_bot_plays_whole_matches(players: int, preset: str) -> None:
    for fmt in ("points", "pool101"):
        game = make_game("rummy", rules=preset, players=players, format=fmt)
        bots = [Checked(BOTS[(seat + players) % 3], seat) for seat in range(players)]  # every bot at 4 and 6 seats
        state = play_state(game.new_state(players * 10 + len(fmt)), bots)
        assert state.is_over


def test_the_greedy_bot_declares_when_it_can() -> None:
    game = make_game("rummy", players=2)
    bots = [Checked("greedy", 1), Checked("greedy", 2)]
    declared = 0
    for seed in range(6):
        state = play_state(game.new_state(seed), bots)
        assert isinstance(state, RummyState)
        declared += sum(r.points.declared for r in state.match.results)
    assert declared >= 3 and sum(b.declared for b in bots) == declared


@pytest.mark.parametrize("spec", BOTS)
def test_hidden_cards_never_change_a_decision(spec: str) -> None:
    game = make_game("rummy", players=4)
    rng = random.Random(spec)
    checked = 0
    for seed in range(8):
        state = game.new_state(seed)
        while not state.is_over and checked < 300:
            seat = state.current_player
            other = state.with_hidden_dealt_again(seat, rng)
            assert other.view(seat) == state.view(seat)
            first = make_bot(spec, 5, game="rummy").choose(state.view(seat))
            assert make_bot(spec, 5, game="rummy").choose(other.view(seat)) == first
            state.apply(first if rng.random() < 0.8 else rng.choice(list(state.legal_actions())))
            checked += 1
    assert checked > 100


def test_greedy_beats_random_in_duplicate_deals() -> None:
    summary, results = run_duplicate("greedy", "random", make_game("rummy", players=2), pairs=12, seed=1)
    assert summary.mean_margin - summary.ci95 > 0
    assert "drops" in results[0].tallies and "valid declarations" in results[0].tallies


def test_the_duplicate_arena_rotates_the_seats_of_more_than_two_players() -> None:
    pair = play_pair("greedy", "random", make_game("rummy", players=3), 1)
    assert len(pair.a_game_margins) == 6


def test_every_level_has_a_rummy_bot() -> None:
    assert make_bot("easy", 1, game="rummy").name == "random"
    assert make_bot("medium", 1, game="rummy").name == "greedy"
    assert make_bot("hard", 1, game="rummy").name == "heuristic"
    assert make_bot("expert", 1, game="rummy").name == "ismcts"
