"""Game records of 13-card Rummy (``shared/rummy-protocol.md``): writing a match down, reading one, and
``replay``, which checks every turn against the rules and scores the match.

A record keeps the rules, the table size, the format, the seed (deal ``k`` reshuffles from
:func:`taash.rummy.match.deal_stream`), and each deal's dealer, pack and turns: enough to replay it exactly.
Cards are written by face (``Ts``, ``JK``); twins alike. Besides the protocol's turns, a timed-out turn is written
with ``"timeout": true`` (and its take and discard, which the engine made); a deal dealt to fewer seats than the
table's (players out of a pool, a tie-break) lists them in ``"seats"``. A fairly dealt match's record (a server
table's) carries its ``fairness`` block, the secret revealed: its reshuffles come from the secret rather than the
seed, and :func:`check_fairness` checks that every pack is the one the secret deals.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from taash.cards import CardError
from taash.fairness import Fairness, FairnessError, fairness_from_json
from taash.i18n import _, said_of
from taash.packs import JOKER, face_name, parse_face, parse_rank, rank_name
from taash.rummy.deal import Deal, Declare, Discard, Drop, Phase, Take, Turn
from taash.rummy.errors import BadHandError, BadRulesError, IllegalTurnError, RecordError
from taash.rummy.match import FORMATS, DealResult, Format, Match, Tally, fair_pack, get_format, reshuffles
from taash.rummy.rules import PLAYER_COUNTS, Rules, rules_from_json

JSON = Any
_TURN_KEYS = {"seat", "drop", "take", "discard", "declare", "timeout"}


@dataclass(slots=True)
class DealRecord:
    """One deal as written: its dealer, pack (faces, in dealing order) and turns (JSON objects)."""

    dealer: int
    pack: list[int]
    turns: list[JSON] = field(default_factory=list)
    #: The seats dealt in, when not the whole table.
    seats: tuple[int, ...] | None = None


@dataclass(slots=True)
class GameRecord:
    """A whole (possibly unfinished) match."""

    rules: Rules
    players: int
    format: Format
    seed: int
    deals: list[DealRecord]
    names: list[str] | None = None
    #: How a fairly dealt match was dealt (its secret revealed: a record is published once the match is over).
    fairness: Fairness | None = None

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"game": "rummy", "rules": self.rules.to_json(), "players": self.players,
                                "format": self.format.name, "seed": self.seed}
        if self.names:
            out["names"] = list(self.names)
        if self.fairness is not None:
            out["fairness"] = self.fairness.to_json()
        deals = []
        for d in self.deals:
            n = len(d.seats) if d.seats is not None else self.players
            deal: dict[str, JSON] = {"dealer": d.dealer}
            if d.seats is not None and len(d.seats) != self.players:
                deal["seats"] = list(d.seats)
            wild = d.pack[13 * n + 1]
            deal["pack"] = [face_name(f) for f in d.pack]
            deal["wild"] = rank_name(0 if wild == JOKER else wild % 13)
            deal["turns"] = list(d.turns)
            deals.append(deal)
        out["deals"] = deals
        return out


def turn_to_json(turn: Turn) -> dict[str, JSON]:
    """A turn as the record writes it."""
    out: dict[str, JSON] = {"seat": turn.seat}
    if turn.drop:
        out["drop"] = True
        return out
    if turn.take is not None:
        out["take"] = turn.take
    if turn.discard is not None:
        out["discard"] = face_name(turn.discard)
    if turn.declare is not None:
        finish, groups = turn.declare
        out["declare"] = {"discard": face_name(finish), "melds": [[face_name(f) for f in g] for g in groups]}
    if turn.timeout:
        out["timeout"] = True
    return out


def deal_record(deal: Deal) -> DealRecord:
    return DealRecord(deal.dealer, list(deal.pack), [turn_to_json(t) for t in deal.turns],
                      deal.seats if len(deal.seats) != deal.players else None)


def record_of(match: Match, names: list[str] | None = None) -> GameRecord:
    """The record of a match so far: its finished deals and the one in progress (if it is not one of them)."""
    deals = [deal_record(d) for d in match.past]
    if not match.past or match.past[-1] is not match.deal:
        deals.append(deal_record(match.deal))
    return GameRecord(match.rules, match.players, match.format, match.seed, deals, names, match.fairness)


# -- reading --------------------------------------------------------------------------------------------------


def _int(data: dict[str, JSON], key: str, allowed: range | None, deal: int | None = None,
         turn: int | None = None) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or (allowed is not None and value not in allowed):
        said = repr(str(value)[:40])
        if allowed is None:
            raise RecordError(_("{key} must be a whole number, not {value}", key=key, value=said), deal, turn)
        raise RecordError(_("{key} must be a whole number from {low} to {high}, not {value}", key=key,
                            low=allowed.start, high=allowed.stop - 1, value=said), deal, turn)
    return value


def _face(text: JSON, deal: int | None = None, turn: int | None = None) -> int:
    try:
        return parse_face(text)
    except CardError as e:
        raise RecordError(said_of(e), deal, turn) from None


def record_from_json(data: JSON) -> GameRecord:
    """Read a record's structure; cards held, turn order and rules are checked by :func:`replay`."""
    if not isinstance(data, dict):
        raise RecordError(_("a game record must be a JSON object"))
    if data.get("game", "rummy") != "rummy":
        raise RecordError(_("not a Rummy record (game {game})", game=repr(str(data.get("game"))[:40])))
    try:
        rules = rules_from_json(data.get("rules", "octro"))
    except BadRulesError as e:
        raise RecordError(said_of(e)) from None
    players = _int(data, "players", PLAYER_COUNTS)
    name = data.get("format", "points")
    if not isinstance(name, str) or name not in FORMATS:
        raise RecordError(_("unknown match format {format} (known: {known})", format=repr(str(name)[:40]),
                            known=", ".join(FORMATS)))
    seed = _int(data, "seed", None)
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
        dealer = _int(raw, "dealer", range(players), i)
        seats = raw.get("seats")
        if seats is not None:
            if (not isinstance(seats, list) or not all(isinstance(s, int) and not isinstance(s, bool)
                                                       and 0 <= s < players for s in seats)):
                raise RecordError(_("seats must be a list of seats from 0 to {last}", last=players - 1), i)
            seats = tuple(seats)
        pack = raw.get("pack")
        if not isinstance(pack, list):
            raise RecordError(_("a deal must have its pack, a list of cards"), i)
        faces = [_face(c, i) for c in pack]
        n = len(seats) if seats is not None else players
        if len(faces) < 13 * n + 2:
            raise RecordError(_("the pack is too short to deal {n} hands, the open card and the wild card", n=n), i)
        if "wild" in raw:
            try:
                wild = parse_rank(raw["wild"])
            except CardError as e:
                raise RecordError(_("wild: {why}", why=said_of(e)), i) from None
            card = faces[13 * n + 1]
            if wild != (0 if card == JOKER else card % 13):
                raise RecordError(_("wild {wild} is not what the wild card {card} makes", wild=repr(raw["wild"]),
                                    card=face_name(card)), i)
        turns = raw.get("turns", [])
        if not isinstance(turns, list):
            raise RecordError(_("turns must be a list"), i)
        deals.append(DealRecord(dealer, faces, turns, seats))
    fairness = None
    if "fairness" in data:
        try:
            fairness = fairness_from_json(data["fairness"])
        except FairnessError as e:
            raise RecordError(_("fairness: {why}", why=said_of(e))) from None
    return GameRecord(rules, players, get_format(name), seed, deals, names, fairness)


