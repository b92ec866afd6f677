"""What a seat can prove about the hidden hands from public information alone: the bidder held the bid value, a
house owner keeps a card of his house's value (I2, R4), who must hold Qasim's restricted cards (7.2). The search
deals hidden cards consistently with these facts, and the heuristic weighs what the next player surely holds.
"""

from __future__ import annotations

from collections.abc import Iterator

from taash.cards import cards_of, mask_of, parse_card
from taash.seep.plays import ADD, CAPTURE, THROW, House, Play, apply_play
from taash.seep.rules import FIRST_HALF_PLAYS
from taash.seep.values import VALUE_MASK
from taash.seep.view import PlayerView

#: ``(seat, cards, index)``: right after play ``index`` (-1: at the bid) ``seat`` held at least one of ``cards``.
Fact = tuple[int, int, int]

def bid_facts(view: PlayerView) -> list[Fact]:
    """The bidder held a card of the bid value when he bid (4.2: a bid is of a value the bidder holds)."""
    if not view.bid:
        return []
    return [((view.dealer + 1) % view.players, VALUE_MASK[view.bid], -1)]


def _replayed(view: PlayerView) -> Iterator[tuple[int, int, Play, dict[int, House], dict[int, House], int]]:
    """Each play so far: ``(index, seat, play, houses before, houses after, restricted cards before)``.

    The restricted cards are released as the engine releases them (7.2): a thrown restricted card, and the
    restricted cards of a value once a house of that value is made other than by adding to one.
    """
    loose = view.initial_floor
    houses: dict[int, House] = {}
    restricted = mask_of(parse_card(c) for c in view.rules.restricted_cards)
    for index, (seat, play) in enumerate(view.history):
        before = dict(houses)
        loose, _ = apply_play(play, seat, view.players, loose, houses)
        yield index, seat, play, before, dict(houses), restricted
        kind = play[0]
        if kind == THROW:
            restricted &= ~(1 << play[1])
        elif kind != CAPTURE and kind != ADD:
            restricted &= ~VALUE_MASK[play[2]]


def owner_facts(view: PlayerView) -> list[Fact]:
    """After each of his plays, a player held a card of the value of every house he owned (I2, R4).

    Only his own plays change his hand, so this holds at every moment he owned the house, and it stays true
    of his hand today unless he has played a card of that value since.
    """
    facts = []
    for index, seat, _, _, after, _ in _replayed(view):
        for v, (_, _, owners) in after.items():
            if owners >> seat & 1:
                facts.append((seat, VALUE_MASK[v], index))
    return facts


def restricted_facts(view: PlayerView) -> list[Fact]:
    """Who made the first house of a restricted card's value held that card (7.2, Qasim).

    While a restricted card is not released, only its holder may make a new house of its value (establish, or
    break a house into that value): he held every such card, and still holds those he did not play then.
    """
    facts = []
    for index, seat, play, before, _, restricted in _replayed(view):
        kind, c, v = play[0], play[1], play[2]
        if restricted and kind != CAPTURE and kind != THROW and kind != ADD and v not in before:
            for x in cards_of(restricted & VALUE_MASK[v] & ~(1 << c)):
                facts.append((seat, 1 << x, index))
    return facts


def hand_requirements(view: PlayerView) -> list[tuple[int, int]]:
    """``(seat, cards)``: another seat certainly holds at least one of ``cards`` now (all facts, brought up to date).

    A fact about a past hand still holds of the hand today unless the seat has since played one of the cards
    (a hand changes only by its own plays and by new cards dealt to it; in the 2-player game the first half's
    hand is played out before the second half is dealt, so facts from then lapse).
    """
    unseen = view.unseen()
    played: dict[int, list[tuple[int, int]]] = {}
    for index, (seat, play) in enumerate(view.history):
        played.setdefault(seat, []).append((index, play[1]))
    now = view.plays_made
    found: set[tuple[int, int]] = set()
    for seat, cards, index in bid_facts(view) + owner_facts(view) + restricted_facts(view):
        if seat == view.seat or (view.players == 2 and index < FIRST_HALF_PLAYS <= now):
            continue
        if any(i > index and cards >> c & 1 for i, c in played.get(seat, ())):
            continue
        if cards & unseen:
            found.add((seat, cards & unseen))
    # A requirement that another of the same seat implies says nothing more.
    return sorted(r for r in found if not any(o != r and o[0] == r[0] and not o[1] & ~r[1] for o in found))


def proven_voids(view: PlayerView, requirements: list[tuple[int, int]] | None = None) -> list[int]:
    """For each seat, the unseen cards it certainly does not hold: those another seat must hold.

    No play proves a void by itself: whether a play is legal never depends on a card the player lacks (legality
    only grows with the hand: captures and throws depend on the card played, houses on holding cards of their
    value, Qasim's locks on holding the restricted cards). So every void comes from a card pinned to someone else.
    """
    voids = [0] * view.players
    for seat, cards in hand_requirements(view) if requirements is None else requirements:
        if cards.bit_count() == 1:
            for other in range(view.players):
                if other != seat:
                    voids[other] |= cards
    voids[view.seat] = 0
    return voids
