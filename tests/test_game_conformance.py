"""A generic test every game of the package must pass, in the manner of OpenSpiel's random-simulation test.

Each entry of :data:`GAMES` is a game (:class:`taash.game.Game`), a map from seat to team, and a way to make up
actions that are not legal in a state (beyond the generic garbage every game must refuse). Random simulations with a
seeded generator check at every step that the game is never stuck, that clones are equal and independent, that an
illegal action raises ``ValueError`` and changes nothing, and at a sample of steps that states round-trip through
JSON; at the end, that returns are zero-sum between teams and in bounds, and that the same seed replays the same game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import pytest

from taash.game import Game, GameState
from taash.seep.game import SeepGame
from taash.seep.plays import ADD, BREAK, CAPTURE, ESTABLISH, THROW
from taash.seep.rules import PRESETS


@dataclass(frozen=True)
class Entry:
    name: str
    game: Game
    team_of: Callable[[int], int]
    illegal_actions: Callable[[GameState, random.Random, list[Hashable]], list[Hashable]]


def seep_illegal_actions(state: GameState, rng: random.Random, legal: list[Hashable]) -> list[Hashable]:
    """Near misses of Seep's actions: bids out of turn or of values not held, and plays not listed."""
    out: list[Hashable] = [rng.choice([0, 8, 14, *range(9, 14)])]
    for _ in range(4):
        kind = rng.choice([CAPTURE, THROW, ESTABLISH, ADD, BREAK])
        out.append((kind, rng.randrange(52), rng.choice([0, *range(9, 14)]), rng.choice([0, *range(9, 14)]),
                    rng.getrandbits(52) & rng.getrandbits(52)))
    plays = [a for a in legal if isinstance(a, tuple)]
    if plays:
        kind, c, house, broken, loose = rng.choice(plays)
        out += [(kind, c, house, broken, loose ^ (1 << rng.randrange(52))), (kind, (c + 13) % 52, house, broken, loose)]
    return [a for a in out if a not in legal]


def team_of_seat(seat: int) -> int:
    return seat % 2


GAMES = [
    Entry("seep-4p-standard-single-deal", SeepGame(PRESETS["standard"], 4, 0), team_of_seat, seep_illegal_actions),
    Entry("seep-2p-standard-match", SeepGame(PRESETS["standard"], 2, 1), team_of_seat, seep_illegal_actions),
    Entry("seep-4p-karan-single-deal", SeepGame(PRESETS["karan"], 4, 0), team_of_seat, seep_illegal_actions),
    Entry("seep-4p-punjab30-match", SeepGame(PRESETS["punjab_30"], 4, 1), team_of_seat, seep_illegal_actions),
    Entry("seep-2p-qasim-single-deal", SeepGame(PRESETS["punjab_30_qasim"], 2, 0), team_of_seat,
          seep_illegal_actions),
    Entry("seep-4p-qasim-single-deal", SeepGame(PRESETS["punjab_30_qasim"], 4, 0), team_of_seat,
          seep_illegal_actions),
    Entry("seep-4p-limited-single-deal", SeepGame(PRESETS["limited_houses"], 4, 0), team_of_seat,
          seep_illegal_actions),
    Entry("seep-2p-break-with-loose-single-deal", SeepGame(PRESETS["break_with_loose"], 2, 0), team_of_seat,
          seep_illegal_actions),
]

GARBAGE: list[Any] = [("not", "an", "action"), None, "play", 3.5, (), [], {"card": "As"}]


def trajectory(entry: Entry, seed: int, check: bool) -> tuple[list[Hashable], list[float]]:
    game = entry.game
    rng = random.Random(seed)  # chooses the actions
    prober = random.Random(~seed)  # makes up illegal actions, without disturbing the choices
    state = game.new_state(seed)
    actions: list[Hashable] = []
    step = 0
    while not state.is_over:
        legal = list(state.legal_actions())
        assert legal, f"no legal action at step {step} before the end"
        assert 0 <= state.current_player < game.players
        action = legal[rng.randrange(len(legal))]
        if check:
            key = state.key()
            # A clone equals its original and stays independent of it, both ways.
            copy = state.clone()
            assert copy.key() == key
            copy.apply(action)
            assert state.key() == key, "playing on a clone changed the original"
            assert copy.key() != key
            # Illegal actions raise ValueError and change nothing.
            tries = [*entry.illegal_actions(state, prober, legal), GARBAGE[step % len(GARBAGE)]]
            for bad in tries:
                with pytest.raises(ValueError):
                    state.apply(bad)
                assert state.key() == key, f"a refused action changed the state: {bad!r}"
            assert list(state.legal_actions()) == legal
            # JSON round trip, at a sample of steps.
            if step % 9 == 0:
                data = json.loads(json.dumps(state.to_json()))
                rebuilt = game.state_from_json(data)
                assert rebuilt.key() == key
                assert sorted(map(repr, rebuilt.legal_actions())) == sorted(map(repr, legal))
                assert rebuilt.current_player == state.current_player
                assert json.loads(json.dumps(rebuilt.to_json())) == data
        state.apply(action)
        actions.append(action)
        step += 1
        assert step < 20_000, "the game never ends"
    returns = state.returns()
    assert len(returns) == game.players
    teams: dict[int, list[float]] = {}
    for seat, r in enumerate(returns):
        teams.setdefault(entry.team_of(seat), []).append(r)
    assert all(len(set(rs)) == 1 for rs in teams.values()), "partners share one result"
    assert abs(sum(rs[0] for rs in teams.values())) < 1e-9, "returns are zero-sum between the teams"
    assert all(abs(r) <= game.max_returns() for r in returns)
    with pytest.raises(ValueError):
        state.apply(actions[-1])  # nothing more once the game is over
    return actions, returns


@pytest.mark.parametrize("entry", GAMES, ids=[e.name for e in GAMES])
def test_random_simulations_conform_to_the_game_interface(entry: Entry) -> None:
    for seed in range(3):
        actions, returns = trajectory(entry, seed, check=True)
        assert trajectory(entry, seed, check=False) == (actions, returns), "the same seed gives the same game"


@pytest.mark.parametrize("entry", GAMES, ids=[e.name for e in GAMES])
def test_a_state_rebuilt_from_json_plays_on_like_the_original(entry: Entry) -> None:
    game = entry.game
    rng = random.Random(17)
    state = game.new_state(17)
    for _ in range(rng.randrange(5, 60)):
        if state.is_over:
            break
        legal = list(state.legal_actions())
        state.apply(legal[rng.randrange(len(legal))])
    rebuilt = game.state_from_json(json.loads(json.dumps(state.to_json())))
    while not state.is_over:
        legal = list(state.legal_actions())
        assert list(rebuilt.legal_actions()) == legal
        action = legal[rng.randrange(len(legal))]
        state.apply(action)
        rebuilt.apply(action)
        assert rebuilt.key() == state.key()
    assert rebuilt.is_over and rebuilt.returns() == state.returns()


def test_a_state_that_does_not_come_from_its_seed_is_refused() -> None:
    game = SeepGame(PRESETS["standard"], 4, 0)
    state = game.new_state(1)
    data = json.loads(json.dumps(state.to_json()))
    data["seed"] = 2
    with pytest.raises(ValueError):
        game.state_from_json(data)
    for bad in (None, [], {"seed": 1}, {"record": data["record"]}):
        with pytest.raises(ValueError):
            game.state_from_json(bad)
