"""One deal of Seep: the deal order, the bid, the bid play, 48 plays, sweeps and the deal's score (sections 4-6).

:class:`Deal` is the full state, hidden cards included; players see it only through
:func:`taash.seep.view.view_of` (or :meth:`taash.seep.match.Match.view`).
Randomness comes only from a ``random.Random`` passed to :meth:`Deal.shuffled`.
"""

from __future__ import annotations

import random
from enum import Enum
from typing import Any

from taash.cards import FULL_PACK, card_name, cards_of, mask_of
from taash.i18n import _
from taash.seep.core import compiled, core_rules
from taash.seep.dealing import _redeal_problem, bids_in, deal_problem, deal_refusal, shuffled_pack
from taash.seep.errors import IllegalPlayError, RecordError
from taash.seep.groups import FloorInfo, floor_info
from taash.seep.plays import (
    ADD,
    BREAK,
    CAPTURE,
    THROW,
    House,
    Play,
    apply_play,
    house_summary,
    plays_of,
    pure_legal_plays,
)
from taash.seep.rules import FIRST_HALF_PLAYS, HOUSE_VALUES, LAST_PLAY, Rules
from taash.seep.scoring import DealScore, _points, _rules_tables, card_points, point_rows
from taash.seep.values import VALUE_MASK, mask_value_sum

__all__ = ["Deal", "DealScore", "Phase", "bids_in", "card_points", "deal_problem", "describe_play_short", "point_rows",
           "shuffled_pack"]


class Phase(Enum):
    """Where a deal stands."""

    BID = "bid"
    PLAY = "play"
    OVER = "over"


#: The indices of the plays after which more than the turn changes: the rest of the first hands are dealt (after
#: the bid play), the second half (after the 24th play, 2 players) or the deal ends (after the last).
_TURNING_POINTS = frozenset((0, FIRST_HALF_PLAYS - 1, LAST_PLAY))

#: ``_NEXT_SEAT[players][seat]``: the seat that plays after ``seat``.
_NEXT_SEAT: dict[int, tuple[int, ...]] = {4: (1, 2, 3, 0), 2: (1, 0)}

#: ``_REST_ORDER[players][dealer]``: who gets each group of four cards dealt after the bid play, in order.
_REST_ORDER: dict[int, tuple[tuple[int, ...], ...]] = {
    4: tuple(tuple((dealer + 1 + k) % 4 for k in (1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3)) for dealer in range(4)),
    2: tuple((dealer, 1 - dealer, dealer, 1 - dealer, dealer) for dealer in range(2)),
}

#: The compiled core's plays of a position after the bid play and of the bid play (unused on the pure core).
_compiled_plays_of: Any = getattr(compiled, "plays_of", None)
_compiled_bid_plays: Any = getattr(compiled, "bid_plays", None)


