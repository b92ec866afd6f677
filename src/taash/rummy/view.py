"""What one seat may see of a deal (section 7): :class:`PlayerView`, the only thing bots and interfaces get.

His own hand; the wild joker; the whole discard pile in order with who discarded each card; the size of the stock;
who took from where every turn (and the card, when it came off the discard pile); drops, declarations and the
groups shown; and, after a valid declaration, every hand shown. Never another hand, the stock's order, a card
taken from the stock by someone else, a finish card (laid face down), or a dropped player's cards. Cards are faces:
which of two twins a seat holds is not told (it would tell where the other lay in the pack).
"""

from __future__ import annotations

from dataclasses import dataclass

from taash.packs import face_name, rank_name
from taash.rummy.deal import Action, Deal, Phase, Source, Status, legal_actions
from taash.rummy.rules import Rules


@dataclass(frozen=True, slots=True)
class SeenTurn:
    """One turn as every seat saw it."""

    seat: int
    drop: bool = False
    take: Source | None = None
    #: The card taken, when it came off the discard pile (a stock card is seen by its taker alone).
    taken: int | None = None
    discard: int | None = None
    #: ``"valid"`` or ``"wrong"`` for a declaration, whose groups were shown (the finish card stays face down).
    declared: str | None = None
    shown: tuple[tuple[int, ...], ...] = ()
    timeout: bool = False
    timed_out_drop: bool = False
    #: The discard pile but its top was shuffled into a new stock before this turn's take (R4).
    reshuffled: bool = False


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's view of a deal (everything in it is public or the seat's own)."""

    rules: Rules
    players: int
    #: The seats dealt in, and the seat whose view this is.
    seats: tuple[int, ...]
    seat: int
    dealer: int
    to_move: int
    phase: Phase
    #: The wild card turned face up, and the wild rank it makes (aces for a printed joker, R1).
    wild_card: int
    wild: int
    #: This seat's cards, sorted (empty once it is out of the deal).
    hand: tuple[int, ...]
    #: Cards in each seat's hand (0 for a seat out of the deal or not dealt in).
    hand_sizes: tuple[int, ...]
    stock_size: int
    #: The discard pile, bottom first: (card, the seat that discarded it, or None for the open card).
    pile: tuple[tuple[int, int | None], ...]
    turns: tuple[SeenTurn, ...]
    #: Each seat's standing in the deal: ``"in"``, ``"dropped"``, ``"wrong"``, ``"declared"``; None if not dealt in.
    status: tuple[str | None, ...]
    #: Whether each seat has taken a card this deal (its drop would be a middle drop).
    has_taken: tuple[bool, ...]
    #: Each seat's timed-out turns in a row.
    timeouts: tuple[int, ...]
    #: What a first and a middle drop cost in this deal.
    first_drop: int
    middle_drop: int
    #: Points of the seats out of the deal; every seat's once it is over (None: not known yet, or not dealt in).
    points: tuple[int | None, ...]
    winner: int | None
    #: After a valid declaration, the hands shown by the seats still in (sorted cards).
    shown_hands: tuple[tuple[int, tuple[int, ...]], ...] = ()

    @property
    def taken_from_pile(self) -> int | None:
        """The card the seat to move took from the discard pile this turn (R3 keeps it in his hand)."""
        if self.phase is Phase.DISCARD and self.turns and self.turns[-1].take == "discard":
            return self.turns[-1].taken
        return None

    def to_json(self) -> dict[str, object]:
        """The whole view as JSON (:func:`view_to_json`)."""
        return view_to_json(self)

    def legal_actions(self) -> list[Action]:
        """This seat's legal actions when it is to move (empty otherwise), as
        :meth:`taash.rummy.deal.Deal.legal_actions`: drops, takes, discards and one valid declaration if any."""
        if self.to_move != self.seat or self.phase is Phase.OVER:
            return []
        return legal_actions(self.phase, self.hand, len(self.pile), self.stock_size, self.taken_from_pile,
                             self.rules, self.wild)


def view_of(deal: Deal, seat: int, last_turns: int | None = None) -> PlayerView:
    """The view of ``seat`` of ``deal``; with ``last_turns``, only that many of the deal's last turns are seen (a
    client shown the last few, or a question about the turn in progress, need not go through a long deal)."""
    if not 0 <= seat < deal.players:
        raise ValueError(f"no seat {seat} at a {deal.players}-player table")
    if last_turns is not None and last_turns < 1:
        raise ValueError(f"last_turns must be at least 1, not {last_turns}")
    turns = []
    for t in deal.turns if last_turns is None else deal.turns[-last_turns:]:
        declared = None
        shown: tuple[tuple[int, ...], ...] = ()
        if t.declare is not None:
            shown = t.declare[1]
            declared = "wrong" if deal.status[t.seat] is Status.WRONG else "valid"
        turns.append(SeenTurn(t.seat, t.drop, t.take, t.drawn if t.take == "discard" else None, t.discard,
                              declared, shown, t.timeout, t.timed_out_drop, t.reshuffled))
    over = deal.phase is Phase.OVER
    shown_hands: tuple[tuple[int, tuple[int, ...]], ...] = ()
    if over and deal.declared:
        shown_hands = tuple((s, tuple(sorted(deal.hands[s]))) for s in deal.order if deal.status[s] is Status.IN)
    return PlayerView(
        rules=deal.rules,
        players=deal.players,
        seats=deal.seats,
        seat=seat,
        dealer=deal.dealer,
        to_move=deal.to_move,
        phase=deal.phase,
        wild_card=deal.wild_card,
        wild=deal.wild,
        hand=tuple(sorted(deal.hands.get(seat, ()))),
        hand_sizes=tuple(len(deal.hands[s]) if s in deal.hands else 0 for s in range(deal.players)),
        stock_size=len(deal.stock),
        pile=tuple(deal.pile),
        turns=tuple(turns),
        status=tuple(deal.status[s].value if s in deal.status else None for s in range(deal.players)),
        has_taken=tuple(s in deal.has_taken for s in range(deal.players)),
        timeouts=tuple(deal.timeouts.get(s, 0) for s in range(deal.players)),
        first_drop=deal.first_drop,
        middle_drop=deal.middle_drop,
        points=tuple(deal.points.get(s) for s in range(deal.players)),
        winner=deal.winner,
        shown_hands=shown_hands,
    )


def view_to_json(view: PlayerView) -> dict[str, object]:
    """A view in the protocol's card names (what a client of this seat may be sent)."""
    def names(faces: tuple[int, ...]) -> list[str]:
        return [face_name(f) for f in faces]

    return {
        "rules": view.rules.to_json(), "players": view.players, "seats": list(view.seats), "seat": view.seat,
        "dealer": view.dealer, "to_move": view.to_move, "phase": view.phase.value,
        "wild_card": face_name(view.wild_card), "wild": rank_name(view.wild), "hand": names(view.hand),
        "hand_sizes": list(view.hand_sizes), "stock_size": view.stock_size,
        "pile": [{"card": face_name(card), "by": by} for card, by in view.pile],
        "turns": [{"seat": t.seat, "drop": t.drop, "take": t.take,
                   "taken": None if t.taken is None else face_name(t.taken),
                   "discard": None if t.discard is None else face_name(t.discard), "declared": t.declared,
                   "shown": [names(g) for g in t.shown], "timeout": t.timeout, "timed_out_drop": t.timed_out_drop,
                   "reshuffled": t.reshuffled} for t in view.turns],
        "status": list(view.status), "has_taken": list(view.has_taken), "timeouts": list(view.timeouts),
        "first_drop": view.first_drop, "middle_drop": view.middle_drop, "points": list(view.points),
        "winner": view.winner, "shown_hands": [{"seat": s, "hand": names(h)} for s, h in view.shown_hands],
    }
