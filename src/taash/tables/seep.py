"""Seep at a table: its settings, the log's words, and the JSON the browser's Seep view draws."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from taash.cards import card_name, cards_of, names_of, parse_card
from taash.fairness import Fairness
from taash.games.api import Action, State
from taash.games.registry import plugin
from taash.i18n import N_, _, said_of
from taash.seep.deal import Deal, Phase, card_points
from taash.seep.describe import (
    deal_explained,
    describe_outcome,
    describe_play,
    house_word,
    no_play_reason,
    redeal_reason,
)
from taash.seep.errors import BadPositionError, BadRulesError, RecordError
from taash.seep.game import SeepState
from taash.seep.match import DealResult, Match
from taash.seep.match import Dealt as SeepDealt
from taash.seep.notation import houses_to_json, play_from_json, play_to_json
from taash.seep.plays import Play
from taash.seep.record import GameRecord, check_fairness, record_from_json, record_of, replay, replay_to_json
from taash.seep.rules import PRESETS, Rules, rules_from_json
from taash.seep.view import view_of
from taash.tables.adapter import Dealt, Remembered, SeatResult, Settings, TableError

JSON = Any


def bid_said(name: str, value: int) -> str:
    return _("{name} bids {value} ({house})", name=name, value=value, house=house_word(value))


def play_said(name: str, play: Play, houses_before: dict[int, Any], deal: Deal, sweeps_before: int) -> str:
    """A play in words, as the log and the replay tell it (``deal`` after the play)."""
    play_words = describe_play(play, houses_before)
    if len(deal.sweeps) > sweeps_before:
        return _("{name}: {play}: a sweep (+{points})", name=name, play=play_words, points=deal.sweeps[-1][2])
    return _("{name}: {play}", name=name, play=play_words)


def captured_json(deal: Deal) -> list[dict[str, JSON]]:
    """Each team's captured cards, their count and points (face-up knowledge: every captured card was seen, so the
    table shows the piles to anyone who asks)."""
    sweep_points, sweeps = [0, 0], [0, 0]
    for s, _index, points in deal.sweeps:
        sweep_points[s % 2] += points
        sweeps[s % 2] += 1
    return [{"cards": deal.piles[t].bit_count(), "pile": names_of(deal.piles[t]),
             "points": card_points(deal.rules, deal.piles[t]),
             "sweeps": sweeps[t], "sweep_points": sweep_points[t]} for t in (0, 1)]


def result_to_json(r: DealResult) -> dict[str, JSON]:
    return {"dealer": r.dealer, "card_points": list(r.score.card_points), "sweep_points": list(r.score.sweep_points),
            "score": list(r.score.score), "difference": r.difference, "baazi": r.baazi, "minimum_rule": r.minimum_rule}


def teams_named(names: Sequence[str], players: int) -> tuple[str, str]:
    """Each team in words: its player's name, or both partners' names."""
    if players == 2:
        return names[0], names[1]
    return (_("{first} and {second}", first=names[0], second=names[2]),
            _("{first} and {second}", first=names[1], second=names[3]))


def last_json(match: Match, names: Sequence[str]) -> dict[str, JSON]:
    """The last finished deal's result, with where each team's points came from (its captured point cards and
    sweeps: all seen face up)."""
    deal = match.deal if match.over else match.past[-1]  # the match's last deal is never past
    return {**result_to_json(match.results[-1]), "explained": deal_explained(deal, teams_named(names, deal.players))}


def _match(state: State) -> Match:
    assert isinstance(state, SeepState)
    return state.match


class SeepTables:
    """Seep's :class:`~taash.tables.adapter.TableGame`."""

    name = "seep"
    title = plugin("seep").title
    player_counts = tuple(sorted(plugin("seep").players))
    presets = tuple(PRESETS)
    formats: tuple[str, ...] = ()
    move_fields = ("value", "play")

    def settings(self, players: int, rules: JSON, length: JSON, level: str, public: bool) -> Settings:
        if players not in self.player_counts:
            raise TableError(N_("players must be 2 or 4"))
        if isinstance(length, bool) or not isinstance(length, int) or not 0 <= length <= 20:
            raise TableError(N_("baazis must be from 0 (a single deal) to 20"))
        try:
            parsed = rules if isinstance(rules, Rules) else rules_from_json(rules)
        except BadRulesError as e:
            raise TableError(said_of(e)) from None
        return Settings("seep", players, parsed, length, level, public)

    def rules_json(self, settings: Settings) -> JSON:
        rules: Rules = settings.rules or PRESETS["standard"]
        return rules.to_json()

    def summary(self, settings: Settings) -> dict[str, JSON]:
        rules = self.rules_json(settings)
        return {"rules": rules if isinstance(rules, str) else "custom", "baazis": settings.length}

    def new_state(self, settings: Settings, seed: int, dealt: Sequence[Dealt] = (),
                  fairness: Fairness | None = None) -> State:
        assert isinstance(settings.length, int)
        packs = [SeepDealt(d.dealer, tuple(parse_card(d.pack[i:i + 2]) for i in range(0, len(d.pack), 2)),
                           tuple(json.loads(d.notes))) for d in dealt]
        rules = settings.rules or PRESETS["standard"]
        return SeepState(Match(rules, settings.players, seed, settings.length, dealt=packs, fairness=fairness))

    def dealt(self, state: State) -> list[Dealt]:
        return [Dealt(d.dealer, "".join(card_name(c) for c in d.deck), json.dumps(list(d.redeals)))
                for d in _match(state).dealt]

    def move_types(self) -> tuple[str, ...]:
        return ("bid", "play")

    def action_from(self, state: State, seat: int, message: Mapping[str, JSON]) -> Action:
        deal = _match(state).deal
        if message.get("type") == "bid":
            value = message.get("value")
            if isinstance(value, bool) or not isinstance(value, int):
                raise TableError(_("a bid is a whole number, not {value}", value=repr(str(value)[:20])), "malformed")
            if deal.phase is not Phase.BID:
                raise TableError(N_("there is no bid to make now"), "illegal")
            if value not in deal.legal_bids():
                raise TableError(_("you cannot bid {value} (you may bid {bids})", value=repr(value),
                                   bids=str(deal.legal_bids())), "illegal")
            return value
        if message.get("type") != "play":
            raise TableError(_("unknown action {action}", action=repr(str(message.get("type"))[:40])))
        if deal.phase is not Phase.PLAY:
            raise TableError(N_("the bid comes first"), "illegal")
        try:
            play = play_from_json(message.get("play"), deal.houses)
        except BadPositionError as e:
            raise TableError(_("malformed play: {why}", why=said_of(e)), "malformed") from None
        if play not in deal.legal_plays():
            raise TableError(N_("that play is not legal here"), "illegal")
        return play

    def action_to(self, action: Action) -> dict[str, JSON]:
        if isinstance(action, int):
            return {"type": "bid", "value": action}
        assert isinstance(action, tuple)
        return {"type": "play", "play": play_to_json(action)}

    def clears_score(self, message: Mapping[str, JSON]) -> bool:
        """The last deal's score stays up through the next deal's bid, until its first play."""
        return message.get("type") == "play"

    def ends_turn(self, message: Mapping[str, JSON]) -> bool:
        return True  # a bid and the bidder's first play are timed apart

    def timeout_action(self, state: State) -> Action | None:
        return None  # the rules say nothing of time: a bot plays a lapsed turn

    def remember(self, state: State) -> Remembered:
        match = _match(state)
        return Remembered((dict(match.deal.houses), len(match.deal.sweeps), len(match.results)))

    def said(self, state: State, before: Remembered, seat: int, action: Action, names: Sequence[str]) -> list[str]:
        match = _match(state)
        houses, sweeps, finished = before.data
        if isinstance(action, int):
            return [bid_said(names[seat], action)]
        assert isinstance(action, tuple)
        ended = len(match.results) > finished
        deal = match.past[-1] if ended and not match.over else match.deal  # the match's last deal is never past
        lines = [play_said(names[seat], action, houses, deal, sweeps)]
        if ended:
            a, b = match.results[-1].score.score
            lines.append(_("Deal over: {a} to {b}", a=a, b=b))
            lines.extend([_("The match is over")] if match.over else self.opening(state, names))
        return lines

    def opening(self, state: State, names: Sequence[str]) -> list[str]:
        match = _match(state)
        lines = [_("Dealt again: {why}", why=redeal_reason(problem)) for problem in match.redeals]
        deal = match.deal
        lines.append(_("Deal {number}: {dealer} deals, {bidder} bids", number=len(match.past) + 1,
                       dealer=names[deal.dealer], bidder=names[deal.bidder]))
        return lines

    def finished_deals(self, state: State) -> int:
        return len(_match(state).results)

    def public(self, state: State, names: Sequence[str], last_shown: bool) -> dict[str, JSON]:
        match = _match(state)
        score = {
            "baazis": list(match.baazis), "difference": match.difference,
            "deals": [result_to_json(r) for r in match.results],
            "last": last_json(match, names) if last_shown and match.results else None,
            "winner": match.winner() if match.over else None,
        }
        deal = match.deal
        bidding = deal.phase is Phase.BID
        return {"score": score, "deal": {
            "number": len(match.past) + 1,
            "dealer": deal.dealer, "bidder": deal.bidder,
            "phase": deal.phase.name.lower(), "to_move": None if match.over or deal.over else match.to_move,
            "bid": deal.bid or None, "plays_made": len(deal.plays),
            "hand_sizes": [h.bit_count() for h in deal.hands],
            "loose": [] if bidding else names_of(deal.loose), "houses": houses_to_json(deal.houses),
            "captured": captured_json(deal),
            "hand": None, "bids": [], "legal": [], "blocked": {}, "forced": None,
        }}

    def seat_part(self, state: State, seat: int | None, deal: dict[str, JSON]) -> dict[str, JSON]:
        view = view_of(_match(state).deal, seat if seat is not None else 0)
        deal["hand"] = names_of(view.hand) if seat is not None else None
        if seat is not None and deal["to_move"] == seat:
            if view.phase is Phase.BID:
                deal["bids"] = view.legal_bids()
                if len(deal["bids"]) == 1:
                    deal["forced"] = _("Your only bid is {value}: the only card of 9 to king you hold.",
                                       value=deal["bids"][0])
            else:
                deal["legal"] = [{"play": play_to_json(p), "text": describe_outcome(view, p)}
                                 for p in view.legal_plays()]
                deal["blocked"] = {card_name(c): reason for c in cards_of(view.hand)
                                   if (reason := no_play_reason(view, c)) is not None}
                if len(deal["legal"]) == 1:
                    deal["forced"] = _("Your only play: {play}.", play=deal["legal"][0]["text"])
        return deal

    def split_terms(self, state: State) -> dict[int, int]:
        raise TableError(N_("Seep has no prize pool to split: play the match out"), "no_split")

    def seat_results(self, state: State) -> list[SeatResult]:
        match = _match(state)
        returns = state.returns()
        winner = match.winner()
        sweeps = [0] * match.players
        for deal in [*match.past, match.deal]:
            for seat, _index, _points in deal.sweeps:
                sweeps[seat] += 1
        points = [sum(r.score.score[t] for r in match.results) for t in (0, 1)]
        return [SeatResult(seat % 2, winner == seat % 2, returns[seat], points[seat % 2],
                           {"sweeps": sweeps[seat], "baazis": match.baazis[seat % 2], "deals": len(match.results)})
                for seat in range(match.players)]

    def game_record(self, state: State, names: Sequence[str]) -> GameRecord:
        return record_of(_match(state), list(names))

    def record(self, state: State, names: Sequence[str]) -> JSON:
        rec = self.game_record(state, names)
        data = rec.to_json()
        data["scores"] = replay_to_json(replay(rec))
        return data

    def replay(self, state: State, names: Sequence[str]) -> JSON:
        return replay_json(self.game_record(state, names))

    def verify(self, record: JSON) -> list[str]:
        try:
            rec = record_from_json(record)
            replay(rec)
            return check_fairness(rec)
        except RecordError as e:
            raise TableError(said_of(e), "unfair") from None