# -- replaying ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Replayed:
    """A checked record: each finished deal's result and the match's standing."""

    results: list[DealResult]
    tally: Tally

    def to_json(self) -> dict[str, JSON]:
        """The ``replay`` contract's output."""
        deals = []
        for r in self.results:
            deals.append({
                "dealer": r.dealer,
                "winner": r.points.winner,
                "points": list(r.points.points),
                "declared": "valid" if r.points.declared else None,
                "dropped": list(r.points.dropped),
                "wrong": list(r.points.wrong),
                "totals": list(r.totals),
            })
        out: dict[str, JSON] = {"deals": deals, "totals": list(self.tally.totals),
                                "standing": self.tally.standing(),
                                "winner": self.tally.winner}
        if self.tally.format.kind == "pool":
            out["eliminated"] = [self.tally.eliminated.get(s) for s in range(self.tally.players)]
        return out


def replay(record: GameRecord) -> Replayed:
    """Check every deal and turn of a record against the rules and score the finished deals.

    Raises :class:`RecordError` naming the deal and turn (from 1) of the first thing wrong; its ``illegal`` flag
    tells a broken rule (a turn out of order, a card not held, a wrong dealer) from a malformed record.
    """
    tally = Tally(record.players, record.format)
    first, middle = tally.drops(record.rules)
    for i, d in enumerate(record.deals, 1):
        if tally.over:
            raise RecordError(_("the match was over before this deal"), i, illegal=True)
        if i > len(tally.results) + 1:
            raise RecordError(_("only the last deal of a record may be unfinished"), i - 1)
        seats = tally.seats()
        if d.seats is not None and tuple(sorted(d.seats)) != seats:
            raise RecordError(_("seats {seats} are dealt in, but the match deals in {dealt}", seats=list(d.seats),
                                dealt=list(seats)), i, illegal=True)
        if i > 1:
            expected = tally.next_dealer(d.dealer)
            if d.dealer != expected:
                raise RecordError(_("seat {dealer} deals, but the rules say seat {expected} deals", dealer=d.dealer,
                                    expected=expected), i, illegal=True)
        elif d.dealer not in seats:
            raise RecordError(_("seat {dealer} is not dealt in", dealer=d.dealer), i, illegal=True)
        try:
            deal = Deal(record.rules, record.players, d.dealer, d.pack, reshuffles(record.seed, record.fairness, i - 1),
                        seats, first, middle)
        except BadHandError as e:
            raise RecordError(said_of(e), i) from None
        for j, raw in enumerate(d.turns, 1):
            _replay_turn(deal, raw, i, j, last=j == len(d.turns))
        if deal.over:
            tally.add(deal.dealer, deal.seats, deal.result())
    return Replayed(tally.results, tally)


