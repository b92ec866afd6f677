"""What one seat may see of a deal: :class:`PlayerView`, the only thing bots and interfaces get from the engine.

Hidden information never enters a view: other hands appear as counts, the cards still to be dealt not at all,
and the floor cards stay hidden while the bidder bids (they are face down until the bid is made).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from taash.cards import FULL_PACK, mask_of, names_of
from taash.seep.deal import Deal, Phase, bids_in
from taash.seep.notation import houses_to_json, play_to_json
from taash.seep.plays import House, Play, apply_play, legal_plays
from taash.seep.rules import Rules


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's view of a deal in progress (everything is public or the seat's own)."""

    rules: Rules
    players: int
    seat: int
    dealer: int
    phase: Phase
    #: The seat to move (to bid, during the bid phase).
    to_move: int
    #: This seat's own cards (mask).
    hand: int
    #: Number of cards in each seat's hand.
    hand_sizes: tuple[int, ...]
    #: Loose cards on the floor (mask); 0 while the bidder bids (the floor is face down).
    loose: int
    #: Houses on the floor: ``{value: (cards mask, cemented, owners mask)}``.
    houses: dict[int, House]
    #: The bid value (0 before the bid).
    bid: int
    #: Every play so far, in order, with the seat that made it (plays are public).
    history: tuple[tuple[int, Play], ...]
    #: Cards captured by each team so far (counts; the cards themselves were all seen face up).
    captured_counts: tuple[int, int]
    #: Sweeps so far: ``(seat, play index, points)``.
    sweeps: tuple[tuple[int, int, int], ...]
    #: Qasim's restricted cards not yet released (only those this seat can know: its own, or all while unseen).
    restricted: int
    #: The four floor cards turned face up after the bid (0 during the bid).
    initial_floor: int = 0

    def legal_plays(self) -> list[Play]:
        """The seat's legal plays when it is to play (empty otherwise)."""
        if self.phase is not Phase.PLAY or self.to_move != self.seat:
            return []
        return legal_plays(
            self.hand, self.seat, self.players, self.loose, self.houses,
            self.bid if not self.history else 0, self.rules.max_houses, self.rules.break_with_loose,
            self.restricted,
        )

    def legal_bids(self) -> list[int]:
        """The values this seat may bid when it is the bidder and the bid is due."""
        if self.phase is not Phase.BID or self.to_move != self.seat:
            return []
        return bids_in(self.hand)

    def legal_actions(self) -> list[int] | list[Play]:
        """The seat's legal actions of the games API: its bids in the bid phase, else its plays."""
        return self.legal_bids() if self.phase is Phase.BID else self.legal_plays()

    def to_json(self) -> dict[str, Any]:
        """The whole view in the protocol's card names (what a client of this seat may be sent)."""
        return {
            "rules": self.rules.to_json(), "players": self.players, "seat": self.seat, "dealer": self.dealer,
            "phase": self.phase.name.lower(), "to_move": self.to_move, "hand": names_of(self.hand),
            "hand_sizes": list(self.hand_sizes), "loose": names_of(self.loose),
            "houses": houses_to_json(self.houses), "bid": self.bid,
            "history": [{"seat": seat, **play_to_json(play)} for seat, play in self.history],
            "captured_counts": list(self.captured_counts),
            "sweeps": [list(sweep) for sweep in self.sweeps], "restricted": names_of(self.restricted),
            "initial_floor": names_of(self.initial_floor),
        }

    @property
    def team(self) -> int:
        return self.seat % 2

    @property
    def plays_made(self) -> int:
        return len(self.history)

    def captured(self) -> tuple[int, int]:
        """The cards each team has captured so far (masks), worked out from the plays, which are all public.

        The loose cards left on the floor after the last play are not in them: they go to the last capturer
        when the deal is scored.
        """
        loose = self.initial_floor
        houses: dict[int, House] = {}
        piles = [0, 0]
        for seat, play in self.history:
            loose, taken = apply_play(play, seat, self.players, loose, houses)
            piles[seat % 2] |= taken
        return piles[0], piles[1]

    def unseen(self) -> int:
        """Cards this seat has not seen: in the other hands or still to be dealt."""
        seen = self.hand | self.initial_floor | self.loose
        for cards, _, _ in self.houses.values():
            seen |= cards
        for _, play in self.history:
            seen |= 1 << play[1]
        return FULL_PACK & ~seen


def view_of(deal: Deal, seat: int) -> PlayerView:
    """The view of ``seat`` of ``deal``."""
    if not 0 <= seat < deal.players:
        raise ValueError(f"no seat {seat} in a {deal.players}-player deal")
    order = [(deal.bidder + i) % deal.players for i in range(deal.players)]
    history = tuple((order[i % deal.players], p) for i, p in enumerate(deal.plays))
    return PlayerView(
        rules=deal.rules,
        players=deal.players,
        seat=seat,
        dealer=deal.dealer,
        phase=deal.phase,
        to_move=deal.to_move,
        hand=deal.hands[seat],
        hand_sizes=tuple(h.bit_count() for h in deal.hands),
        loose=0 if deal.phase is Phase.BID else deal.loose,
        houses=dict(deal.houses),
        bid=deal.bid,
        history=history,
        captured_counts=(deal.piles[0].bit_count(), deal.piles[1].bit_count()),
        sweeps=tuple(deal.sweeps),
        restricted=deal.restricted,
        initial_floor=0 if deal.phase is Phase.BID else mask_of(deal.deck[4:8]),
    )
