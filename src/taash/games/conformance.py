"""The generic conformance checks every game of the package passes (shipped with the package, as pgx's
``api_test``; ``tests/games/test_conformance.py`` runs them on every registered game and on a tiny test-only game).

Random matches with a seeded generator check, at every step: the match is never stuck; a clone equals its original
and stays independent of it; illegal actions (near misses the game makes up, and generic garbage) raise
``ValueError`` and change nothing; every action round-trips through the codec and has a sentence; every seat's view
offers legal actions exactly when that seat is to act, and does not change when the cards the seat cannot see are
dealt again (so it holds none of them); at a sample of steps the state round-trips through JSON. At the end:
returns are zero-sum between teams, shared by partners and in bounds, nothing more can be played, and the same seed
replays the same match.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from taash.games.api import Action, Game, State

#: Makes up actions that are not legal in a state, near the legal ones: ``(state, rng, legal) -> actions``.
IllegalActions = Callable[[State, random.Random, Sequence[Action]], Sequence[Hashable]]

#: Values no game takes as an action.
GARBAGE: tuple[Any, ...] = (("not", "an", "action"), None, "play", 3.5, (), -1, 10**9)


def _refuses(state: State, action: Any) -> bool:
    try:
        state.apply(action)
    except ValueError:
        return True
    return False


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def check_views(game: Game, state: State, rng: random.Random) -> None:
    """Each seat's view: legal actions only for the seat to act, and blind to the cards it cannot see."""
    mover = state.current_player
    legal = list(state.legal_actions())
    for seat in range(game.players):
        view = state.view(seat)
        assert view.seat == seat
        assert view.to_move == mover, f"seat {seat}'s view has {view.to_move} to act, not {mover}"
        actions = list(view.legal_actions())
        if seat == mover:
            assert sorted(map(repr, actions)) == sorted(map(repr, legal)), "the view's legal actions differ"
        else:
            assert not actions, f"seat {seat} may act out of turn in its view"
        seen = _canonical(view.to_json())
        other = state.with_hidden_dealt_again(seat, rng)
        assert _canonical(other.view(seat).to_json()) == seen, f"seat {seat}'s view shows a card it cannot see"


def check_codec(game: Game, state: State, legal: Sequence[Action]) -> None:
    """Every legal action survives the codec's JSON round trip and is described in words."""
    view = state.view(state.current_player)
    codec = game.codec
    for action in legal:
        data = json.loads(json.dumps(codec.to_json(action)))
        assert codec.from_json(view, data) == action, f"{action!r} does not round-trip through {data!r}"
        sentence = codec.describe(view, action)
        assert isinstance(sentence, str) and sentence.strip(), f"no sentence for {action!r}"


def play_random_match(game: Game, seed: int, illegal_actions: IllegalActions | None = None,
                      check: bool = True, json_every: int = 9, views_every: int = 1,
                      max_steps: int = 20_000) -> tuple[list[Action], list[float]]:
    """One random match of ``game`` from ``seed``, checked step by step when ``check``; its actions and returns."""
    rng = random.Random(seed)  # chooses the actions
    prober = random.Random(~seed)  # makes up illegal actions and hidden deals, without disturbing the choices
    state = game.new_state(seed)
    actions: list[Action] = []
    step = 0
    while not state.is_over:
        legal = list(state.legal_actions())
        assert legal, f"no legal action at step {step} before the end"
        assert 0 <= state.current_player < game.players
        action = legal[rng.randrange(len(legal))]
        if check:
            key = state.key()
            copy = state.clone()
            assert copy.key() == key, "a clone differs from its original"
            copy.apply(action)
            assert state.key() == key, "playing on a clone changed the original"
            assert copy.key() != key, "an action changed nothing"
            made_up = illegal_actions(state, prober, legal) if illegal_actions else ()
            for bad in [*made_up, GARBAGE[step % len(GARBAGE)]]:
                if bad in legal:
                    continue
                assert _refuses(state, bad), f"the illegal action {bad!r} was taken"
                assert state.key() == key, f"a refused action changed the state: {bad!r}"
            assert list(state.legal_actions()) == legal, "refused actions changed the legal actions"
            if step % views_every == 0:
                check_views(game, state, prober)
                check_codec(game, state, legal)
            if step % json_every == 0:
                data = json.loads(json.dumps(state.to_json()))
                rebuilt = game.state_from_json(data)
                assert rebuilt.key() == key, "the state rebuilt from JSON differs"
                assert sorted(map(repr, rebuilt.legal_actions())) == sorted(map(repr, legal))
                assert rebuilt.current_player == state.current_player
                assert json.loads(json.dumps(rebuilt.to_json())) == data, "JSON does not round-trip"
        state.apply(action)
        actions.append(action)
        step += 1
        assert step < max_steps, "the match never ends"
    returns = state.returns()
    if check:
        check_returns(game, returns)
        assert _refuses(state, actions[-1]), "an action was taken after the end"
        assert not list(state.legal_actions()), "legal actions after the end"
    return actions, returns


def check_returns(game: Game, returns: Sequence[float]) -> None:
    """Returns: one per seat, shared by partners, zero-sum between teams, within the game's bound."""
    assert len(returns) == game.players
    teams: dict[int, list[float]] = {}
    for seat, r in enumerate(returns):
        teams.setdefault(game.team_of(seat), []).append(r)
    assert all(len(set(rs)) == 1 for rs in teams.values()), "partners share one result"
    assert abs(sum(rs[0] for rs in teams.values())) < 1e-9, "returns are zero-sum between the teams"
    assert all(abs(r) <= game.max_returns() for r in returns), "a return is out of bounds"


def check_rebuilt_state_plays_on(game: Game, seed: int) -> None:
    """A state rebuilt from JSON part-way through a match plays on exactly like the original."""
    rng = random.Random(seed)
    state = game.new_state(seed)
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


def check_game(game: Game, seeds: Sequence[int] = (0, 1, 2), illegal_actions: IllegalActions | None = None) -> None:
    """Every generic check on ``game``: checked random matches, the same seed twice, a rebuilt state."""
    for seed in seeds:
        actions, returns = play_random_match(game, seed, illegal_actions)
        assert play_random_match(game, seed, check=False) == (actions, returns), "the same seed, another match"
        check_rebuilt_state_plays_on(game, seed)
