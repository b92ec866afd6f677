"""13-card Rummy behind the games API (:mod:`taash.games.api`, satisfied by shape: the engine does not import it).

A state is a whole match in one of the formats of section 6. Its actions are the engine's: ``Drop()``,
``Take("stock" | "discard")``, ``Discard(face)`` and ``Declare(finish, groups)``; ``Timeout()``, a seat's time running
out where play is timed, is applied like them but is never legal (nobody chooses it). The legal actions listed are the
engine's (:func:`taash.rummy.deal.legal_actions`): drops, takes and discards, and one valid declaration when there
is one; any other declaration of the hand is accepted too when applied, and a wrong one costs what the rules say.
Each seat plays for itself: returns are zero-sum between seats.
Registered as ``"rummy"`` in :mod:`taash.games.registry`.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from taash.i18n import _, said_of
from taash.packs import face_name, parse_face
from taash.rummy.deal import Action, Declare, Discard, Drop, Status, Take, Timeout
from taash.rummy.errors import BadHandError, IllegalTurnError
from taash.rummy.match import FORMATS, Format, Match, get_format
from taash.rummy.record import record_of
from taash.rummy.rules import PRESETS, Rules, rules_from_json
from taash.rummy.view import PlayerView

#: A timed-out turn among a state's actions (read back by :meth:`RummyGame.state_from_json`, never from a player).
TIMEOUT_JSON = {"timeout": True}


def action_from_json(data: Any) -> Action:
    """The action a record's JSON names (its context is not needed: a Rummy action names its cards)."""
    try:
        if data == {"drop": True}:
            return Drop()
        if isinstance(data, dict) and set(data) == {"take"} and data["take"] in ("stock", "discard"):
            return Take(data["take"])
        if isinstance(data, dict) and set(data) == {"discard"}:
            return Discard(parse_face(data["discard"]))
        if isinstance(data, dict) and set(data) == {"declare"} and isinstance(data["declare"], dict):
            declare = data["declare"]
            melds = declare.get("melds")
            if set(declare) == {"discard", "melds"} and isinstance(melds, list) and all(
                    isinstance(g, list) and g for g in melds):
                return Declare(parse_face(declare["discard"]),
                               tuple(tuple(parse_face(c) for c in g) for g in melds))
    except ValueError as e:
        raise BadHandError(said_of(e)) from None
    raise BadHandError("a Rummy action is {\"drop\": true}, {\"take\": \"stock\"|\"discard\"}, "
                       "{\"discard\": CARD} or {\"declare\": {\"discard\": CARD, \"melds\": [[CARD, ...]]}}")


class RummyCodec:
    """Rummy's actions in the record's words: ``{"drop": true}``, ``{"take": "stock"}``, ``{"discard": "Kd"}``,
    ``{"declare": {"discard": "9h", "melds": [["4s", "5s", "6s"], ...]}}``."""

    def to_json(self, action: Hashable) -> dict[str, Any]:
        if isinstance(action, Drop):
            return {"drop": True}
        if isinstance(action, Take):
            return {"take": action.source}
        if isinstance(action, Discard):
            return {"discard": face_name(action.card)}
        if isinstance(action, Declare):
            return {"declare": {"discard": face_name(action.finish),
                                "melds": [[face_name(f) for f in g] for g in action.groups]}}
        if isinstance(action, Timeout):
            return dict(TIMEOUT_JSON)
        raise BadHandError(f"not a Rummy action: {str(action)[:40]}")

    def from_json(self, view: PlayerView, data: Any) -> Action:
        return action_from_json(data)

    def describe(self, view: PlayerView, action: Hashable) -> str:
        if isinstance(action, Drop):
            return _("Drop (first drop)") if not view.has_taken[view.seat] else _("Drop (middle drop)")
        if isinstance(action, Take):
            if action.source == "discard" and view.pile:
                return _("Take {card} from the discard pile", card=face_name(view.pile[-1][0]))
            return _("Take the top card of the stock")
        if isinstance(action, Discard):
            return _("Discard {card}", card=face_name(action.card))
        if isinstance(action, Declare):
            groups = " | ".join(" ".join(face_name(f) for f in g) for g in action.groups)
            return _("Declare: {groups} (finish card {card})", groups=groups, card=face_name(action.finish))
        raise BadHandError(f"not a Rummy action: {str(action)[:40]}")