def positions(record: GameRecord) -> Iterator[tuple[int, int, Deal]]:
    """Every position of a record, for a replay: deal ``i`` (from 0) as dealt (turn ``j`` 0) and after each of
    its turns (``j`` from 1), each a copy of the whole deal. Check the record with :func:`replay` first: a record
    that breaks the rules raises :class:`RecordError` here too, where it breaks them."""
    tally = Tally(record.players, record.format)
    first, middle = tally.drops(record.rules)
    for i, d in enumerate(record.deals):
        try:
            deal = Deal(record.rules, record.players, d.dealer, d.pack, reshuffles(record.seed, record.fairness, i),
                        tally.seats(), first, middle)
        except BadHandError as e:
            raise RecordError(said_of(e), i + 1) from None
        yield i, 0, deal.clone()
        for j, raw in enumerate(d.turns, 1):
            _replay_turn(deal, raw, i + 1, j, last=j == len(d.turns))
            yield i, j, deal.clone()
        if deal.over:
            tally.add(deal.dealer, deal.seats, deal.result())


def check_fairness(record: GameRecord) -> list[str]:
    """Check that a fairly dealt record was dealt by its secret: the first dealer, and every pack the one
    :func:`~taash.rummy.match.fair_pack` gives for the seats dealt in (each reshuffle of the discard pile comes from
    the secret as :func:`replay` plays the record). One line per deal; :class:`RecordError` for the first deal
    that is not (or a record with no fairness block). Check the rules with :func:`replay` too."""
    fairness = record.fairness
    if fairness is None:
        raise RecordError(_("the record has no fairness block: its match was not dealt fairly by a server"))
    lines = []
    for i, d in enumerate(record.deals, 1):
        if i == 1 and d.dealer != fairness.first_dealer(record.players):
            raise RecordError(_("seat {dealer} deals first, but the secret makes seat {first} the first dealer",
                                dealer=d.dealer, first=fairness.first_dealer(record.players)), i)
        seats = len(d.seats) if d.seats is not None else record.players
        pack = fair_pack(record.rules, seats, fairness, i)
        if d.pack != pack:
            if len(d.pack) != len(pack):
                raise RecordError(_("the pack holds {cards} cards, not {expected}", cards=len(d.pack),
                                    expected=len(pack)), i)
            place = next(k for k, (a, b) in enumerate(zip(d.pack, pack, strict=True)) if a != b)
            raise RecordError(_("the pack is not the one the secret deals (card {place} is {card}, the secret "
                                "deals {dealt})", place=place + 1, card=face_name(d.pack[place]),
                                dealt=face_name(pack[place])), i)
        lines.append(f"Deal {i}: seat {d.dealer} deals; the pack of {len(d.pack)} cards is the one the secret deals")
    return lines


