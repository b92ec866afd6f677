"""One person's match of Seep against bots: whose turn, the bots' moves, hints, undo, save and resume.

The match is a :class:`taash.tables.session.Session` (the one the web's tables and Rummy's terminal game play
through): its state, and every move as the table's message. This module adds what Seep's terminal game says and
keeps: the log in the person's words (You, Us and Them), the finished deal held for the score sheet until the person
goes on, and the save file (a Seep game record). It hands the interface only the person's :class:`PlayerView`, the
public log and the score sheet. Every bot decides from its own seat's view, with a seed derived from the match seed
and the position, so the same match and the same choices always give the same game (after an undo or a resume too).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taash.bots.base import LEVELS, Bot, make_bot
from taash.cards import SUIT_SYMBOLS, SUITS, card_name
from taash.seep.deal import Deal, Phase
from taash.seep.describe import HOUSE_NAMES, cards_text, describe_play, redeal_reason
from taash.seep.errors import IllegalPlayError, RecordError
from taash.seep.game import SeepState
from taash.seep.match import DealResult, Match
from taash.seep.notation import play_from_json
from taash.seep.plays import Play, apply_play
from taash.seep.record import DealRecord, GameRecord, record_from_json, replay
from taash.seep.rules import Rules
from taash.seep.values import VALUE_MASK
from taash.seep.view import PlayerView, view_of
from taash.tables.adapter import Dealt, Settings, adapter
from taash.tables.session import Session as TableSession

#: The bot that gives hints, whatever the opponents' level.
HINT_BOT = "hard"
#: Names of the computer players, by seat, for a person in seat 0.
BOT_NAMES = {4: ("", "Asha", "Dev", "Vikram"), 2: ("", "Asha")}
#: Longest name shown on the screen (names from a record may be longer).
NAME_WIDTH = 12
_TO_ASCII = str.maketrans(SUIT_SYMBOLS, SUITS)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, in words, for the log."""

    text: str
    seat: int | None = None
    sweep: bool = False


