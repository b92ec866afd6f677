"""One table of the web server, with no I/O: its seats, its match, and what each seat may be told.

A table is a list of actions (sit, leave, fill with bots, start, the game's moves, and the server's timeouts of
turns out of time), each numbered by the table's version. The match is rebuilt from the table's seed, its actions
and how its deals were dealt, so a restarted server continues every table where it was. :meth:`Table.state_for`
is the only way out of the table for game state: it gives a seat its own view (or a spectator the face-up cards)
and never the pack or the seed. A table given a secret deals fairly (:mod:`taash.fairness`): its state publishes
the secret's commitment and the players' own seeds from the start, and only the record, once the match is over,
reveals the secret.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from taash.bots.base import Bot
from taash.fairness import Fairness, FairnessError, check_seed, commitment_of, published
from taash.games.api import View
from taash.games.registry import levels
from taash.i18n import N_, _, said_of
from taash.tables.adapter import TIMEOUT, Dealt, SeatResult, Settings, TableError, TableGame, adapter
from taash.tables.match import TableMatch
from taash.tables.names import BOT_NAMES, bot_name
from taash.tables.split import ANSWERS, SplitOffer, answered_said, bot_accepts, declined_said, split_returns

JSON = Any
#: Lines of the log every state carries (the last moves, in words).
LOG_LINES = 8


@dataclass(slots=True)
class Seat:
    guest: str | None = None  # the guest id of the person sitting here
    name: str = ""
    bot: bool = False
    #: The person's own seed for fair dealing, mixed into every shuffle (:mod:`taash.fairness`), if he gave one.
    seed: str | None = None

    @property
    def empty(self) -> bool:
        return self.guest is None and not self.bot


@dataclass(slots=True)
class BotTurn:
    """A bot and the view it moves from; :meth:`action` is the message of its choice."""

    bot: Bot
    view: View
    game: TableGame

    def action(self) -> dict[str, JSON]:
        return self.game.action_to(self.bot.choose(self.view))


#: Why a player may not send a timeout.
TIMEOUT_REFUSED = N_("a timeout is the server's move when a turn's time runs out, never a player's: make your move")


@dataclass(frozen=True, slots=True)
class Step:
    """An action the table has read and checked, once: :meth:`Table.commit` makes it at the version it was checked
    at (``make`` changes the table and returns what happened, in words), without reading it again."""

    action: Mapping[str, JSON]
    version: int
    make: Callable[[], str]


#: What a checked action does when it is made: it changes the table and returns what happened, in words.
Make = Callable[[], str]


def check_settings(settings: Settings) -> None:
    offered = levels(settings.game)
    if settings.level not in offered:
        raise TableError(_("level must be one of {levels}", levels=", ".join(offered)))


class Table:
    """Seats, status and match of one table; every change is an action that bumps :attr:`version`."""

    def __init__(self, table_id: str, code: str, settings: Settings, seed: int, owner: str | None = None,
                 dealt: Sequence[Dealt] = (), secret: bytes | None = None):
        """``dealt``: how its deals were dealt, when the table is rebuilt. ``secret``: the server's secret that
        every card comes from (:mod:`taash.fairness`; None: a table made before tables dealt fairly, whose cards
        come from its seed). The bots' choices come from ``seed`` either way."""
        check_settings(settings)
        self.game = adapter(settings.game)
        self.dealt = list(dealt)
        self.id = table_id
        self.code = code
        self.settings = settings
        self.seed = seed
        self.secret = secret
        self.owner = owner
        self.seats = [Seat() for _ in range(settings.players)]
        self.version = 0
        self.session: TableMatch | None = None
        self._log: list[str] = []
        #: Whether the last finished deal's score is shown (until the next deal's first move).
        self.last_shown = False
        self._public_cache: tuple[int, dict[str, JSON]] | None = None
        #: A split proposed and awaiting answers (nobody moves meanwhile), and the weights of one agreed (the
        #: match ended there): see :mod:`taash.tables.split`.
        self.offer: SplitOffer | None = None
        self.split: dict[int, int] | None = None

    # -- status -------------------------------------------------------------------------------------------------

    @property
    def status(self) -> str:
        if self.session is None:
            return "waiting"
        return "finished" if self.session.over or self.split is not None else "playing"

    @property
    def log(self) -> list[str]:
        return self.session.log if self.session is not None else self._log

    def seat_of(self, guest: str) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.guest == guest), None)

    def to_move(self) -> int | None:
        """The seat to move, or None when nothing is due (nor while a split is being decided)."""
        if self.session is None or self.offer is not None or self.split is not None:
            return None
        return self.session.to_move()

    def is_move(self, action: Mapping[str, JSON]) -> bool:
        """Whether ``action`` is a move of the game a player makes (not a seating action, nor a timeout)."""
        return action.get("type") in self.game.move_types()

    def ends_turn(self, action: Mapping[str, JSON]) -> bool:
        """Whether ``action`` ends the turn of the seat that made it (anything but a move that the same seat's
        next move completes, a Rummy take): the turn timer starts again."""
        return not self.is_move(action) or self.game.ends_turn(action)

    def timeout_action(self) -> dict[str, JSON] | None:
        """The server's action for the seat to move whose time ran out, when his game has one now (else a bot
        plays his turn)."""
        if self.session is None or self.session.over or self.game.timeout_action(self.session.state) is None:
            return None
        return {"type": TIMEOUT}

    # -- actions ------------------------------------------------------------------------------------------------

    def check(self, action: dict[str, JSON], guest: str | None) -> None:
        """Refuse ``action`` by ``guest`` (None: the server itself, for bots) with a TableError, or return."""
        self.prepare(action, guest)

    def apply(self, action: dict[str, JSON], guest: str | None) -> str:
        """Check and make an action; returns what happened, in words."""
        return self.commit(self.prepare(action, guest))

    def prepare(self, action: Mapping[str, JSON], guest: str | None) -> Step:
        """Read and check ``action`` by ``guest`` (None: the server itself, for bots and timeouts): the step that
        makes it (:meth:`commit`), or a TableError that says why not. Changes nothing."""
        kind = action.get("type")
        if kind == TIMEOUT and guest is not None:  # before anything else: whoever sends it, whenever
            raise TableError(TIMEOUT_REFUSED, "forbidden")
        make: Make
        if kind == "sit":
            make = self._sit(action, guest)
        elif kind == "leave":
            make = self._leave(guest)
        elif kind == "bots":
            make = self._bots(guest)
        elif kind == "start":
            make = self._start(guest)
        elif kind == "split":
            make = self._split(action, guest)
        elif self.is_move(action) or kind == TIMEOUT:  # the server's timeout (a person's was refused above)
            make = self._move(action, guest)
        else:
            raise TableError(_("unknown action {action}", action=repr(str(kind)[:40])))
        return Step(action, self.version, make)

    def commit(self, step: Step) -> str:
        """Make a step :meth:`prepare` checked at this version; returns what happened, in words."""
        if (was := step.version) != (now := self.version):
            raise TableError(_("stale version {version}: the table is at version {now}", version=was, now=now), "stale")
        said = step.make()
        self.version += 1
        return said

    def _sit(self, action: Mapping[str, JSON], guest: str | None) -> Make:
        seat, name = action.get("seat"), action.get("name")
        if guest is None or not isinstance(name, str):
            raise TableError(N_("only a guest with a name can sit"))
        if self.session is not None:
            raise TableError(N_("the match has started"), "started")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise TableError(_("seat must be from 0 to {last}", last=len(self.seats) - 1))
        if not self.seats[seat].empty and self.seats[seat].guest != guest:
            raise TableError(N_("that seat is taken"), "taken")
        if any(s.name.casefold() == name.casefold() and s.guest != guest for s in self.seats if not s.empty):
            raise TableError(_("the name {name} is taken at this table", name=repr(name)), "name_taken")
        own = action.get("seed")
        if own is not None:
            try:
                own = check_seed(own)
            except FairnessError as e:
                raise TableError(said_of(e)) from None

        def sit() -> str:
            old = self.seat_of(guest)
            if old is not None:
                self.seats[old] = Seat()
            self.seats[seat] = Seat(guest, name, seed=own)
            return _("{name} sits in seat {seat}", name=name, seat=seat)
        return sit

    def _leave(self, guest: str | None) -> Make:
        seat = None if guest is None else self.seat_of(guest)
        if seat is None:
            raise TableError(N_("you are not seated here"))
        if self.session is not None:
            raise TableError(N_("the match has started"), "started")
        name = self.seats[seat].name

        def leave() -> str:
            self.seats[seat] = Seat()
            return _("{name} leaves", name=name)
        return leave

    def _owner_only(self, guest: str | None) -> None:
        if guest is not None and guest != self.owner and self.seat_of(guest) is None:
            raise TableError(N_("only the table's creator or a seated player can do that"), "forbidden")

    def _bots(self, guest: str | None) -> Make:
        self._owner_only(guest)
        if self.session is not None:
            raise TableError(N_("the match has started"), "started")
        empty = [i for i, s in enumerate(self.seats) if s.empty]
        if not empty:
            raise TableError(N_("no seat is empty"))

        def bots() -> str:
            used = {s.name for s in self.seats}
            names = iter(n for n in BOT_NAMES if n not in used)
            for i in empty:
                self.seats[i] = Seat(None, bot_name(next(names)), bot=True)
            return _("Bots take the empty seats")
        return bots

    def _start(self, guest: str | None) -> Make:
        self._owner_only(guest)
        if self.session is not None:
            raise TableError(N_("the match has started"), "started")
        if any(s.empty for s in self.seats):
            raise TableError(N_("every seat needs a player or a bot first"), "seats_empty")

        def start() -> str:
            self.session = TableMatch(self.game, self.settings, self.seed, [s.name for s in self.seats], self.dealt,
                                   self._fairness())
            return _("The match starts")
        return start

    def _fairness(self) -> Fairness | None:
        """The match's fair dealing: the table's secret and the seeds its people gave (None: no secret)."""
        if self.secret is None:
            return None
        seeds = tuple((i, s.seed) for i, s in enumerate(self.seats) if s.seed is not None and not s.bot)
        return Fairness(self.settings.game, self.id, self.secret, seeds)

    def _move(self, action: Mapping[str, JSON], guest: str | None) -> Make:
        session = self.session
        if session is None:
            raise TableError(N_("the match has not started"), "not_started")
        if self.split is not None:
            raise TableError(N_("the match is over: it was split"), "over")
        if self.offer is not None:
            raise TableError(N_("a split is being decided: play goes on once everyone has answered"), "split_pending")
        seat = None if guest is None else self.seat_of(guest)
        if guest is not None and seat is None:
            raise TableError(N_("it is not your turn"), "not_your_turn")
        move = session.read(seat, action)

        def make() -> str:
            finished = session.finished_deals()
            if self.game.clears_score(action):
                self.last_shown = False
            lines = session.make(move)
            if session.finished_deals() > finished:
                self.last_shown = True
            return lines[0] if lines else ""
        return make

    def _split(self, action: Mapping[str, JSON], guest: str | None) -> Make:
        """Propose, accept or decline a split of the prize (:mod:`taash.tables.split`): a person still in the
        match only; the bots left answer a proposal at once."""
        answer = action.get("answer")
        if answer not in ANSWERS:
            raise TableError(_("a split's answer is one of {answers}", answers=", ".join(ANSWERS)), "malformed")
        session = self.session
        if session is None:
            raise TableError(N_("the match has not started"), "not_started")
        if session.over or self.split is not None:
            raise TableError(N_("the match is over"), "over")
        seat = None if guest is None else self.seat_of(guest)
        if seat is None:
            raise TableError(N_("only a player of the match can answer a split"), "forbidden")
        if answer == "propose":
            return self._propose(session, seat)
        offer = self.offer
        if offer is None:
            raise TableError(N_("no split is proposed"), "no_split")
        if seat not in offer.weights:
            raise TableError(N_("only a player still in the match answers a split"), "forbidden")
        if answer == "accept" and seat in offer.accepted:
            raise TableError(N_("you have accepted it already"), "accepted")
        name = self.seats[seat].name

        def answered() -> str:
            if answer == "decline":
                self.offer = None
                line = declined_said(name, seat == offer.proposer)
                session.note(line)
                return line
            offer.accepted.add(seat)
            return self._agreed_or_waiting([_("{name} accepts the split", name=name)])
        return answered

    def _propose(self, session: TableMatch, seat: int) -> Make:
        """A split proposed by ``seat``: the bots still in answer at once (one that declines ends it)."""
        if self.offer is not None:
            raise TableError(N_("a split is being decided already"), "split_pending")
        weights = self.game.split_terms(session.state)
        if seat not in weights:
            raise TableError(N_("only a player still in the match can propose a split"), "forbidden")

        def propose() -> str:
            lines = [_("{name} proposes to split the prize", name=self.seats[seat].name)]
            proposed = SplitOffer(seat, weights, {seat})
            for bot in (s for s in weights if self.seats[s].bot):
                accepts = bot_accepts(weights, bot)
                lines.append(answered_said(self.seats[bot].name, accepts))
                if not accepts:
                    session.note(*lines)
                    return lines[0]
                proposed.accepted.add(bot)
            self.offer = proposed
            return self._agreed_or_waiting(lines)
        return propose

    def _agreed_or_waiting(self, lines: list[str]) -> str:
        assert self.session is not None and self.offer is not None
        if not self.offer.waiting_for():
            self.split, self.offer = self.offer.weights, None
            lines.append(_("Everyone left agrees: the prize is split, and the match is over"))
        self.session.note(*lines)
        return lines[-1]

    def split_open(self) -> bool:
        """Whether a player left may propose a split now (the client offers it; the table decides)."""
        if self.session is None or self.session.over or self.offer is not None or self.split is not None:
            return False
        try:
            self.game.split_terms(self.session.state)
        except TableError:
            return False
        return True

    def split_state(self) -> dict[str, JSON] | None:
        """The split being decided or agreed, as every connection is told it: the seats sharing and their
        weights, who proposed it and whose answer is awaited; None when there is none."""
        if self.split is not None:
            return {"agreed": True, "weights": {str(s): w for s, w in sorted(self.split.items())}}
        if self.offer is None:
            return None
        return {"agreed": False, "proposer": self.offer.proposer,
                "weights": {str(s): w for s, w in sorted(self.offer.weights.items())},
                "accepted": sorted(self.offer.accepted), "waiting_for": self.offer.waiting_for()}

    # -- bots ---------------------------------------------------------------------------------------------------

    def bot_turn(self, level: str | None = None) -> BotTurn:
        """A bot for the seat to move (a bot's seat, or a person's while he is away), with that seat's view: an
        independent snapshot, so the bot may think in another thread while the table goes on."""
        assert self.session is not None
        bot, view = self.session.bot_choice(level or self.settings.level)
        return BotTurn(bot, view, self.game)

    def first_legal_action(self) -> dict[str, JSON]:
        """The engine's first legal action for the seat to move (when a bot fails)."""
        assert self.session is not None
        return self.session.first_legal()

    def bot_action(self, level: str | None = None) -> dict[str, JSON]:
        """The action of a bot for the seat to move."""
        return self.bot_turn(level).action()

    # -- what may be told ---------------------------------------------------------------------------------------

    def summary(self) -> dict[str, JSON]:
        """What the lobby shows: settings, seats, status (no cards)."""
        s = self.settings
        return {
            "id": self.id, "code": self.code, "game": s.game, "players": s.players, **self.game.summary(s),
            "level": s.level, "public": s.public, "status": self.status, "version": self.version,
            "seats": [{"seat": i, "name": seat.name or None, "bot": seat.bot, "empty": seat.empty}
                      for i, seat in enumerate(self.seats)],
        }

    def state_for(self, seat: int | None) -> dict[str, JSON]:
        """The table as ``seat`` may see it (None: a spectator, who sees only what lies face up)."""
        out = dict(self._public())
        out["you"] = seat
        if self.session is None:
            out["deal"] = None
            return out
        out["deal"] = self.game.seat_part(self.session.state, seat, dict(out["deal"]))
        return out

    def public_state(self) -> Mapping[str, JSON]:
        """What every seat and spectator is told alike at this version: :meth:`state_for` gives each the same
        objects as this holds (to be read, never changed) wherever its own part leaves them as they are."""
        return self._public()

    def _public(self) -> dict[str, JSON]:
        """What every connection is told alike at this version (cached until the next action)."""
        if self._public_cache is not None and self._public_cache[0] == self.version:
            return self._public_cache[1]
        out = self.summary()
        out["fairness"] = self.fairness_state()
        out["log"] = self.log[-LOG_LINES:]
        out["log_from"] = max(1, len(self.log) - LOG_LINES + 1)  # the number of its first line in the whole log
        out["split"] = self.split_state()
        out["split_open"] = self.split_open()
        if self.session is None:
            out["score"] = None
            out["deal"] = None
        else:
            out.update(self.game.public(self.session.state, self.session.names, self.last_shown))
        self._public_cache = (self.version, out)
        return out

    def fairness_state(self) -> dict[str, JSON] | None:
        """What everyone is told of the fair dealing from the table's making on: the algorithm, the commitment to
        the secret, and the players' seeds (those given so far; from the start, those the match is dealt with).
        Never the secret. None for a table with no secret."""
        if self.secret is None:
            return None
        if self.session is not None and self.session.fairness is not None:
            seeds = dict(self.session.fairness.seeds)
        else:
            seeds = {i: s.seed for i, s in enumerate(self.seats) if s.seed is not None and not s.bot}
        return published(self.settings.game, self.id, commitment_of(self.secret), seeds)

    # -- records --------------------------------------------------------------------------------------------------

    def dealt_so_far(self) -> list[Dealt]:
        """How each deal so far was dealt (for the database; never sent)."""
        return [] if self.session is None else self.session.dealt()

    def results(self) -> list[tuple[int, Seat, SeatResult]]:
        """Each seat's result, once the match is over (empty before)."""
        if self.split is not None:
            return self._split_results()
        if self.session is None or not self.session.over:
            return []
        found = self.game.seat_results(self.session.state)
        return [(i, self.seats[i], r) for i, r in enumerate(found)]

    def _split_results(self) -> list[tuple[int, Seat, SeatResult]]:
        """A split match's results: nobody won it alone; each seat's result is his share (see
        :func:`split_returns`), and the seats that shared the prize count a ``split`` in their stats."""
        assert self.session is not None and self.split is not None
        played = self.game.seat_results(self.session.state)  # the totals and counts so far
        returns = split_returns(len(self.seats), self.split)
        return [(i, self.seats[i], SeatResult(r.team, False, returns[i], r.points,
                                              {**r.stats, "split": int(i in self.split)}))
                for i, r in enumerate(played)]

    def record(self) -> JSON | None:
        """The game record with its scores (for download, once the match is over); a split match's says so."""
        if self.session is None:
            return None
        data = self.session.record()
        if self.split is not None and isinstance(data, dict):
            data["ended"] = "split"
            data["split"] = {str(s): w for s, w in sorted(self.split.items())}
        return data

    def verify(self) -> list[str]:
        """Check the finished match's record against its fair dealing (:meth:`TableGame.verify`): one line per
        deal (``TableError`` for the first thing wrong, or a table that does not deal fairly)."""
        if self.secret is None:
            raise TableError(N_("this table was made before tables dealt fairly: its cards came from its seed"),
                             "not_fair")
        if self.status != "finished":
            raise TableError(N_("the secret is revealed when the match is over: verify it then"), "not_finished")
        return self.game.verify(self.record())

    def replay(self) -> JSON | None:
        """Every step of the match, every hand shown (for the replay page, once the match is over)."""
        return None if self.session is None else self.game.replay(self.session.state, self.session.names)
