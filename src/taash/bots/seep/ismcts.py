"""The ``ismcts`` bot: information-set Monte Carlo search over the seat's own plays.

Each iteration deals the cards this seat has not seen to the places they can be (the other hands, the cards
still to come), consistently with everything the seat knows (:func:`hand_requirements`): hand sizes, the bid,
that an owner keeps a card of his house's value (I2, R4), and who must hold Qasim's restricted cards (7.2). It
then picks one of its own legal plays by UCB1 and plays the deal out with a fast policy for everyone (by default
``sharp``: the heuristic's rules of thumb, in the compiled core, each seat reading the guessed hands; see
:mod:`lite`). The reward
is the points its team gains from now on minus the other team's, so past captures, which no play can change, do
not add noise. The search is anytime: an iteration budget, a time budget, or both.

This is the flat (one level) form of single-observer ISMCTS: every determinisation shares the root, whose
actions are the same in all of them because they depend only on what the seat sees.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable

from taash.bots.base import check_number, check_whole
from taash.bots.seep.choice import SeepBot
from taash.bots.seep.heuristic import HeuristicBot
from taash.bots.seep.inference import hand_requirements
from taash.bots.seep.lite import lite_outcomes, lite_play, model_outcomes, sharp_outcomes, sharp_play
from taash.bots.seep.opponent_model import TEMPERATURE, past_plays, reader
from taash.bots.seep.rollout import (
    Policy,
    counted_outcomes,
    counted_play,
    greedy_outcomes,
    greedy_play,
    play_out,
)
from taash.cards import cards_of, mask_of
from taash.i18n import _, ngettext
from taash.seep.deal import Deal
from taash.seep.plays import CAPTURE, Play
from taash.seep.view import PlayerView, view_of

#: Random deals tried before the constrained assignment is used (rejection keeps the deals uniform).
REJECTION_TRIES = 64
#: Steps the constrained assignment may take before it settles for the best it found.
ASSIGNMENT_STEPS = 2000
#: The most guessed deals an iteration may add to the pool of guesses (``guesses=``).
MAX_GUESSES = 256
#: The longest time budget a decision may be given (``seconds=``).
MAX_SECONDS = 600.0


def _satisfied(hands: list[int], requirements: list[tuple[int, int]]) -> bool:
    return all(hands[seat] & cards for seat, cards in requirements)


def _constrained_assignment(requirements: list[tuple[int, int]], pool: int, need: list[int],
                            rng: random.Random) -> list[int]:
    """Cards given to the seats so that every requirement is met: a bounded backtracking search.

    It gives up after :data:`ASSIGNMENT_STEPS` steps (only a contradictory view can need that many) and then
    keeps the requirements it could meet one by one.
    """
    order = sorted(requirements, key=lambda r: (r[1] & pool).bit_count())
    given = [0] * len(need)
    room = need[:]
    steps = ASSIGNMENT_STEPS

    def solve(i: int, free: int) -> bool:
        nonlocal steps
        steps -= 1
        if i == len(order):
            return True
        if steps < 0:
            return False
        seat, cards = order[i]
        if given[seat] & cards:
            return solve(i + 1, free)
        if not room[seat]:
            return False
        choices = cards_of(cards & free)
        rng.shuffle(choices)
        for c in choices:
            given[seat] |= 1 << c
            room[seat] -= 1
            if solve(i + 1, free & ~(1 << c)):
                return True
            given[seat] &= ~(1 << c)
            room[seat] += 1
            if steps < 0:
                return False
        return False

    if solve(0, pool):
        return given
    given = [0] * len(need)
    room = need[:]
    free = pool
    for seat, cards in order:
        choices = cards_of(cards & free)
        if not given[seat] & cards and room[seat] and choices:
            c = rng.choice(choices)
            given[seat] |= 1 << c
            room[seat] -= 1
            free &= ~(1 << c)
    return given


def deal_hidden(view: PlayerView, rng: random.Random,
                requirements: list[tuple[int, int]] | None = None) -> tuple[list[int], list[int]]:
    """The other hands and the cards still to be dealt (in random order), meeting every requirement.

    Uniform among the deals that fit when one of :data:`REJECTION_TRIES` random deals fits (nearly always);
    otherwise the requirements are met first by a bounded search and the rest is dealt at random.
    """
    if requirements is None:
        requirements = hand_requirements(view)
    players = view.players
    unseen = cards_of(view.unseen())
    need = {s: view.hand_sizes[s] for s in range(players) if s != view.seat}
    hands = [0] * players
    hands[view.seat] = view.hand
    for _try in range(REJECTION_TRIES if requirements else 1):
        rng.shuffle(unseen)
        i = 0
        for s, n in need.items():
            hands[s] = mask_of(unseen[i:i + n])
            i += n
        if _satisfied(hands, requirements):
            return hands, unseen[i:]
    room = [need.get(s, 0) for s in range(players)]
    given = _constrained_assignment(requirements, mask_of(unseen), room, rng)
    placed = 0
    for g in given:
        placed |= g
    rest = [c for c in unseen if not placed >> c & 1]
    rng.shuffle(rest)
    for s, n in need.items():
        n -= given[s].bit_count()
        hands[s] = given[s] | mask_of(rest[:n])
        rest = rest[n:]
    return hands, rest


def determinise(view: PlayerView, rng: random.Random, requirements: list[tuple[int, int]] | None = None) -> Deal:
    """A full deal consistent with ``view``: the unseen cards dealt at random to where they may be.

    ``requirements`` (from :func:`hand_requirements`, worked out once per decision by the search) may be given.
    """
    hands, rest = deal_hidden(view, rng, requirements)
    return deal_of(view, hands, rest)


def deal_of(view: PlayerView, hands: list[int], rest: list[int]) -> Deal:
    """The full deal of ``view`` where the hidden hands are ``hands`` and the cards still to be dealt ``rest``
    (as :func:`deal_hidden` gives them)."""
    players = view.players
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




def check_settings(iterations: object, seconds: object, candidates: object, prune: object,
                   guesses: object = 0, temperature: object = TEMPERATURE) -> None:
    """Refuse search settings out of their bounds (a setting from the command line may be any word)."""
    check_whole(iterations, "iterations", 1, 1_000_000)
    check_whole(guesses, "guesses", 0, MAX_GUESSES)
    check_number(temperature, "temperature", 0, 100, above_low=True)
    if seconds is not None:
        check_number(seconds, "seconds", 0, MAX_SECONDS, above_low=True)
    check_whole(candidates, "candidates", 0, 1000)
    check_number(prune, "prune", 0, 100)


class IsmctsBot(SeepBot):
    """Information-set Monte Carlo search at the seat's own decision (see the module's docstring)."""

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int = 400, seconds: float | None = None,
                 rollout: str = "sharp", candidates: int = 8, prune: float = 2.5, guesses: int = 0,
                 temperature: float = TEMPERATURE, opponent: str = "greedy"):
        check_settings(iterations, seconds, candidates, prune, guesses, temperature)
        if opponent not in ("greedy", "lite"):
            raise ValueError(f"unknown opponent model {opponent!r} (greedy or lite)")
        self.rng = random.Random(seed)
        #: Determinisations per decision (each plays out every candidate still in the race).
        self.iterations = iterations
        #: Wall-clock seconds a decision may take, all of it (working out what the seat knows, ranking the
        #: candidates, the search); None: no limit, and the bot is deterministic for its seed. When the time runs
        #: out the search stops after the iteration in progress (a few milliseconds) and answers with what it has;
        #: with no iteration done, the heuristic's best play.
        self.seconds = seconds
        policies: dict[str, Policy] = {"greedy": greedy_play, "counted": counted_play, "lite": lite_play,
                                       "sharp": sharp_play, "model": lite_play, "heuristic": _heuristic_play,
                                       "random": _random_play}
        if rollout not in policies:
            raise ValueError(f"unknown play-out policy {rollout!r} (greedy, counted, lite, sharp, model, heuristic "
                             "or random)")
        #: How every seat plays in the play-outs: ``sharp`` (the default, see below), ``greedy`` (fastest; the most
        #: points now, no sweep left to the next hand of the guessed deal),
        #: ``counted`` (as fast: greedy, but judging the next player's sweep by the cards the mover has not seen),
        #: ``lite`` (the heuristic bot's rules without its reading of the others' plays, from each seat's view of
        #: the guessed deal, in the compiled core: :mod:`lite`), ``sharp`` (``lite`` reading the guessed deal's
        #: other hands instead of counting chances), ``model`` (the searching seat's team ``sharp``, the other
        #: team ``lite``: the others play as the heuristic would, unable to see a hand), ``heuristic`` (the
        #: heuristic bot's choice, from each seat's view of the guessed deal: far slower), or ``random``.
        self.policy = policies[rollout]
        #: The outcomes of a set of first plays in one call, for the policies that have it (in the compiled core
        #: when built); None: one play-out at a time with :attr:`policy`.
        self.outcomes = _FAST_OUTCOMES.get(rollout)
        self.bidder = HeuristicBot(seed)
        #: Search only the heuristic's best few plays (0: every legal play).
        self.candidates = candidates
        #: Drop a candidate once it trails the leader by this many standard errors (0: never).
        self.prune = prune
        #: Guessed deals added to the decision's pool of guesses at each iteration; the one played out is drawn
        #: from the whole pool in proportion to how likely the other seats' past plays were under the opponent
        #: model (:mod:`opponent_model`). 0 (the default): no pool, every deal that fits the hard facts is as
        #: likely as any other.
        self.guesses = guesses
        #: How soft the opponent model is (points of its score that make a play e times likelier; with
        #: ``guesses``): higher, the others' plays say less about their hands.
        self.temperature = float(temperature)
        #: The opponent model of ``guesses``: ``greedy`` (the greedy play-out's scores, reading the next hand) or
        #: ``lite`` (the heuristic's rules from what the seat saw then; :func:`opponent_model.play_likelihood`).
        self.opponent = opponent
        #: After a search: each candidate's determinisations played and mean gain in points (its team's minus
        #: the other team's, from now on).
        self.last_stats: dict[Play, tuple[int, float]] = {}

    def choose_bid(self, view: PlayerView) -> int:
        return self.bidder.choose_bid(view)

    def _outcome(self, world: Deal, team: int, first: Play, seed: float) -> float:
        """Make ``first`` in a copy of ``world`` and play it out; what ``team`` gains from now on, minus the
        other team's. ``seed`` fixes the play-out's chance, so every candidate meets the same luck."""
        deal = world.clone()
        before0, before1 = deal.piles
        sweeps_before = len(deal.sweeps)
        deal.play(first, check=False)
        play_out(deal, self.policy, random.Random(seed).random)
        gain = [deal.card_points_of(deal.piles[0] & ~before0), deal.card_points_of(deal.piles[1] & ~before1)]
        for seat, _card, pts in deal.sweeps[sweeps_before:]:
            gain[seat % 2] += pts
        return float(gain[team] - gain[1 - team])

    def deadline(self) -> float:
        """When a decision started now must be answered (``time.perf_counter()``; infinity with no budget)."""
        return time.perf_counter() + self.seconds if self.seconds else math.inf

    def choose_play(self, view: PlayerView) -> Play:
        deadline = self.deadline()  # the whole decision counts, what the seat knows included
        legal = view.legal_plays()
        if len(legal) == 1:
            self.last_stats = {}
            return legal[0]
        requirements = hand_requirements(view)
        pasts = past_plays(view) if self.guesses else []
        if not pasts:
            return self.search(view, lambda: determinise(view, self.rng, requirements), deadline)
        pool: list[tuple[list[int], list[int], float]] = []
        likelihood = reader(view, pasts, self.temperature, self.opponent)
        return self.search(view, lambda: self.likely_deal(view, requirements, likelihood, pool), deadline)

    def likely_deal(self, view: PlayerView, requirements: list[tuple[int, int]],
                    likelihood: Callable[[list[int]], float], pool: list[tuple[list[int], list[int], float]]) -> Deal:
        """A deal that fits ``view``, drawn from ``pool`` (the guesses of this decision so far, each with the log
        of ``likelihood``: of the other seats' past plays under the opponent model) in proportion to
        that likelihood, once :attr:`guesses` new guesses have joined the pool (importance resampling from a
        pool that grows with every iteration)."""
        for _guess in range(self.guesses):
            hands, rest = deal_hidden(view, self.rng, requirements)
            pool.append((hands, rest, likelihood(hands)))
        top = max(x for _, _, x in pool)
        weights = [math.exp(x - top) for *_hands, x in pool]
        pick = self.rng.random() * sum(weights)
        for (hands, rest, _weight), w in zip(pool, weights, strict=True):
            pick -= w
            if pick < 0:
                return deal_of(view, hands, rest)
        return deal_of(view, pool[-1][0], pool[-1][1])

    def search(self, view: PlayerView, world: Callable[[], Deal], deadline: float | None = None) -> Play:
        """The search from ``view``; ``world()`` gives each iteration a full deal to play out (a fresh one).
        It stops at ``deadline`` (``time.perf_counter()``; by default ``seconds`` from now)."""
        if deadline is None:
            deadline = self.deadline()
        legal = view.legal_plays()
        if len(legal) == 1:
            self.last_stats = {}
            return legal[0]
        if self.candidates and len(legal) > self.candidates:
            ranked = sorted(legal, key=lambda p: -self.bidder.evaluate(view, p)[0])
            legal = ranked[: self.candidates]
        team = view.seat % 2
        alive = list(range(len(legal)))
        outcomes: list[list[float]] = [[] for _ in legal]
        n = 0
        while n < self.iterations and time.perf_counter() < deadline and len(alive) > 1:
            n += 1
            w = world()
            seed = self.rng.random()
            fast = self.outcomes
            if fast is not None:  # in the compiled core when built: the same numbers, far sooner
                for j, x in zip(alive, fast(w, team, [legal[j] for j in alive], seed), strict=True):
                    outcomes[j].append(x)
            else:
                for j in alive:
                    outcomes[j].append(self._outcome(w, team, legal[j], seed))
            if self.prune and n >= 8 and n % 4 == 0:
                alive = _survivors(outcomes, alive, self.prune)
        means = [statistics.fmean(o) if o else -math.inf for o in outcomes]
        self.last_stats = {p: (len(outcomes[j]), means[j] if outcomes[j] else 0.0)
                           for j, p in enumerate(legal)}
        best = max(alive, key=lambda j: means[j])
        return legal[best]

    def explain_play(self, view: PlayerView, play: Play) -> str:
        """The heuristic's reason for ``play`` and, after a search, what the simulations said of it: ``"Capture
        2♠ 9♠ with J♦: 11 points, leaves no sweep; over 400 guessed deals its team nets +14, 6 more than the next
        best"``."""
        reason = self.bidder.explain(view, play)
        visits, mean = self.last_stats.get(play, (0, 0.0))
        if not visits:
            return _("{reason}; the only play", reason=reason) if len(view.legal_plays()) == 1 else reason
        others = [m for p, (v, m) in self.last_stats.items() if p != play and v]
        net = f"{mean:+.0f}"
        if not others:
            return ngettext("{reason}; over {n} guessed deal its team nets {net}",
                            "{reason}; over {n} guessed deals its team nets {net}", visits, reason=reason, net=net)
        ahead = mean - max(others)
        if ahead >= 0.5:
            return ngettext("{reason}; over {n} guessed deal its team nets {net}, {ahead} more than the next best",
                            "{reason}; over {n} guessed deals its team nets {net}, {ahead} more than the next best",
                            visits, reason=reason, net=net, ahead=f"{ahead:.0f}")
        return ngettext("{reason}; over {n} guessed deal its team nets {net}, as good as the next best",
                        "{reason}; over {n} guessed deals its team nets {net}, as good as the next best", visits,
                        reason=reason, net=net)


def _survivors(outcomes: list[list[float]], alive: list[int], width: float) -> list[int]:
    """The candidates not clearly beaten: each is compared with the leader on the same determinisations, and
    dropped when its mean difference is more than ``width`` standard errors below zero."""
    n = min(len(outcomes[j]) for j in alive)
    leader = max(alive, key=lambda j: statistics.fmean(outcomes[j][:n]))
    kept = []
    for j in alive:
        if j == leader:
            kept.append(j)
            continue
        diffs = [a - b for a, b in zip(outcomes[j][:n], outcomes[leader][:n], strict=True)]
        mean = statistics.fmean(diffs)
        spread = statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.inf
        if mean + width * spread >= 0:
            kept.append(j)
    return kept


def _random_play(deal: Deal, legal: list[Play], random: Callable[[], float]) -> Play:
    return legal[int(random() * len(legal))]


_PLAYOUT_HEURISTIC = HeuristicBot(0)

#: The play-out policies whose outcomes of a whole set of plays one call works out (in the compiled core when
#: built).
_FAST_OUTCOMES: dict[str, Callable[[Deal, int, list[Play], float], list[float]]] = {
    "greedy": greedy_outcomes, "counted": counted_outcomes, "lite": lite_outcomes, "sharp": sharp_outcomes,
    "model": model_outcomes}


def _heuristic_play(deal: Deal, legal: list[Play], random: Callable[[], float]) -> Play:
    """The heuristic bot's choice for the seat to move, from that seat's view of the guessed deal (ties by
    ``random``)."""
    view = view_of(deal, deal.to_move)
    scored = [(_PLAYOUT_HEURISTIC.evaluate(view, p)[0], p) for p in legal]
    best = max(s for s, _ in scored)
    ties = [p for s, p in scored if s >= best - 1e-9]
    return ties[int(random() * len(ties))]
