"""The ``ismcts`` bot: information-set Monte Carlo search over the seat's own plays.

Each iteration deals the cards this seat has not seen to the places they can be (the other hands, the cards
still to come), consistently with what the seat knows: hand sizes, and that every owner of a house holds a card
of its value. It then picks one of its own legal plays by UCB1 and plays the deal out with a fast policy for
everyone. The reward is the points its team gains from now on minus the other team's, so past captures, which
no play can change, do not add noise. The search is anytime: an iteration budget, a time budget, or both.

This is the flat (one level) form of single-observer ISMCTS: every determinisation shares the root, whose
actions are the same in all of them because they depend only on what the seat sees.
"""

from __future__ import annotations

import math
import random
import time

from taash.bots.greedy import GreedyBot
from taash.bots.heuristic import HeuristicBot
from taash.cards import VALUE_MASK, cards_of, mask_of
from taash.seep.deal import Deal
from taash.seep.describe import describe_play
from taash.seep.plays import CAPTURE, Play
from taash.seep.view import PlayerView, view_of


def determinise(view: PlayerView, rng: random.Random) -> Deal:
    """A full deal consistent with ``view``: the unseen cards dealt at random to where they may be."""
    players = view.players
    unseen = cards_of(view.unseen())
    rng.shuffle(unseen)
    hands = [0] * players
    hands[view.seat] = view.hand
    need = {s: view.hand_sizes[s] for s in range(players) if s != view.seat}
    # Owners hold a card of their house's value: give each one such a card first.
    pool = set(unseen)
    for v, (_, _, owners) in view.houses.items():
        for s in range(players):
            if s != view.seat and owners >> s & 1 and need[s] > 0 and not hands[s] & VALUE_MASK[v]:
                choices = [c for c in unseen if c in pool and VALUE_MASK[v] >> c & 1]
                if choices:
                    c = rng.choice(choices)
                    pool.discard(c)
                    hands[s] |= 1 << c
                    need[s] -= 1
    rest = [c for c in unseen if c in pool]
    for s, n in need.items():
        hands[s] |= mask_of(rest[:n])
        rest = rest[n:]
    # Cards still to be dealt go where the deal reads them later (right after the floor at the bid play, at the
    # end for the 2-player second half); the floor turned up after the bid stays at its place.
    floor4 = cards_of(view.initial_floor)
    taken = mask_of(rest) | view.initial_floor
    others = [c for c in range(52) if not taken >> c & 1]
    later = [rest, others[4:]] if view.plays_made == 0 else [others[4:], rest]
    last = -1
    for seat, p in view.history:
        if p[0] == CAPTURE:
            last = seat % 2
    return Deal.from_parts(view.rules, players, view.dealer, others[:4] + floor4 + later[0] + later[1], hands,
                           view.loose, dict(view.houses), [p for _, p in view.history], view.bid, view.to_move,
                           last, view.restricted)


class IsmctsBot:
    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int = 200, seconds: float | None = None,
                 rollout: str = "greedy", exploration: float = 0.7, candidates: int = 4):
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.policy = GreedyBot(seed) if rollout == "greedy" else None
        self.bidder = HeuristicBot(seed)
        #: Search only the heuristic's best few plays (0: every legal play).
        self.candidates = candidates
        self.last_stats: dict[Play, tuple[int, float]] = {}

    def choose_bid(self, view: PlayerView) -> int:
        return self.bidder.choose_bid(view)

    def _rollout(self, deal: Deal, team: int) -> float:
        rng = self.rng
        policy = self.policy
        before = [deal.piles[0], deal.piles[1]]
        while not deal.over:
            if policy is None:
                legal = deal.legal_plays()
                deal.play(legal[rng.randrange(len(legal))], check=False)
            else:
                deal.play(policy.choose_play(view_of(deal, deal.to_move)), check=False)
        gain = [deal.card_points_of(deal.piles[t] & ~before[t]) for t in (0, 1)]
        for seat, _, pts in deal.sweeps:
            gain[seat % 2] += pts
        return (gain[team] - gain[1 - team]) / 100.0

    def choose_play(self, view: PlayerView) -> Play:
        legal = view.legal_plays()
        if len(legal) == 1:
            return legal[0]
        if self.candidates and len(legal) > self.candidates:
            ranked = sorted(legal, key=lambda p: -self.bidder.evaluate(view, p)[0])
            legal = ranked[: self.candidates]
        team = view.seat % 2
        visits = dict.fromkeys(legal, 0)
        totals = dict.fromkeys(legal, 0.0)
        deadline = time.perf_counter() + self.seconds if self.seconds else math.inf
        n = 0
        while n < self.iterations and time.perf_counter() < deadline:
            n += 1
            untried = [p for p in legal if not visits[p]]
            if untried:
                play = untried[self.rng.randrange(len(untried))]
            else:
                log_n = math.log(n)
                play = max(legal, key=lambda p: totals[p] / visits[p]
                           + self.exploration * math.sqrt(log_n / visits[p]))
            deal = determinise(view, self.rng)
            deal.play(play, check=False)
            reward = self._rollout(deal, team)
            visits[play] += 1
            totals[play] += reward
        self.last_stats = {p: (visits[p], totals[p] / visits[p] if visits[p] else 0.0) for p in legal}
        return max(legal, key=lambda p: (visits[p], totals[p] / visits[p] if visits[p] else -math.inf))

    def explain(self, view: PlayerView, play: Play) -> str:
        visits, mean = self.last_stats.get(play, (0, 0.0))
        return f"{describe_play(play, view.houses)}: {visits} simulations, {100 * mean:+.0f} points on average"