class RummyState:
    """A Rummy match as a games-API state."""

    def __init__(self, match: Match):
        self.match = match
        #: Every action applied, in order, timed-out turns included (the state's JSON; the match itself keeps the
        #: record).
        self.actions: list[Action | Timeout] = []

    @property
    def current_player(self) -> int:
        return self.match.deal.to_move

    @property
    def is_over(self) -> bool:
        return self.match.over

    def legal_actions(self) -> list[Action]:
        if self.match.over:
            return []
        return self.match.deal.legal_actions()

    def apply(self, action: Hashable) -> None:
        """Make ``action`` for the seat to move; a :class:`~taash.rummy.deal.Timeout` is his time running out."""
        if self.match.over:
            raise IllegalTurnError("the match is over")
        if isinstance(action, Timeout):
            self.match.timeout()
        elif isinstance(action, Drop | Take | Discard | Declare):
            self.match.act(action)
        else:
            raise IllegalTurnError(f"not a Rummy action: {str(action)[:40]}")
        self.actions.append(action)
        if self.match.deal.over and not self.match.over:
            self.match.next_deal()

    def clone(self) -> RummyState:
        new = RummyState(self.match.clone())
        new.actions = list(self.actions)
        return new

    def view(self, seat: int) -> PlayerView:
        return self.match.view(seat)

    def with_hidden_dealt_again(self, seat: int, rng: random.Random) -> RummyState:
        """The cards ``seat`` cannot see (the other hands, dropped ones included, and the stock) dealt again
        among the same places. Past turns are left as they were: the view shows none of their hidden cards."""
        other = self.clone()
        deal = other.match.deal
        places = [(s, i) for s, hand in deal.hands.items() if s != seat for i in range(len(hand))]
        faces = [deal.hands[s][i] for s, i in places] + deal.stock
        rng.shuffle(faces)
        for (s, i), face in zip(places, faces, strict=False):
            deal.hands[s][i] = face
        deal.stock = faces[len(places):]
        return other

    def returns(self) -> list[float]:
        """Points format: each loser pays his points to the winner. Pool and deals: the winner takes one unit
        from the others, shared equally."""
        m = self.match
        n = m.players
        winner = m.winner
        if winner is None:
            return [0.0] * n
        if m.format.kind == "points":
            points = [float(p or 0) for p in m.results[-1].points.points]
            out = [-p for p in points]
            out[winner] = sum(p for s, p in enumerate(points) if s != winner)
            return out
        return [1.0 if s == winner else -1.0 / (n - 1) for s in range(n)]

    def tallies(self) -> dict[str, tuple[int, ...]]:
        """Per seat over the match: drops, wrong declarations and valid declarations made."""
        drops = [0] * self.match.players
        wrong = [0] * self.match.players
        valid = [0] * self.match.players
        for r in self.match.results:
            for s in r.points.dropped:
                drops[s] += 1
            for s in r.points.wrong:
                wrong[s] += 1
            if r.points.declared:
                valid[r.points.winner] += 1
        return {"drops": tuple(drops), "wrong declarations": tuple(wrong), "valid declarations": tuple(valid)}

    def to_json(self) -> dict[str, Any]:
        m = self.match
        codec = RummyCodec()
        return {"rules": m.rules.to_json(), "players": m.players, "format": m.format.name, "seed": m.seed,
                "actions": [codec.to_json(a) for a in self.actions], "record": record_of(m).to_json()}

    def key(self) -> Hashable:
        d = self.match.deal
        return (len(self.match.results), tuple(self.match.totals), d.to_move, d.phase,
                tuple((s, tuple(h)) for s, h in sorted(d.hands.items())), tuple(d.pile), tuple(d.stock),
                tuple(sorted((s, st.value) for s, st in d.status.items())), len(d.turns))


class RummyGame:
    """13-card Rummy with fixed rules, player count and format."""

    name = "rummy"
    codec = RummyCodec()

    def __init__(self, rules: Rules | None = None, players: int = 4, fmt: str | Format = "points"):
        self.rules = rules or PRESETS["octro"]
        self.players = players
        self.format = fmt if isinstance(fmt, Format) else get_format(fmt)
        Match(self.rules, players, self.format, 0)  # refuses a bad player count now, in one sentence

    def team_of(self, seat: int) -> int:
        return seat

    def new_state(self, seed: int) -> RummyState:
        return RummyState(Match(self.rules, self.players, self.format, seed))

    def state_from_json(self, data: Any) -> RummyState:
        """A new match from the seed, then every action of the JSON applied again."""
        if not isinstance(data, dict) or not isinstance(data.get("seed"), int) or not isinstance(
                data.get("actions"), list):
            raise BadHandError("a Rummy state is an object with 'seed' and 'actions'")
        rules = rules_from_json(data.get("rules"))
        players, fmt = data.get("players"), data.get("format")
        if players != self.players or fmt != self.format.name or rules != self.rules:
            raise BadHandError("the state is of another game (rules, players or format)")
        state = self.new_state(data["seed"])
        codec = RummyCodec()
        for raw in data["actions"]:
            view = state.view(state.current_player)
            state.apply(Timeout() if raw == TIMEOUT_JSON else codec.from_json(view, raw))
        return state

    def max_returns(self) -> float:
        if self.format.kind == "points":
            r = self.rules
            most = max(r.max_points, r.wrong_declaration, r.first_drop, r.middle_drop)
            return float(most * (self.players - 1))
        return 1.0


def make_game(players: int = 4, rules: str | dict[str, Any] | Rules | None = None,
              format: str = "points") -> RummyGame:
    """The registry's factory: ``rules`` a preset name, a rules object or :class:`Rules`; ``format`` one of
    :data:`~taash.rummy.match.FORMATS`."""
    return RummyGame(rules_from_json(rules), players, format)


__all__ = ["FORMATS", "RummyCodec", "RummyGame", "RummyState", "Status", "make_game"]
