"""Rummy's ``ismcts`` bot (the level ``expert``): a search over deals consistent with what its seat knows.

Each iteration deals the unseen cards at random to the opponents' hands, the stock and out of play, every
opponent keeping the cards he is known to hold (:mod:`taash.bots.rummy.inference`; with ``sharpen``, at two
players the opponent's hand is the best of a few such guesses by the heuristic's measure, more as the deal goes
on: a player some turns into a deal holds a far better hand than a random one), and plays each candidate
action out on that same guessed deal (:mod:`taash.bots.rummy.rollout`: the seat and the next player play the exact
solver's greedy choices, to a valid declaration, which pays its points, or to the seat's ``depth``-th turn after
this one, where the heuristic's measure of the hands stands in for the rest of the deal). The candidate with the
best mean outcome wins; candidates clearly beaten on the same deals are dropped as the search goes (``prune``).
The same guessed deal for every candidate (the same stock, the same hands) makes their differences, not their
luck, decide.

The candidates: at a turn's start, taking the stock's card and taking the open card (a joker on the pile is taken
at once; a hopeless first hand is dropped as the heuristic drops it); after taking, the heuristic's best
``candidates`` discards (a valid declaration is made at once: it scores 0 and wins the deal). This is the flat
(one level) form of single-observer ISMCTS, as Seep's expert: the seat's actions are the same in every
determinisation, since they depend only on what it sees. It has an iteration budget, a time budget, or both.
Below ``play_from`` players (by default: at every table) the play-outs choose no take or discard: the takes and
discards are an expectimax over the next card the seat may draw, exact over the cards it has not seen
(:mod:`taash.bots.rummy.lookahead`; with ``lookahead=0``, the heuristic's), and only a drop is weighed by
play-outs. Measured against the heuristic (README, "The arena for Rummy"), the expectimax does clearly better than
the play-outs' takes and discards at two players, and as well at six, in a tenth of the time. Below
``drops_from`` players the seat drops only as the heuristic does (off by default).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Hashable, Sequence

from taash.bots.base import check_number, check_whole
from taash.bots.rummy.heuristic import TAKE_GAIN, HeuristicBot
from taash.bots.rummy.inference import Knowledge, World, determinise, knowledge
from taash.bots.rummy.lookahead import LookaheadPolicy
from taash.bots.rummy.rollout import MOST_TURNS, Playout, Table
from taash.i18n import _, ngettext
from taash.packs import face_name
from taash.rummy.deal import Declare, Discard, Drop, Phase, Take
from taash.rummy.game import RummyCodec
from taash.rummy.melds import is_joker
from taash.rummy.solver import discard_values
from taash.rummy.view import PlayerView

#: The longest time budget a decision may be given (``seconds=``).
MAX_SECONDS = 600.0
#: Iterations before candidates may be pruned, and how often after.
PRUNE_FROM = 8
PRUNE_EVERY = 4
#: A drop is weighed for a hand the heuristic measures at this or more, and made when playing on is expected to
#: cost this many points more than the drop.
DROP_FROM = 40.0
DROP_MARGIN = 3.0

Action = Drop | Take | Discard | Declare




def check_settings(iterations: object, seconds: object, candidates: object, depth: object, prune: object) -> None:
    """Refuse search settings out of their bounds (a setting from the command line may be any word)."""
    check_whole(iterations, "iterations", 1, 1_000_000)
    if seconds is not None:
        check_number(seconds, "seconds", 0, MAX_SECONDS, above_low=True)
    check_whole(candidates, "candidates", 1, 14)
    check_whole(depth, "depth", 1, 100)
    check_number(prune, "prune", 0, 100)


def _survivors(outcomes: list[list[float]], alive: list[int], width: float) -> list[int]:
    """The candidates not clearly beaten: each is compared with the leader on the same guessed deals and dropped
    when its mean difference is more than ``width`` standard errors below zero."""
    n = min(len(outcomes[j]) for j in alive)
    leader = max(alive, key=lambda j: statistics.fmean(outcomes[j][:n]))
    kept = []
    for j in alive:
        diffs = [a - b for a, b in zip(outcomes[j][:n], outcomes[leader][:n], strict=True)]
        spread = statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.inf
        if j == leader or statistics.fmean(diffs) + width * spread >= 0:
            kept.append(j)
    return kept


def _beats(mine: list[float], other: list[float], width: float) -> bool:
    """Whether ``mine`` is better than ``other`` on the guessed deals both were played on, by more than ``width``
    standard errors of the mean difference."""
    n = min(len(mine), len(other))
    if n < 2:
        return False
    diffs = [a - b for a, b in zip(mine[:n], other[:n], strict=True)]
    mean = statistics.fmean(diffs)
    spread = statistics.stdev(diffs) / math.sqrt(n)
    return mean > 0 and mean > width * spread


def _order(view: PlayerView) -> tuple[int, ...]:
    """The seats still in the deal in playing order, the seat of ``view`` first."""
    k = view.seats.index(view.seat)
    return tuple(s for s in (view.seats[(k + i) % len(view.seats)] for i in range(len(view.seats)))
                 if view.status[s] == "in")


class IsmctsBot:
    """Determinised play-outs of each candidate action (see the module's docstring)."""

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int = 24, seconds: float | None = None, candidates: int = 4,
                 depth: int = 1, prune: float = 2.5, drops: int = 12, measured: int = 0, anchor: float = 0.0,
                 sharpen: int = 1, drops_from: int = 2, play_from: int = 7, take_gain: float = TAKE_GAIN,
                 lookahead: int = 1):
        check_settings(iterations, seconds, candidates, depth, prune)
        check_number(take_gain, "take_gain", 0, 100)
        #: The heuristic whose choices the search starts from (``take_gain``: see :class:`HeuristicBot`).
        self.heuristic = HeuristicBot(seed, take_gain)
        check_whole(lookahead, "lookahead", 0, 1)
        #: Below :attr:`play_from` players, the takes and discards are the expectimax over the next card's
        #: (:mod:`taash.bots.rummy.lookahead`) instead of the heuristic's (0: the heuristic's).
        self.lookahead = LookaheadPolicy(self.heuristic) if lookahead else None
        check_whole(drops_from, "drops_from", 2, 7)
        #: Drops are weighed by play-outs (``drops``) only at a table of this many players or more; at a smaller
        #: one the seat drops only as the heuristic does, a hopeless first hand (2: at any table).
        self.drops_from = drops_from
        check_whole(play_from, "play_from", 2, 7)
        #: The play-outs choose the takes and discards at a table of this many players or more; at a smaller table
        #: the expectimax's choices stand (:attr:`lookahead`) and the play-outs only weigh drops (2: at any table;
        #: 7, the default: at none).
        self.play_from = play_from
        check_number(anchor, "anchor", 0, 100)
        #: The heuristic's own choice stands unless another candidate beats it on the same guessed deals by this
        #: many standard errors (0: the best mean wins).
        self.anchor = anchor
        check_whole(sharpen, "sharpen", 1, 100)
        #: At two players, the opponent's guessed hand is the best (by the heuristic's measure) of up to this many
        #: random ones, one more for each of his turns so far (1: a random hand): he has kept the cards that serve
        #: him. (At more players each guessed hand is random: the search was measured so.) Off by default: over 100
        #: duplicate pairs at two players it did no better than random guesses.
        self.sharpen = sharpen
        check_whole(drops, "drops", 0, 1_000_000)
        check_whole(measured, "measured", 0, 14)
        #: In its own play-out turns the seat discards, of this many discards leaving the fewest points, the one
        #: the heuristic's measure prefers (0: the fewest points).
        self.measured = measured
        self.rng = random.Random(seed)
        #: Guessed deals per decision (each plays out every candidate still in the race).
        self.iterations = iterations
        #: Wall-clock seconds a decision may take; None: no limit, and the bot is deterministic for its seed. When
        #: the time runs out the search answers after the iteration in progress; with none done, the heuristic's
        #: choice.
        self.seconds = seconds
        #: Discards searched: the heuristic's best few.
        self.candidates = candidates
        #: The seat's own turns each play-out goes on for after this one (unless someone declares first).
        self.depth = depth
        #: Drop a candidate once it trails the leader by this many standard errors (0: never).
        self.prune = prune
        #: Guessed deals, played to their end, that weigh a drop against playing on (0: drop only as the
        #: heuristic does, a hopeless first hand).
        self.drops = drops
        #: After weighing a drop: deals played, mean outcome of playing on, the drop's cost.
        self.drop_stats: tuple[int, float, int] = (0, 0.0, 0)
        #: After a search: each candidate's guessed deals played and mean outcome (points won or lost at a
        #: declaration in the play-out, else the leaf's estimate from the measures of the hands).
        self.last_stats: dict[Action, tuple[int, float]] = {}

    # -- choosing -------------------------------------------------------------------------------------------

    def choose(self, view: PlayerView) -> Action:
        deadline = time.perf_counter() + self.seconds if self.seconds else math.inf
        self.last_stats = {}
        self.drop_stats = (0, 0.0, 0)
        legal = view.legal_actions()
        declaration = next((a for a in legal if isinstance(a, Declare)), None)
        if declaration is not None:
            return declaration
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.TAKE:
            fallback = self.heuristic.choose(view)
            if isinstance(fallback, Drop):
                return fallback
            if view.pile and is_joker(view.pile[-1][0], view.wild) and Take("discard") in legal:
                return Take("discard")
            if Drop() in legal and self._weighs_drop(view) and self._drop_pays(view, fallback, deadline):
                return Drop()
            takes = [a for a in legal if isinstance(a, Take)]
            if len(takes) == 1:
                return takes[0]
            if len(view.seats) < self.play_from:
                if self.lookahead is None:
                    return fallback
                takes_open = Take("discard") in legal and self.lookahead.takes_open_card(view)
                return Take("discard") if takes_open or Take("stock") not in legal else Take("stock")
            candidates: list[Action] = [fallback, *(t for t in takes if t != fallback)]
        else:
            if len(view.seats) < self.play_from and self.lookahead is not None:
                return Discard(self.lookahead.discard_order(view, deadline)[0][0])
            ranked = [Discard(card) for card, _ in self.heuristic.discard_order(view)]
            candidates = list(ranked[: self.candidates if len(view.seats) >= self.play_from else 1])
            if len(candidates) == 1:
                return candidates[0]
        return self.search(view, candidates, deadline)

    def _weighs_drop(self, view: PlayerView) -> bool:
        """Whether a drop is weighed by play-outs: ``drops`` above 0, at a table of :attr:`drops_from` or more
        players."""
        return bool(self.drops) and len(view.seats) >= self.drops_from

    def _drop_pays(self, view: PlayerView, take: Action, deadline: float) -> bool:
        """Whether dropping now costs less than playing on with ``take``, over ``drops`` guessed deals played to
        their end by every seat's greedy choices (weighed only for a hand measuring :data:`DROP_FROM` or more)."""
        rules, wild = view.rules, view.wild
        late = HeuristicBot.lateness(view)
        if self.heuristic.measure(view.hand, rules, wild, late) < DROP_FROM or not isinstance(take, Take):
            return False
        cost = view.middle_drop if view.has_taken[view.seat] else view.first_drop
        known = knowledge(view)
        guess = self._guess(view, known)
        order = _order(view)
        playout = Playout(rules, wild, view.seat, MOST_TURNS, lambda hand: self.heuristic.measure(hand, rules, wild,
                                                                                                   late),
                          everyone=True)
        pile = [face for face, _ in view.pile]
        outcomes: list[float] = []
        while len(outcomes) < self.drops and time.perf_counter() < deadline:
            world = guess()
            table = Table({s: list(h) for s, h in world.hands.items()}, list(world.stock), list(pile), order)
            outcomes.append(playout.after_take(table, take.source, random.Random(self.rng.getrandbits(32))))
        self.drop_stats = (len(outcomes), statistics.fmean(outcomes) if outcomes else 0.0, cost)
        return bool(outcomes) and statistics.fmean(outcomes) < -cost - DROP_MARGIN

    def _guess(self, view: PlayerView, known: Knowledge) -> Callable[[], World]:
        """Guessed deals for ``view`` (see :attr:`sharpen`)."""
        if self.sharpen <= 1 or len(view.seats) != 2:
            return lambda: determinise(view, known, self.rng)
        rules, wild = view.rules, view.wild
        played = Counter(turn.seat for turn in view.turns)
        tries = {seat: min(self.sharpen, 1 + played[seat]) for seat, _, _ in known.opponents}

        def judge(hand: Sequence[int]) -> float:
            return self.heuristic.measure(hand, rules, wild)

        return lambda: determinise(view, known, self.rng, judge, tries)

    def search(self, view: PlayerView, candidates: Sequence[Action], deadline: float = math.inf) -> Action:
        """The candidate with the best mean return over guessed deals (the first, the heuristic's choice, when no
        iteration could be made in time)."""
        known = knowledge(view)
        guess = self._guess(view, known)
        me = view.seat
        order = _order(view)
        late = HeuristicBot.lateness(view)
        rules, wild = view.rules, view.wild
        playout = Playout(rules, wild, me, self.depth,
                          lambda hand: self.heuristic.measure(hand, rules, wild, late), measured=self.measured)
        left: dict[int, int] = {}
        if view.phase is Phase.DISCARD:
            keep = view.taken_from_pile if rules.keep_taken_discard else None
            left = discard_values(view.hand, rules, wild, keep)
        pile = [face for face, _ in view.pile]
        outcomes: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        n = 0
        while n < self.iterations and len(alive) > 1 and time.perf_counter() < deadline:
            n += 1
            world = guess()
            luck = self.rng.getrandbits(32)
            for j in alive:
                table = Table({s: list(h) for s, h in world.hands.items()}, list(world.stock), list(pile), order)
                action = candidates[j]
                rng = random.Random(luck)
                if isinstance(action, Take):
                    outcome = playout.after_take(table, action.source, rng)
                else:
                    assert isinstance(action, Discard)
                    table.hands[me].remove(action.card)
                    table.pile.append(action.card)
                    outcome = playout.after_discard(table, left[action.card], rng)
                outcomes[j].append(outcome)
            if self.prune and n >= PRUNE_FROM and n % PRUNE_EVERY == 0:
                alive = _survivors(outcomes, alive, self.prune)
        means = [statistics.fmean(o) if o else -math.inf for o in outcomes]
        self.last_stats = {a: (len(outcomes[j]), means[j] if outcomes[j] else 0.0)
                           for j, a in enumerate(candidates)}
        if n == 0:
            return candidates[0]
        best = max(alive, key=lambda j: (means[j], -j))
        if best != 0 and self.anchor and not _beats(outcomes[best], outcomes[0], self.anchor):
            return candidates[0]
        return candidates[best]

    # -- saying why -----------------------------------------------------------------------------------------

    def explain(self, view: PlayerView, action: Hashable) -> str:
        """The heuristic's reason when it would do the same, else the action in words; and what the guessed deals
        said of it when it was searched."""
        if isinstance(action, Take) and action.source == "discard" and view.pile \
                and is_joker(view.pile[-1][0], view.wild):
            return _("Take {card} from the discard pile: a joker", card=face_name(view.pile[-1][0]))
        visits, mean, cost = self.drop_stats
        if isinstance(action, Drop) and visits:
            return ngettext("Drop ({cost} points): over {n} guessed deal played to the end, playing on costs "
                            "{loss} points on average",
                            "Drop ({cost} points): over {n} guessed deals played to the end, playing on costs "
                            "{loss} points on average", visits, cost=cost, loss=f"{-mean:.0f}")
        if self.lookahead is not None and len(view.seats) < self.play_from:
            said = self.lookahead.explain(view, action)
            if said is not None:
                return said
        if action == self.heuristic.choose(view):
            reason = self.heuristic.explain(view, action)
        else:
            reason = RummyCodec().describe(view, action)
        visits, mean = self.last_stats.get(action, (0, 0.0))  # type: ignore[call-overload]
        if not visits:
            return reason
        others = [m for a, (v, m) in self.last_stats.items() if a != action and v]
        score = f"{mean:+.0f}"
        if not others:
            return ngettext("{reason}; over {n} guessed deal it scores {score} on average",
                            "{reason}; over {n} guessed deals it scores {score} on average", visits, reason=reason,
                            score=score)
        ahead = mean - max(others)
        if ahead >= 0.5:
            return ngettext("{reason}; over {n} guessed deal it scores {score} on average, {ahead} more than the "
                            "next best",
                            "{reason}; over {n} guessed deals it scores {score} on average, {ahead} more than the "
                            "next best", visits, reason=reason, score=score, ahead=f"{ahead:.0f}")
        return ngettext("{reason}; over {n} guessed deal it scores {score} on average, as good as the next best",
                        "{reason}; over {n} guessed deals it scores {score} on average, as good as the next best",
                        visits, reason=reason, score=score)
