"""Rummy's ``heuristic`` bot: the exact solver's points made into a finer measure of a hand, a watch on the
discard pile, and a first drop for a hopeless hand.

A hand's measure (lower is better, :func:`taash.rummy.progress.measure`, which the table's arrangement of a hand
follows too) is its points under the rules when it meets the
declaration requirement; otherwise its points with the requirement lifted (the cards no meld can cover, jokers
covering where they help most) plus a charge for the requirement still to meet, smaller when a pure run is one
card away. Two cards left unmatched that a third would meld (a run draw: one suit, one or two ranks apart; a set
draw: one rank, two suits) take a point or two off. So jokers, which cover a gap anywhere, and near-runs are worth
keeping even while the plain points cannot tell (they are capped at ``max_points`` until a hand is close).

Taking: the open card when it completes a pure run the hand lacks, or when the best hand after taking it and
discarding measures clearly less than the hand now. Discarding: the card whose hand left measures least, plus a
charge for a card the next player may want (of a rank he took from the pile in his last few turns, or next to such
a card in its suit; never a joker), less for a rank he threw away himself. Declaring: at once when it can. As the
deal goes on, the points the hand would pay if someone declared now weigh more than its promise. Dropping: only at
its first turn, with no joker, no pure run, at most one pair of cards in a row of one suit, and a measure of
:data:`HOPELESS` or more.

It decides from its seat's view only, and has no chance of its own: the same view gives the same choice.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence

from taash.bots.base import check_number
from taash.i18n import _
from taash.packs import JOKER, face_name
from taash.rummy.deal import Declare, Discard, Drop, Phase, Take
from taash.rummy.melds import card_points, is_joker
from taash.rummy.progress import close, lifted, measure, natural, run_ranks
from taash.rummy.rules import Rules
from taash.rummy.solver import discard_values, solve
from taash.rummy.view import PlayerView

#: How much lower the measure must be after taking the open card (the stock's card is worth a little too).
TAKE_GAIN = 5
#: Charges for discarding a card the next player may want: of a rank he took, in a run with one he took.
FEEDS_SET = 3
FEEDS_RUN = 3
#: His turns whose pickups are watched.
RECENT = 3
#: Taken off for a card of a rank he discarded himself.
HE_THREW = 2
#: Turns a player after which a hand is measured by the points it would pay alone (before: by its promise too).
LATE_TURNS = 12
#: A first drop: the measure at or above which a hand with no joker, no pure run and at most :data:`NEAR_DRAWS`
#: pairs of cards in a row of one suit is given up.
HOPELESS = 60
NEAR_DRAWS = 1


def pure_draws(hand: Sequence[int], wild: int, rules: Rules) -> int:
    """Pairs of natural cards of one suit next to each other (two cards of a pure run in a row)."""
    cards = [c for c in set(hand) if c != JOKER and (natural(c, wild) or rules.wild_as_natural)]
    return sum(close(a, b, 1) for i, a in enumerate(cards) for b in cards[i + 1:])


def completes_pure_run(hand: Sequence[int], card: int, wild: int, rules: Rules) -> bool:
    """Whether ``card`` and two cards of the hand make three in a row of one suit."""
    if card == JOKER or (is_joker(card, wild) and not rules.wild_as_natural):
        return False
    suit = card // 13
    line = {p for c in hand if c != JOKER and c // 13 == suit and (natural(c, wild) or rules.wild_as_natural)
            for p in run_ranks(c % 13)}
    return any(all(p in line or p == x for p in (start, start + 1, start + 2)) for x in run_ranks(card % 13)
               for start in (x - 2, x - 1, x) if start >= 0 and start + 2 <= 13)


def _next_player(view: PlayerView) -> int | None:
    seats = view.seats
    k = seats.index(view.seat)
    for step in range(1, len(seats)):
        seat = seats[(k + step) % len(seats)]
        if view.status[seat] == "in":
            return seat
    return None


class HeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int = 0, take_gain: float = TAKE_GAIN):
        self.rng = random.Random(seed)  # unused: the bot has no chance of its own; kept for the common signature
        check_number(take_gain, "take_gain", 0, 100)
        #: How much lower the measure must be after taking the open card (:data:`TAKE_GAIN`).
        self.take_gain = take_gain

    # -- the measure of a hand ---------------------------------------------------------------------------------

    def measure(self, hand: Sequence[int], rules: Rules, wild: int, late: float = 0.0) -> float:
        """How bad 13 cards are (lower is better; 0 for a valid declaration): see the module's docstring. ``late``
        (0 to 1) weighs the points the hand would pay now against its promise, as the deal goes on."""
        return measure(hand, rules, wild, late)

    def _after_discards(self, cards: Sequence[int], rules: Rules, wild: int, keep: int | None,
                        late: float) -> dict[int, float]:
        """The measure of the hand left by each distinct discard allowed from 14 cards."""
        allowed = discard_values(cards, rules, wild, keep)  # the discards the rules allow
        out = {}
        for card in allowed:
            rest = list(cards)
            rest.remove(card)
            out[card] = self.measure(rest, rules, wild, late)
        return out

    @staticmethod
    def lateness(view: PlayerView) -> float:
        """How far the deal has gone, 0 to 1: turns played over :data:`LATE_TURNS` a player."""
        return min(1.0, len(view.turns) / (LATE_TURNS * max(1, len(view.seats))))

    # -- what the next player wants -------------------------------------------------------------------------

    def danger(self, view: PlayerView, card: int) -> float:
        """What discarding ``card`` may give the next player: charges for a card of a rank he took from the pile
        in his last :data:`RECENT` turns or next to it in its suit, less for a rank he threw away; a joker is
        never given."""
        if is_joker(card, view.wild):
            return 100.0
        after = _next_player(view)
        if after is None:
            return 0.0
        his = [turn for turn in view.turns if turn.seat == after]
        charge = 0.0
        for turn in his[-RECENT:]:
            if turn.taken is not None and natural(turn.taken, view.wild):
                if turn.taken % 13 == card % 13:
                    charge += FEEDS_SET
                elif close(turn.taken, card, 1):
                    charge += FEEDS_RUN
        if any(turn.discard is not None and turn.discard % 13 == card % 13 for turn in his):
            charge -= HE_THREW
        return max(charge, 0.0)

    # -- choices ------------------------------------------------------------------------------------------

    def _hopeless(self, view: PlayerView) -> bool:
        rules, wild, hand = view.rules, view.wild, view.hand
        if any(is_joker(c, wild) for c in hand):
            return False
        if any(kind == "pure" for kind, _ in solve(hand, lifted(rules), wild).melds):
            return False
        if pure_draws(hand, wild, rules) > NEAR_DRAWS:
            return False
        return self.measure(hand, rules, wild) >= HOPELESS

    def _take_gain(self, view: PlayerView) -> tuple[float, float]:
        """The hand's measure now, and the best after taking the open card and discarding."""
        rules, wild = view.rules, view.wild
        top = view.pile[-1][0]
        late = self.lateness(view)
        now = self.measure(view.hand, rules, wild, late)
        keep = top if rules.keep_taken_discard else None
        after = min(self._after_discards([*view.hand, top], rules, wild, keep, late).values())
        return now, after

    @staticmethod
    def _has_pure_run(view: PlayerView) -> bool:
        return any(kind == "pure" for kind, _ in solve(view.hand, lifted(view.rules), view.wild).melds)

    def _takes_open_card(self, view: PlayerView) -> bool:
        top = view.pile[-1][0]
        if is_joker(top, view.wild):
            return True
        now, after = self._take_gain(view)
        if after == 0.0:
            return True
        if not self._has_pure_run(view) and completes_pure_run(view.hand, top, view.wild, view.rules):
            return True
        return after <= now - self.take_gain

    def discard_order(self, view: PlayerView) -> list[tuple[int, float]]:
        """Every card the seat to move may discard with its score (the hand left's measure plus the danger of
        feeding the next player), best first: the order this bot prefers them in."""
        rules, wild = view.rules, view.wild
        keep = view.taken_from_pile if rules.keep_taken_discard else None
        values = self._after_discards(view.hand, rules, wild, keep, self.lateness(view))
        scores = {c: values[c] + self.danger(view, c) for c in values}
        ranked = sorted(scores, key=lambda c: (scores[c], -card_points(c, rules, wild), c))
        return [(c, scores[c]) for c in ranked]

    def _discard(self, view: PlayerView) -> int:
        return self.discard_order(view)[0][0]

    def choose(self, view: PlayerView) -> Drop | Take | Discard | Declare:
        legal = view.legal_actions()
        if view.phase is Phase.TAKE:
            if Drop() in legal and not view.has_taken[view.seat] and self._hopeless(view):
                return Drop()
            if Take("discard") in legal and self._takes_open_card(view):
                return Take("discard")
            return Take("stock") if Take("stock") in legal else Take("discard")
        declaration = next((a for a in legal if isinstance(a, Declare)), None)
        if declaration is not None:
            return declaration
        return Discard(self._discard(view))

    def explain(self, view: PlayerView, action: Hashable) -> str:
        rules, wild = view.rules, view.wild
        if isinstance(action, Drop):
            return _("Drop (first drop, {points} points): no joker, no pure run and hardly a start of one, and the "
                     "hand measures {measure}", points=view.first_drop,
                     measure=f"{self.measure(view.hand, rules, wild):.0f}")
        if isinstance(action, Take):
            if action.source == "discard" and view.pile:
                top = view.pile[-1][0]
                if is_joker(top, wild):
                    return _("Take {card} from the discard pile: a joker", card=face_name(top))
                now, after = self._take_gain(view)
                change = _("the hand goes from {now} to {after}", now=f"{now:.0f}", after=f"{after:.0f}")
                if not self._has_pure_run(view) and completes_pure_run(view.hand, top, wild, rules):
                    return _("Take {card} from the discard pile: it makes a pure run ({change})", card=face_name(top),
                             change=change)
                return _("Take {card} from the discard pile: {change}", card=face_name(top), change=change)
            return _("Take from the stock: the open card would not make the hand better by {gain}",
                     gain=f"{self.take_gain:g}")
        if isinstance(action, Declare):
            return _("Declare, laying down {card}: a valid declaration scores 0", card=face_name(action.finish))
        if isinstance(action, Discard):
            keep = view.taken_from_pile if rules.keep_taken_discard else None
            left = self._after_discards(view.hand, rules, wild, keep, self.lateness(view)).get(action.card, 0.0)
            danger = self.danger(view, action.card)
            if danger:
                return _("Discard {card}: the hand left measures {left}, {danger} for what the next player may want",
                         card=face_name(action.card), left=f"{left:.0f}", danger=f"{danger:.0f}")
            return _("Discard {card}: the hand left measures {left}", card=face_name(action.card), left=f"{left:.0f}")
        return _("no reason")
