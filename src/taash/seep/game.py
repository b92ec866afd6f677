"""Seep behind the games API (:mod:`taash.games.api`, satisfied by shape: the engine does not import it).

A state is a whole match (a single deal when ``baazis_to_win`` is 0); its actions are bids (ints) and plays
(tuples); its JSON is the seed and the game record. Registered as ``"seep"`` in :mod:`taash.games.registry`.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from taash.cards import cards_of
from taash.i18n import _
from taash.seep.deal import Deal, Phase
from taash.seep.describe import describe_play
from taash.seep.errors import BadPositionError, IllegalPlayError, RecordError
from taash.seep.match import Match
from taash.seep.notation import play_from_json, play_to_json
from taash.seep.plays import Play
from taash.seep.record import record_from_json, record_of
from taash.seep.rules import PRESETS, Rules, rules_from_json
from taash.seep.view import PlayerView

#: The most sweeps a deal can hold (every play but the last), for the bound on returns.
_MOST_SWEEPS = 47


class SeepCodec:
    """Seep's actions in the protocol's JSON: a bid as ``{"bid": 12}``, a play as ``seep-protocol.md`` writes it."""

    def to_json(self, action: Hashable) -> dict[str, Any]:
        if isinstance(action, int):
            return {"bid": action}
        if isinstance(action, tuple):
            return play_to_json(action)
        raise BadPositionError(f"not a Seep action: {str(action)[:40]}")

    def from_json(self, view: PlayerView, data: Any) -> int | Play:
        if isinstance(data, dict) and set(data) == {"bid"}:
            bid = data["bid"]
            if isinstance(bid, bool) or not isinstance(bid, int):
                raise BadPositionError("a bid is a whole number from 9 to 13")
            return bid
        return play_from_json(data, view.houses)

    def describe(self, view: PlayerView, action: Hashable) -> str:
        if isinstance(action, int):
            return f"Bid {action}"
        if isinstance(action, tuple):
            return describe_play(action, view.houses)
        raise BadPositionError(f"not a Seep action: {str(action)[:40]}")


def deal_hidden_again(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """A copy of ``deal`` where the cards ``seat`` cannot see (other hands, the cards still to be dealt, and the
    floor while it lies face down for the bid) are dealt again among the same places."""
    hidden = [c for s in range(deal.players) if s != seat for c in cards_of(deal.hands[s])]
    dealt = 0
    for hand in deal.hands:
        dealt |= hand
    on_table = deal.loose | deal.piles[0] | deal.piles[1]
    for cards, _owned, _owners in deal.houses.values():
        on_table |= cards
    played = 0
    for play in deal.plays:
        played |= 1 << play[1]
    hidden += [c for c in deal.deck if not (dealt | on_table | played) >> c & 1]  # still to be dealt
    if deal.phase is Phase.BID:
        hidden += cards_of(deal.loose)
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    moved = dict(zip(hidden, shuffled, strict=True))
    deck = [moved.get(c, c) for c in deal.deck]
    if deal.phase is Phase.BID:  # nothing played yet: the deal is its pack
        again = Deal.__new__(Deal)
        again._setup(deal.rules, deal.players, deal.dealer, deck)
        return again
    again = deal.clone()
    again.deck = deck
    for s in range(deal.players):
        if s != seat:
            again.hands[s] = sum(1 << moved[c] for c in cards_of(deal.hands[s]))
    return again


class SeepState:
    """A Seep match as a games-API state; actions are bids (ints) and plays (tuples)."""

    def __init__(self, match: Match):
        self.match = match

    @property
    def current_player(self) -> int:
        return self.match.deal.to_move

    @property
    def is_over(self) -> bool:
        return self.match.over

    def legal_actions(self) -> list[int] | list[Play]:
        if self.match.over:
            return []
        deal = self.match.deal
        return deal.legal_bids() if deal.phase is Phase.BID else deal.legal_plays()

    def apply(self, action: Hashable) -> None:
        match = self.match
        if match.over:
            raise IllegalPlayError("the match is over")
        if isinstance(action, bool):
            raise IllegalPlayError(f"not a Seep action: {action!r}")
        if isinstance(action, int):
            match.make_bid(action)
        elif isinstance(action, tuple):
            match.play(action)
        else:
            raise IllegalPlayError(f"not a Seep action: {str(action)[:40]}")
        if match.deal.over and not match.over:
            match.next_deal()

    def clone(self) -> SeepState:
        return SeepState(self.match.clone())

    def view(self, seat: int) -> PlayerView:
        return self.match.view(seat)

    def with_hidden_dealt_again(self, seat: int, rng: random.Random) -> SeepState:
        other = self.match.clone()
        other.deal = deal_hidden_again(self.match.deal, seat, rng)
        return SeepState(other)

    def returns(self) -> list[float]:
        """Single deal: each seat's team margin in deal score; else +1 / -1 for the match."""
        m = self.match
        if m.baazis_to_win == 0:
            if not m.results:
                return [0.0] * m.players
            a, b = m.results[0].score.score
            margin = float(a - b)
        else:
            w = m.winner()
            margin = 0.0 if w is None else (1.0 if w == 0 else -1.0)
        return [margin if seat % 2 == 0 else -margin for seat in range(m.players)]

    def to_json(self) -> dict[str, Any]:
        m = self.match
        return {"seed": m.seed, "baazis": m.baazis_to_win, "record": record_of(m).to_json()}

    def tallies(self) -> dict[str, tuple[int, ...]]:
        """Baazis each team has won (in a single deal: by the minimum rule or a lead of a baazi in one deal)."""
        return {"baazis": tuple(self.match.baazis)}

    def key(self) -> Hashable:
        d = self.match.deal
        return (
            tuple(d.hands), d.loose, tuple(sorted(d.houses.items())), tuple(d.piles), tuple(d.plays),
            d.to_move, d.phase, d.bid, tuple(d.sweeps), d.dealer, tuple(self.match.baazis),
            self.match.difference, len(self.match.results),
        )


