"""One person's match of Seep against bots in the terminal, played through the tables layer like Rummy's.

The match is a :class:`taash.tables.match.TableMatch` (the one the web's tables and Rummy's terminal game play
through): its state, every move as the table's message, the bots seeded by the position, undo, and the save file
(the tables' ``taash-session``). This module adds only what Seep's terminal game says and shows: the log in the
person's words (You, Us and Them, sweeps marked), and the finished deal held for the score sheet until the person
goes on. It hands the screen only the person's :class:`PlayerView`, the public log and the score sheet. Saves of
the terminal game from before (a Seep game record with a ``taash`` block of its settings) still resume.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taash.cards import SUIT_SYMBOLS, SUITS, card_name
from taash.games.registry import levels
from taash.i18n import _, ngettext, said_of
from taash.seep.deal import Deal, Phase
from taash.seep.describe import cards_text, describe_play, house_word, redeal_reason
from taash.seep.errors import IllegalPlayError, RecordError
from taash.seep.game import SeepState
from taash.seep.match import DealResult, Match
from taash.seep.notation import play_from_json
from taash.seep.plays import Play, apply_play
from taash.seep.record import DealRecord, GameRecord, record_from_json, replay
from taash.seep.rules import Rules
from taash.seep.values import VALUE_MASK
from taash.seep.view import PlayerView, view_of
from taash.tables.adapter import Dealt, Settings, TableError, adapter
from taash.tables.match import SAVE_KIND, SAVE_MOST, SaveError, TableMatch, not_json_save
from taash.tables.names import bot_name

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
    #: The line that says the deal is over and its score.
    deal_over: bool = False


def seat_names(players: int, human: int, name: str) -> list[str]:
    """The names of a new match's seats: the person's, and the bots' marked "(bot)"."""
    names = [bot_name(n) if n else "" for n in BOT_NAMES[players]]
    names[human] = name
    return names


