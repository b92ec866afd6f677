"""Fast play-outs of a guessed Rummy deal, for the search: the searching seat and the next player play the exact
solver's greedy choices, the others a quick stand-in.

A play-out starts at the searching seat's turn with one of its actions, then every seat still in the deal plays
in turn. The searching seat and the player after it (the one its discards may feed) take the open card when it is
a joker or lowers the hand's least points (asked of the solver only when the card can meld with the hand), else
the stock's top card; they discard the card that leaves the fewest points (then the card of most points; a card
that cannot meld is swapped without asking the solver), and declare when that leaves a valid hand. The other
opponents (at three players or more) only take the stock's card and throw it, or a card of theirs that cannot
meld and is worth more: their hands hardly change over a few turns, and the solver's time goes where the choice
is. No one drops. The play-out ends at a valid declaration, which pays as the points format does (the declarer
takes every other hand's points, capped at ``max_points``), or after the searching seat's ``depth``-th turn, where
the heuristic's measure of the hands stands in for the rest of the deal (:meth:`Playout.leaf`).

It works on plain lists (no engine checks, no view per turn): the play-out only ever makes legal moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from taash.rummy.melds import card_points, is_joker
from taash.rummy.rules import Rules
from taash.rummy.solver import discard_values, hand_value, solve

#: How much the opponents' hands count in the leaf estimate, against the seat's own.
OPPONENTS_WEIGHT = 0.5
#: Turns of every seat after which a play-out stops whatever its depth (a guard: stock and pile may run dry).
MOST_TURNS = 200


def _run_positions(rank: int) -> tuple[int, ...]:
    return (0, 13) if rank == 0 else (rank,)


def can_meld_with(card: int, hand: Sequence[int], rules: Rules, wild: int) -> bool:
    """Whether ``card`` could lie in a meld with cards of ``hand``: it is a joker; or a natural card of its rank
    in another suit, or of its suit close enough for the hand's jokers (up to a meld's) to fill the gap, is in the
    hand; or the hand's jokers alone could make a meld of it. A card that cannot is *isolated*: it changes no
    meld, so keeping it only adds its points."""
    if is_joker(card, wild):
        return True
    jokers = sum(is_joker(c, wild) for c in hand)
    usable = jokers if not rules.max_jokers_per_meld else min(jokers, rules.max_jokers_per_meld)
    if rules.min_natural_cards <= 1 and usable >= 2:
        return True
    reach = max(2, 1 + usable)
    rank, suit = card % 13, card // 13
    here = _run_positions(rank)
    for other in hand:
        if is_joker(other, wild):
            continue
        if other % 13 == rank:
            if other // 13 != suit:
                return True
        elif other // 13 == suit and any(0 < abs(x - y) <= reach for x in here for y in _run_positions(other % 13)):
            return True
    return False


@dataclass(slots=True)
class Table:
    """The guessed deal as a play-out sees it: hands of the seats in play, stock (top last), discard pile."""

    hands: dict[int, list[int]]
    stock: list[int]
    pile: list[int]
    #: The seats in the deal, in playing order, the searching seat first.
    order: tuple[int, ...]


#: A hand's measure for the leaf (lower is better): the heuristic's.
Measure = Callable[[Sequence[int]], float]


class Playout:
    """Play-outs from one decision: the rules, the wild rank, the searching seat and how deep to go."""

    def __init__(self, rules: Rules, wild: int, me: int, depth: int, measure: Measure, everyone: bool = False,
                 measured: int = 0):
        self.rules = rules
        self.wild = wild
        self.me = me
        self.depth = depth
        self.measure = measure
        #: Every seat plays the solver's greedy choices (to weigh a drop: the deal played to its end).
        self.everyone = everyone
        #: The searching seat discards, of this many discards leaving the fewest points, the one the measure
        #: prefers (0 or 1: the fewest points alone).
        self.measured = measured

    # -- one seat's greedy choices ----------------------------------------------------------------------------

    def _best(self, values: dict[int, int]) -> int:
        rules, wild = self.rules, self.wild
        return min(values, key=lambda c: (values[c], -card_points(c, rules, wild), c))

    def _measured(self, hand: list[int], values: dict[int, int]) -> int:
        """Of the :attr:`measured` discards leaving the fewest points, the one whose hand left measures least."""
        rules, wild = self.rules, self.wild
        ranked = sorted(values, key=lambda c: (values[c], -card_points(c, rules, wild), c))[: self.measured]

        def measure_without(card: int) -> float:
            rest = list(hand)
            rest.remove(card)
            return self.measure(rest)

        return min(ranked, key=measure_without)

    def _discard(self, table: Table, seat: int, values: dict[int, int], value: dict[int, int]) -> bool:
        """Discard the best card of the seat's 14 (``values``: points left by each); True when it declares."""
        hand = table.hands[seat]
        card = self._best(values)
        if seat == self.me and self.measured > 1 and values[card]:
            card = self._measured(hand, values)
        hand.remove(card)
        if values[card] == 0 and solve(hand, self.rules, self.wild).valid:
            return True
        table.pile.append(card)
        value[seat] = values[card]
        return False

    def take_stock(self, table: Table, seat: int, rng: random.Random) -> bool:
        """Take the stock's top card (the pile but its top shuffled into a new stock when it is empty); False when
        there is none to take."""
        if not table.stock:
            if len(table.pile) < 2:
                return False
            top = table.pile.pop()
            table.stock = table.pile
            rng.shuffle(table.stock)
            table.pile = [top]
        table.hands[seat].append(table.stock.pop())
        return True

    def turn(self, table: Table, seat: int, value: dict[int, int], rng: random.Random) -> bool:
        """One greedy turn of ``seat``; True when it declares validly."""
        rules, wild = self.rules, self.wild
        hand = table.hands[seat]
        if seat not in value:
            value[seat] = hand_value(hand, rules, wild)
        if table.pile:
            top = table.pile[-1]
            if can_meld_with(top, hand, rules, wild):
                keep = top if rules.keep_taken_discard else None
                values = discard_values([*hand, top], rules, wild, keep)
                if min(values.values()) < value[seat] or is_joker(top, wild):
                    table.pile.pop()
                    hand.append(top)
                    return self._discard(table, seat, values, value)
        if not self.take_stock(table, seat, rng):
            top = table.pile.pop()
            hand.append(top)
            keep = top if rules.keep_taken_discard else None
            return self._discard(table, seat, discard_values(hand, rules, wild, keep), value)
        drawn = hand[-1]
        if not can_meld_with(drawn, hand[:-1], rules, wild):
            self._swap_isolated(table, seat, value)
            return False
        return self._discard(table, seat, discard_values(hand, rules, wild), value)

    def _swap_isolated(self, table: Table, seat: int, value: dict[int, int]) -> None:
        """The card just drawn is isolated: discard it, or an isolated card of the hand worth more points (the
        hand's melds stay as they were)."""
        rules, wild, hand = self.rules, self.wild, table.hands[seat]
        drawn = hand[-1]
        rest = hand[:-1]
        card, points = drawn, card_points(drawn, rules, wild)
        for i, other in enumerate(rest):
            worth = card_points(other, rules, wild)
            if worth > points and not can_meld_with(other, rest[:i] + rest[i + 1:], rules, wild):
                card, points = other, worth
        hand.remove(card)
        table.pile.append(card)
        if seat in value:
            value[seat] = hand_value(hand, rules, wild)  # the points change by the difference, up to the cap

    # -- the outcome ----------------------------------------------------------------------------------------

    def _points(self, hand: Sequence[int]) -> int:
        return min(self.rules.max_points, hand_value(hand, self.rules, self.wild))

    def declared(self, table: Table, winner: int) -> float:
        """The searching seat's return when ``winner`` declares validly (points format)."""
        if winner == self.me:
            return float(sum(self._points(table.hands[s]) for s in table.order if s != self.me))
        return -float(self._points(table.hands[self.me]))

    def leaf(self, table: Table) -> float:
        """The searching seat's estimate when the play-out stops before a declaration: the heuristic's measure of
        the next player's hand (his share of the opponents', weighted by :data:`OPPONENTS_WEIGHT`: the others'
        hardly differ from one candidate to the next) less its own."""
        opponents = len(table.order) - 1
        feeds = self.measure(table.hands[table.order[1]]) / opponents if opponents else 0.0
        return OPPONENTS_WEIGHT * feeds - self.measure(table.hands[self.me])

    def finish(self, table: Table, value: dict[int, int], rng: random.Random, after: int) -> float:
        """Play on from the seat after ``after`` (the seat that has just discarded) until a declaration or the
        searching seat's ``depth``-th turn; the searching seat's return."""
        order = table.order
        k = order.index(after)
        mine = 0
        for step in range(1, MOST_TURNS + 1):
            if mine >= self.depth:
                break
            seat = order[(k + step) % len(order)]
            if self.everyone or seat in order[:2]:
                if self.turn(table, seat, value, rng):
                    return self.declared(table, seat)
            elif self.take_stock(table, seat, rng):
                self._swap_isolated(table, seat, value)
            mine += seat == self.me
        return self.leaf(table)

    def after_discard(self, table: Table, my_value: int, rng: random.Random) -> float:
        """The searching seat has just discarded (its hand's least points ``my_value``): play on."""
        return self.finish(table, {self.me: my_value}, rng, self.me)

    def after_take(self, table: Table, source: str, rng: random.Random) -> float:
        """The searching seat takes from ``source`` and makes the greedy discard, then play on."""
        value: dict[int, int] = {}
        rules, wild, hand = self.rules, self.wild, table.hands[self.me]
        if source == "discard":
            top = table.pile.pop()
            hand.append(top)
            values = discard_values(hand, rules, wild, top if rules.keep_taken_discard else None)
        else:
            if not self.take_stock(table, self.me, rng):
                return self.leaf(table)
            values = discard_values(hand, rules, wild)
        if self._discard(table, self.me, values, value):
            return self.declared(table, self.me)
        return self.finish(table, value, rng, self.me)
