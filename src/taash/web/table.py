"""One table of the web server, with no I/O: its seats, its match, and what each seat may be told.

A table is a list of actions (sit, leave, fill with bots, start, bid, play), each numbered by the table's
version. The match is rebuilt from the table's seed, its actions and how its deals were dealt, so a restarted
server continues every table where it was. :meth:`Table.state_for` is the only way out of the table
for game state: it gives a seat its own view (or a spectator the face-up cards) and never the deck or the seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from taash.bots.base import LEVELS, Bot, make_bot
from taash.cards import card_name, names_of
from taash.seep.deal import Deal, Phase, card_points
from taash.seep.describe import HOUSE_NAMES, describe_outcome, describe_play
from taash.seep.errors import BadPositionError
from taash.seep.match import DealResult, Dealt, Match
from taash.seep.notation import houses_to_json, play_from_json, play_to_json
from taash.seep.plays import Play
from taash.seep.record import GameRecord, record_of, replay
from taash.seep.rules import PRESETS, Rules
from taash.seep.view import PlayerView, view_of

JSON = Any
BOT_NAMES = ("Asha", "Dev", "Vikram", "Meera")
#: Lines of the log every state carries (the last plays, in words).
LOG_LINES = 8
#: Lines of the log a table keeps.
LOG_KEPT = 64


class TableError(Exception):
    """An action the table refuses; ``code`` says what kind (``not_your_turn``, ``illegal``, ``bad``, ...)."""

    def __init__(self, message: str, code: str = "bad"):
        super().__init__(message)
        self.code = code


@dataclass(slots=True)
class Seat:
    guest: str | None = None  # the guest id of the person sitting here
    name: str = ""
    bot: bool = False

    @property
    def empty(self) -> bool:
        return self.guest is None and not self.bot


@dataclass(slots=True)
class Settings:
    """What the table's creator chose."""

    players: int = 4
    rules: Rules = field(default_factory=lambda: PRESETS["standard"])
    baazis: int = 1
    level: str = "medium"
    public: bool = True

    def check(self) -> None:
        if self.players not in (2, 4):
            raise TableError("players must be 2 or 4")
        if not 0 <= self.baazis <= 20:
            raise TableError("baazis must be from 0 (a single deal) to 20")
        if self.level not in LEVELS:
            raise TableError(f"level must be one of {', '.join(LEVELS)}")


@dataclass(slots=True)
class BotTurn:
    """A bot and the view it moves from."""

    bot: Bot
    view: PlayerView

    def action(self) -> dict[str, JSON]:
        action = self.bot.choose(self.view)
        if isinstance(action, int):
            return {"type": "bid", "value": action}
        assert isinstance(action, tuple)
        return {"type": "play", "play": play_to_json(action)}


def bid_said(name: str, value: int) -> str:
    return f"{name} bids {value} ({HOUSE_NAMES[value]})"


def play_said(name: str, play: Play, houses_before: dict[int, Any], deal: Deal, sweeps_before: int) -> str:
    """A play in words, as the log and the replay tell it (``deal`` after the play)."""
    said = f"{name}: {describe_play(play, houses_before)}"
    if len(deal.sweeps) > sweeps_before:
        said += f": a sweep (+{deal.sweeps[-1][2]})"
    return said


def captured_json(deal: Deal) -> list[dict[str, JSON]]:
    """Each team's captured cards as counts and points (face-up knowledge: every captured card was seen)."""
    sweep_points, sweeps = [0, 0], [0, 0]
    for s, _, points in deal.sweeps:
        sweep_points[s % 2] += points
        sweeps[s % 2] += 1
    return [{"cards": deal.piles[t].bit_count(), "points": card_points(deal.rules, deal.piles[t]),
             "sweeps": sweeps[t], "sweep_points": sweep_points[t]} for t in (0, 1)]


def result_to_json(r: DealResult) -> dict[str, JSON]:
    return {"dealer": r.dealer, "card_points": list(r.score.card_points), "sweep_points": list(r.score.sweep_points),
            "score": list(r.score.score), "difference": r.difference, "baazi": r.baazi, "minimum_rule": r.minimum_rule}