def replay_json(record: GameRecord) -> dict[str, JSON]:
    """Every step of a finished match as the engine plays it again: after each bid and each play, every hand,
    the floor (loose cards and houses with value, cemented and owners), the captured counts, and what happened in
    words; and each deal's result. The replay page shows these as they are: it knows no rule of its own."""
    names = record.names or [f"Seat {i}" for i in range(record.players)]
    results = replay(record)
    deals = []
    for i, d in enumerate(record.deals):
        deal = Deal(record.rules, record.players, d.dealer, list(d.deck))
        bidder = deal.bidder
        deal.make_bid(d.bid)
        steps = [_replay_step(deal, bid_said(names[bidder], d.bid), bidder, None)]
        for play in d.plays:
            seat = deal.to_move
            houses, sweeps = dict(deal.houses), len(deal.sweeps)
            deal.play(play)
            steps.append(_replay_step(deal, play_said(names[seat], play, houses, deal, sweeps), seat,
                                      card_name(play[1])))
        deals.append({"number": i + 1, "dealer": d.dealer, "bidder": bidder, "bid": d.bid,
                      "result": result_to_json(results[i]) if i < len(results) else None, "steps": steps})
    rules = record.rules.to_json()
    return {"game": "seep", "players": record.players, "rules": rules if isinstance(rules, str) else "custom",
            "names": names, "deals": deals}


def _replay_step(deal: Deal, said: str, seat: int, card: str | None) -> dict[str, JSON]:
    return {"said": said, "seat": seat, "card": card, "hands": [names_of(h) for h in deal.hands],
            "loose": names_of(deal.loose), "houses": houses_to_json(deal.houses), "captured": captured_json(deal)}


ADAPTER = SeepTables()
