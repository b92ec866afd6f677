"""Seep as a PettingZoo AEC environment (``taash.env.seep_v0``): fixed action indices over the engine's bids and
plays, an observation made from one seat's :class:`~taash.seep.view.PlayerView`, and each team's point difference
as the reward of every deal. The layouts are documented in ``docs/env.md``.

Actions (``Discrete(57 + 52 * 21 * options)``, ``options`` 8 unless set):

* ``0..4``: bid 9 .. 13;
* ``5..56``: throw card ``c`` (card ints as :mod:`taash.cards`: ``13 * suit + rank``, spades hearts diamonds clubs);
* ``57 + ((c * 21 + t) * options + k)``: the ``k``-th play of card ``c`` at target ``t``, where the targets are
  ``0`` capture, ``1..5`` establish a house of 9 .. 13, ``6..10`` add to the house of 9 .. 13, ``11..20`` break the
  house of ``h`` into ``n`` (the pairs ``h < n`` of 9 .. 13 in order: 9-10, 9-11, 9-12, 9-13, 10-11, ...), and the
  plays that share a card and a target (they take or build with different loose cards) are ordered by the mask of
  those loose cards. A position with more than ``options`` such plays offers the first ``options`` of them; the
  others are left out (random play met more than 8 in 5 positions of 115,000).

The engine lists the legal plays; this module only numbers them.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

import numpy as np

from taash.cards import names_of
from taash.env.aec import CardGameEnv, wrap
from taash.games.api import State
from taash.seep.deal import Phase, card_points
from taash.seep.game import SeepGame, SeepState, make_game
from taash.seep.notation import houses_to_json
from taash.seep.plays import ADD, BREAK, CAPTURE, ESTABLISH, THROW, Play
from taash.seep.rules import HOUSE_VALUES, PLAYS_PER_DEAL
from taash.seep.view import PlayerView

#: The bids, then the throws, then the blocks of the other plays (see the module's docstring).
BIDS = len(HOUSE_VALUES)
FIRST_THROW = BIDS
FIRST_PLAY = FIRST_THROW + 52
#: The break targets: (house broken, new value), in order.
BREAKS = tuple((h, n) for h in HOUSE_VALUES for n in HOUSE_VALUES if h < n)
#: Targets per card: capture, establish 9..13, add to 9..13, the breaks.
TARGETS = 1 + 2 * len(HOUSE_VALUES) + len(BREAKS)
#: Plays of one card at one target that get an index of their own unless set otherwise.
OPTIONS = 8
_FIRST_HOUSE = HOUSE_VALUES[0]
_BREAK_TARGET = {pair: 1 + 2 * len(HOUSE_VALUES) + i for i, pair in enumerate(BREAKS)}
#: Scale of the sweep points in the observation (sweep points / 200, at most 1).
SWEEP_SCALE = 200.0


def target_of(play: Play) -> int:
    """The target index of a play other than a throw (see the module's docstring)."""
    kind, _, house, broken, _ = play
    if kind == CAPTURE:
        return 0
    if kind == ESTABLISH:
        return 1 + house - _FIRST_HOUSE
    if kind == ADD:
        return 1 + len(HOUSE_VALUES) + house - _FIRST_HOUSE
    if kind == BREAK:
        return _BREAK_TARGET[broken, house]
    raise ValueError(f"a throw has no target: {play!r}")


def play_indices(plays: list[Play], options: int = OPTIONS) -> dict[int, Play]:
    """The plays by their fixed index (at most ``options`` plays of one card at one target: see the docstring)."""
    out: dict[int, Play] = {}
    slots: dict[tuple[int, int], list[Play]] = {}
    for play in plays:
        if play[0] == THROW:
            out[FIRST_THROW + play[1]] = play
        else:
            slots.setdefault((play[1], target_of(play)), []).append(play)
    for (card, target), group in slots.items():
        group.sort(key=lambda p: p[4])
        base = FIRST_PLAY + (card * TARGETS + target) * options
        for k, play in enumerate(group[:options]):
            out[base + k] = play
    return out


def card_planes(masks: list[int]) -> np.ndarray:
    """52-card masks as one float32 vector of 52 zeros and ones each, in order (card ``c`` at ``52 * i + c``)."""
    bits = np.unpackbits(np.array(masks, dtype="<u8").view(np.uint8), bitorder="little")
    return bits.reshape(len(masks), 64)[:, :52].ravel().astype(np.float32)


class SeepEncoding:
    """Seep's actions and observations for :class:`~taash.env.aec.CardGameEnv` (layout in ``docs/env.md``)."""

    #: The observation's parts in order, with their lengths (``docs/env.md`` describes each).
    LAYOUT: tuple[tuple[str, int], ...] = (
        ("hand", 52), ("loose", 52), ("house_cards", 5 * 52), ("captured_mine", 52), ("captured_theirs", 52),
        ("unseen", 52), ("restricted", 52), ("house_facts", 5 * 5), ("phase", 2), ("bid", 5), ("bid_play_due", 1),
        ("to_move", 4), ("dealer", 4), ("hand_sizes", 4), ("plays_made", 1), ("card_points", 2),
        ("sweep_points", 2), ("match_difference", 2), ("baazis", 2),
    )

    def __init__(self, game: SeepGame, options: int = OPTIONS):
        if isinstance(options, bool) or not isinstance(options, int) or not 1 <= options <= 64:
            raise ValueError(f"options must be a whole number from 1 to 64, not {options!r}")
        self.game = game
        self.options = options
        self.action_size = FIRST_PLAY + 52 * TARGETS * options
        self.observation_size = sum(n for _, n in self.LAYOUT)
        rules = game.rules
        self._card_scale = float(max(1, rules.total_card_points))
        self._lead = float(rules.baazi_lead)
        self._baazis = float(max(1, game.baazis_to_win))

    def legal_indices(self, state: State) -> dict[int, Hashable]:
        actions = state.legal_actions()
        if actions and isinstance(actions[0], int):
            return {int(bid) - _FIRST_HOUSE: bid for bid in actions}  # type: ignore[call-overload]
        return dict(play_indices(list(actions), self.options))  # type: ignore[arg-type]

    def observation(self, state: State, seat: int) -> np.ndarray:
        assert isinstance(state, SeepState)
        match = state.match
        me = seat % 2
        difference = match.difference if me == 0 else -match.difference
        return self.view_observation(state.view(seat), difference, (match.baazis[me], match.baazis[1 - me]))

    def view_observation(self, view: PlayerView, difference: int = 0, baazis: tuple[int, int] = (0, 0)) -> np.ndarray:
        """The observation of ``view``'s seat, given the match's running ``difference`` and ``baazis`` won (both
        from that seat's team's side; a single deal: 0): what a bot holding only the view can make."""
        seat = view.seat
        players = view.players
        me = seat % 2
        houses = [view.houses.get(value) for value in HOUSE_VALUES]
        captured = view.captured()
        planes = [view.hand, view.loose, *(0 if h is None else h[0] for h in houses), captured[me],
                  captured[1 - me], view.unseen(), view.restricted]
        facts: list[float] = []
        for house in houses:
            if house is None:
                facts += (0.0, 0.0, 0.0, 0.0, 0.0)
                continue
            _, cemented, owners = house
            partner = players == 4 and bool(owners >> ((seat + 2) % 4) & 1)
            theirs = any(owners >> s & 1 for s in range(players) if s % 2 != me)
            facts += (1.0, float(cemented), float(owners >> seat & 1), float(partner), float(theirs))
        facts += (float(view.phase is Phase.BID), float(view.phase is Phase.PLAY))
        facts += (float(view.bid == value) for value in HOUSE_VALUES)
        facts.append(float(view.phase is Phase.PLAY and not view.history))
        facts += _relative(view.to_move, seat, players)
        facts += _relative(view.dealer, seat, players)
        sizes = [0.0] * 4
        for s, n in enumerate(view.hand_sizes):
            sizes[(s - seat) % players] = n / 12.0
        facts += sizes
        facts.append(len(view.history) / PLAYS_PER_DEAL)
        facts += (min(1.0, card_points(view.rules, captured[team]) / self._card_scale) for team in (me, 1 - me))
        sweeps = [0, 0]
        for s, _, value in view.sweeps:
            sweeps[0 if s % 2 == me else 1] += value
        facts += (min(1.0, points / SWEEP_SCALE) for points in sweeps)
        facts += (min(1.0, max(difference, 0) / self._lead), min(1.0, max(-difference, 0) / self._lead))
        facts += (min(1.0, baazis[0] / self._baazis), min(1.0, baazis[1] / self._baazis))
        return np.concatenate((card_planes(planes), np.array(facts, dtype=np.float32)))

    def deals_over(self, state: State) -> int:
        assert isinstance(state, SeepState)
        return len(state.match.results)

    def deal_rewards(self, state: State, deal: int) -> list[float]:
        """Each seat's team score minus the other team's, in the deal's points (card points and sweeps)."""
        assert isinstance(state, SeepState)
        a, b = state.match.results[deal].score.score
        return [float(a - b) if seat % 2 == 0 else float(b - a) for seat in range(self.game.players)]

    def render(self, state: State) -> str:
        assert isinstance(state, SeepState)
        if state.is_over:
            results = state.match.results
            return f"Seep: the match is over; deal scores {[list(r.score.score) for r in results]}"
        return describe_view(state.view(state.current_player))

    def describe(self, view: Any) -> str:
        return describe_view(view)


def _relative(seat: int, me: int, players: int) -> list[float]:
    """One-hot of ``seat`` counted from ``me`` (0: me, 1: next to play, 2: partner in the 4-player game)."""
    out = [0.0] * 4
    out[(seat - me) % players] = 1.0
    return out


def describe_view(view: PlayerView) -> str:
    """A few lines of text on what ``view``'s seat sees."""
    houses = " ".join(f"{h['value']}:{'+'.join(h['cards'])}{'*' if h['cemented'] else ''}"
                      for h in houses_to_json(view.houses)) or "none"
    return "\n".join((
        f"Seep, {view.players} players, seat {view.seat}'s view: seat {view.to_move} to "
        f"{'bid' if view.phase is Phase.BID else 'play'}" + (f" (bid {view.bid})" if view.bid else ""),
        f"  floor: {' '.join(names_of(view.loose)) or 'empty'}   houses: {houses}",
        f"  hand: {' '.join(names_of(view.hand))}",
        f"  cards captured by team: {list(view.captured_counts)}   sweeps: {len(view.sweeps)}",
    ))


class raw_env(CardGameEnv):
    """Seep as a PettingZoo AEC environment: ``players`` 2 or 4, ``rules`` a preset name or rules object,
    ``baazis`` 0 for a single deal, ``options`` the plays of one card at one target that get an index."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"], "name": "seep_v0", "is_parallelizable": False, "render_fps": 1,
    }

    def __init__(self, players: int = 4, rules: str | dict[str, Any] | None = None, baazis: int = 0,
                 options: int = OPTIONS, render_mode: str | None = None):
        super().__init__(SeepEncoding(make_game(players, rules, baazis), options), render_mode)


def env(**settings: Any) -> Any:
    """Seep wrapped as PettingZoo's classic games are (see :func:`taash.env.aec.wrap`); settings as
    :class:`raw_env`'s."""
    return wrap(raw_env(**settings))
