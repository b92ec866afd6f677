"""The ``learned`` bot: a small neural network, trained to choose as the expert search does, that reranks the
heuristic's best plays.

At each play the heuristic (:class:`~taash.bots.seep.heuristic.HeuristicBot`) scores every legal play and keeps
its best :data:`CANDIDATES` (as the ``ismcts`` search does before it searches); the network then scores each of
them from the seat's observation (the PettingZoo environment's encoding, ``docs/env.md``, made from the view
alone) and the play's own features (:func:`play_features`: the card, the kind of play, what it takes, the floor
it leaves, the heuristic's score and rank), and the bot makes the best-scored one. The bid is the heuristic's.

The weights are a small NumPy file shipped in the package (:data:`WEIGHTS`); inference is NumPy only, so the bot
runs without PyTorch (which only :mod:`taash.training` needs, to train). How it is trained: ``docs/ai/learned.md``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from taash.bots.seep.choice import SeepBot
from taash.bots.seep.heuristic import HeuristicBot
from taash.i18n import N_, _
from taash.seep.deal import card_points
from taash.seep.describe import describe_play
from taash.seep.plays import House, Play, apply_play, team_mask
from taash.seep.rules import HOUSE_VALUES, LAST_PLAY, Rules
from taash.seep.view import PlayerView

#: The weights shipped with the package.
WEIGHTS = Path(__file__).with_name("learned_weights.npz")
#: The heuristic's best plays that the network chooses among (the search's own ``candidates`` default).
CANDIDATES = 8
#: Scale of point features (points / 50).
POINT_SCALE = 50.0
#: Length of :func:`play_features`.
PLAY_FEATURES = 52 + 5 + len(HOUSE_VALUES) + 52 + 52 + 5 * len(HOUSE_VALUES) + 7 + CANDIDATES


def numpy() -> Any:
    """NumPy, or one sentence saying how to get it (the base install may lack it)."""
    try:
        import numpy as np
    except ImportError:
        raise ValueError("the learned bot needs NumPy: pip install 'taash[env]'") from None
    return np


_ENCODINGS: list[tuple[Rules, int, Any]] = []


def _encoding(rules: Rules, players: int) -> Any:
    """The environment's encoding for these rules and players (the last few kept: rules are not hashable)."""
    for known, n, encoding in _ENCODINGS:
        if n == players and (known is rules or known == rules):
            return encoding
    from taash.env.seep import SeepEncoding
    from taash.seep.game import SeepGame

    encoding = SeepEncoding(SeepGame(rules, players))
    _ENCODINGS[:] = [*_ENCODINGS[-3:], (rules, players, encoding)]
    return encoding


def observe(view: PlayerView) -> Any:
    """The seat's observation vector (the environment's encoding of a single deal), from its view alone."""
    return _encoding(view.rules, view.players).view_observation(view)


def _plane(np: Any, mask: int) -> Any:
    return np.unpackbits(np.array([mask], dtype="<u8").view(np.uint8), bitorder="little")[:52]


def play_features(view: PlayerView, play: Play, scored: tuple[float, int, bool, float], rank: int,
                  best: float) -> Any:
    """The features of one candidate play: the card (one-hot), the kind of play, the house value it builds to,
    the cards it takes, the loose cards it leaves, the houses after it (exists, cemented, the seat's team's, the
    others', points), the points it takes, how many cards, a sweep, the heuristic's score, its expected loss to
    the next player, how far it trails the heuristic's best, and its rank in the heuristic's order."""
    np = numpy()
    rules = view.rules
    houses: dict[int, House] = dict(view.houses)
    loose, taken = apply_play(play, view.seat, view.players, view.loose, houses)
    kind, card, value, _, _ = play
    out = np.zeros(PLAY_FEATURES, dtype=np.float32)
    out[card] = 1.0
    out[52 + kind] = 1.0
    at = 57
    if value in HOUSE_VALUES:
        out[at + value - HOUSE_VALUES[0]] = 1.0
    at += len(HOUSE_VALUES)
    out[at:at + 52] = _plane(np, taken)
    out[at + 52:at + 104] = _plane(np, loose)
    at += 104
    ours = team_mask(view.seat, view.players)
    total = float(max(1, rules.total_card_points))
    for v in HOUSE_VALUES:
        house = houses.get(v)
        if house is not None:
            cards, cemented, owners = house
            out[at:at + 5] = (1.0, float(cemented), float(bool(owners & ours)), float(bool(owners & ~ours)),
                              card_points(rules, cards) / total)
        at += 5
    score, gained, sweep, danger = scored
    sweep_value = rules.sweep_value(card, min(view.plays_made, LAST_PLAY)) if sweep else 0
    out[at:at + 7] = (gained / POINT_SCALE, taken.bit_count() / 12.0, float(sweep), sweep_value / POINT_SCALE,
                      score / POINT_SCALE, danger / POINT_SCALE, (best - score) / POINT_SCALE)
    out[at + 7 + rank] = 1.0
    return out


