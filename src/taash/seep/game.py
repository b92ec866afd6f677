"""Seep behind the generic :mod:`taash.game` interface: one match per state, serialised as a game record."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from taash.seep.deal import Phase
from taash.seep.errors import BadPositionError, IllegalPlayError, RecordError
from taash.seep.match import Match
from taash.seep.notation import play_from_json
from taash.seep.plays import Play
from taash.seep.record import record_from_json, record_of
from taash.seep.rules import PRESETS, Rules


class SeepState:
    """A Seep match as a :class:`taash.game.GameState`; actions are bids (ints) and plays (tuples)."""

    def __init__(self, match: Match):
        self.match = match
        self._past: list[Any] = []

    @property
    def current_player(self) -> int:
        return self.match.deal.to_move

    @property
    def is_over(self) -> bool:
        return self.match.over

    def legal_actions(self) -> list[Hashable]:
        deal = self.match.deal
        if deal.phase is Phase.BID:
            return list(deal.legal_bids())
        return list(deal.legal_plays())

    def apply(self, action: Hashable) -> None:
        match = self.match
        if match.over:
            raise IllegalPlayError("the match is over")
        if isinstance(action, int):
            match.make_bid(action)
        elif isinstance(action, tuple):
            play: Play = action
            match.play(play)
        else:
            raise IllegalPlayError(f"not a Seep action: {action!r}")
        if match.deal.over and not match.over:
            self._past.append(record_of(match).deals[-1])
            match.next_deal()

    def clone(self) -> SeepState:
        new = SeepState(self.match.clone())
        new._past = list(self._past)
        return new

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
        record = record_of(m, past=self._past)
        return {"seed": m.seed, "baazis": m.baazis_to_win, "record": record.to_json()}

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

    def __init__(self, rules: Rules | None = None, players: int = 4, baazis_to_win: int = 0):
        self.rules = rules or PRESETS["standard"]
        self.players = players
        self.baazis_to_win = baazis_to_win

    def new_state(self, seed: int) -> SeepState:
        return SeepState(Match(self.rules, self.players, seed, self.baazis_to_win))

    def state_from_json(self, data: Any) -> SeepState:
        """Rebuild a state: a new match from the seed, then every bid and play of the record made again."""
        if not isinstance(data, dict) or "seed" not in data or "record" not in data:
            raise BadPositionError("a Seep state is an object with 'seed', 'baazis' and 'record'")
        record = record_from_json(data["record"])
        state = SeepState(Match(record.rules, record.players, data["seed"], data.get("baazis", 0)))
        for i, d in enumerate(record.deals):
            deal = state.match.deal
            if d.deck != deal.deck or d.dealer != deal.dealer:
                raise RecordError("the record does not come from this seed", i)
            if d.bid:
                state.apply(d.bid)
            for raw in d.plays:
                state.apply(raw if isinstance(raw, tuple) else play_from_json(raw, state.match.deal.houses))
        return state

    def max_returns(self) -> float:
        if self.baazis_to_win:
            return 1.0
        r = self.rules
        return float(max(r.total_card_points, r.satthi_points) + 48 * max(r.sweep_points, r.bid_sweep_points, 13))
