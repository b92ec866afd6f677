"""One deal of 13-card Rummy (sections 1, 2, 4 and 5 of ``shared/rummy-rules.md``): the deal from a shuffled pack,
the wild joker, turns (drop, take, discard, declare), the reshuffle of the discard pile, timeouts, and the points.

:class:`Deal` is the full state, hidden cards included; players see it only through
:func:`taash.rummy.view.view_of`. Cards are faces (:mod:`taash.packs`): twins are equal for the rules, so hands,
actions and records name faces, and nothing tells one twin from another (which pack a card came from would tell
where its twin lay in the shuffled pack). Randomness (the reshuffle, R4) comes only from the ``random.Random``
given to the deal (or a server's fair dealing, :class:`taash.fairness.Reshuffles`). The points of the other hands
at a valid declaration come from :func:`taash.rummy.scoring.least_points` (R8).

Where the rules leave a choice, the engine reads them so: the discard pile is shuffled into a new stock (R4) when a
player takes from the empty stock, so the pile keeps its cards in view until a card is needed; R3 forbids
discarding the card taken from the pile, not its twin, and not laying it down as the finish card of a declaration
(the finish card never joins the pile); a timed-out turn after a take from the pile discards the first card of the
hand it may.

>>> from taash.rummy.rules import PRESETS
>>> rules = PRESETS["octro"]
>>> deal = Deal(rules, 2, dealer=0, pack=sorted_pack(rules, 2), rng=random.Random(0))
>>> deal.to_move, deal.phase.value, len(deal.hands[1]), deal.stock_size
(1, 'take', 13, 80)
>>> deal.act(Take("stock")); deal.act(Discard(deal.hands[1][0])); deal.to_move
0
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Literal

from taash.fairness import Reshuffles
from taash.i18n import _
from taash.packs import JOKER, face_name, face_symbol
from taash.rummy.errors import BadHandError, IllegalTurnError
from taash.rummy.melds import declaration_valid
from taash.rummy.rules import Rules
from taash.rummy.scoring import find_declaration, least_points

#: Where a card is taken from.
Source = Literal["stock", "discard"]
#: Cards dealt to each player.
HAND = 13


@dataclass(frozen=True, slots=True)
class Drop:
    """Leave the deal before taking a card (first drop, or middle drop once a card has been taken)."""


@dataclass(frozen=True, slots=True)
class Take:
    """Take the top card of the stock or of the discard pile."""

    source: Source


@dataclass(frozen=True, slots=True)
class Discard:
    """Lay a card (a face) face up on the discard pile."""

    card: int


@dataclass(frozen=True, slots=True)
class Declare:
    """Lay ``finish`` face down and show the other 13 cards in ``groups`` (melds, and free jokers)."""

    finish: int
    groups: tuple[tuple[int, ...], ...]


Action = Drop | Take | Discard | Declare


@dataclass(frozen=True, slots=True)
class Timeout:
    """The seat to move ran out of time (section 2, Time): the stock's card is taken and discarded for him, and
    his ``timeouts_to_drop``-th in a row drops him (:meth:`Deal.timeout`). Never a player's choice, so never among
    the legal actions: where play is timed, the server makes it."""


class Phase(Enum):
    """Where the turn of the seat to move stands."""

    TAKE = "take"
    DISCARD = "discard"
    OVER = "over"


class Status(Enum):
    """Where a seat of the deal stands."""

    IN = "in"
    DROPPED = "dropped"
    WRONG = "wrong"
    DECLARED = "declared"


@dataclass(slots=True)
class Turn:
    """One turn as it happened (a game record's turn, plus what the engine needs to show it)."""

    seat: int
    drop: bool = False
    take: Source | None = None
    #: The face taken (from the discard pile: public; from the stock: the taker's alone).
    drawn: int | None = None
    discard: int | None = None
    #: The finish card and the shown groups of a declaration.
    declare: tuple[int, tuple[tuple[int, ...], ...]] | None = None
    #: The turn timed out: the engine took and discarded for the player.
    timeout: bool = False
    #: The discard pile was shuffled into a new stock before the take (R4).
    reshuffled: bool = False
    #: The timeouts ended in a drop (the player's ``timeouts_to_drop``-th in a row).
    timed_out_drop: bool = False


def can_take_stock(stock_size: int, pile_size: int) -> bool:
    """The stock has a card, or the discard pile has more than its top card to shuffle into one (R4)."""
    return stock_size > 0 or pile_size > 1


def discardable(hand: Sequence[int], taken_from_pile: int | None, rules: Rules) -> list[int]:
    """The faces of a 14-card hand that may be discarded (sorted, each once): all but the card just taken from the
    discard pile (R3), unless the hand holds its twin too."""
    kept = taken_from_pile if rules.keep_taken_discard else None
    return sorted(f for f in set(hand) if f != kept or hand.count(f) > 1)


def kept_reason(face: int) -> str:
    """Why the card just taken from the discard pile may not be discarded in the same turn (R3)."""
    return _("{card} was just taken from the discard pile and may not be discarded in the same turn (R3)",
             card=face_symbol(face))


def legal_actions(phase: Phase, hand: Sequence[int], pile_size: int, stock_size: int, taken_from_pile: int | None,
                  rules: Rules, wild: int) -> list[Action]:
    """The legal drops, takes and discards of the seat to move (the deal's and a player view's, alike), and, when
    the hand can declare validly, one valid declaration (the first finish card that leaves a valid hand, arranged
    by the solver). Other declarations are not listed (there is one per way to group the cards): any ``Declare``
    of the hand is legal, and :func:`~taash.rummy.melds.declaration_valid` decides whether it wins."""
    if phase is Phase.TAKE:
        out: list[Action] = [Drop()]
        if can_take_stock(stock_size, pile_size):
            out.append(Take("stock"))
        if pile_size:
            out.append(Take("discard"))
        return out
    if phase is Phase.DISCARD:
        out = [Discard(f) for f in discardable(hand, taken_from_pile, rules)]
        keep = taken_from_pile if rules.keep_taken_discard else None
        found = find_declaration(hand, rules, wild, keep)
        if found is not None:
            finish, groups = found
            out.append(Declare(finish, tuple(tuple(g) for g in groups)))
        return out
    return []


def sorted_pack(rules: Rules, players: int) -> list[int]:
    """The faces of the pack for ``players``, unshuffled (pack by pack, then the printed jokers)."""
    return [card % 53 for card in rules.pack(players).cards()]


def wild_rank(wild_card: int) -> int:
    """The wild rank for a turned wild card: its rank, or aces when it is a printed joker (R1)."""
    return 0 if wild_card == JOKER else wild_card % 13


@dataclass(frozen=True, slots=True)
class DealPoints:
    """How a finished deal ended: its winner, how, and every seat's points (None for seats not in the deal)."""

    winner: int
    #: True when a valid declaration ended the deal; False when the winner was the last one left.
    declared: bool
    points: tuple[int | None, ...]
    dropped: tuple[int, ...] = ()
    wrong: tuple[int, ...] = ()


class Deal:
    """The whole state of one deal.

    ``players`` is the table's size and ``seats`` the seats dealt in (all of them unless players were eliminated
    or a tie-break deal seats only the tied players); seats are numbered clockwise. ``first_drop`` and
    ``middle_drop`` default to the rules' (Pool 201 gives others).
    """

    def __init__(self, rules: Rules, players: int, dealer: int, pack: Sequence[int],
                 rng: random.Random | Reshuffles, seats: Sequence[int] | None = None, first_drop: int | None = None,
                 middle_drop: int | None = None):
        seats = tuple(range(players)) if seats is None else tuple(sorted(seats))
        if not 2 <= players <= 6:
            raise BadHandError(_("13-card Rummy is played by 2 to 6 players, not {players}", players=players))
        if len(seats) < 2 or len(set(seats)) != len(seats) or not all(0 <= s < players for s in seats):
            raise BadHandError(_("a deal seats two or more different seats of the {players}, not {seats}",
                                 players=players, seats=list(seats)))
        if dealer not in seats:
            raise BadHandError(_("the dealer must be a seat dealt in ({seats}), not {dealer}", seats=list(seats),
                                 dealer=dealer))
        expected = Counter(sorted_pack(rules, len(seats)))
        if len(pack) != sum(expected.values()) or Counter(pack) != expected:
            packs, jokers = rules.packs[len(seats)]
            raise BadHandError(_("the pack must hold {packs} packs of 52 and {jokers} printed jokers ({cards} cards) "
                                 "for {players} players", packs=packs, jokers=jokers, cards=sum(expected.values()),
                                 players=len(seats)))
        self.rules = rules
        self.players = players
        self.seats = seats
        self.dealer = dealer
        self.pack = tuple(pack)
        self.rng = rng
        self.first_drop = rules.first_drop if first_drop is None else first_drop
        self.middle_drop = rules.middle_drop if middle_drop is None else middle_drop
        start = seats.index(dealer) + 1
        #: Playing order: the seat after the dealer first.
        self.order = tuple(seats[(start + k) % len(seats)] for k in range(len(seats)))
        self.hands: dict[int, list[int]] = {s: [] for s in seats}
        n = len(seats)
        for i in range(HAND * n):
            self.hands[self.order[i % n]].append(self.pack[i])
        #: The discard pile, bottom first: (face, the seat that discarded it, or None for the open card).
        self.pile: list[tuple[int, int | None]] = [(self.pack[HAND * n], None)]
        self.wild_card = self.pack[HAND * n + 1]
        self.wild = wild_rank(self.wild_card)
        #: The stock, its top card last.
        self.stock: list[int] = list(reversed(self.pack[HAND * n + 2:]))
        self.status: dict[int, Status] = {s: Status.IN for s in seats}
        #: Points of the seats that are out (drops, wrong declarations); every seat's once the deal is over.
        self.points: dict[int, int] = {}
        #: The groups each declarer showed (wrong or valid).
        self.shown: dict[int, tuple[tuple[int, ...], ...]] = {}
        self.turns: list[Turn] = []
        self.to_move = self.order[0]
        self.phase = Phase.TAKE
        #: Seats that have taken a card this deal (a later drop is a middle drop).
        self.has_taken: set[int] = set()
        #: Turns in a row each seat has timed out.
        self.timeouts: dict[int, int] = {s: 0 for s in seats}
        self.winner: int | None = None
        self.declared = False

    # -- what may be done -----------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def stock_size(self) -> int:
        return len(self.stock)

    @property
    def in_play(self) -> tuple[int, ...]:
        """Seats still in the deal, in playing order."""
        return tuple(s for s in self.order if self.status[s] is Status.IN)

    @property
    def taken_from_pile(self) -> int | None:
        """The face taken from the discard pile in the turn in progress (R3 keeps it in the hand)."""
        if self.phase is Phase.DISCARD and self.turns[-1].take == "discard":
            return self.turns[-1].drawn
        return None

    def can_take_stock(self) -> bool:
        """The stock has a card, or the discard pile has more than its top card to shuffle into one (R4)."""
        return can_take_stock(len(self.stock), len(self.pile))

    def discardable(self) -> list[int]:
        """The faces the seat to move may discard now (sorted, each once)."""
        if self.phase is not Phase.DISCARD:
            return []
        return discardable(self.hands[self.to_move], self.taken_from_pile, self.rules)

    def legal_actions(self) -> list[Action]:
        """Every legal drop, take and discard now, and one valid declaration when there is one (see
        :func:`legal_actions`: any :class:`Declare` of a card of the hand and groups holding exactly the other 13
        is legal while a card is to be discarded, and :func:`taash.rummy.melds.declaration_valid` says whether it
        wins)."""
        return legal_actions(self.phase, self.hands.get(self.to_move, []), len(self.pile), len(self.stock),
                             self.taken_from_pile, self.rules, self.wild)

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalTurnError` with the reason when ``action`` is not legal now."""
        if self.phase is Phase.OVER:
            raise IllegalTurnError(_("the deal is over"))
        seat = self.to_move
        if isinstance(action, Drop | Take):
            if self.phase is not Phase.TAKE:
                raise IllegalTurnError(_("you have taken a card this turn: now discard one (or declare)"))
            if isinstance(action, Take):
                if action.source == "stock" and not self.can_take_stock():
                    raise IllegalTurnError(_("the stock is empty and the discard pile has no card to refill it"))
                if action.source == "discard" and not self.pile:
                    raise IllegalTurnError(_("the discard pile is empty"))
                if action.source not in ("stock", "discard"):
                    raise IllegalTurnError(_("cards are taken from the stock or the discard pile, not {source}",
                                             source=repr(action.source)))
            return
        if not isinstance(action, Discard | Declare):
            raise IllegalTurnError(_("not a Rummy action: {action}", action=repr(action)))
        if self.phase is not Phase.DISCARD:
            raise IllegalTurnError(_("take a card from the stock or the discard pile first (or drop)"))
        hand = self.hands[seat]
        if isinstance(action, Discard):
            if action.card not in hand:
                raise IllegalTurnError(_("you have no {card} to discard", card=_name(action.card)))
            if action.card not in self.discardable():
                raise IllegalTurnError(kept_reason(action.card))
            return
        if action.finish not in hand:
            raise IllegalTurnError(_("you have no {card} to lay down as the finish card", card=_name(action.finish)))
        rest = Counter(hand)
        rest[action.finish] -= 1
        shown = Counter(f for group in action.groups for f in group)
        if any(not group for group in action.groups) or shown != +rest:
            raise IllegalTurnError(_("the groups of a declaration must hold exactly the {cards} cards of your hand "
                                     "besides the finish card", cards=HAND))

    # -- doing it -------------------------------------------------------------------------------------------

    def act(self, action: Action) -> None:
        """Make ``action`` for the seat to move; an illegal one raises :class:`IllegalTurnError` and changes
        nothing."""
        self.check(action)
        seat = self.to_move
        if isinstance(action, Drop):
            self.turns.append(Turn(seat, drop=True))
            self._out(seat, Status.DROPPED, self.middle_drop if seat in self.has_taken else self.first_drop)
            self._next()
        elif isinstance(action, Take):
            self._take(seat, action.source)
        elif isinstance(action, Discard):
            self._discard(seat, action.card)
            self.timeouts[seat] = 0
            self._next()
        else:
            self._declare(seat, action)

    def timeout(self) -> None:
        """The seat to move ran out of time: the stock's top card is taken and discarded for him (when he had
        already taken, the card he took is discarded if he may, else the first card of his hand he may discard);
        his ``timeouts_to_drop``-th timeout in a row drops him (middle drop) after the discard."""
        if self.phase is Phase.OVER:
            raise IllegalTurnError(_("the deal is over"))
        seat = self.to_move
        if self.phase is Phase.TAKE:
            if not self.can_take_stock():
                raise IllegalTurnError(_("the stock is empty and the discard pile has no card to refill it"))
            self._take(seat, "stock")
        turn = self.turns[-1]
        allowed = self.discardable()
        card = turn.drawn if turn.drawn in allowed else next(f for f in self.hands[seat] if f in allowed)
        assert card is not None
        self._discard(seat, card)
        turn.timeout = True
        self.timeouts[seat] += 1
        if self.rules.timeouts_to_drop and self.timeouts[seat] >= self.rules.timeouts_to_drop:
            turn.timed_out_drop = True
            self._out(seat, Status.DROPPED, self.middle_drop)
        self._next()

    def _take(self, seat: int, source: Source) -> None:
        turn = Turn(seat, take=source)
        if source == "stock":
            if not self.stock:
                top = self.pile.pop()
                self.stock = [face for face, _ in self.pile]
                self.rng.shuffle(self.stock)
                self.pile = [top]
                turn.reshuffled = True
            card = self.stock.pop()
        else:
            card = self.pile.pop()[0]
        turn.drawn = card
        self.hands[seat].append(card)
        self.has_taken.add(seat)
        self.turns.append(turn)
        self.phase = Phase.DISCARD

    def _discard(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.pile.append((card, seat))
        self.turns[-1].discard = card

    def _declare(self, seat: int, action: Declare) -> None:
        groups = tuple(tuple(g) for g in action.groups)
        self.turns[-1].declare = (action.finish, groups)
        self.hands[seat].remove(action.finish)
        self.shown[seat] = groups
        self.timeouts[seat] = 0
        if not declaration_valid(groups, self.rules, self.wild):
            self._out(seat, Status.WRONG, self.rules.wrong_declaration)
            self._next()
            return
        self.status[seat] = Status.DECLARED
        self.points[seat] = 0
        for other in self.in_play:
            self.points[other] = min(self.rules.max_points, least_points(self.hands[other], self.rules, self.wild))
        self._end(seat, declared=True)

    def _out(self, seat: int, status: Status, points: int) -> None:
        """The seat leaves the deal; its cards go out of play unseen (a wrong declarer's were shown)."""
        self.status[seat] = status
        self.points[seat] = points
        self.hands[seat] = []

    def _next(self) -> None:
        """The turn passes to the next seat still in; the last one left wins the deal."""
        left = self.in_play
        if len(left) == 1:
            self.points[left[0]] = 0
            self._end(left[0], declared=False)
            return
        k = self.order.index(self.to_move)
        for step in range(1, len(self.order) + 1):
            seat = self.order[(k + step) % len(self.order)]
            if self.status[seat] is Status.IN:
                self.to_move = seat
                break
        self.phase = Phase.TAKE

    def _end(self, winner: int, declared: bool) -> None:
        self.winner = winner
        self.declared = declared
        self.phase = Phase.OVER

    # -- the result -----------------------------------------------------------------------------------------

    def result(self) -> DealPoints:
        """How the finished deal ended."""
        if self.winner is None:
            raise IllegalTurnError(_("the deal is not over"))
        return DealPoints(
            winner=self.winner,
            declared=self.declared,
            points=tuple(self.points.get(s) if s in self.status else None for s in range(self.players)),
            dropped=tuple(s for s in self.seats if self.status[s] is Status.DROPPED),
            wrong=tuple(s for s in self.seats if self.status[s] is Status.WRONG),
        )

    def clone(self) -> Deal:
        """An independent copy (its random stream included)."""
        new = Deal.__new__(Deal)
        for name, value in self.__dict__.items():
            setattr(new, name, value)
        if isinstance(self.rng, Reshuffles):
            new.rng = self.rng.copy()
        else:
            new.rng = random.Random()
            new.rng.setstate(self.rng.getstate())
        new.hands = {s: list(h) for s, h in self.hands.items()}
        new.pile = list(self.pile)
        new.stock = list(self.stock)
        new.status = dict(self.status)
        new.points = dict(self.points)
        new.shown = dict(self.shown)
        new.turns = [replace(t) for t in self.turns]
        new.has_taken = set(self.has_taken)
        new.timeouts = dict(self.timeouts)
        return new


def _name(face: object) -> str:
    return face_name(face) if isinstance(face, int) and 0 <= face <= JOKER else repr(face)[:20]
