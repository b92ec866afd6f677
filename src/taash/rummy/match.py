"""A match of 13-card Rummy: the formats of section 6 (points, Pool 101/201, Deals 2/3/6) and who deals next.

The match owns the only random generator, ``random.Random(seed)``, which draws the first dealer and shuffles every
pack. Each deal reshuffles its discard pile (R4) from its own stream, :func:`deal_stream` of the match's seed and
the deal's index, so that a game record with its seed replays exactly whatever packs it holds. A server's table
deals by :mod:`taash.fairness` instead (a :class:`~taash.fairness.Fairness` given to the match): the first dealer,
every pack (:func:`fair_pack`) and every reshuffle come from its committed secret. :class:`Tally` is
the scoring of section 6 alone (totals, eliminations, tie-breaks, the next deal's seats and dealer): the match and
:func:`taash.rummy.record.replay` share it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from taash.fairness import Fairness, Reshuffles
from taash.rummy.deal import Action, Deal, DealPoints, sorted_pack
from taash.rummy.errors import BadRulesError, IllegalTurnError
from taash.rummy.rules import PLAYER_COUNTS, Rules
from taash.rummy.view import PlayerView, view_of


@dataclass(frozen=True, slots=True)
class Format:
    """How deals make a match (section 6)."""

    name: str
    kind: Literal["points", "pool", "deals"]
    #: Pool: a total that reaches it puts the player out.
    limit: int = 0
    #: Deals N: the deals played before a tie-break.
    deals: int = 0
    #: Pool 201's first and middle drops (others use the rules').
    drops: tuple[int, int] | None = None


FORMATS: dict[str, Format] = {
    "points": Format("points", "points"),
    "pool101": Format("pool101", "pool", limit=101),
    "pool201": Format("pool201", "pool", limit=201, drops=(25, 50)),
    "deals2": Format("deals2", "deals", deals=2),
    "deals3": Format("deals3", "deals", deals=3),
    "deals6": Format("deals6", "deals", deals=6),
}


def get_format(name: str) -> Format:
    if name not in FORMATS:
        raise BadRulesError(f"unknown match format {name[:40]!r} (known: {', '.join(FORMATS)})")
    return FORMATS[name]


def deal_stream(seed: int, index: int) -> random.Random:
    """The random stream deal ``index`` (from 0) of a match with ``seed`` reshuffles its discard pile from."""
    return random.Random(f"taash-rummy/{seed}/{index}")


def fair_pack(rules: Rules, seats: int, fairness: Fairness, deal: int) -> list[int]:
    """Deal ``deal``'s pack (from 1) for ``seats`` players dealt in, as fair dealing shuffles it: the faces of
    :func:`~taash.rummy.deal.sorted_pack` shuffled by the deal's ``pack`` draw 0."""
    pack = sorted_pack(rules, seats)
    fairness.shuffle(pack, deal, "pack", 0)
    return pack


def reshuffles(seed: int, fairness: Fairness | None, index: int) -> random.Random | Reshuffles:
    """What deal ``index`` (from 0) reshuffles its discard pile with: the fair dealing's ``reshuffle`` draws of
    the deal, or else :func:`deal_stream` of the seed."""
    return deal_stream(seed, index) if fairness is None else Reshuffles(fairness, index + 1)


@dataclass(frozen=True, slots=True)
class DealResult:
    """One finished deal of a match."""

    dealer: int
    seats: tuple[int, ...]
    points: DealPoints
    #: Every seat's total after the deal.
    totals: tuple[int, ...]
    #: Seats that went out of a pool with this deal.
    eliminated: tuple[int, ...] = ()


class Tally:
    """The scoring of a match: totals, eliminations (pools), the tie-break (Deals N), and who plays and deals."""

    def __init__(self, players: int, fmt: Format):
        self.players = players
        self.format = fmt
        self.totals = [0] * players
        self.results: list[DealResult] = []
        #: The deal (counted from 1) in which each eliminated seat went out of a pool.
        self.eliminated: dict[int, int] = {}

    def seats(self) -> tuple[int, ...]:
        """The seats dealt in next (empty once the match is over)."""
        if self.over:
            return ()
        if self.format.kind == "pool":
            return tuple(s for s in range(self.players) if s not in self.eliminated)
        if self.format.kind == "deals" and len(self.results) >= self.format.deals:
            return self._lowest()
        return tuple(range(self.players))

    def _lowest(self) -> tuple[int, ...]:
        low = min(self.totals)
        return tuple(s for s in range(self.players) if self.totals[s] == low)

    def next_dealer(self, first_dealer: int) -> int:
        """Who deals next: ``first_dealer`` for the first deal, then the next seat clockwise dealt in."""
        seats = self.seats()
        if not self.results:
            return first_dealer
        last = self.results[-1].dealer
        return next(s for s in ((last + k) % self.players for k in range(1, self.players + 1)) if s in seats)

    def add(self, dealer: int, seats: tuple[int, ...], points: DealPoints) -> DealResult:
        for s in seats:
            self.totals[s] += points.points[s] or 0
        out: tuple[int, ...] = ()
        if self.format.kind == "pool":
            out = tuple(s for s in seats if self.totals[s] >= self.format.limit)
            for s in out:
                self.eliminated[s] = len(self.results) + 1
        result = DealResult(dealer, seats, points, tuple(self.totals), out)
        self.results.append(result)
        return result

    @property
    def over(self) -> bool:
        kind = self.format.kind
        if kind == "points":
            return bool(self.results)
        if kind == "pool":
            return self.players - len(self.eliminated) <= 1
        return len(self.results) >= self.format.deals and len(self._lowest()) == 1

    @property
    def winner(self) -> int | None:
        if not self.over:
            return None
        if self.format.kind == "points":
            return self.results[0].points.winner
        if self.format.kind == "pool":
            return next(s for s in range(self.players) if s not in self.eliminated)
        return self._lowest()[0]

    def standing(self) -> list[int]:
        """Seats best first: the winner, then by total (in a pool, later eliminations before earlier ones); so
        far, while the match goes on."""
        def key(s: int) -> tuple[int, int, int, int]:
            return (s != self.winner, -self.eliminated.get(s, 10**6), self.totals[s], s)
        return sorted(range(self.players), key=key)

    def drops(self, rules: Rules) -> tuple[int, int]:
        return self.format.drops or (rules.first_drop, rules.middle_drop)


