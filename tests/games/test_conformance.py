"""The generic conformance checks of :mod:`taash.games.conformance` on every registered game (Seep in every preset,
player count and match length) and on a tiny test-only game, and checks that the checks themselves catch faults."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

import pytest

from taash.games import make_game, register, registry
from taash.games.api import Game, State
from taash.games.conformance import check_game, check_views, play_random_match
from taash.games.registry import game_names
from taash.rummy.game import RummyState
from taash.seep.game import SeepState
from taash.seep.plays import ADD, BREAK, CAPTURE, ESTABLISH, THROW
from taash.seep.rules import PRESETS
from tests.games.tictactoe import TicTacToe, TicTacToeState
from tests.games.tictactoe_plugin import PLUGIN


def seep_illegal_actions(state: State, rng: random.Random, legal: Sequence[Hashable]) -> list[Hashable]:
    """Near misses of Seep's actions: bids out of turn or of values not held, and plays not listed."""
    out: list[Hashable] = [rng.choice([0, 8, 14, *range(9, 14)])]
    for _ in range(4):
        kind = rng.choice([CAPTURE, THROW, ESTABLISH, ADD, BREAK])
        out.append((kind, rng.randrange(52), rng.choice([0, *range(9, 14)]), rng.choice([0, *range(9, 14)]),
                    rng.getrandbits(52) & rng.getrandbits(52)))
    plays = [a for a in legal if isinstance(a, tuple)]
    if plays:
        kind, c, house, broken, loose = rng.choice(plays)  # type: ignore[misc]
        out += [(kind, c, house, broken, loose ^ (1 << rng.randrange(52))), (kind, (c + 13) % 52, house, broken, loose)]
    return [a for a in out if a not in legal]


SEEP = [(preset, players, baazis) for preset in PRESETS for players in (2, 4) for baazis in (0, 1)]


@pytest.mark.parametrize(("preset", "players", "baazis"), SEEP, ids=[f"{p}-{n}p-{b}" for p, n, b in SEEP])
def test_seep_conforms_in_every_preset_player_count_and_match_length(preset: str, players: int, baazis: int) -> None:
    game = make_game("seep", rules=preset, players=players, baazis=baazis)
    seed = sum(map(ord, preset)) * 10 + players + baazis  # a different deal for each variant
    check_game(game, seeds=(seed,), illegal_actions=seep_illegal_actions)


def rummy_illegal_actions(state: State, rng: random.Random, legal: Sequence[Hashable]) -> list[Hashable]:
    """Near misses of Rummy's actions: a card not held, a take or drop after taking, a discard before, a
    declaration of cards the hand does not hold."""
    from taash.packs import JOKER
    from taash.rummy.deal import Declare, Discard, Drop, Take

    assert isinstance(state, RummyState)
    deal = state.match.deal
    hand = deal.hands[deal.to_move]
    missing = [f for f in range(JOKER + 1) if f not in hand]
    out: list[Hashable] = [Discard(rng.choice(missing)), Declare(rng.choice(missing), ((hand[0],),))]
    if any(isinstance(a, Discard) for a in legal):
        out += [Take("stock"), Take("discard"), Drop()]
    else:
        out += [Discard(hand[0])]
    return [a for a in out if a not in legal]


RUMMY = [(preset, players, fmt) for preset in ("octro", "classic") for players in (2, 3, 6)
         for fmt in ("points", "pool101", "deals2")]


@pytest.mark.parametrize(("preset", "players", "fmt"), RUMMY, ids=[f"{p}-{n}p-{f}" for p, n, f in RUMMY])
def test_rummy_conforms_in_every_preset_format_and_some_player_counts(preset: str, players: int, fmt: str) -> None:
    game = make_game("rummy", rules=preset, players=players, format=fmt)
    check_game(game, seeds=(players * 7 + len(fmt),), illegal_actions=rummy_illegal_actions)


def test_the_test_only_game_conforms_through_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_PLUGINS", dict(registry._PLUGINS))
    register(PLUGIN)
    assert "tictactoe" in game_names() and "seep" in game_names()
    check_game(make_game("tictactoe"), seeds=range(12))


