"""What one seat of a Rummy deal knows of the cards it cannot see, and deals consistent with it.

From a :class:`~taash.rummy.view.PlayerView` alone: the cards not seen (the pack less the seat's hand, the discard
pile, the wild card turned up and the groups wrong declarers showed), the cards each opponent is known to hold (he
took them from the discard pile and has not thrown a card of that face since), and the places the unseen cards lie
in (each opponent's hand, the stock, and out of play: dropped hands and face-down finish cards).
:func:`determinise` deals the unseen cards to those places at random, each opponent's known cards in his hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from taash.rummy.deal import sorted_pack
from taash.rummy.view import PlayerView


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What the seat knows of the hidden cards (worked out once per decision)."""

    #: The faces the seat has not seen, each as often as it is unseen (sorted).
    unseen: tuple[int, ...]
    #: For each opponent still in the deal, in playing order from the seat: (seat, cards in hand, faces he is
    #: known to hold).
    opponents: tuple[tuple[int, int, tuple[int, ...]], ...]
    stock_size: int


def known_holdings(view: PlayerView) -> dict[int, list[int]]:
    """The faces each other seat still in the deal took from the discard pile and has not discarded since."""
    held: dict[int, list[int]] = {s: [] for s in view.seats if s != view.seat}
    for turn in view.turns:
        if turn.seat == view.seat:
            continue
        cards = held[turn.seat]
        if turn.drop or turn.declared is not None:
            cards.clear()
            continue
        if turn.take == "discard" and turn.taken is not None:
            cards.append(turn.taken)
        if turn.discard is not None and turn.discard in cards:
            cards.remove(turn.discard)
    return {s: cards for s, cards in held.items() if view.status[s] == "in"}


def knowledge(view: PlayerView) -> Knowledge:
    """The seat's knowledge of the hidden cards (see the module's docstring)."""
    unseen = Counter(sorted_pack(view.rules, len(view.seats)))
    seen = Counter(view.hand)
    seen.update(face for face, _ in view.pile)
    seen[view.wild_card] += 1
    for turn in view.turns:
        for group in turn.shown:
            seen.update(group)
    unseen.subtract(seen)
    held = known_holdings(view)
    k = view.seats.index(view.seat)
    order = [view.seats[(k + step) % len(view.seats)] for step in range(1, len(view.seats))]
    left = +unseen
    opponents = []
    for seat in order:
        if seat not in held:
            continue
        size = view.hand_sizes[seat]
        known: list[int] = []
        for face in held[seat]:
            if left[face] > 0 and len(known) < size:
                known.append(face)
                left[face] -= 1
        opponents.append((seat, size, tuple(sorted(known))))
    return Knowledge(tuple(sorted((+unseen).elements())), tuple(opponents), view.stock_size)


@dataclass(slots=True)
class World:
    """One guess at the hidden cards: every hand of a seat still in the deal and the stock (its top card last)."""

    hands: dict[int, list[int]]
    stock: list[int]


def determinise(view: PlayerView, known: Knowledge, rng: random.Random,
                judge: Callable[[Sequence[int]], float] | None = None, tries: dict[int, int] | None = None) -> World:
    """The unseen cards dealt at random to the opponents' hands (each keeping the faces he is known to hold), the
    stock, and out of play. With ``judge`` (a hand's measure, lower is better) and ``tries`` (per opponent), an
    opponent is dealt the best of that many random hands: a player some turns into a deal has kept the cards that
    serve him, and his hand is better than a random one."""
    pool = Counter(known.unseen)
    for _, _, held in known.opponents:
        pool.subtract(held)
    cards = sorted((+pool).elements())
    rng.shuffle(cards)
    hands = {view.seat: list(view.hand)}
    for seat, size, held in known.opponents:
        extra = size - len(held)
        count = tries.get(seat, 1) if judge is not None and tries else 1
        best: list[int] = []
        best_at = 0
        best_measure = float("inf")
        for _ in range(count):
            at = rng.randrange(len(cards) - extra + 1) if count > 1 else 0
            hand = [*held, *cards[at:at + extra]]
            worth = judge(hand) if count > 1 and judge is not None else 0.0
            if worth < best_measure:
                best, best_at, best_measure = hand, at, worth
        hands[seat] = best
        del cards[best_at:best_at + extra]
    return World(hands, cards[:known.stock_size])