def _replay_turn(deal: Deal, raw: JSON, i: int, j: int, last: bool) -> None:
    """Play one turn of a record onto ``deal``."""
    if not isinstance(raw, dict):
        raise RecordError(_("a turn must be a JSON object"), i, j)
    unknown = sorted(set(raw) - _TURN_KEYS)
    if unknown:
        raise RecordError(_("unknown turn key {key}", key=repr(unknown[0][:40])), i, j)
    seat = _int(raw, "seat", range(deal.players), i, j)
    drop, take, timeout = raw.get("drop", False), raw.get("take"), raw.get("timeout", False)
    if not isinstance(drop, bool) or not isinstance(timeout, bool):
        raise RecordError(_("drop and timeout must be true or false"), i, j)
    if take is not None and take not in ("stock", "discard"):
        raise RecordError(_("take must be 'stock' or 'discard', not {take}", take=repr(str(take)[:40])), i, j)
    discard = _face(raw["discard"], i, j) if "discard" in raw else None
    declare: Declare | None = None
    if "declare" in raw:
        declare = _declaration(raw["declare"], i, j)
    if drop and (take or discard is not None or declare or timeout):
        raise RecordError(_("a drop is a turn of its own"), i, j)
    if discard is not None and declare is not None:
        raise RecordError(_("a turn discards or declares, not both"), i, j)
    if not drop and not timeout and take is None:
        raise RecordError(_("a turn drops, times out, or takes a card"), i, j)
    if not drop and not timeout and discard is None and declare is None and not last:
        raise RecordError(_("a turn that takes a card must discard or declare (only a record's last turn may "
                            "stop after the take)"), i, j)
    if timeout and declare is not None:
        raise RecordError(_("a timed-out turn does not declare"), i, j)
    try:
        if deal.phase is Phase.OVER:
            raise IllegalTurnError(_("the deal is already over"))
        if seat != deal.to_move:
            raise IllegalTurnError(_("seat {seat} plays, but it is seat {turn}'s turn", seat=seat, turn=deal.to_move))
        if drop:
            deal.act(Drop())
            return
        if timeout:
            if take == "discard":
                deal.act(Take("discard"))
            deal.timeout()
            made = deal.turns[-1].discard
            if discard is not None and made != discard:
                raise IllegalTurnError(_("a timed-out turn discards {made}, not {discard}", made=face_name(made or 0),
                                         discard=face_name(discard)))
            return
        assert take is not None
        deal.act(Take(take))
        if discard is not None:
            deal.act(Discard(discard))
        elif declare is not None:
            deal.act(declare)
    except IllegalTurnError as e:
        raise RecordError(said_of(e), i, j, illegal=True) from None


def _declaration(raw: JSON, i: int, j: int) -> Declare:
    if not isinstance(raw, dict) or "discard" not in raw or not isinstance(raw.get("melds"), list):
        raise RecordError(_("declare must be an object with the finish card (discard) and melds (lists of cards)"),
                          i, j)
    groups: list[tuple[int, ...]] = []
    for group in raw["melds"]:
        if not isinstance(group, list) or not group:
            raise RecordError(_("each meld of a declaration must be a non-empty list of cards"), i, j)
        groups.append(tuple(_face(c, i, j) for c in group))
    return Declare(_face(raw["discard"], i, j), tuple(groups))


def replay_json(data: JSON) -> dict[str, JSON]:
    """Read, check and score a record given as JSON: the ``replay`` contract's output."""
    return replay(record_from_json(data)).to_json()
