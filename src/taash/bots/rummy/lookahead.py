"""An expectimax over the next card a Rummy seat may draw, exact over what it has not seen: how good a hand is one
draw from now.

A hand's *level* (lower is better) is the least of three readings of its points by the exact solver, each charged
for what it still lacks: its points under the rules (met requirement: what it would pay), its points when only a
pure run is asked (plus :data:`RUN_MISSING`), and its points with nothing asked (plus :data:`NO_PURE_RUN`). As
the deal goes on the points the hand would pay now weigh more (``late``, 0 to 1, as the heuristic's measure).

The *worth* of 13 cards is the mean, over every face the seat has not seen (each as often as it is unseen; the
faces an opponent is known to hold are not drawable), of the best level after drawing it and making the best
discard. So a draw whose cards are all gone is worth nothing, one with four live cards a lot, and a joker or a
card that completes a run counts for exactly as much as its chance.

:class:`LookaheadPolicy` plays by it: it takes the open card when the hand after taking it is better than the
worth of drawing from the stock, and discards the card whose hand left is worth most, less the heuristic's charge
for feeding the next player. It decides from its seat's view alone and has no chance of its own.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from taash.bots.rummy.heuristic import HeuristicBot
from taash.bots.rummy.inference import knowledge
from taash.i18n import _
from taash.packs import face_name
from taash.rummy.deal import Discard, Take
from taash.rummy.melds import card_points, is_joker
from taash.rummy.progress import NO_PURE_RUN, RUN_MISSING
from taash.rummy.rules import Rules
from taash.rummy.solver import discard_values
from taash.rummy.view import PlayerView

#: Discards whose worth is worked out: the best this many by their level now (the others are far behind).
CANDIDATES = 6
#: How much better than the stock's worth the open card must make the hand (taking it tells the next player
#: something).
TAKE_MARGIN = 1.0

_RELAXED: dict[int, tuple[Rules, Rules, Rules]] = {}


def relaxed(rules: Rules) -> tuple[Rules, Rules]:
    """The rules asking only for a pure run, and asking for nothing; neither capped."""
    found = _RELAXED.get(id(rules))
    if found is None or found[0] is not rules:
        one = replace(rules, runs_required=1, pure_runs_required=1, long_run=False, max_points=1000)
        none = replace(rules, runs_required=0, pure_runs_required=0, long_run=False, max_points=1000)
        found = _RELAXED[id(rules)] = (rules, one, none)
    return found[1], found[2]


class Lookahead:
    """Levels and worths of hands for one decision: the rules, the wild rank, the drawable faces, how late."""

    def __init__(self, rules: Rules, wild: int, drawable: Counter[int], late: float = 0.0):
        self.rules = rules
        self.wild = wild
        self.late = late
        self.one, self.none = relaxed(rules)
        total = sum(drawable.values())
        #: Each drawable face with its chance.
        self.draws = [(face, count / total) for face, count in sorted(drawable.items()) if count > 0]
        self._worths: dict[tuple[int, ...], float] = {}

    def levels(self, cards: Sequence[int], keep: int | None = None) -> dict[int, float]:
        """The level of the 13 cards left by each discard allowed from 14 ``cards``."""
        rules, wild, cap = self.rules, self.wild, self.rules.max_points
        strict = discard_values(cards, rules, wild, keep)
        one = discard_values(cards, self.one, wild, keep)
        none = discard_values(cards, self.none, wild, keep)
        late = self.late
        return {face: (1 - late) * min(points, min(one[face], cap) + RUN_MISSING, min(none[face], cap) + NO_PURE_RUN)
                + late * points for face, points in strict.items()}

    def after_draw(self, hand: Sequence[int], card: int) -> float:
        """The best level after drawing ``card`` into 13 cards and discarding."""
        return min(self.levels([*hand, card]).values())

    def worth(self, hand: Sequence[int]) -> float:
        """The mean best level after the next draw from the stock (see the module's docstring)."""
        key = tuple(sorted(hand))
        found = self._worths.get(key)
        if found is None:
            found = self._worths[key] = sum(chance * self.after_draw(hand, face) for face, chance in self.draws)
        return found


def drawable(view: PlayerView) -> Counter[int]:
    """The faces the seat may draw from the stock, each as often as it is unseen and not known to be held by an
    opponent."""
    known = knowledge(view)
    faces = Counter(known.unseen)
    for *_seen, held in known.opponents:
        faces.subtract(held)
    return +faces


class LookaheadPolicy:
    """Takes and discards by the worth one draw ahead (see the module's docstring)."""

    def __init__(self, heuristic: HeuristicBot, candidates: int = CANDIDATES, take_margin: float = TAKE_MARGIN):
        self.heuristic = heuristic
        self.candidates = candidates
        self.take_margin = take_margin

    def lookahead(self, view: PlayerView) -> Lookahead:
        return Lookahead(view.rules, view.wild, drawable(view), HeuristicBot.lateness(view))

    def take_figures(self, view: PlayerView) -> tuple[float, float]:
        """The best level after taking the open card and discarding, and the worth of the stock's card."""
        top = view.pile[-1][0]
        look = self.lookahead(view)
        keep = top if view.rules.keep_taken_discard else None
        return min(look.levels([*view.hand, top], keep).values()), look.worth(view.hand)

    def takes_open_card(self, view: PlayerView) -> bool:
        """Whether the hand after taking the open card and discarding beats the worth of the stock's card."""
        if is_joker(view.pile[-1][0], view.wild):
            return True
        taken, stock = self.take_figures(view)
        return taken < stock - self.take_margin

    def discard_order(self, view: PlayerView, deadline: float = math.inf) -> list[tuple[int, float]]:
        """The discards worked out, best first, each with its score (the worth of the hand left plus the charge
        for feeding the next player). Past ``deadline`` (a :func:`time.perf_counter` time) no more worths are
        worked out; with none, the discards are ranked by their levels now."""
        rules, wild = view.rules, view.wild
        look = self.lookahead(view)
        keep = view.taken_from_pile if rules.keep_taken_discard else None
        now = look.levels(view.hand, keep)

        def ranked(scores: dict[int, float]) -> list[tuple[int, float]]:
            order = sorted(scores, key=lambda c: (scores[c], -card_points(c, rules, wild), c))
            return [(c, scores[c]) for c in order]

        first = ranked({c: level + self.heuristic.danger(view, c) for c, level in now.items()})
        worths = {}
        for card, _level in first[: self.candidates]:
            if time.perf_counter() >= deadline:
                break
            rest = list(view.hand)
            rest.remove(card)
            worths[card] = look.worth(rest) + self.heuristic.danger(view, card)
        return ranked(worths) if worths else first

    def explain(self, view: PlayerView, action: object) -> str | None:
        """The reason for a take or discard in one line (None for another action)."""
        if isinstance(action, Take) and view.pile:
            top = view.pile[-1][0]
            if is_joker(top, view.wild):
                return _("Take {card} from the discard pile: a joker", card=face_name(top))
            taken, stock = self.take_figures(view)
            if action.source == "discard":
                return _("Take {card} from the discard pile: the hand after it measures {taken}, a card from the "
                         "stock {stock} on average", card=face_name(top), taken=f"{taken:.1f}", stock=f"{stock:.1f}")
            return _("Take from the stock: {stock} on average over the cards not seen, where {card} would make "
                     "{taken}", card=face_name(top), taken=f"{taken:.1f}", stock=f"{stock:.1f}")
        if isinstance(action, Discard):
            order = self.discard_order(view)
            scores = dict(order)
            if action.card not in scores:
                return None
            others = [s for c, s in order if c != action.card]
            left = f"{scores[action.card]:.1f}"
            if not others:
                return _("Discard {card}: the hand left measures {left} after the next draw, on average",
                         card=face_name(action.card), left=left)
            return _("Discard {card}: the hand left measures {left} after the next draw, on average ({better} "
                     "better than the next discard)", card=face_name(action.card), left=left,
                     better=f"{min(others) - scores[action.card]:.1f}")
        return None
