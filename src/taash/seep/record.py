"""Game records (``seep-record/1``): writing a match down, and ``replay``, which checks and scores one.

A record keeps each deal's dealer, deck order, bid and plays: enough to replay the match exactly. A fairly dealt
match's record (a server table's) carries its ``fairness`` block too, the secret revealed, and
:func:`check_fairness` checks that every deck is the one the secret deals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taash.cards import CardError, card_name, parse_cards
from taash.fairness import Fairness, FairnessError, fairness_from_json
from taash.i18n import _, said_of
from taash.seep.deal import Deal, Phase
from taash.seep.errors import BadPositionError, BadRulesError, IllegalPlayError, RecordError
from taash.seep.match import DealResult, Match, fair_deck, next_dealer, score_deal
from taash.seep.notation import play_from_json, play_to_json
from taash.seep.plays import Play
from taash.seep.rules import Rules, rules_from_json

FORMAT = "seep-record/1"
JSON = Any


@dataclass(slots=True)
class DealRecord:
    dealer: int
    deck: list[int]
    bid: int = 0
    plays: list[Play] = field(default_factory=list)


@dataclass(slots=True)
class GameRecord:
    """A whole (possibly unfinished) match."""

    rules: Rules
    players: int
    deals: list[DealRecord]
    names: list[str] | None = None
    #: How a fairly dealt match was dealt (its secret revealed: a record is published once the match is over).
    fairness: Fairness | None = None

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"format": FORMAT, "rules": self.rules.to_json(), "players": self.players}
        if self.names:
            out["names"] = list(self.names)
        if self.fairness is not None:
            out["fairness"] = self.fairness.to_json()
        deals = []
        for d in self.deals:
            replayed = Deal(self.rules, self.players, d.dealer, d.deck)
            plays = []
            if d.bid:
                replayed.make_bid(d.bid)
                for raw in d.plays:
                    p = raw if isinstance(raw, tuple) else play_from_json(raw, replayed.houses)
                    plays.append(play_to_json(p))
                    replayed.play(p)
            deals.append({"dealer": d.dealer, "deck": [card_name(c) for c in d.deck],
                          "bid": d.bid or None, "plays": plays})
        out["deals"] = deals
        return out


def record_of(match: Match, names: list[str] | None = None, past: list[DealRecord] | None = None) -> GameRecord:
    """The record of a match so far: the finished deals the match keeps, unless ``past`` gives their records, and
    the deal in progress."""
    if past is None:
        past = [DealRecord(d.dealer, list(d.deck), d.bid, list(d.plays)) for d in match.past]
    deals = list(past)
    d = match.deal
    deals.append(DealRecord(d.dealer, list(d.deck), d.bid, list(d.plays)))
    return GameRecord(match.rules, match.players, deals, names, match.fairness)


def _expect_int(data: dict[str, JSON], key: str, allowed: range, where: int | None) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise RecordError(_("{key} must be a whole number from {low} to {high}, not {value}", key=key,
                            low=allowed.start, high=allowed.stop - 1, value=repr(value)), where)
    return value


def record_from_json(data: JSON) -> GameRecord:
    """Read a record's structure (cards, dealers, bids and plays are checked by :func:`replay`)."""
    if not isinstance(data, dict):
        raise RecordError(_("a game record must be a JSON object"))
    if data.get("format", FORMAT) != FORMAT:
        raise RecordError(_("unknown record format {format} (expected {expected})", format=repr(data.get("format")),
                            expected=repr(FORMAT)))
    try:
        rules = rules_from_json(data.get("rules", "standard"))
    except BadRulesError as e:
        raise RecordError(said_of(e)) from None
    players = data.get("players", 4)
    if isinstance(players, bool) or not isinstance(players, int) or players not in (2, 4):
        raise RecordError(_("players must be 2 or 4, not {players}", players=repr(players)))
    names = data.get("names")
    if names is not None and (not isinstance(names, list) or len(names) != players
                              or not all(isinstance(n, str) for n in names)):
        raise RecordError(_("names must be a list of {players} strings", players=players))
    raw_deals = data.get("deals")
    if not isinstance(raw_deals, list):
        raise RecordError(_("a record must have a list of deals"))
    deals = []
    for i, raw in enumerate(raw_deals, 1):
        if not isinstance(raw, dict):
            raise RecordError(_("a deal must be a JSON object"), i)
        dealer = _expect_int(raw, "dealer", range(players), i)
        try:
            deck = parse_cards(raw.get("deck"), "deck")
        except CardError as e:
            raise RecordError(said_of(e), i) from None
        bid = raw.get("bid")
        if bid is not None and (isinstance(bid, bool) or not isinstance(bid, int)):
            raise RecordError(_("bid must be a number or null, not {bid}", bid=repr(bid)), i)
        plays = raw.get("plays", [])
        if not isinstance(plays, list):
            raise RecordError(_("plays must be a list"), i)
        deals.append(DealRecord(dealer, deck, bid or 0, plays))
    fairness = None
    if "fairness" in data:
        try:
            fairness = fairness_from_json(data["fairness"])
        except FairnessError as e:
            raise RecordError(_("fairness: {why}", why=said_of(e))) from None
    return GameRecord(rules, players, deals, names, fairness)