class Session:
    """A match of one person (seat ``human``) against bots of one level, partner included."""

    def __init__(self, rules: Rules, players: int = 4, level: str = "medium", baazis: int = 1,
                 seed: int | None = None, name: str = "You", human: int = 0, ascii_only: bool = False,
                 dealt: list[Dealt] | None = None):
        """``dealt``: how the deals were dealt, where a resumed record's packs are not its seed's."""
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
        if players not in (2, 4):
            raise ValueError("Seep is played by 2 or 4 players")
        if baazis < 0:
            raise ValueError("baazis must be 0 (a single deal) or more")
        self.rules = rules
        self.players = players
        self.level = level
        self.baazis = baazis
        self.seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        self.human = human
        self.ascii_only = ascii_only
        dealt = dealt or []
        names = [f"{n} (bot)" if n else "" for n in BOT_NAMES[players]]
        names[human] = name
        self.names = names
        self.table = self._table(dealt)
        #: The finished deals the person has gone on from (their score sheet closed).
        self.past: list[DealRecord] = []
        self.log: list[Event] = []
        self._note_deal_start()

    def _table(self, dealt: list[Dealt]) -> TableSession:
        """A new match of this session's settings, its deals dealt as ``dealt`` says where it says."""
        settings = Settings("seep", self.players, self.rules, self.baazis, self.level, False)
        return TableSession(adapter("seep"), settings, self.seed, self.names, dealt)

    @property
    def match(self) -> Match:
        state = self.table.state
        assert isinstance(state, SeepState)
        return state.match

    # -- who is who -------------------------------------------------------------------------------------------

    def who(self, seat: int) -> str:
        """A seat as the person sees it in sentences: You, or the name the record gives the seat (the partner's
        too, as in the record), without its "(bot)"."""
        return "You" if seat == self.human else self.name(seat)

    def name(self, seat: int) -> str:
        """A seat's name as the record gives it, without "(bot)", cut to :data:`NAME_WIDTH`; the person's own is
        his ``--name`` (You by default)."""
        name = " ".join(self.names[seat].removesuffix(" (bot)").split()) or f"Seat {seat}"
        return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1].rstrip() + "."

    def partner(self) -> int | None:
        """The person's partner's seat (4 players), or None."""
        return (self.human + 2) % 4 if self.players == 4 else None

    def team_name(self, team: int) -> str:
        return "Us" if team == self.human % 2 else "Them"

    # -- the state the interface shows ------------------------------------------------------------------------

    @property
    def deal(self) -> Deal:
        """The deal shown: the one in progress, or the one just finished until the person goes on from its score
        sheet (the match has dealt the next one already)."""
        m = self.match
        return m.past[len(self.past)] if len(m.past) > len(self.past) else m.deal

    def view(self) -> PlayerView:
        """What the person sees now."""
        return view_of(self.deal, self.human)

    @property
    def deal_number(self) -> int:
        return len(self.past) + 1

    @property
    def deal_over(self) -> bool:
        return self.deal.over

    @property
    def over(self) -> bool:
        return self.match.over

    def results(self) -> list[DealResult]:
        return list(self.match.results)

    def humans_turn(self) -> bool:
        d = self.deal
        return d.phase is not Phase.OVER and d.to_move == self.human

    def bots_turn(self) -> bool:
        d = self.deal
        return d.phase is not Phase.OVER and d.to_move != self.human

    # -- moves ------------------------------------------------------------------------------------------------

    def _bot(self, seat: int, level: str) -> Bot:
        d = self.deal
        seed = random.Random(f"{self.seed}/{len(self.past)}/{len(d.plays)}/{seat}/{level}").randrange(2**32)
        return make_bot(level, seed)

    def bot_step(self) -> Event:
        """Let the bot to move bid or play; returns what it did."""
        seat, decide = self.bot_task()
        return self.bot_move(seat, decide())

    def bot_task(self) -> tuple[int, Callable[[], int | Play]]:
        """The seat of the bot to move and its decision still to be made. ``decide()`` works on a copy of the
        seat's view and touches nothing of the session, so it may run on another thread (an expert bot thinks
        for a while); its answer goes to :meth:`bot_move`."""
        if not self.bots_turn():
            raise IllegalPlayError("it is not a bot's turn")
        seat = self.deal.to_move
        bot = self._bot(seat, self.level)
        view = view_of(self.deal, seat)
        return seat, lambda: bot.choose(view)  # type: ignore[return-value]  # a Seep bot: a bid or a play

    def bot_move(self, seat: int, choice: int | Play) -> Event:
        """Make the bid or play a bot chose (from :meth:`bot_task`) for ``seat``."""
        if not self.bots_turn() or self.deal.to_move != seat:
            raise IllegalPlayError("it is not that bot's turn")
        if isinstance(choice, int):
            if self.deal.phase is not Phase.BID:
                raise IllegalPlayError("there is no bid to make now")
            return self._bid(seat, choice)
        if self.deal.phase is not Phase.PLAY:
            raise IllegalPlayError("the bid comes first")
        return self._play(seat, choice)

    @property
    def bots_think(self) -> bool:
        """Whether the bots take long enough over a move (the search bot) to think away from the screen."""
        return LEVELS[self.level] == "ismcts"

    def bid(self, value: int) -> Event:
        """The person bids ``value``."""
        if not self.humans_turn() or self.deal.phase is not Phase.BID:
            raise IllegalPlayError("there is no bid for you to make now")
        return self._bid(self.human, value)

    def play(self, play: Play) -> Event:
        """The person makes ``play``."""
        if not self.humans_turn() or self.deal.phase is not Phase.PLAY:
            raise IllegalPlayError("it is not your turn to play")
        return self._play(self.human, play)

    def hint(self) -> tuple[Play | int, str]:
        """What the hint bot would do in the person's place (a play, or a bid value), with its reason."""
        if not self.humans_turn():
            raise IllegalPlayError("it is not your turn")
        bot = self._bot(self.human, HINT_BOT)
        view = self.view()
        if self.deal.phase is Phase.BID:
            value = bot.choose(view)
            assert isinstance(value, int)
            name = HOUSE_NAMES[value]
            if len(view.legal_bids()) == 1:
                return value, f"Bid {value} ({name}): the only value you can bid"
            held = (view.hand & VALUE_MASK[value]).bit_count()
            return value, (f"Bid {value} ({name}): you hold {held} {name}{'s' * (held != 1)}, the value you hold "
                           f"most (the highest on a tie): the best chance to take your {name} house back")
        play = bot.choose(view)
        assert isinstance(play, tuple)
        return play, self.text(bot.explain(view, play))

    def text(self, words: str) -> str:
        """Words for the screen: suit symbols turned into letters when the terminal cannot show them."""
        return words.translate(_TO_ASCII) if self.ascii_only else words

    def _make(self, action: int | Play) -> None:
        """Make a bid or play on the match, refused with the engine's own :class:`IllegalPlayError` (tried on a
        copy first: a refused action changes nothing)."""
        self.table.state.clone().apply(action)
        self.table.make(action)

    def _bid(self, seat: int, value: int) -> Event:
        self._make(value)
        event = Event(f"{self.who(seat)} bid{'s' * (seat != self.human)} {value} ({HOUSE_NAMES[value]})", seat)
        self.log.append(event)
        return event

    def _play(self, seat: int, play: Play) -> Event:
        houses = dict(self.deal.houses)
        sweeps = len(self.deal.sweeps)
        index = len(self.deal.plays)
        left = apply_play(play, seat, self.players, self.deal.loose, dict(houses))[0] if index == 47 else 0
        self._make(play)
        text = f"{self.who(seat)}: {describe_play(play, houses, self.ascii_only)}"
        sweep = len(self.deal.sweeps) > sweeps
        if sweep:
            points = self.deal.sweeps[-1][2]
            text += f": a sweep! (+{points})" if points else ": a sweep (no points on the last play)"
        event = Event(text, seat, sweep)
        self.log.append(event)
        if self.players == 2 and index == 23:
            self.log.append(Event("Second half: 12 new cards each"))
        if self.deal.over:
            self._note_deal_end(left)
        return event

    # -- between deals ----------------------------------------------------------------------------------------

    def next_deal(self) -> None:
        """Go on to the next deal after the score sheet."""
        d = self.deal
        if not d.over:
            raise IllegalPlayError("the deal in progress is not over")
        if self.over:
            raise IllegalPlayError("the match is over")
        self.past.append(DealRecord(d.dealer, list(d.deck), d.bid, list(d.plays)))
        self.log = []
        self._note_deal_start()

    def _note_deal_start(self) -> None:
        for problem in self.match.redeals:
            self.log.append(Event(f"Dealt again: {redeal_reason(problem, self.ascii_only)}"))
        d = self.deal
        self.log.append(Event(f"Deal {self.deal_number}: {self.who(d.dealer)} deal{'s' * (d.dealer != self.human)}, "
                              f"{self.who(d.bidder)} bid{'s' * (d.bidder != self.human)}"))

    def _note_deal_end(self, left: int) -> None:
        d = self.deal
        r = self.match.results[-1]
        if left:
            cards = cards_text(left, self.ascii_only)
            if d.last_capturer < 0:
                self.log.append(Event(f"Nobody captured: {cards} on the floor go to no one"))
            else:
                self.log.append(Event(f"{cards} on the floor go to {self.team_name(d.last_capturer)} (last capture)"))
        a, b = r.score.score
        self.log.append(Event(f"Deal over: {self.team_name(0)} {a}, {self.team_name(1)} {b}"))

    # -- undo, save, resume -----------------------------------------------------------------------------------

    def record(self) -> GameRecord:
        """The deals the person has gone on from, then the deal shown."""
        d = self.deal
        return GameRecord(self.rules, self.players, [*self.past, DealRecord(d.dealer, list(d.deck), d.bid,
                                                                             list(d.plays))], self.names)

    def _human_decisions(self, record: GameRecord) -> list[tuple[int, int]]:
        """(deal index, play index) of each of the person's decisions; play index -1 is his bid."""
        out = []
        n = self.players
        for i, d in enumerate(record.deals):
            bidder = (d.dealer + 1) % n
            if d.bid and bidder == self.human:
                out.append((i, -1))
            out.extend((i, j) for j in range(len(d.plays)) if (bidder + j) % n == self.human)
        return out

    def can_undo(self) -> bool:
        return bool(self._human_decisions(self.record()))

    def undo(self) -> bool:
        """Take back the person's last bid or play and the bots' moves after it; False when there is none."""
        record = self.record()
        decisions = self._human_decisions(record)
        if not decisions:
            return False
        i, j = decisions[-1]
        deals = record.deals[: i + 1]
        last = deals[-1]
        deals[-1] = DealRecord(last.dealer, last.deck, last.bid if j >= 0 else 0, list(last.plays[: max(j, 0)]))
        self._rebuild(deals)
        self.log.append(Event("Undone: your last move and the bots' replies"))
        return True

    def _rebuild(self, deals: list[DealRecord]) -> None:
        """Set the match to what ``deals`` record: a new match of this session's seed, each deal dealt as the
        seed deals it unless the record's pack differs (then as the record's), and the bids and plays made again."""
        dealt: list[Dealt] = []
        while True:
            self.table = self._table(dealt)
            self.past = []
            self.log = []
            self._note_deal_start()
            for i, d in enumerate(deals):
                if i:
                    self.next_deal()
                if self.deal.dealer != d.dealer or self.deal.deck != list(d.deck):
                    dealt = [*self.table.dealt()[:i], Dealt(d.dealer, "".join(card_name(c) for c in d.deck))]
                    break
                if d.bid:
                    self._bid(self.deal.bidder, d.bid)
                    for raw in d.plays:
                        p = raw if isinstance(raw, tuple) else play_from_json(raw, self.deal.houses)
                        self._play(self.deal.to_move, p)
            else:
                return

    def to_json(self) -> dict[str, Any]:
        """The save file: the game record, with this session's settings beside it."""
        out = self.record().to_json()
        out["taash"] = {"seed": self.seed, "level": self.level, "baazis": self.baazis, "human": self.human}
        return out

    def save(self, path: Path) -> None:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json()) + "\n", encoding="utf-8")
        tmp.replace(path)

    @classmethod
    def from_json(cls, data: Any, ascii_only: bool = False) -> Session:
        """Resume a saved match (or any game record: the person takes seat 0, against medium bots)."""
        record = record_from_json(data)
        replay(record)  # refuses an illegal record with the deal and play index
        if not record.deals:
            raise RecordError("the record has no deal to resume")
        extra = data.get("taash") if isinstance(data.get("taash"), dict) else {}
        seed, level, baazis, human = (extra.get("seed"), extra.get("level", "medium"), extra.get("baazis", 1),
                                      extra.get("human", 0))
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RecordError(f"taash.seed must be a whole number, not {seed!r}")
        if level not in LEVELS:
            raise RecordError(f"taash.level must be one of {', '.join(LEVELS)}, not {level!r}")
        if isinstance(baazis, bool) or not isinstance(baazis, int) or baazis < 0:
            raise RecordError(f"taash.baazis must be a whole number from 0, not {baazis!r}")
        if isinstance(human, bool) or human not in range(record.players):
            raise RecordError(f"taash.human must be a seat from 0 to {record.players - 1}, not {human!r}")
        names = record.names
        session = cls(record.rules, record.players, level, baazis, seed, "You", human, ascii_only)
        if names:
            session.names = list(names)
        try:
            session._rebuild(record.deals)
        except IllegalPlayError as e:
            raise RecordError(f"the record does not fit its own settings: {e}") from None
        if len(session.past) + 1 != len(record.deals):
            raise RecordError("the record does not fit a match of its own settings")
        return session

    @classmethod
    def load(cls, path: Path, ascii_only: bool = False) -> Session:
        return cls.from_json(json.loads(path.read_text(encoding="utf-8-sig")), ascii_only)
