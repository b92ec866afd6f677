"""The lite heuristic play-out: the heuristic bot's rules of thumb, cheap enough to play whole deals out with.

Each seat scores its plays as :class:`~taash.bots.seep.heuristic.HeuristicBot` does without reading the others'
plays (``inference=False``): the points taken now, less what the next player can expect to take from the floor
left (each value's best capture times the chance, counted from the cards the mover has not seen, that he holds
a card of it), plus the houses its team owns and the others are unlikely to take, plus the rules text's small
preferences. It sees what the seat to move sees of the deal (its hand, the floor, the cards taken, the sizes of
the other hands), never another hand, so on a guessed deal it plays as the seat could. The compiled core runs
the same scores (``lite_outcomes``; houses summed in the order of their values, here too, so the floats agree).
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Sequence
from functools import partial

from taash.bots.seep.heuristic import holds_probability
from taash.bots.seep.rollout import greedy_outcome, unseen_by
from taash.seep.core import compiled, state_of
from taash.seep.deal import Deal, card_points
from taash.seep.groups import maximal_groups
from taash.seep.plays import CAPTURE, THROW, House, Play, apply_play, team_mask
from taash.seep.rules import LAST_PLAY, Rules
from taash.seep.values import VALUE, VALUE_MASK


def lite_scores(deal: Deal, legal: Sequence[Play], sharp: bool = False) -> list[float]:
    """The lite score of each of ``legal`` for the seat to move, from what that seat sees of ``deal``.

    With ``sharp`` (:func:`sharp_play`) it reads the other hands instead of counting chances: a chance is 1 when
    the next hand (for a house's safety, an opponent's) holds a card of the value, else 0."""
    seat, players = deal.to_move, deal.players
    nxt = (seat + 1) % players
    ours = team_mask(seat, players)
    theirs = 0
    for s in range(players):
        if not ours >> s & 1:
            theirs |= deal.hands[s]
    return position_scores(deal.rules, seat, players, len(deal.plays), deal.loose, deal.houses,
                           unseen_by(deal, seat), deal.hands[nxt].bit_count(), legal,
                           (deal.hands[nxt], theirs) if sharp else None)


def position_scores(rules: Rules, seat: int, players: int, index: int, loose_before: int,
                    houses_before: dict[int, House], unseen: int, next_size: int, legal: Sequence[Play],
                    sharp: tuple[int, int] | None = None) -> list[float]:
    """:func:`lite_scores` of ``legal`` made by ``seat`` as play ``index`` on the floor ``loose_before`` and
    ``houses_before``, the seat not having seen ``unseen`` and the next seat holding ``next_size`` cards; with
    ``sharp``, (the next hand, the opponents' cards) read instead of counted."""
    unknown = unseen.bit_count()
    nxt_hand = next_size - (1 if index == 0 and players == 4 else 0)
    if index == 0:  # after the bid play the others get their cards: 12 for the next player
        nxt_hand = 12
    remaining = LAST_PLAY - index
    ours = team_mask(seat, players)
    by_value = rules.sweep_scores_card_value
    sweep_next = rules.sweep_value(0, min(index + 1, LAST_PLAY))
    unseen_of = [(unseen & VALUE_MASK[v]).bit_count() if v else 0 for v in range(14)]
    next_hand, theirs = sharp if sharp is not None else (0, 0)
    points = partial(card_points, rules)
    scores = []
    for play in legal:
        houses: dict[int, House] = dict(houses_before)
        loose, taken = apply_play(play, seat, players, loose_before, houses)
        gained = points(taken)
        score = float(gained)
        if taken and not loose and not houses:
            score += rules.sweep_value(play[1], min(index, LAST_PLAY))
        danger = 0.0
        if remaining > 0 and nxt_hand > 0:
            for v in range(1, 14):
                k = unseen_of[v]
                if not k:
                    continue
                house = houses.get(v)
                house_cards = house[0] if house is not None else 0
                others = len(houses) - (house is not None)
                best = 0.0
                if loose:
                    for u in maximal_groups(loose, v):
                        if not u and house is None:
                            continue
                        got = float(points(u | house_cards))
                        if not loose & ~u and not others and remaining > 1:
                            got += v if by_value else sweep_next
                        got += 0.1 * u.bit_count()
                        best = max(best, got)
                elif house is not None:
                    got = float(points(house_cards))
                    if len(houses) == 1 and remaining > 1:
                        got += v if by_value else sweep_next
                    best = got
                if best != 0.0:
                    if sharp is not None:
                        chance = 1.0 if next_hand & VALUE_MASK[v] else 0.0
                    else:
                        chance = holds_probability(unknown, k, nxt_hand)
                    danger = max(danger, best * chance)
        score -= danger
        for v in sorted(houses):
            cards, cemented, owners = houses[v]
            if not owners & ours:
                continue
            if sharp is not None:
                safe = 0.0 if theirs & VALUE_MASK[v] else 1.0
            else:
                safe = 1.0 - holds_probability(unknown, unseen_of[v], max(1, unknown // 2))
            before = houses_before.get(v)
            before_points = points(before[0]) if before is not None and before[2] & ours else 0
            score += 0.5 * (points(cards) - before_points) * (2 * safe - 1)
            if cemented and (before is None or not before[1]):
                score += 1.0
        if remaining > 0 and (loose or houses) and loose.bit_count() + len(houses) <= 2:
            score += 0.5
        if play[0] == THROW:
            score -= 0.5 * points(1 << play[1])
            if VALUE[play[1]] >= 9:
                score -= 0.5
        if play[0] == CAPTURE:
            score += 0.05 * taken.bit_count()
            if remaining < 4:
                score += 0.5
        scores.append(score)
    return scores


def lite_play(deal: Deal, legal: list[Play], random: Callable[[], float]) -> Play:
    """The play of the best :func:`lite_scores`; ties (within 1e-9 of the best) drawn by ``random``, which is not
    called when there is none."""
    return _best(legal, lite_scores(deal, legal), random)


def sharp_play(deal: Deal, legal: list[Play], random: Callable[[], float]) -> Play:
    """:func:`lite_play` reading the other hands of ``deal`` (a guessed deal in the search) instead of counting
    chances (``lite_scores(..., sharp=True)``)."""
    return _best(legal, lite_scores(deal, legal, sharp=True), random)


def _best(legal: list[Play], scores: list[float], random: Callable[[], float]) -> Play:
    best = max(scores)
    ties = [p for p, s in zip(legal, scores, strict=True) if s >= best - 1e-9]
    return ties[0] if len(ties) == 1 else ties[int(random() * len(ties))]


def lite_outcomes(world: Deal, team: int, plays: Sequence[Play], seed: float) -> list[float]:
    """:func:`~taash.bots.seep.rollout.greedy_outcomes` with :func:`lite_play` for every seat: in the compiled
    core when it is built (the same numbers), else one by one."""
    if compiled is None:
        return [greedy_outcome(world, team, p, seed, lite_play) for p in plays]
    result: list[float] = compiled.lite_outcomes(world.core_state(), state_of(_random.Random(seed)), plays, team)
    return result


def sharp_outcomes(world: Deal, team: int, plays: Sequence[Play], seed: float) -> list[float]:
    """:func:`lite_outcomes` with :func:`sharp_play` for every seat (in the compiled core when it is built)."""
    if compiled is None:
        return [greedy_outcome(world, team, p, seed, sharp_play) for p in plays]
    result: list[float] = compiled.sharp_outcomes(world.core_state(), state_of(_random.Random(seed)), plays, team)
    return result


def model_play(team: int) -> Callable[[Deal, list[Play], Callable[[], float]], Play]:
    """The play-out policy of a search by a seat of ``team``: its team plays :func:`sharp_play`, the others
    :func:`lite_play` (they play as the heuristic would, unable to see a hand)."""

    def play(deal: Deal, legal: list[Play], random: Callable[[], float]) -> Play:
        return (sharp_play if deal.to_move % 2 == team else lite_play)(deal, legal, random)

    return play


def model_outcomes(world: Deal, team: int, plays: Sequence[Play], seed: float) -> list[float]:
    """:func:`lite_outcomes` with :func:`model_play` of ``team`` (in the compiled core when it is built)."""
    if compiled is None:
        policy = model_play(team)
        return [greedy_outcome(world, team, p, seed, policy) for p in plays]
    result: list[float] = compiled.model_outcomes(world.core_state(), state_of(_random.Random(seed)), plays, team)
    return result