def replay(record: GameRecord) -> list[DealResult]:
    """Check every deal of a record against the rules and score the finished ones.

    Raises :class:`RecordError` naming the deal and play (from 1) of the first thing wrong; its ``illegal`` flag
    tells a broken rule (an illegal bid or play, a wrong dealer) from a malformed record.
    """
    rules, players = record.rules, record.players
    results: list[DealResult] = []
    difference = 0
    for i, d in enumerate(record.deals, 1):
        if i > len(results) + 1:
            raise RecordError(_("only the last deal of a record may be unfinished"), i - 1)
        if results:
            last = results[-1]
            expected = next_dealer(players, last.dealer, last.difference, last.baazi)
            if d.dealer != expected:
                raise RecordError(_("seat {dealer} deals, but the rules say seat {expected} deals", dealer=d.dealer,
                                    expected=expected), i, illegal=True)
        try:
            deal = Deal(rules, players, d.dealer, d.deck)
        except RecordError as e:
            raise RecordError(said_of(e), i) from None
        if not d.bid:
            if d.plays:
                raise RecordError(_("a deal with plays must give its bid"), i)
            continue
        try:
            deal.make_bid(d.bid)
        except IllegalPlayError as e:
            raise RecordError(said_of(e), i, illegal=True) from None
        for j, raw in enumerate(d.plays, 1):
            if deal.phase is not Phase.PLAY:
                raise RecordError(_("more plays than the deal has"), i, j)
            try:
                play = raw if isinstance(raw, tuple) else play_from_json(raw, deal.houses)
            except BadPositionError as e:
                raise RecordError(said_of(e), i, j) from None
            try:
                deal.play(play)
            except IllegalPlayError as e:
                raise RecordError(said_of(e), i, j, illegal=True) from None
        if deal.over:
            score = deal.score()
            step = score_deal(rules, difference, score.score)
            difference = step.difference
            results.append(DealResult(d.dealer, score, step.difference, step.baazi, step.minimum_rule))
    return results


def check_fairness(record: GameRecord) -> list[str]:
    """Check that a fairly dealt record was dealt by its secret: the first dealer, and every deck the one
    :func:`~taash.seep.match.fair_deck` gives (redeals included). One line per deal; :class:`RecordError` for the
    first deal that is not (or a record with no fairness block). Check the rules with :func:`replay` too."""
    fairness = record.fairness
    if fairness is None:
        raise RecordError(_("the record has no fairness block: its match was not dealt fairly by a server"))
    lines = []
    for i, d in enumerate(record.deals):
        if i == 0 and d.dealer != fairness.first_dealer(record.players):
            raise RecordError(_("seat {dealer} deals first, but the secret makes seat {first} the first dealer",
                                dealer=d.dealer, first=fairness.first_dealer(record.players)), 1)
        deck, redeals = fair_deck(record.rules, record.players, fairness, i + 1)
        if d.deck != deck:
            if len(d.deck) != len(deck):
                raise RecordError(_("the deck holds {cards} cards, not {expected}", cards=len(d.deck),
                                    expected=len(deck)), i + 1)
            place = next(k for k, (a, b) in enumerate(zip(d.deck, deck, strict=True)) if a != b)
            raise RecordError(_("the deck is not the one the secret deals (card {place} is {card}, the secret "
                                "deals {dealt})", place=place + 1, card=card_name(d.deck[place]),
                                dealt=card_name(deck[place])), i + 1)
        again = f", after {len(redeals)} redeal{'s' if len(redeals) != 1 else ''}" if redeals else ""
        lines.append(f"Deal {i + 1}: seat {d.dealer} deals; the deck is the one the secret deals{again}")
    return lines


def replay_to_json(results: list[DealResult]) -> dict[str, JSON]:
    """The ``replay`` contract's output."""
    baazis = [0, 0]
    deals = []
    for r in results:
        if r.baazi is not None:
            baazis[r.baazi] += 1
        deals.append({
            "dealer": r.dealer,
            "card_points": list(r.score.card_points),
            "sweep_points": list(r.score.sweep_points),
            "score": list(r.score.score),
            "difference": r.difference,
            "baazi": r.baazi,
        })
    return {"deals": deals, "baazis": baazis}