class Table:
    """Seats, status and match of one table; every change is an action that bumps :attr:`version`."""

    def __init__(self, table_id: str, code: str, settings: Settings, seed: int, owner: str | None = None,
                 dealt: Sequence[Dealt] = ()):
        """``dealt``: how its deals were dealt, when the table is rebuilt (see :class:`Match`)."""
        settings.check()
        self.dealt = list(dealt)
        self.id = table_id
        self.code = code
        self.settings = settings
        self.seed = seed
        self.owner = owner
        self.seats = [Seat() for _ in range(settings.players)]
        self.version = 0
        self.match: Match | None = None
        self.log: list[str] = []
        #: The last finished deal's result, until the next deal's first play (for the score sheet).
        self.last_result: DealResult | None = None
        self._public_cache: tuple[int, dict[str, JSON]] | None = None

    # -- status -------------------------------------------------------------------------------------------------

    @property
    def status(self) -> str:
        if self.match is None:
            return "waiting"
        return "finished" if self.match.over else "playing"

    def seat_of(self, guest: str) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.guest == guest), None)

    def to_move(self) -> int | None:
        """The seat to bid or play, or None when nothing is due."""
        if self.match is None or self.match.over or self.match.deal.over:
            return None
        return self.match.to_move

    # -- actions ------------------------------------------------------------------------------------------------

    def check(self, action: dict[str, JSON], guest: str | None) -> None:
        """Refuse ``action`` by ``guest`` (None: the server itself, for bots) with a TableError, or return."""
        self._apply(action, guest, dry=True)

    def apply(self, action: dict[str, JSON], guest: str | None) -> str:
        """Apply a checked action; returns what happened, in words."""
        said = self._apply(action, guest, dry=False)
        self.version += 1
        return said

    def _apply(self, action: dict[str, JSON], guest: str | None, dry: bool) -> str:
        kind = action.get("type")
        if kind == "sit":
            return self._sit(action, guest, dry)
        if kind == "leave":
            return self._leave(guest, dry)
        if kind == "bots":
            return self._bots(guest, dry)
        if kind == "start":
            return self._start(guest, dry)
        if kind in ("bid", "play"):
            return self._move(action, guest, dry)
        raise TableError(f"unknown action {kind!r}")

    def _sit(self, action: dict[str, JSON], guest: str | None, dry: bool) -> str:
        seat, name = action.get("seat"), action.get("name")
        if guest is None or not isinstance(name, str):
            raise TableError("only a guest with a name can sit")
        if self.match is not None:
            raise TableError("the match has started", "started")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise TableError(f"seat must be from 0 to {len(self.seats) - 1}")
        if not self.seats[seat].empty and self.seats[seat].guest != guest:
            raise TableError("that seat is taken", "taken")
        if any(s.name.casefold() == name.casefold() and s.guest != guest for s in self.seats if not s.empty):
            raise TableError(f"the name {name!r} is taken at this table", "name_taken")
        if not dry:
            old = self.seat_of(guest)
            if old is not None:
                self.seats[old] = Seat()
            self.seats[seat] = Seat(guest, name)
        return f"{name} sits in seat {seat}"

    def _leave(self, guest: str | None, dry: bool) -> str:
        seat = None if guest is None else self.seat_of(guest)
        if seat is None:
            raise TableError("you are not seated here")
        if self.match is not None:
            raise TableError("the match has started", "started")
        name = self.seats[seat].name
        if not dry:
            self.seats[seat] = Seat()
        return f"{name} leaves"

    def _owner_only(self, guest: str | None) -> None:
        if guest is not None and guest != self.owner and self.seat_of(guest) is None:
            raise TableError("only the table's creator or a seated player can do that", "forbidden")

    def _bots(self, guest: str | None, dry: bool) -> str:
        self._owner_only(guest)
        if self.match is not None:
            raise TableError("the match has started", "started")
        empty = [i for i, s in enumerate(self.seats) if s.empty]
        if not empty:
            raise TableError("no seat is empty")
        if not dry:
            used = {s.name for s in self.seats}
            names = iter(n for n in BOT_NAMES if n not in used)
            for i in empty:
                self.seats[i] = Seat(None, f"{next(names)} (bot)", bot=True)
        return "Bots take the empty seats"

    def _start(self, guest: str | None, dry: bool) -> str:
        self._owner_only(guest)
        if self.match is not None:
            raise TableError("the match has started", "started")
        if any(s.empty for s in self.seats):
            raise TableError("every seat needs a player or a bot first", "seats_empty")
        if not dry:
            s = self.settings
            self.match = Match(s.rules, s.players, self.seed, s.baazis, dealt=self.dealt)
            self._note_deal_start()
        return "The match starts"

    def _move(self, action: dict[str, JSON], guest: str | None, dry: bool) -> str:
        match = self.match
        if match is None:
            raise TableError("the match has not started", "not_started")
        if match.over:
            raise TableError("the match is over", "over")
        seat = match.to_move
        if guest is not None and self.seat_of(guest) != seat:
            raise TableError("it is not your turn", "not_your_turn")
        deal = match.deal
        if action["type"] == "bid":
            value = action.get("value")
            if isinstance(value, bool) or not isinstance(value, int):
                raise TableError(f"a bid is a whole number, not {value!r}", "malformed")
            if deal.phase is not Phase.BID:
                raise TableError("there is no bid to make now", "illegal")
            if value not in deal.legal_bids():
                raise TableError(f"you cannot bid {value!r} (you may bid {deal.legal_bids()})", "illegal")
            said = bid_said(self.seats[seat].name, value)
            if not dry:
                match.make_bid(value)
                self.note(said)
            return said
        if deal.phase is not Phase.PLAY:
            raise TableError("the bid comes first", "illegal")
        try:
            play = play_from_json(action.get("play"), deal.houses)
        except BadPositionError as e:
            raise TableError(f"malformed play: {e}", "malformed") from None
        if play not in deal.legal_plays():
            raise TableError("that play is not legal here", "illegal")
        if dry:
            return ""
        return self._play(seat, play)

    def _play(self, seat: int, play: Play) -> str:
        assert self.match is not None
        match = self.match
        deal = match.deal
        houses = dict(deal.houses)
        sweeps = len(deal.sweeps)
        self.last_result = None
        match.play(play, check=False)
        said = play_said(self.seats[seat].name, play, houses, deal, sweeps)
        self.note(said)
        if deal.over:
            self.last_result = match.results[-1]
            a, b = self.last_result.score.score
            self.note(f"Deal over: {a} to {b}")
            if not match.over:
                match.next_deal()
                self._note_deal_start()
            else:
                self.note("The match is over")
        return said

    def note(self, line: str) -> None:
        """Add a line to the log (in words, for everyone: nothing only one seat may know)."""
        self.log.append(line)
        del self.log[:-LOG_KEPT]

    def _note_deal_start(self) -> None:
        assert self.match is not None
        for problem in self.match.redeals:
            self.note(f"Dealt again: {problem.split(', so')[0]}")
        deal = self.match.deal
        self.note(f"Deal {len(self.match.past) + 1}: {self.seats[deal.dealer].name} deals, "
                  f"{self.seats[deal.bidder].name} bids")

    # -- bots ---------------------------------------------------------------------------------------------------

    def bot_turn(self, level: str | None = None) -> BotTurn:
        """A bot for the seat to move (a bot's seat, or a person's while he is away), with that seat's view: an
        independent snapshot, so the bot may think in another thread while the table goes on."""
        assert self.match is not None
        seat = self.match.to_move
        deal = self.match.deal
        key = f"{self.seed}/{len(self.match.past)}/{len(deal.plays)}/{deal.phase.name}/{seat}"
        bot = make_bot(level or self.settings.level, random.Random(key).randrange(2**32))
        return BotTurn(bot, self.match.view(seat))

    def first_legal_action(self) -> dict[str, JSON]:
        """The engine's first legal bid or play for the seat to move (when a bot fails)."""
        assert self.match is not None
        deal = self.match.deal
        if deal.phase is Phase.BID:
            return {"type": "bid", "value": deal.legal_bids()[0]}
        return {"type": "play", "play": play_to_json(deal.legal_plays()[0])}

    def bot_action(self, level: str | None = None) -> dict[str, JSON]:
        """The action of a bot for the seat to move."""
        return self.bot_turn(level).action()

    # -- what may be told ---------------------------------------------------------------------------------------

    def summary(self) -> dict[str, JSON]:
        """What the lobby shows: settings, seats, status (no cards)."""
        s = self.settings
        rules = s.rules.to_json()
        return {
            "id": self.id, "code": self.code, "players": s.players,
            "rules": rules if isinstance(rules, str) else "custom", "baazis": s.baazis, "level": s.level,
            "public": s.public, "status": self.status, "version": self.version,
            "seats": [{"seat": i, "name": seat.name or None, "bot": seat.bot, "empty": seat.empty}
                      for i, seat in enumerate(self.seats)],
        }

    def state_for(self, seat: int | None) -> dict[str, JSON]:
        """The table as ``seat`` may see it (None: a spectator, who sees only what lies face up)."""
        out = dict(self._public())
        out["you"] = seat
        match = self.match
        if match is None:
            out["deal"] = None
            return out
        deal = match.deal
        view = view_of(deal, seat if seat is not None else 0)
        d = dict(out["deal"])
        d["hand"] = names_of(view.hand) if seat is not None else None
        if seat is not None and d["to_move"] == seat:
            if view.phase is Phase.BID:
                d["bids"] = view.legal_bids()
            else:
                d["legal"] = [{"play": play_to_json(p), "text": describe_outcome(view, p)}
                              for p in view.legal_plays()]
        out["deal"] = d
        return out

    def _public(self) -> dict[str, JSON]:
        """What every connection is told alike at this version (cached until the next action)."""
        if self._public_cache is not None and self._public_cache[0] == self.version:
            return self._public_cache[1]
        out = self.summary()
        out["log"] = self.log[-LOG_LINES:]
        match = self.match
        if match is None:
            out["score"] = None
            out["deal"] = None
        else:
            out["score"] = {
                "baazis": list(match.baazis), "difference": match.difference,
                "deals": [result_to_json(r) for r in match.results],
                "last": None if self.last_result is None else result_to_json(self.last_result),
                "winner": match.winner() if match.over else None,
            }
            out["deal"] = self._deal_json(match)
        self._public_cache = (self.version, out)
        return out

    def _deal_json(self, match: Match) -> dict[str, JSON]:
        """The deal's face-up part: no hand, nothing that is only one seat's."""
        deal = match.deal
        bidding = deal.phase is Phase.BID
        return {
            "number": len(match.past) + 1,
            "dealer": deal.dealer, "bidder": deal.bidder,
            "phase": deal.phase.name.lower(), "to_move": self.to_move(),
            "bid": deal.bid or None, "plays_made": len(deal.plays),
            "hand_sizes": [h.bit_count() for h in deal.hands],
            "loose": [] if bidding else names_of(deal.loose), "houses": houses_to_json(deal.houses),
            "captured": captured_json(deal),
            "hand": None, "bids": [], "legal": [],
        }

    # -- records --------------------------------------------------------------------------------------------------

    def record(self) -> GameRecord | None:
        """The game record (for the replay page, once the match is over)."""
        if self.match is None:
            return None
        names = [s.name for s in self.seats]
        return record_of(self.match, names)



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
    return {"players": record.players, "rules": rules if isinstance(rules, str) else "custom", "names": names,
            "deals": deals}


def _replay_step(deal: Deal, said: str, seat: int, card: str | None) -> dict[str, JSON]:
    return {"said": said, "seat": seat, "card": card, "hands": [names_of(h) for h in deal.hands],
            "loose": names_of(deal.loose), "houses": houses_to_json(deal.houses), "captured": captured_json(deal)}
