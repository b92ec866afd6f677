"""The full-information ``cheat`` bot: the arena may seat it, a player may never be offered it."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from taash.arena.duplicate import make_arena_bot, play_pair, play_state
from taash.bots.base import make_bot
from taash.bots.seep import cheat as cheat_module
from taash.bots.seep.cheat import CheatBot
from taash.games import registry
from taash.games.registry import levels, plugins
from taash.seep.deal import Deal
from taash.seep.game import SeepGame, SeepState
from taash.seep.rules import PRESETS


def small_cheat(seed: int) -> CheatBot:
    return CheatBot(seed, iterations=4)


def test_players_are_never_offered_the_cheat() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("cheat", 1)
    for game in plugins():
        assert "cheat" not in levels(game.name) and "cheat" not in levels(game.name).values()
    assert "MEASUREMENT ONLY" in (cheat_module.__doc__ or "")


def test_the_arena_seats_the_cheat(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(make_arena_bot("cheat", 1), CheatBot)
    assert make_arena_bot("greedy", 1).name == "greedy"
    small = replace(registry.plugin("seep"), full_information_bots=(("cheat", "tests.bots.test_cheat:small_cheat"),))
    monkeypatch.setitem(registry._PLUGINS, "seep", small)
    result = play_pair("cheat", "greedy", SeepGame(PRESETS["standard"], 4), 3)
    # 48 plays a side over the two games of the pair, and the bid of each game by one side or the other.
    assert len(result.a_seconds) + len(result.b_seconds) == 98 and len(result.a_seconds) >= 48


def test_the_cheat_is_handed_a_copy_of_the_whole_deal() -> None:
    class Spy(CheatBot):
        def choose_play(self, deal: Deal) -> tuple[int, int, int, int, int]:
            seen.append(deal.clone())
            return super().choose_play(deal)

    seen: list[Deal] = []
    state = SeepGame(PRESETS["standard"], 2).new_state(2)
    real = state.match.deal.clone()
    play_state(state, [Spy(1, iterations=3), make_bot("greedy", 2)])
    assert isinstance(state, SeepState) and state.is_over and len(seen) == 24
    # It saw the other hand, the cards to come, and the same deal as the table.
    assert all(d.deck == real.deck for d in seen)
    assert any(d.hands[1 - d.to_move] for d in seen)


def test_the_cheat_searches_copies_and_leaves_the_real_deal_alone() -> None:
    rng = random.Random(6)
    deal = Deal.shuffled(PRESETS["standard"], 4, 0, rng)
    deal.make_bid(deal.legal_bids()[0])
    deal.play(deal.legal_plays()[0])
    bot = CheatBot(3, iterations=20, candidates=3)
    play = bot.choose_play(deal)
    assert play in deal.legal_plays()
    visits = [v for v, _ in bot.search.last_stats.values()]
    assert 0 < max(visits) <= 20 and bot.search.last_stats[play][0] == max(visits)
    assert "true deal" in bot.explain(deal, play)
    assert deal.plays == [deal.plays[0]]  # the real deal is untouched