class PersonsMatch:
    """A match of one person (seat ``human``) against bots of one level, partner included."""

    def __init__(self, rules: Rules, players: int = 4, level: str = "medium", baazis: int = 1,
                 seed: int | None = None, name: str = "You", human: int = 0, ascii_only: bool = False,
                 dealt: Sequence[Dealt] = (), names: Sequence[str] | None = None):
        """``dealt``: how the deals were dealt, where a resumed record's packs are not its seed's; ``names``: the
        seats' names as a record gives them (else the person's ``name`` and the bots')."""
        if level not in levels("seep"):
            raise ValueError(f"unknown level {level!r} (choose from {', '.join(levels('seep'))})")
        if players not in (2, 4):
            raise ValueError("Seep is played by 2 or 4 players")
        if baazis < 0:
            raise ValueError("baazis must be 0 (a single deal) or more")
        seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        settings = Settings("seep", players, rules, baazis, level, False)
        table = TableMatch(adapter("seep"), settings, seed, list(names or seat_names(players, human, name)), dealt)
        self._start(table, human, ascii_only)

    @classmethod
    def at(cls, table: TableMatch, human: int = 0, ascii_only: bool = False) -> PersonsMatch:
        """The person in seat ``human`` of a Seep match in play (a resumed save's): its moves told again."""
        if table.game.name != "seep":
            raise SaveError(_("a save of {game}, not of Seep", game=table.game.title))
        person = cls.__new__(cls)
        person._start(table, human, ascii_only)
        person.replay_moves(table.moves)
        return person

    def _start(self, table: TableMatch, human: int, ascii_only: bool) -> None:
        self.table = table
        self.human = human
        self.ascii_only = ascii_only
        #: The finished deals the person has gone on from (their score sheet closed).
        self.seen = 0
        self.log: list[Event] = []
        self._note_deal_start()

    # -- the match's settings ---------------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        rules = self.table.settings.rules
        assert isinstance(rules, Rules)
        return rules

    @property
    def players(self) -> int:
        return self.table.settings.players

    @property
    def level(self) -> str:
        return self.table.settings.level

    @property
    def baazis(self) -> int:
        length = self.table.settings.length
        assert isinstance(length, int)
        return length

    @property
    def seed(self) -> int:
        return self.table.seed

    @property
    def names(self) -> list[str]:
        return self.table.names

    @property
    def match(self) -> Match:
        state = self.table.state
        assert isinstance(state, SeepState)
        return state.match

    # -- who is who -------------------------------------------------------------------------------------------

    def who(self, seat: int) -> str:
        """A seat as the person sees it in sentences: You, or the name the record gives the seat (the partner's
        too, as in the record), without its "(bot)"."""
        return _("You") if seat == self.human else self.name(seat)

    def name(self, seat: int) -> str:
        """A seat's name as the record gives it, without "(bot)", cut to :data:`NAME_WIDTH`; the person's own is
        his ``--name`` (You by default)."""
        name = " ".join(self.names[seat].removesuffix(" (bot)").split()) or _("Seat {seat}", seat=seat)
        return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1].rstrip() + "."

    def partner(self) -> int | None:
        """The person's partner's seat (4 players), or None."""
        return (self.human + 2) % 4 if self.players == 4 else None

    def team_name(self, team: int) -> str:
        return _("Us") if team == self.human % 2 else _("Them")

    # -- the state the interface shows ------------------------------------------------------------------------

    @property
    def deal(self) -> Deal:
        """The deal shown: the one in progress, or the one just finished until the person goes on from its score
        sheet (the match has dealt the next one already)."""
        m = self.match
        return m.past[self.seen] if len(m.past) > self.seen else m.deal

    def view(self) -> PlayerView:
        """What the person sees now."""
        return view_of(self.deal, self.human)

    @property
    def deal_number(self) -> int:
        return self.seen + 1

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

    def bot_step(self) -> Event:
        """Let the bot to move bid or play; returns what it did."""
        seat, decide = self.bot_task()
        return self.bot_move(seat, decide())

    def bot_task(self) -> tuple[int, Callable[[], int | Play]]:
        """The seat of the bot to move and its decision still to be made. ``decide()`` works on a copy of the
        seat's view and touches nothing of the match, so it may run on another thread (an expert bot thinks
        for a while); its answer goes to :meth:`bot_move`."""
        if not self.bots_turn():
            raise IllegalPlayError("it is not a bot's turn")
        seat = self.deal.to_move
        bot, view = self.table.bot_choice(self.level)
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
        return levels("seep")[self.level] == "ismcts"

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
        choice, reason = self.table.hint(self.human, HINT_BOT)
        if isinstance(choice, int):
            return choice, self.bid_reason(choice)
        assert isinstance(choice, tuple)
        return choice, self.text(reason)

    def bid_reason(self, value: int) -> str:
        """Why the hint bids ``value``: the value of the first four cards held most (the highest on a tie)."""
        view = self.view()
        name = house_word(value)
        if len(view.legal_bids()) == 1:
            return _("Bid {bid} ({house}): the only value you can bid", bid=value, house=name)
        held = (view.hand & VALUE_MASK[value]).bit_count()
        return ngettext("Bid {bid} ({house}): you hold {n} {house}, the value you hold most (the highest on a tie): "
                        "the best chance to take your {house} house back",
                        "Bid {bid} ({house}): you hold {n} {house}s, the value you hold most (the highest on a tie): "
                        "the best chance to take your {house} house back", held, bid=value, house=name)

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
        said = (_("You bid {bid} ({house})", bid=value, house=house_word(value)) if seat == self.human else
                _("{name} bids {bid} ({house})", name=self.who(seat), bid=value, house=house_word(value)))
        event = Event(said, seat)
        self.log.append(event)
        return event

    def _play(self, seat: int, play: Play) -> Event:
        houses = dict(self.deal.houses)
        sweeps = len(self.deal.sweeps)
        index = len(self.deal.plays)
        left = apply_play(play, seat, self.players, self.deal.loose, dict(houses))[0] if index == 47 else 0
        self._make(play)
        name, words = self.who(seat), describe_play(play, houses, self.ascii_only)
        text = _("{name}: {play}", name=name, play=words)
        sweep = len(self.deal.sweeps) > sweeps
        if sweep:
            points = self.deal.sweeps[-1][2]
            text = (_("{name}: {play}: a sweep! (+{points})", name=name, play=words, points=points) if points else
                    _("{name}: {play}: a sweep (no points on the last play)", name=name, play=words))
        event = Event(text, seat, sweep)
        self.log.append(event)
        if self.players == 2 and index == 23:
            self.log.append(Event(_("Second half: 12 new cards each")))
        if self.deal.over:
            self._note_deal_end(left)
        return event

    # -- between deals ----------------------------------------------------------------------------------------

    def next_deal(self) -> None:
        """Go on to the next deal after the score sheet."""
        if not self.deal.over:
            raise IllegalPlayError("the deal in progress is not over")
        if self.over:
            raise IllegalPlayError("the match is over")
        self.seen += 1
        self.log = []
        self._note_deal_start()

    def _note_deal_start(self) -> None:
        for problem in self.match.redeals:
            self.log.append(Event(_("Dealt again: {why}", why=redeal_reason(problem, self.ascii_only))))
        d = self.deal
        number, dealer, bidder = self.deal_number, self.who(d.dealer), self.who(d.bidder)
        if d.dealer == self.human:
            said = _("Deal {number}: You deal, {bidder} bids", number=number, bidder=bidder)
        elif d.bidder == self.human:
            said = _("Deal {number}: {dealer} deals, You bid", number=number, dealer=dealer)
        else:
            said = _("Deal {number}: {dealer} deals, {bidder} bids", number=number, dealer=dealer, bidder=bidder)
        self.log.append(Event(said))

    def _note_deal_end(self, left: int) -> None:
        d = self.deal
        r = self.match.results[-1]
        if left:
            cards = cards_text(left, self.ascii_only)
            if d.last_capturer < 0:
                self.log.append(Event(_("Nobody captured: {cards} on the floor go to no one", cards=cards)))
            else:
                self.log.append(Event(_("{cards} on the floor go to {team} (last capture)", cards=cards,
                                        team=self.team_name(d.last_capturer))))
        a, b = r.score.score
        self.log.append(Event(_("Deal over: {team} {score}, {other} {other_score}", team=self.team_name(0), score=a,
                                other=self.team_name(1), other_score=b), deal_over=True))

    # -- undo, save, resume -----------------------------------------------------------------------------------

    def record(self) -> GameRecord:
        """The deals the person has gone on from, then the deal shown."""
        deals = [DealRecord(d.dealer, list(d.deck), d.bid, list(d.plays)) for d in self.match.past[: self.seen]]
        d = self.deal
        deals.append(DealRecord(d.dealer, list(d.deck), d.bid, list(d.plays)))
        return GameRecord(self.rules, self.players, deals, self.names)

    def can_undo(self) -> bool:
        return self.table.can_undo(self.human)

    def undo(self) -> bool:
        """Take back the person's last bid or play and the bots' moves after it; False when there is none."""
        movers = self.table.movers
        if self.human not in movers:
            return False
        last = len(movers) - 1 - movers[::-1].index(self.human)
        self.replay_moves(self.table.moves[:last])
        self.log.append(Event(_("Undone: your last move and the bots' replies")))
        return True

    def replay_moves(self, moves: Sequence[Mapping[str, Any]]) -> None:
        """Set the match to its start again (its deals dealt as before) and make ``moves``, each told in the log
        as it was; the person goes on from each finished deal that a later move follows."""
        t = self.table
        self.table = TableMatch(t.game, t.settings, t.seed, t.names, t.dealt(), t.fairness)
        self.seen, self.log = 0, []
        self._note_deal_start()
        for message in moves:
            if self.deal.over:
                self.next_deal()
            action = self.table.read(None, message)
            if isinstance(action, int):
                self._bid(self.deal.to_move, action)
            else:
                assert isinstance(action, tuple)
                self._play(self.deal.to_move, action)

    def to_json(self) -> dict[str, Any]:
        """The save file: the tables' save of the match (:meth:`TableMatch.to_json`), the person's seat its one."""
        return self.table.to_json([self.human])

    def save(self, path: Path) -> None:
        self.table.save(path, [self.human])

    @classmethod
    def from_json(cls, data: Any, ascii_only: bool = False) -> PersonsMatch:
        """Resume a saved match: a save of the tables (``taash-session``), or a Seep game record (the terminal
        game's saves before it played through the tables, with their ``taash`` block of settings; any other
        record puts the person in seat 0, against medium bots)."""
        if isinstance(data, dict) and data.get("kind") == SAVE_KIND:
            table, people = TableMatch.from_json(data)
            if len(people) != 1:
                raise SaveError(ngettext("a match of {n} person, not one against bots",
                                          "a match of {n} people, not one against bots", len(people)))
            return cls.at(table, people[0], ascii_only)
        return cls.from_record(data, ascii_only)

    @classmethod
    def from_record(cls, data: Any, ascii_only: bool = False) -> PersonsMatch:
        """Resume a Seep game record, its ``taash`` block giving the settings of the match it was saved from."""
        record = record_from_json(data)
        replay(record)  # refuses an illegal record with the deal and play
        if not record.deals:
            raise RecordError(_("the record has no deal to resume"))
        extra = data.get("taash") if isinstance(data.get("taash"), dict) else {}
        seed, level, baazis, human = (extra.get("seed"), extra.get("level", "medium"), extra.get("baazis", 1),
                                      extra.get("human", 0))
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RecordError(_("taash.seed must be a whole number, not {seed}", seed=repr(seed)))
        if level not in levels("seep"):
            raise RecordError(_("taash.level must be one of {levels}, not {level}", levels=", ".join(levels("seep")),
                                  level=repr(level)))
        if isinstance(baazis, bool) or not isinstance(baazis, int) or baazis < 0:
            raise RecordError(_("taash.baazis must be a whole number from 0, not {baazis}", baazis=repr(baazis)))
        if isinstance(human, bool) or human not in range(record.players):
            raise RecordError(_("taash.human must be a seat from 0 to {last}, not {human}", last=record.players - 1,
                                  human=repr(human)))
        dealt: list[Dealt] = []
        while True:  # the deals as the seed deals them, but where the record's pack differs: then as the record's
            person = cls(record.rules, record.players, level, baazis, seed, "You", human, ascii_only, dealt,
                         record.names)
            seed = person.seed
            try:
                differs = person.make_record(record.deals)
            except (IllegalPlayError, TableError) as e:
                raise RecordError(_("the record does not fit its own settings: {why}", why=said_of(e))) from None
            if differs is None:
                break
            dealt = [*person.table.dealt()[:differs], Dealt(record.deals[differs].dealer,
                                                            "".join(card_name(c) for c in record.deals[differs].deck))]
        if person.seen + 1 != len(record.deals):
            raise RecordError(_("the record does not fit a match of its own settings"))
        return person

    def make_record(self, deals: Sequence[DealRecord]) -> int | None:
        """Make the bids and plays of a record's ``deals`` on this new match; the index of the first deal whose
        pack or dealer is not the one this match deals (nothing more is made then), or None when all are."""
        for i, d in enumerate(deals):
            if i:
                self.next_deal()
            if self.deal.dealer != d.dealer or self.deal.deck != list(d.deck):
                return i
            if d.bid:
                self._bid(self.deal.bidder, d.bid)
                for raw in d.plays:
                    self._play(self.deal.to_move, raw if isinstance(raw, tuple) else
                               play_from_json(raw, self.deal.houses))
        return None

    @classmethod
    def load(cls, path: Path, ascii_only: bool = False) -> PersonsMatch:
        """:meth:`from_json` of a file (:class:`SaveError` for one too large, not UTF-8 or not JSON)."""
        if path.stat().st_size > SAVE_MOST:
            raise SaveError(_("{path}: too large for a save file", path=path))
        try:
            data = json.loads(path.read_bytes().decode("utf-8-sig"))
        except UnicodeDecodeError:
            raise SaveError(_("not a taash save file (not UTF-8 text)")) from None
        except json.JSONDecodeError as e:
            raise SaveError(not_json_save(e)) from None
        return cls.from_json(data, ascii_only)
