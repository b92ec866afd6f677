"""A generic test every game of the package must pass (in the manner of OpenSpiel's random-simulation test)."""

from __future__ import annotations

import json
import random

import pytest

from taash.game import Game
from taash.seep.game import SeepGame
from taash.seep.rules import PRESETS

GAMES: list[tuple[str, Game]] = [
    ("seep-4p-standard-single-deal", SeepGame(PRESETS["standard"], 4, 0)),
    ("seep-2p-standard-match", SeepGame(PRESETS["standard"], 2, 1)),
    ("seep-4p-punjab30-match", SeepGame(PRESETS["punjab_30"], 4, 1)),
    ("seep-4p-qasim-single-deal", SeepGame(PRESETS["punjab_30_qasim"], 4, 0)),
    ("seep-4p-limited-single-deal", SeepGame(PRESETS["limited_houses"], 4, 0)),
    ("seep-2p-break-with-loose-single-deal", SeepGame(PRESETS["break_with_loose"], 2, 0)),
]


def trajectory(game: Game, seed: int, check: bool) -> list:
    rng = random.Random(seed)
    state = game.new_state(seed)
    actions = []
    step = 0
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        action = legal[rng.randrange(len(legal))]
        if check:
            if step % 7 == 0:
                copy = state.clone()
                assert copy.key() == state.key()
                rebuilt = game.state_from_json(json.loads(json.dumps(state.to_json())))
                assert rebuilt.key() == state.key()
                assert sorted(map(repr, rebuilt.legal_actions())) == sorted(map(repr, legal))
                copy.apply(action)
                assert copy.key() != state.key(), "a clone shares state with its original"
            if step % 11 == 0:
                before = state.key()
                with pytest.raises(ValueError):
                    state.apply(("not", "an", "action"))
                assert state.key() == before
        state.apply(action)
        actions.append(action)
        step += 1
        assert step < 10_000
    returns = state.returns()
    assert len(returns) == game.players
    assert abs(sum(returns)) < 1e-9, "zero-sum between the teams"
    assert all(abs(r) <= game.max_returns() for r in returns)
    return actions


@pytest.mark.parametrize(("name", "game"), GAMES, ids=[n for n, _ in GAMES])
def test_random_simulation_conformance(name: str, game: Game) -> None:
    for seed in range(3):
        first = trajectory(game, seed, check=True)
        assert trajectory(game, seed, check=False) == first, "the same seed gives the same game"