def candidates(view: PlayerView, judge: HeuristicBot, count: int = CANDIDATES) -> tuple[list[Play], Any]:
    """The heuristic's best ``count`` legal plays (its order, as the search takes them) and their features, one
    row each."""
    np = numpy()
    legal = view.legal_plays()
    scored = [judge.evaluate(view, p) for p in legal]
    order = sorted(range(len(legal)), key=lambda i: -scored[i][0])[:count]
    best = scored[order[0]][0]
    rows = [play_features(view, legal[i], scored[i], rank, best) for rank, i in enumerate(order)]
    return [legal[i] for i in order], np.stack(rows)


#: The network's layers, by name in the weights file: the observation's two layers, the play's layer, the
#: joint layer over both, and the score.
LAYERS = ("obs1", "obs2", "play1", "joint_obs", "joint_play", "joint2", "score")


class PlayScorer:
    """The network in NumPy: ``scores(observation, plays)`` -> one score per play (higher is better)."""

    def __init__(self, weights: dict[str, Any]):
        np = numpy()
        self.w = {name: np.asarray(weights[f"{name}.weight"], dtype=np.float32) for name in LAYERS}
        self.b = {name: np.asarray(weights[f"{name}.bias"], dtype=np.float32) for name in LAYERS}

    @classmethod
    def load(cls, path: Path | str) -> PlayScorer:
        """The network of a weights file (``.npz``, as :mod:`taash.training` writes); one sentence if it cannot."""
        np = numpy()
        try:
            with np.load(path) as data:
                return cls({name: data[name] for name in data.files})
        except (OSError, KeyError, ValueError) as e:
            raise ValueError(f"cannot read the learned bot's weights {str(path)[:80]!r}: {e}") from None

    def _layer(self, name: str, x: Any) -> Any:
        return x @ self.w[name].T + self.b[name]

    def scores(self, observation: Any, plays: Any) -> Any:
        np = numpy()
        state = np.maximum(self._layer("obs2", np.maximum(self._layer("obs1", observation), 0)), 0)
        play = np.maximum(self._layer("play1", plays), 0)
        joint = np.maximum(self._layer("joint_play", play) + self._layer("joint_obs", state), 0)
        joint = np.maximum(self._layer("joint2", joint), 0)
        return self._layer("score", joint)[:, 0]


@lru_cache(maxsize=4)
def scorer_of(path: str) -> PlayScorer:
    """The network of a weights file, read once per process."""
    return PlayScorer.load(path)


class LearnedBot(SeepBot):
    name = "learned"
    bid_reason = N_("Bid {bid}: the heuristic's bid, the value held most often, then the highest")

    def __init__(self, seed: int = 0, weights: str = ""):
        self.judge = HeuristicBot(seed)
        #: A weights file other than the shipped one (to compare checkpoints in the arena).
        self.scorer = scorer_of(weights or str(WEIGHTS))

    def choose_bid(self, view: PlayerView) -> int:
        return self.judge.choose_bid(view)

    def choose_play(self, view: PlayerView) -> Play:
        legal = view.legal_plays()
        if len(legal) == 1:
            return legal[0]
        plays, features = candidates(view, self.judge)
        scores = self.scorer.scores(observe(view), features)
        return plays[int(scores.argmax())]

    def explain_play(self, view: PlayerView, play: Play) -> str:
        words = describe_play(play, view.houses)
        return _("{play}: the network's choice among the heuristic's best {n} plays", play=words, n=CANDIDATES)