class Match:
    """A match in one of the formats of section 6, on 2 to 6 seats."""

    def __init__(self, rules: Rules, players: int = 4, fmt: str | Format = "points", seed: int = 0,
                 first_dealer: int | None = None, fairness: Fairness | None = None):
        """``fairness``: the first dealer, every pack and every reshuffle come from it rather than from ``seed``."""
        if players not in PLAYER_COUNTS:
            raise BadRulesError(f"13-card Rummy is played by 2 to 6 players, not {players}")
        self.rules = rules
        self.players = players
        self.format = fmt if isinstance(fmt, Format) else get_format(fmt)
        self.seed = seed
        self.rng = random.Random(seed)
        self.fairness = fairness
        if first_dealer is not None:
            dealer = first_dealer
        else:
            dealer = self.rng.randrange(players) if fairness is None else fairness.first_dealer(players)
        if dealer not in range(players):
            raise BadRulesError(f"the first dealer must be a seat from 0 to {players - 1}, not {dealer}")
        self.first_dealer = dealer
        self.tally = Tally(players, self.format)
        #: The finished deals, in order.
        self.past: list[Deal] = []
        self.deal = self._new_deal()

    def _new_deal(self) -> Deal:
        seats = self.tally.seats()
        dealer = self.tally.next_dealer(self.first_dealer)
        if self.fairness is None:
            pack = sorted_pack(self.rules, len(seats))
            self.rng.shuffle(pack)
        else:
            pack = fair_pack(self.rules, len(seats), self.fairness, len(self.past) + 1)
        first, middle = self.tally.drops(self.rules)
        return Deal(self.rules, self.players, dealer, pack, reshuffles(self.seed, self.fairness, len(self.past)),
                    seats, first, middle)

    # -- the deal in progress -------------------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        return self.deal.to_move

    def legal_actions(self) -> list[Action]:
        return self.deal.legal_actions()

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` sees of the deal in progress."""
        return view_of(self.deal, seat)

    def act(self, action: Action) -> None:
        """Make ``action``; when it ends the deal, the deal is scored (call :meth:`next_deal` to go on)."""
        self._playing()
        self.deal.act(action)
        self._after()

    def timeout(self) -> None:
        """The seat to move ran out of time (see :meth:`Deal.timeout`)."""
        self._playing()
        self.deal.timeout()
        self._after()

    def _playing(self) -> None:
        if self.deal.over:
            raise IllegalTurnError("the match is over" if self.over else "the deal is over: start the next one")

    def _after(self) -> None:
        if self.deal.over:
            self.tally.add(self.deal.dealer, self.deal.seats, self.deal.result())
            self.past.append(self.deal)

    # -- between deals --------------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.tally.over

    @property
    def winner(self) -> int | None:
        return self.tally.winner

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self.tally.totals)

    @property
    def results(self) -> list[DealResult]:
        return self.tally.results

    def next_deal(self) -> Deal:
        """Start the next deal (the one in progress must be over, and the match not)."""
        if not self.deal.over:
            raise IllegalTurnError("the deal in progress is not over")
        if self.over:
            raise IllegalTurnError("the match is over")
        self.deal = self._new_deal()
        return self.deal

    def clone(self) -> Match:
        """An independent copy (its random generators included)."""
        new = Match.__new__(Match)
        new.__dict__.update(self.__dict__)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        tally = Tally(self.players, self.format)
        tally.totals = list(self.tally.totals)
        tally.results = list(self.tally.results)
        tally.eliminated = dict(self.tally.eliminated)
        new.tally = tally
        new.past = list(self.past)
        new.deal = self.deal if self.deal.over else self.deal.clone()  # a finished deal changes no more
        return new