class SeepGame:
    """Seep with fixed rules and player count; ``baazis_to_win`` 0 means a single deal."""

    name = "seep"
    codec = SeepCodec()

    def __init__(self, rules: Rules | None = None, players: int = 4, baazis_to_win: int = 0):
        if players not in (2, 4):
            raise BadPositionError(f"Seep is played by 2 or 4 players, not {players}")
        self.rules = rules or PRESETS["standard"]
        self.players = players
        self.baazis_to_win = baazis_to_win

    def team_of(self, seat: int) -> int:
        return seat % 2

    def new_state(self, seed: int) -> SeepState:
        return SeepState(Match(self.rules, self.players, seed, self.baazis_to_win))

    def state_from_json(self, data: Any) -> SeepState:
        """Rebuild a state: a new match from the seed, then every bid and play of the record made again."""
        if not isinstance(data, dict) or not isinstance(data.get("seed"), int) or "record" not in data:
            raise BadPositionError("a Seep state is an object with 'seed', 'baazis' and 'record'")
        record = record_from_json(data["record"])
        state = SeepState(Match(record.rules, record.players, data["seed"], data.get("baazis", 0)))
        for i, d in enumerate(record.deals):
            deal = state.match.deal
            if d.deck != deal.deck or d.dealer != deal.dealer:
                raise RecordError(_("the record does not come from this seed"), i + 1)
            if d.bid:
                state.apply(d.bid)
            for raw in d.plays:
                state.apply(raw if isinstance(raw, tuple) else play_from_json(raw, state.match.deal.houses))
        return state

    def max_returns(self) -> float:
        if self.baazis_to_win:
            return 1.0
        r = self.rules
        most_sweep = max(r.sweep_points, r.bid_sweep_points, r.last_sweep_points, 13)
        return float(max(r.total_card_points, r.satthi_points) + _MOST_SWEEPS * most_sweep)


def make_game(players: int = 4, rules: str | dict[str, Any] | Rules | None = None, baazis: int = 0) -> SeepGame:
    """The registry's factory: ``rules`` a preset name, a rules object or :class:`Rules`; ``baazis`` 0 for a single
    deal."""
    return SeepGame(rules_from_json(rules), players, baazis)

