"""13-card Rummy as a PettingZoo AEC environment (``taash.env.rummy_v0``): fixed action indices over the engine's
legal actions, an observation made from one seat's :class:`~taash.rummy.view.PlayerView`, and minus the points a
seat scores in a deal as its reward for the deal. The layouts are documented in ``docs/env.md``.

Actions (``Discrete(57)``): ``0`` drop, ``1`` take the stock's top card, ``2`` take the discard pile's top card,
``3 + f`` discard face ``f`` (faces as :mod:`taash.packs`: ``13 * suit + rank``, 52 the printed joker), ``56``
declare. A declaration is offered only when the hand holds a valid one: the engine's solver finds it and arranges
the groups (:func:`taash.rummy.deal.legal_actions`), so an agent never declares wrongly.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

import numpy as np

from taash.env.aec import CardGameEnv, wrap
from taash.games.api import State
from taash.packs import FACES, face_name, rank_name
from taash.rummy.deal import Declare, Discard, Drop, Phase, Take
from taash.rummy.game import RummyGame, RummyState, make_game
from taash.rummy.view import PlayerView

DROP, TAKE_STOCK, TAKE_DISCARD = 0, 1, 2
FIRST_DISCARD = 3
DECLARE = FIRST_DISCARD + FACES
ACTIONS = DECLARE + 1
#: Seats are counted from the observer: slot 0 is the seat itself, slot 1 the next to play, and so on.
SEATS = 6
#: A seat's standing in a deal, in the observation's order (the last slot: not dealt in).
STANDINGS = ("in", "dropped", "wrong", "declared")
#: Cards of one face counted in the observation (count / 4, at most 1).
COPIES = 4.0


def action_index(action: Hashable) -> int:
    """The fixed index of one of the engine's legal actions (see the module's docstring)."""
    if isinstance(action, Drop):
        return DROP
    if isinstance(action, Take):
        return TAKE_STOCK if action.source == "stock" else TAKE_DISCARD
    if isinstance(action, Discard):
        return FIRST_DISCARD + action.card
    if isinstance(action, Declare):
        return DECLARE
    raise ValueError(f"not a Rummy action: {str(action)[:40]}")


def _counts(faces: Sequence[int]) -> np.ndarray:
    """How many of each face (count / :data:`COPIES`, at most 1)."""
    out = np.zeros(FACES, dtype=np.float32)
    for face in faces:
        out[face] += 1.0
    clipped: np.ndarray = np.minimum(out / COPIES, 1.0)
    return clipped


def _one_hot(index: int | None, size: int) -> np.ndarray:
    out = np.zeros(size, dtype=np.float32)
    if index is not None:
        out[index] = 1.0
    return out


class RummyEncoding:
    """Rummy's actions and observations for :class:`~taash.env.aec.CardGameEnv` (layout in ``docs/env.md``)."""

    #: The observation's parts in order, with their lengths (``docs/env.md`` describes each).
    LAYOUT: tuple[tuple[str, int], ...] = (
        ("hand", FACES), ("wild_rank", 13), ("wild_card", FACES), ("pile_top", FACES), ("pile", FACES),
        ("taken_from_pile", FACES), ("discarded_by", SEATS * FACES), ("picked_by", SEATS * FACES),
        ("standing", SEATS * (len(STANDINGS) + 1)), ("has_taken", SEATS), ("hand_sizes", SEATS),
        ("to_move", SEATS), ("dealer", SEATS), ("phase", 2), ("stock", 1), ("drop_costs", 2), ("totals", SEATS),
    )

    def __init__(self, game: RummyGame):
        self.game = game
        self.action_size = ACTIONS
        self.observation_size = sum(n for _, n in self.LAYOUT)
        rules = game.rules
        self._point_scale = float(rules.max_points)
        fmt = game.format
        self._total_scale = float(fmt.limit if fmt.kind == "pool" else 4 * rules.max_points)

    def legal_indices(self, state: State) -> dict[int, Hashable]:
        return {action_index(action): action for action in state.legal_actions()}

    def observation(self, state: State, seat: int) -> np.ndarray:
        assert isinstance(state, RummyState)
        view = state.view(seat)
        players = view.players
        parts: list[np.ndarray] = [
            _counts(view.hand), _one_hot(view.wild, 13), _one_hot(view.wild_card, FACES),
            _one_hot(view.pile[-1][0] if view.pile else None, FACES), _counts([card for card, _ in view.pile]),
            _one_hot(view.taken_from_pile, FACES),
        ]
        discarded = [[] for _ in range(SEATS)]  # type: list[list[int]]
        picked = [[] for _ in range(SEATS)]  # type: list[list[int]]
        for turn in view.turns:
            slot = (turn.seat - seat) % players
            if turn.discard is not None:
                discarded[slot].append(turn.discard)
            if turn.taken is not None:
                picked[slot].append(turn.taken)
        parts += [_counts(faces) for faces in discarded] + [_counts(faces) for faces in picked]
        standing = np.zeros((SEATS, len(STANDINGS) + 1), dtype=np.float32)
        has_taken = np.zeros(SEATS, dtype=np.float32)
        sizes = np.zeros(SEATS, dtype=np.float32)
        totals = np.zeros(SEATS, dtype=np.float32)
        match_totals = state.match.totals
        for s in range(players):
            slot = (s - seat) % players
            status = view.status[s]
            standing[slot, len(STANDINGS) if status is None else STANDINGS.index(status)] = 1.0
            has_taken[slot] = float(view.has_taken[s])
            sizes[slot] = view.hand_sizes[s] / 14.0
            totals[slot] = min(1.0, match_totals[s] / self._total_scale)
        pack = len(view.rules.pack(len(view.seats)))
        parts += [
            standing.ravel(), has_taken, sizes,
            _one_hot((view.to_move - seat) % players, SEATS), _one_hot((view.dealer - seat) % players, SEATS),
            np.array([view.phase is Phase.TAKE, view.phase is Phase.DISCARD], dtype=np.float32),
            np.array([view.stock_size / pack], dtype=np.float32),
            np.minimum(np.array([view.first_drop, view.middle_drop], dtype=np.float32) / self._point_scale, 1.0),
            totals,
        ]
        return np.concatenate(parts, dtype=np.float32)

    def deals_over(self, state: State) -> int:
        assert isinstance(state, RummyState)
        return len(state.match.results)

    def deal_rewards(self, state: State, deal: int) -> list[float]:
        """Minus the points each seat scored in the deal (the winner scores 0; a seat not dealt in, nothing)."""
        assert isinstance(state, RummyState)
        return [-float(p or 0) for p in state.match.results[deal].points.points]

    def render(self, state: State) -> str:
        assert isinstance(state, RummyState)
        if state.is_over:
            return f"Rummy: the match is over; winner seat {state.match.winner}, totals {list(state.match.totals)}"
        return describe_view(state.view(state.current_player))

    def describe(self, view: Any) -> str:
        return describe_view(view)