class Deal:
    """The whole state of one deal.

    Seats are ``0..players-1`` in playing order; team of seat ``i`` is ``i % 2``. Houses are kept as
    ``{value: (cards mask, cemented, owners mask)}``, hands and captured piles as card masks.
    """

    __slots__ = (
        "_next_seat",
        "_tables",
        "bid",
        "break_with_loose",
        "dealer",
        "deck",
        "floor",
        "hands",
        "house_bits",
        "houses",
        "last_capturer",
        "loose",
        "max_houses",
        "owned_by",
        "phase",
        "piles",
        "players",
        "plays",
        "restricted",
        "rules",
        "sweeps",
        "to_move",
        "uncemented",
    )

    def __init__(self, rules: Rules, players: int, dealer: int, deck: list[int]):
        if players not in (2, 4):
            raise ValueError("Seep is played by 2 or 4 players")
        if not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat from 0 to {players - 1}")
        problem = deal_refusal(rules, players, deck)
        if problem:
            raise RecordError(problem)
        self._setup(rules, players, dealer, deck)

    def _setup(self, rules: Rules, players: int, dealer: int, deck: list[int]) -> None:
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.deck = list(deck)
        bidder = (dealer + 1) % players
        self.hands = [0] * players
        self.hands[bidder] = 1 << deck[0] | 1 << deck[1] | 1 << deck[2] | 1 << deck[3]
        self.loose = loose = 1 << deck[4] | 1 << deck[5] | 1 << deck[6] | 1 << deck[7]
        #: The floor's facts (:data:`taash.seep.groups.FloorInfo`), kept up to date play by play.
        self.floor: FloorInfo = floor_info(loose)
        self.houses: dict[int, House] = {}
        #: The houses in brief, kept up to date play by play (see :func:`taash.seep.plays.house_summary`):
        #: the mask of their values, of the values of those not cemented, and per seat of those it owns.
        self.house_bits = 0
        self.uncemented = 0
        self.owned_by = [0, 0, 0, 0]
        self.piles = [0, 0]
        #: Sweeps made: ``(seat, play index, points)``.
        self.sweeps: list[tuple[int, int, int]] = []
        self.plays: list[Play] = []
        self.bid = 0
        self.phase = Phase.BID
        self.to_move = bidder
        self.last_capturer = -1
        self._use_rules(rules, players)
        self.restricted = self._tables.restricted

    def _use_rules(self, rules: Rules, players: int) -> None:
        """What the hot path reads of the rules and the player count, kept at hand."""
        self._tables = _rules_tables(rules)
        self.max_houses = rules.max_houses
        self.break_with_loose = rules.break_with_loose
        self._next_seat = _NEXT_SEAT[players]

    @classmethod
    def shuffled(cls, rules: Rules, players: int, dealer: int, rng: random.Random) -> Deal:
        """A new deal from a shuffled pack, shuffled again until no redeal is needed (4.2, 7.1)."""
        if players not in (2, 4):
            raise ValueError("Seep is played by 2 or 4 players")
        if not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat from 0 to {players - 1}")
        while True:
            deck = shuffled_pack(rng)
            if _redeal_problem(rules, deck) is None:  # a shuffled pack needs no other check
                deal = cls.__new__(cls)
                deal._setup(rules, players, dealer, deck)
                return deal

    @classmethod
    def from_parts(cls, rules: Rules, players: int, dealer: int, deck: list[int], hands: list[int], loose: int,
                   houses: dict[int, House], plays: list[Play], bid: int, to_move: int, last_capturer: int,
                   restricted: int) -> Deal:
        """A deal in progress put together from its parts (for search: a determinisation of a seat's view).

        The captured piles and sweeps start empty: what is captured from here on is what the deal records.
        Nothing is checked; the caller vouches that the parts fit together.
        """
        deal = cls.__new__(cls)
        deal.rules = rules
        deal.players = players
        deal.dealer = dealer
        deal.deck = deck
        deal.hands = hands
        deal.loose = loose
        deal.floor = floor_info(loose)
        deal.houses = houses
        deal.house_bits, deal.uncemented, deal.owned_by = house_summary(houses)
        deal.piles = [0, 0]
        deal.sweeps = []
        deal.plays = plays
        deal.bid = bid
        deal.phase = Phase.PLAY
        deal.to_move = to_move
        deal.last_capturer = last_capturer
        deal.restricted = restricted
        deal._use_rules(rules, players)
        return deal

    def card_points_of(self, cards: int) -> int:
        """The card points of some cards under this deal's rules (no majority, no Satthi)."""
        return _points(self._tables.point_rows, cards)

    @property
    def bidder(self) -> int:
        """The seat after the dealer, who bids and makes the first play."""
        return (self.dealer + 1) % self.players

    def clone(self) -> Deal:
        """An independent copy."""
        new = Deal.__new__(Deal)
        new.rules = self.rules
        new.players = self.players
        new.dealer = self.dealer
        new.deck = self.deck
        new.hands = self.hands[:]
        new.loose = self.loose
        new.floor = self.floor
        new.houses = dict(self.houses)
        new.house_bits = self.house_bits
        new.uncemented = self.uncemented
        new.owned_by = self.owned_by[:]
        new.piles = self.piles[:]
        new.sweeps = self.sweeps[:]
        new.plays = self.plays[:]
        new.bid = self.bid
        new.phase = self.phase
        new.to_move = self.to_move
        new.last_capturer = self.last_capturer
        new.restricted = self.restricted
        new._tables = self._tables
        new.max_houses = self.max_houses
        new.break_with_loose = self.break_with_loose
        new._next_seat = self._next_seat
        return new

    # -- bidding -------------------------------------------------------------------------------------------

    def legal_bids(self) -> list[int]:
        """The values the bidder may bid: 9 to 13, of cards he holds."""
        if self.phase is not Phase.BID:
            return []
        return bids_in(self.hands[self.to_move])

    def make_bid(self, value: int) -> None:
        """The bidder bids ``value``; the floor is turned face up and the bid play is due."""
        if self.phase is not Phase.BID:
            raise IllegalPlayError(_("there is no bid to make now"))
        if value not in self.legal_bids():
            raise IllegalPlayError(_("cannot bid {value}: a bid is 9 to 13 and the bidder must hold a card of it",
                                    value=value))
        self.bid = value
        self.phase = Phase.PLAY

    # -- playing -------------------------------------------------------------------------------------------

    def legal_plays(self) -> list[Play]:
        """Every legal play of the player to move (empty unless a play is due)."""
        if self.phase is not Phase.PLAY:
            return []
        p = self.to_move
        if compiled is not None:  # the same plays in the same order, worked out in C
            plays: list[Play] = (
                _compiled_plays_of(self.hands[p], p, self.loose, self.house_bits, self.uncemented, self.owned_by,
                                   self.max_houses, self.break_with_loose, self.restricted)
                if self.plays else _compiled_bid_plays(self.hands[p], self.loose, self.bid, self.restricted))
            return plays
        return self.pure_legal_plays()

    def pure_legal_plays(self) -> list[Play]:
        """:meth:`legal_plays` worked out by the pure core, whichever core is in use (the reference)."""
        if self.phase is not Phase.PLAY:
            return []
        p = self.to_move
        if self.plays:
            return plays_of(self.hands[p], p, self.loose, self.floor, self.house_bits, self.uncemented,
                            self.owned_by, self.max_houses, self.break_with_loose, self.restricted)
        return pure_legal_plays(self.hands[p], p, self.players, self.loose, self.houses, self.bid, self.max_houses,
                                self.break_with_loose, self.restricted)

    def play(self, play: Play, check: bool = True) -> None:
        """Make ``play`` for the player to move; an illegal play raises and changes nothing.

        ``check=False`` skips the legality check, for plays taken from :meth:`legal_plays` itself.
        """
        if check and (self.phase is not Phase.PLAY or play not in self.legal_plays()):
            if self.phase is Phase.BID:
                raise IllegalPlayError(_("the bid must be made before the first play"))
            if self.phase is Phase.OVER:
                raise IllegalPlayError(_("the deal is over"))
            try:
                what = describe_play_short(play)
            except (TypeError, ValueError, IndexError):
                what = repr(play)
            raise IllegalPlayError(_("illegal play for seat {seat}: {play}", seat=self.to_move, play=what))
        p = self.to_move
        kind, c, value, _broken, _loose = play
        index = len(self.plays)
        self.plays.append(play)
        self.hands[p] &= ~(1 << c)
        # The floor changes as apply_play says (the one place a play's outcome is worked out); the deal keeps the
        # floor's facts and the houses' summary that generating plays reads.
        self.loose, taken = apply_play(play, p, self.players, self.loose, self.houses)
        self.floor = floor_info(self.loose)
        if kind != THROW:
            self.house_bits, self.uncemented, self.owned_by = house_summary(self.houses)
        if taken:
            team = p & 1
            self.piles[team] |= taken
            self.last_capturer = team
            if not self.loose and not self.houses:
                self.sweeps.append((p, index, self.rules.sweep_value(c, index)))
        if self.restricted:  # Qasim's restricted cards: released by their throw or by a house of their value (7.2)
            if kind == THROW:
                self.restricted &= ~(1 << c)
            elif kind != CAPTURE and kind != ADD:
                self.restricted &= ~VALUE_MASK[value]
        if index in _TURNING_POINTS:
            self._turn(index)
        else:
            self.to_move = self._next_seat[p]

    # -- the compiled core's play-outs ----------------------------------------------------------------------

    def core_state(self) -> tuple[Any, ...]:
        """This deal (in its play) as the compiled core's ``play_out`` reads it."""
        return (core_rules(self.rules), self.players, self.dealer, tuple(self.deck), tuple(self.hands), self.loose,
                self.houses, len(self.plays), self.bid, self.to_move, self.last_capturer, self.restricted,
                tuple(self.piles), self.sweeps)

    def take_play_out(self, out: tuple[Any, ...]) -> None:
        """The deal as one of the compiled core's play-outs from :meth:`core_state` left it (what :meth:`play`
        would have made of those plays; the differential tests hold the two to that)."""
        plays, piles, sweeps, last_capturer, _, loose, houses, hands, restricted, to_move = out
        self.plays.extend(plays)
        self.piles = list(piles)
        self.sweeps = sweeps
        self.last_capturer = last_capturer
        self.loose = loose
        self.floor = floor_info(loose)
        self.houses = houses
        self.house_bits, self.uncemented, self.owned_by = house_summary(houses)
        self.hands = list(hands)
        self.restricted = restricted
        self.to_move = to_move
        self.phase = Phase.OVER

    def _turn(self, index: int) -> None:
        """After the play of ``index``, one of :data:`_TURNING_POINTS`: deal, or end the deal, and pass the turn."""
        if index == LAST_PLAY:
            self._finish()
            return
        if index == 0:
            self._deal_rest()
        elif self.players == 2:  # the 24th play: the second half (4.4)
            bidder = self.bidder
            self.hands[bidder] = mask_of(self.deck[28:40])
            self.hands[1 - bidder] = mask_of(self.deck[40:52])
        self.to_move = self._next_seat[self.to_move]

    def _deal_rest(self) -> None:
        """After the bid play: the rest of the first hands in groups of four (protocol, game record)."""
        deck = self.deck
        hands = self.hands
        i = 8
        for seat in _REST_ORDER[self.players][self.dealer]:
            hands[seat] |= 1 << deck[i] | 1 << deck[i + 1] | 1 << deck[i + 2] | 1 << deck[i + 3]
            i += 4

    def _finish(self) -> None:
        if self.loose and self.last_capturer >= 0:
            self.piles[self.last_capturer] |= self.loose
            self.loose = 0
            self.floor = floor_info(0)
        self.phase = Phase.OVER

    # -- the end -------------------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def score(self) -> DealScore:
        """Card points (majority and Satthi included) and sweep points of each team; the deal must be over."""
        if self.phase is not Phase.OVER:
            raise IllegalPlayError(_("the deal is not over yet"))
        rules = self.rules
        taken = (self.piles[0].bit_count(), self.piles[1].bit_count())
        card_points = [self.card_points_of(pile) for pile in self.piles]
        for team in (0, 1):
            if taken[team] > 26:
                card_points[team] += rules.majority_points
        if rules.satthi_points:
            total = rules.total_card_points
            for team in (0, 1):
                if card_points[team] == total:
                    card_points[team] = rules.satthi_points
        sweep_points = [0, 0]
        for seat, _index, pts in self.sweeps:
            sweep_points[seat & 1] += pts
        return DealScore(
            (card_points[0], card_points[1]), (sweep_points[0], sweep_points[1]), taken
        )

    def check_invariants(self) -> None:
        """Raise AssertionError unless every card is in one place and invariants I1 and I2 hold."""
        places = [*self.hands, self.loose, *self.piles, *(h[0] for h in self.houses.values())]
        total = 0
        for m in places:
            assert not total & m, "a card is in two places"
            total |= m
        undealt = FULL_PACK & ~total
        assert mask_of(self.deck) == FULL_PACK
        assert not undealt & ~self._undealt_mask(), "a card is missing"
        for v, (cards, cemented, owners) in self.houses.items():
            assert v in HOUSE_VALUES
            assert not self.loose & VALUE_MASK[v], f"I1: a loose card has the value of the {v}-house"
            assert owners, f"the {v}-house has no owner"
            for seat in range(self.players):
                if owners >> seat & 1:
                    assert self.hands[seat] & VALUE_MASK[v], f"I2: seat {seat} owns the {v}-house without a {v}"
            assert cemented or mask_value_sum(cards) == v
            for team_seats in (0b0101, 0b1010):
                assert (owners & team_seats).bit_count() <= 1, "two owners of one team"
        summary = house_summary(self.houses)
        assert (self.house_bits, self.uncemented, self.owned_by) == summary, "the house summary is out of date"
        assert self.floor[:3] == floor_info(self.loose)[:3], "the floor's facts are out of date"

    def _undealt_mask(self) -> int:
        """Cards not yet in anyone's hand or on the floor (still to be dealt)."""
        index = len(self.plays)
        if self.phase is Phase.BID or index == 0:
            return mask_of(self.deck[8:])
        if self.players == 2 and index < FIRST_HALF_PLAYS:
            return mask_of(self.deck[28:])
        return 0


def describe_play_short(play: Play) -> str:
    """A compact description of a play for error messages."""
    kind, c, value, broken, m = play
    loose = " ".join(card_name(x) for x in cards_of(m))
    if kind == CAPTURE:
        return _("{card} captures [{loose}]", card=card_name(c), loose=loose)
    if kind == THROW:
        return _("{card} thrown", card=card_name(c))
    if kind == BREAK:
        return _("{card} breaks the {broken}-house into {value} with [{loose}]", card=card_name(c), broken=broken,
                 value=value, loose=loose)
    return _("{card} into the {value}-house with [{loose}]", card=card_name(c), value=value, loose=loose)
