"""Fast play-out policies for search: they play a whole deal to its end, quickly.

A play-out runs on a *determinised* deal (one guess at the hidden cards, made from a seat's view), so reading
its hands reads nothing of the real deal. The policy here is the ``greedy`` bot's idea made cheap enough to run
thousands of times a second: take the most points now, sweeps first, and do not leave a floor that the next
player can sweep with a card he holds (in this guess).
"""

from __future__ import annotations

from collections.abc import Callable

from taash.cards import VALUE
from taash.seep.deal import Deal
from taash.seep.groups import sweep_values
from taash.seep.plays import CAPTURE, THROW, House, Play, apply_play

Policy = Callable[[Deal, list[Play], Callable[[], float]], Play]


def _values_held(hand: int) -> int:
    """Bit ``v`` for each value ``v`` the hand holds."""
    return ((hand | hand >> 13 | hand >> 26 | hand >> 39) & 0x1FFF) << 1


def greedy_play(deal: Deal, legal: list[Play], random: Callable[[], float]) -> Play:
    """The play of most points now (a sweep counts its points), less a sweep left to the next player.

    Ties are broken by ``random`` (a ``random.Random().random``), so two play-outs given the same sequence of
    random numbers make the same choices.
    """
    rules = deal.rules
    index = len(deal.plays)
    last = index == 47
    points = deal.card_points_of
    loose = deal.loose
    houses = deal.houses
    seat = deal.to_move
    players = deal.players
    nxt = deal.hands[(seat + 1) % players]
    nxt_values = _values_held(nxt) if nxt and not last else 0
    sweep_now = rules.bid_sweep_points if index == 0 else rules.sweep_points
    sweep_next = 0 if index >= 46 or rules.sweep_scores_card_value else rules.sweep_points
    best = -1e9
    chosen: list[Play] = []
    for play in legal:
        kind, c, _, _, m = play
        bit = 1 << c
        if kind == CAPTURE:
            house = houses.get(VALUE[c]) if houses else None
            taken = m | bit
            if house is not None:
                taken |= house[0]
                left_houses = len(houses) - 1
            else:
                left_houses = len(houses)
            left = loose ^ m
            score = points(taken) + 0.1 * taken.bit_count()
            if not left and not left_houses:
                if not last:
                    score += VALUE[c] if rules.sweep_scores_card_value else sweep_now
                left_floor: dict[int, House] | None = None
            else:
                left_floor = houses if house is None else {w: h for w, h in houses.items() if w != VALUE[c]}
        elif kind == THROW:
            left = loose | bit
            left_floor = houses
            score = -0.05 * (points(bit) + 1)
        else:
            left_floor = dict(houses)
            left, _ = apply_play(play, seat, players, loose, left_floor)
            score = -0.05 * (points(bit) + 1)
        if nxt_values and left_floor is not None:
            # Can the next player take everything that is left with a card he holds?
            if not left_floor:
                values = sweep_values(left) & nxt_values
            elif len(left_floor) == 1:
                w = next(iter(left_floor))
                values = nxt_values & (1 << w) if not left or sweep_values(left) >> w & 1 else 0
            else:
                values = 0
            if values:
                on_floor = left
                for cards, _, _ in left_floor.values():
                    on_floor |= cards
                high = values.bit_length() - 1
                score -= points(on_floor) + (high if rules.sweep_scores_card_value else sweep_next)
        if score > best + 1e-9:
            best = score
            chosen = [play]
        elif score > best - 1e-9:
            chosen.append(play)
    if len(chosen) == 1:
        return chosen[0]
    return chosen[int(random() * len(chosen))]


def play_out(deal: Deal, policy: Policy, random: Callable[[], float]) -> None:
    """Play ``deal`` to its end, every seat choosing by ``policy``."""
    legal_plays = deal.legal_plays
    make = deal.play
    while not deal.over:
        legal = legal_plays()
        make(legal[0] if len(legal) == 1 else policy(deal, legal, random), False)