def describe_view(view: PlayerView) -> str:
    """A few lines of text on what ``view``'s seat sees."""
    top = face_name(view.pile[-1][0]) if view.pile else "empty"
    return "\n".join((
        f"Rummy, {view.players} players, seat {view.seat}'s view: seat {view.to_move} to {view.phase.value}",
        f"  wild: {face_name(view.wild_card)} (rank {rank_name(view.wild)})   discard pile top: {top}   "
        f"stock: {view.stock_size} cards",
        f"  hand: {' '.join(face_name(f) for f in view.hand)}",
        f"  standing: {list(view.status)}",
    ))


class raw_env(CardGameEnv):
    """13-card Rummy as a PettingZoo AEC environment: ``players`` 2 to 6, ``rules`` a preset name or rules object,
    ``format`` one of :data:`taash.rummy.match.FORMATS` (``points``: a single deal)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"], "name": "rummy_v0", "is_parallelizable": False, "render_fps": 1,
    }

    def __init__(self, players: int = 4, rules: str | dict[str, Any] | None = None, format: str = "points",
                 render_mode: str | None = None):
        super().__init__(RummyEncoding(make_game(players, rules, format)), render_mode)


def env(**settings: Any) -> Any:
    """Rummy wrapped as PettingZoo's classic games are (see :func:`taash.env.aec.wrap`); settings as
    :class:`raw_env`'s."""
    return wrap(raw_env(**settings))