def test_an_unknown_game_or_setting_is_refused_in_a_sentence() -> None:
    with pytest.raises(ValueError, match=r"unknown game 'chess'.*seep"):
        make_game("chess")
    with pytest.raises(ValueError, match=r"seep takes no setting 'format' \(its settings: players, rules, baazis\)"):
        make_game("seep", format="pool101")
    for name, settings in (("seep", {"players": 3}), ("rummy", {"players": 9}), ("rummy", {"format": "pool7"}),
                           ("seep", {"rules": "nosuch"})):
        with pytest.raises(ValueError):
            make_game(name, **settings)


# -- the checks catch what they are meant to catch -------------------------------------------------------------


class LeakyView:
    """A view that shows the whole board plus a hidden 'card' of every seat (a game whose views leak)."""

    def __init__(self, state: LeakyState, seat: int):
        self.seat, self.to_move, self._state = seat, state.to_move, state

    def legal_actions(self) -> list[int]:
        return self._state.legal_actions() if self.seat == self.to_move else []

    def to_json(self) -> dict[str, Any]:
        return {"board": self._state.board, "secrets": self._state.secrets}


class LeakyState(TicTacToeState):
    def __init__(self, first: int, seed: int):
        super().__init__(first, seed)
        self.secrets = [random.Random(seed).randrange(52), random.Random(seed + 1).randrange(52)]

    def view(self, seat: int) -> LeakyView:  # type: ignore[override]
        return LeakyView(self, seat)

    def with_hidden_dealt_again(self, seat: int, rng: random.Random) -> LeakyState:
        other = LeakyState(self.to_move, self.seed)
        other.board = self.board[:]
        other.secrets = [s if i == seat else rng.randrange(52) for i, s in enumerate(self.secrets)]
        return other


def test_a_view_that_shows_a_hidden_card_is_caught() -> None:
    state = LeakyState(0, 5)
    with pytest.raises(AssertionError, match="cannot see"):
        check_views(TicTacToe(), state, random.Random(1))


def test_a_state_taking_an_illegal_action_is_caught() -> None:
    class Lax(TicTacToe):
        def new_state(self, seed: int) -> TicTacToeState:
            state = super().new_state(seed)
            state.apply = lambda action: None  # type: ignore[method-assign]
            return state

    game: Game = Lax()
    with pytest.raises(AssertionError):
        play_random_match(game, 0)


def test_seep_views_hide_other_hands_and_the_face_down_floor() -> None:
    game = make_game("seep", players=4)
    state = game.new_state(3)
    assert isinstance(state, SeepState)
    deal = state.match.deal
    view = state.view((deal.to_move + 1) % 4).to_json()
    assert view["loose"] == [] and len(view["hand"]) == 0  # the floor lies face down; the other seats wait
    bidder = state.view(deal.to_move).to_json()
    assert len(bidder["hand"]) == 4 and bidder["loose"] == []


def test_seep_deals_hidden_cards_again_and_only_those() -> None:
    """The conformance check of views means something only if the hidden cards really move."""
    from taash.seep.game import deal_hidden_again
    from taash.seep.view import view_of

    state = make_game("seep", players=4).new_state(11)
    assert isinstance(state, SeepState)
    rng = random.Random(0)
    for phase_step in range(12):
        deal = state.match.deal
        seat = deal.to_move
        other = deal_hidden_again(deal, seat, rng)
        assert other.hands[seat] == deal.hands[seat]
        assert view_of(other, seat) == view_of(deal, seat)
        if phase_step >= 2:  # after the bid play every hand holds cards: some other hand changes
            assert any(other.hands[s] != deal.hands[s] for s in range(4) if s != seat)
        if phase_step == 0:  # the face-down floor is hidden from the bidder too
            assert sorted(other.deck[4:8]) != sorted(deal.deck[4:8]) or other.hands != deal.hands
        state.apply(state.legal_actions()[0])
