"""Fast play-out policies for search: they play a whole deal to its end, quickly.

A play-out runs on a *determinised* deal (one guess at the hidden cards, made from a seat's view), so reading
its hands reads nothing of the real deal. The policy here is the ``greedy`` bot's idea made cheap enough to run
hundreds of thousands of times a minute: take the most points now, sweeps first, and do not leave a floor that
the next player can sweep with a card he holds (in this guess).
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Sequence

from taash.bots.seep.heuristic import holds_probability
from taash.cards import mask_of
from taash.seep.core import compiled, state_of
from taash.seep.deal import Deal, point_rows
from taash.seep.groups import sweep_values
from taash.seep.plays import ADD, BREAK, CAPTURE, ESTABLISH, THROW, Play
from taash.seep.rules import FIRST_HALF_PLAYS, LAST_PLAY, Rules
from taash.seep.values import VALUE, VALUE_MASK

Policy = Callable[[Deal, list[Play], Callable[[], float]], Play]

#: ``_ROW_SUM[row]``: the sum of the values of the cards of a 13-bit row (one suit).
_ROW_SUM: tuple[int, ...] = tuple(sum(r + 1 for r in range(13) if row >> r & 1) for row in range(1 << 13))
#: ``_DIVIDES[s]``: bit ``v`` for each value 1..13 that divides ``s`` (the values that could take loose cards
#: adding up to ``s`` in whole groups).
_DIVIDES: tuple[int, ...] = tuple(sum(1 << v for v in range(1, 14) if s % v == 0) for s in range(52 * 13 + 1))


def _values_held(hand: int) -> int:
    """Bit ``v`` for each value ``v`` the hand holds."""
    return ((hand | hand >> 13 | hand >> 26 | hand >> 39) & 0x1FFF) << 1


class _Tables:
    __slots__ = ("card_points", "rows")

    def __init__(self, rules: Rules):
        self.rows = point_rows(rules)
        s, h, d, c = self.rows
        self.card_points = tuple(s[1 << k] for k in range(13)) + tuple(h[1 << k] for k in range(13)) + tuple(
            d[1 << k] for k in range(13)) + tuple(c[1 << k] for k in range(13))


_tables: dict[int, tuple[Rules, _Tables]] = {}


def _tables_of(rules: Rules) -> _Tables:
    found = _tables.get(id(rules))
    if found is None or found[0] is not rules:
        found = _tables[id(rules)] = (rules, _Tables(rules))
    return found[1]


def unseen_by(deal: Deal, seat: int) -> int:
    """The cards ``seat`` has not seen (:meth:`PlayerView.unseen`): those in the other hands and those still to be
    dealt."""
    made = len(deal.plays)
    unseen = mask_of(deal.deck[8:]) if made == 0 else mask_of(deal.deck[28:]) if (
        deal.players == 2 and made < FIRST_HALF_PLAYS) else 0
    for s in range(deal.players):
        if s != seat:
            unseen |= deal.hands[s]
    return unseen


def greedy_play(deal: Deal, legal: list[Play], random: Callable[[], float]) -> Play:
    """The play of most points now (a sweep counts its points), less a sweep left to the next player.

    Ties are broken by ``random`` (a ``random.Random().random``), so two play-outs given the same sequence of
    random numbers make the same choices.
    """
    scores = greedy_scores(deal.rules, len(deal.plays), deal.loose, deal.houses,
                           deal.hands[(deal.to_move + 1) % deal.players], legal)
    return _best(legal, scores, random)


def counted_play(deal: Deal, legal: list[Play], random: Callable[[], float]) -> Play:
    """:func:`greedy_play` as a player who cannot see the next hand plays it: a sweep the next player could make
    is held against a play in proportion to the chance that he holds a card that makes it, counted from the
    cards the mover has not seen (its hand, the floor and the cards taken are seen; :func:`holds_probability`)."""
    scores = greedy_scores(deal.rules, len(deal.plays), deal.loose, deal.houses,
                           deal.hands[(deal.to_move + 1) % deal.players], legal, unseen=unseen_by(deal, deal.to_move))
    return _best(legal, scores, random)


def _best(legal: list[Play], scores: list[float], random: Callable[[], float]) -> Play:
    """The play of the best score, ties broken by ``random``."""
    best = -1e9
    chosen: list[Play] = []
    for play, score in zip(legal, scores, strict=True):
        if score > best + 1e-9:
            best = score
            chosen = [play]
        elif score > best - 1e-9:
            chosen.append(play)
    if len(chosen) == 1:
        return chosen[0]
    return chosen[int(random() * len(chosen))]


def greedy_scores(rules: Rules, index: int, loose: int, houses: dict[int, tuple[int, bool, int]], nxt: int,
                  legal: list[Play], unseen: int | None = None) -> list[float]:
    """What the greedy play-out makes of each of ``legal``, made as play ``index`` on the floor ``loose`` and
    ``houses`` while the next player holds ``nxt``: the points it takes now (a sweep counts its points), less
    what the next player could then sweep. :func:`greedy_play` makes the best of them.

    With ``unseen`` (the cards the mover has not seen) the next hand is not read, only its size: a sweep is held
    against a play times the chance that a hand of that size drawn from ``unseen`` holds a card that makes it."""
    tables = _tables_of(rules)
    ps, ph, pd, pc = tables.rows
    card_pts = tables.card_points
    last = index == LAST_PLAY
    n_houses = len(houses)
    nxt_values = _values_held(nxt if unseen is None else unseen) if nxt and not last else 0
    by_value = rules.sweep_scores_card_value
    # A sweep the next player makes on the last play is not held against this one; what the others score is the
    # rules' (a sweep by value scores the card: the value the next player sweeps with, below).
    sweep_next = 0 if by_value or index + 1 >= LAST_PLAY else rules.sweep_value(0, index + 1)
    scores: list[float] = []
    for play in legal:
        kind, c, value, _, m = play
        bit = 1 << c
        # What is left on the floor: its loose cards, how many houses, and the value of the house when one.
        if kind == CAPTURE:
            v = VALUE[c]
            taken = m | bit
            house = houses.get(v) if n_houses else None
            if house is not None:
                taken |= house[0]
                houses_left = n_houses - 1
            else:
                houses_left = n_houses
            left = loose ^ m
            score = (ps[taken & 0x1FFF] + ph[taken >> 13 & 0x1FFF] + pd[taken >> 26 & 0x1FFF] + pc[taken >> 39]
                     + 0.1 * taken.bit_count())
            if not left and not houses_left:
                if not last:
                    score += rules.sweep_value(c, index)
                continue_check = False
            else:
                continue_check = True
        else:
            score = -0.05 * (card_pts[c] + 1)
            if kind == THROW:
                left = loose | bit
                houses_left = n_houses
            else:
                left = loose ^ m
                if kind == ESTABLISH:
                    houses_left = n_houses + 1
                elif kind == ADD:
                    houses_left = n_houses
                else:  # a break: the broken house joins the house of the new value, or becomes it
                    houses_left = n_houses - 1 if value in houses else n_houses
            continue_check = True
        if continue_check and nxt_values and houses_left <= 1:
            # Can the next player take everything that is left with a card he holds?
            total = _ROW_SUM[left & 0x1FFF] + _ROW_SUM[left >> 13 & 0x1FFF] + _ROW_SUM[
                left >> 26 & 0x1FFF] + _ROW_SUM[left >> 39]
            if houses_left == 0:
                values = _DIVIDES[total] & nxt_values and sweep_values(left) & nxt_values
            else:
                values = nxt_values & _DIVIDES[total] & 1 << _house_left(kind, c, value, houses)
                if values and left and not sweep_values(left) & values:
                    values = 0
            if values:
                on_floor = left
                for cards, _, _ in houses.values():
                    on_floor |= cards
                if kind == CAPTURE:
                    on_floor &= ~taken
                else:
                    on_floor |= m | bit if kind != THROW else 0
                points_left = (ps[on_floor & 0x1FFF] + ph[on_floor >> 13 & 0x1FFF] + pd[on_floor >> 26 & 0x1FFF]
                               + pc[on_floor >> 39])
                lost = points_left + (values.bit_length() - 1 if by_value else sweep_next)
                if unseen is None:
                    score -= lost
                else:
                    sweepers = 0
                    for v in range(1, 14):
                        if values >> v & 1:
                            sweepers |= VALUE_MASK[v]
                    score -= holds_probability(unseen.bit_count(), (unseen & sweepers).bit_count(),
                                               nxt.bit_count()) * lost
        scores.append(score)
    return scores


def _house_left(kind: int, c: int, value: int, houses: dict[int, tuple[int, bool, int]]) -> int:
    """The value of the one house left on the floor after a play that leaves exactly one."""
    if kind == CAPTURE:
        taken_value = VALUE[c]
        return next(w for w in houses if w != taken_value)
    if kind in (ESTABLISH, BREAK):
        return value
    return next(iter(houses))



def play_out(deal: Deal, policy: Policy, random: Callable[[], float]) -> None:
    """Play ``deal`` to its end, every seat choosing by ``policy``."""
    legal_plays = deal.legal_plays
    make = deal.play
    while not deal.over:
        legal = legal_plays()
        make(legal[0] if len(legal) == 1 else policy(deal, legal, random), False)


def greedy_outcome(world: Deal, team: int, first: Play, seed: float, policy: Policy | None = None) -> float:
    """Make ``first`` in a copy of ``world`` and play it out greedily (:func:`greedy_play`, or ``policy``, for every
    seat, its ties drawn from ``random.Random(seed)``): what ``team`` gains from now on (card points taken, no
    majority, and sweep points) minus the other team's."""
    deal = world.clone()
    before0, before1 = deal.piles
    sweeps_before = len(deal.sweeps)
    deal.play(first, check=False)
    play_out(deal, policy or greedy_play, _random.Random(seed).random)
    gain = [deal.card_points_of(deal.piles[0] & ~before0), deal.card_points_of(deal.piles[1] & ~before1)]
    for seat, _, pts in deal.sweeps[sweeps_before:]:
        gain[seat % 2] += pts
    return float(gain[team] - gain[1 - team])


def greedy_outcomes(world: Deal, team: int, plays: Sequence[Play], seed: float) -> list[float]:
    """:func:`greedy_outcome` of each of ``plays`` (legal in ``world``), each with the same luck: in the compiled
    core when it is built (the same numbers; a differential test holds the two together), else one by one."""
    if compiled is None:
        return [greedy_outcome(world, team, p, seed) for p in plays]
    result: list[float] = compiled.greedy_outcomes(world.core_state(), state_of(_random.Random(seed)), plays, team)
    return result


def counted_outcomes(world: Deal, team: int, plays: Sequence[Play], seed: float) -> list[float]:
    """:func:`greedy_outcomes` with :func:`counted_play` for every seat: in the compiled core when it is built (the
    same numbers), else one by one."""
    if compiled is None:
        return [greedy_outcome(world, team, p, seed, counted_play) for p in plays]
    result: list[float] = compiled.counted_outcomes(world.core_state(), state_of(_random.Random(seed)), plays, team)
    return result
