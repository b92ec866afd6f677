"""How likely the other seats' past plays were under an opponent model, for one guess at the hidden hands.

The hard facts of :mod:`~taash.bots.seep.inference` say what a seat surely held; this says what it probably
held. A player who could have swept the floor with a card of a guess, and threw a low card instead, probably did
not hold that card: the guess is unlikely. The model is the greedy play-out's judgement (:func:`greedy_scores`:
the points a play takes now, less what it leaves the next player), softened: a play is chosen with probability
``EPSILON / n + (1 - EPSILON) * softmax(score / TEMPERATURE)`` among its ``n`` legal plays, so that a player who
plays otherwise than greedily (to keep a house, to hold a card back) makes a guess less likely, never impossible.
With the ``lite`` model the scores are the heuristic's rules instead
(:func:`~taash.bots.seep.lite.position_scores`), from what the player saw then (his hand, the cards played, the
next hand's size): how heuristic players really choose, so the true hands read far likelier than with the greedy
model.

Everything here is read from the seat's view (the plays are public; the guess is the search's own): a hand at a
past play is the guessed hand of today with the cards its owner has played since put back. Plays whose hand is
not a guess are left out: the seat's own, the bid play (the bidder held only four cards then), and in the
2-player game the first half's once the second half is dealt (those hands are all public by then).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from taash.bots.seep.lite import position_scores
from taash.bots.seep.rollout import greedy_scores
from taash.cards import FULL_PACK, mask_of, parse_card
from taash.seep.core import compiled, core_rules
from taash.seep.plays import ADD, CAPTURE, THROW, House, Play, apply_play, legal_plays
from taash.seep.rules import FIRST_HALF_PLAYS
from taash.seep.values import VALUE_MASK
from taash.seep.view import PlayerView

#: Points of greedy score that make a play e (2.72) times likelier than another.
TEMPERATURE = 1.0
#: The share of a player's choices the model leaves to chance (any legal play alike).
EPSILON = 0.25


@dataclass(frozen=True, slots=True)
class PastPlay:
    """One play of another seat, as the seat of the view saw it made, and what it needs of a guess."""

    index: int
    seat: int
    play: Play
    #: The floor before the play.
    loose: int
    houses: dict[int, House]
    #: Qasim's restricted cards not yet released before the play.
    restricted: int
    #: The cards ``seat`` played from this play on (this one included): his hand then is his hand now and these.
    played_since: int
    #: The seat after ``seat``, and the cards it played after this play.
    next_seat: int
    next_played_since: int
    #: The cards every seat had seen before the play: the first floor and the cards played.
    seen: int = 0


def past_plays(view: PlayerView) -> list[PastPlay]:
    """The other seats' plays whose hands a guess decides (see the module's docstring), oldest first."""
    players = view.players
    history = view.history
    cards = [play[1] for _, play in history]
    found = []
    loose = view.initial_floor
    houses: dict[int, House] = {}
    restricted = mask_of(parse_card(c) for c in view.rules.restricted_cards)
    now = view.plays_made
    seen = view.initial_floor
    for index, (seat, play) in enumerate(history):
        lapsed = players == 2 and index < FIRST_HALF_PLAYS <= now
        if index > 0 and seat != view.seat and not lapsed:
            nxt = (seat + 1) % players
            found.append(PastPlay(
                index, seat, play, loose, dict(houses), restricted,
                mask_of(cards[i] for i in range(index, now) if history[i][0] == seat), nxt,
                mask_of(cards[i] for i in range(index + 1, now) if history[i][0] == nxt), seen))
        seen |= 1 << play[1]
        loose, _ = apply_play(play, seat, players, loose, houses)
        kind = play[0]
        if kind == THROW:
            restricted &= ~(1 << play[1])
        elif kind != CAPTURE and kind != ADD:
            restricted &= ~VALUE_MASK[play[2]]
    return found


def play_likelihood(view: PlayerView, past: PastPlay, hand: int, next_hand: int,
                    temperature: float = TEMPERATURE, model: str = "greedy") -> float:
    """The model's probability that ``past.seat``, holding ``hand`` while the next seat held ``next_hand``,
    made the play he made (softened at ``temperature`` points). ``model``: whose scores are softened, the greedy
    play-out's (which reads the next hand) or ``lite``, the heuristic's rules from what the seat saw then
    (:func:`~taash.bots.seep.lite.position_scores`: its hand, the floor, the cards played, the next hand's
    size)."""
    rules = view.rules
    legal = legal_plays(hand, past.seat, view.players, past.loose, past.houses, 0, rules.max_houses,
                        rules.break_with_loose, past.restricted)
    n = len(legal)
    if past.play not in legal:  # a guess under which the play was not even legal: as unlikely as the model allows
        return EPSILON / (n + 1)
    if n == 1:
        return 1.0
    if model == "lite":
        scores = position_scores(rules, past.seat, view.players, past.index, past.loose, past.houses,
                                 FULL_PACK & ~(hand | past.seen), next_hand.bit_count(), legal)
    else:
        scores = greedy_scores(rules, past.index, past.loose, past.houses, next_hand, legal)
    top = max(scores)
    weights = [math.exp((s - top) / temperature) for s in scores]
    chosen = weights[legal.index(past.play)]
    return EPSILON / n + (1 - EPSILON) * chosen / sum(weights)


def log_likelihood(view: PlayerView, pasts: list[PastPlay], hands: list[int],
                   temperature: float = TEMPERATURE, model: str = "greedy") -> float:
    """The log of the probability of every play of ``pasts`` under the model, the hidden hands being ``hands``
    today (the view's own hand at its seat)."""
    total = 0.0
    for past in pasts:
        hand = hands[past.seat] | past.played_since
        next_hand = hands[past.next_seat] | past.next_played_since
        total += math.log(play_likelihood(view, past, hand, next_hand, temperature, model))
    return total


def reader(view: PlayerView, pasts: list[PastPlay], temperature: float = TEMPERATURE,
           model: str = "greedy") -> Callable[[list[int]], float]:
    """``log_likelihood(view, pasts, hands, temperature, model)`` as a function of ``hands``, worked out once for
    the many guesses of a decision: for the ``lite`` model in the compiled core when it is built (the same
    numbers to rounding; ``lite_log_likelihood``)."""
    if model != "lite" or compiled is None:
        return lambda hands: log_likelihood(view, pasts, hands, temperature, model)
    packed = compiled.pack_pasts([(p.index, p.seat, p.play, p.loose, p.houses, p.restricted, p.played_since,
                                   p.next_seat, p.next_played_since, p.seen) for p in pasts])
    rules = core_rules(view.rules)
    players = view.players

    def likelihood(hands: list[int]) -> float:
        total: float = compiled.lite_log_likelihood(rules, players, packed, hands, temperature, EPSILON)
        return total

    return likelihood
