"""A match in play at a table: its state, every move made, the log in words, and bots for any seat.

Both the web server's tables and the terminal's games play through a :class:`TableMatch`. It knows a game only
through the game's table adapter and the games API: a move is a message (``{"type": "play", ...}``), read by the
adapter in the context of the state, checked by the engine, and said in words for the log. Each bot is seeded from
the match's seed and the position, so the same match and the same choices always give the same game.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from taash.bots.base import Bot, make_bot
from taash.fairness import Fairness
from taash.games.api import Action, State, View
from taash.games.registry import levels
from taash.i18n import N_, _, said_of
from taash.i18n.reasons import json_message
from taash.tables.adapter import TIMEOUT, Dealt, Settings, TableError, TableGame, adapter
from taash.tables.names import marked

JSON = Any
#: Lines of the log a session keeps.
LOG_KEPT = 64
#: What a save file says it is (``"taash-session"``) and the version of its layout.
SAVE_KIND = "taash-session"
SAVE_VERSION = 1
#: The longest save file read (a match's moves are a few hundred short messages).
SAVE_MOST = 20_000_000


class SaveError(TableError):
    """A save file that cannot be resumed: not one of ours, changed by hand, or of a match that does not replay."""

    def __init__(self, message: str):
        super().__init__(message, "bad_save")


class TableMatch:
    """One match of ``settings`` dealt from ``seed`` (or by ``fairness``, a server table's: :mod:`taash.fairness`),
    with seat names for the log. The bots are seeded from ``seed`` either way."""

    def __init__(self, game: TableGame, settings: Settings, seed: int, names: Sequence[str],
                 dealt: Sequence[Dealt] = (), fairness: Fairness | None = None):
        self.game = game
        self.settings = settings
        self.seed = seed
        self.fairness = fairness
        self.names = list(names)
        self.state: State = game.new_state(settings, seed, dealt, fairness)
        #: Every move made, as messages, in order: the match is its seed and these.
        self.moves: list[dict[str, JSON]] = []
        #: The seat that made each move (for undo: a person's own decisions).
        self.movers: list[int] = []
        self.log: list[str] = []
        self.note(*game.opening(self.state, self.names))

    # -- the match ----------------------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.is_over

    def to_move(self) -> int | None:
        """The seat to act, or None once the match is over."""
        return None if self.state.is_over else self.state.current_player

    def view(self, seat: int) -> View:
        return self.state.view(seat)

    def finished_deals(self) -> int:
        return self.game.finished_deals(self.state)

    def read(self, seat: int | None, message: Mapping[str, JSON]) -> Action:
        """The action ``message`` names for the seat to move (``TableError`` if it is not that seat's turn, or the
        message names no legal action); changes nothing. ``{"type": TIMEOUT}`` is the game's move for the seat
        whose time ran out: the server's alone (:meth:`taash.tables.table.Table.prepare` refuses a person's)."""
        if self.state.is_over:
            raise TableError(N_("the match is over"), "over")
        to_move = self.state.current_player
        if message.get("type") == TIMEOUT:
            timeout = self.game.timeout_action(self.state)
            if timeout is None:
                raise TableError(_("{game} has no move for a turn out of time here", game=self.game.title), "illegal")
            return timeout
        if seat is not None and seat != to_move:
            raise TableError(N_("it is not your turn"), "not_your_turn")
        return self.game.action_from(self.state, to_move, message)

    def move(self, seat: int | None, message: Mapping[str, JSON]) -> list[str]:
        """Make the move ``message`` names for the seat to move (``seat`` None: whoever it is, for a bot or the
        server); returns the log's new lines."""
        action = self.read(seat, message)
        return self.make(action)

    def make(self, action: Action) -> list[str]:
        """Make a checked action of the seat to move; returns the log's new lines."""
        seat = self.state.current_player
        before = self.game.remember(self.state)
        self.state.apply(action)
        self.moves.append(self.game.action_to(action))
        self.movers.append(seat)
        lines = self.game.said(self.state, before, seat, action, self.names)
        self.note(*lines)
        return lines

    def note(self, *lines: str) -> None:
        """Add lines to the log (in words, for everyone: nothing only one seat may know)."""
        self.log.extend(lines)
        del self.log[:-LOG_KEPT]

    # -- bots ---------------------------------------------------------------------------------------------------

    def bot(self, seat: int, level: str) -> Bot:
        """A bot of ``level`` for ``seat``, seeded by the match's seed and the position."""
        key = f"{self.seed}/{len(self.moves)}/{seat}/{level}"
        return make_bot(level, random.Random(key).randrange(2**32), game=self.game.name)

    def bot_choice(self, level: str) -> tuple[Bot, View]:
        """A bot for the seat to move and that seat's view: an independent snapshot, so the bot may think in
        another thread while the match goes on."""
        seat = self.state.current_player
        return self.bot(seat, level), self.state.clone().view(seat)

    def first_legal(self) -> dict[str, JSON]:
        """The engine's first legal action for the seat to move, as a message (when a bot fails)."""
        return self.game.action_to(self.state.legal_actions()[0])

    def hint(self, seat: int, level: str) -> tuple[Action, str]:
        """What a bot of ``level`` would do in ``seat``'s place, with its one-line reason."""
        if self.to_move() != seat:
            raise TableError(N_("it is not your turn"), "not_your_turn")
        bot = self.bot(seat, level)
        view = self.state.view(seat)
        action = bot.choose(view)
        return action, bot.explain(view, action)

    # -- records ------------------------------------------------------------------------------------------------

    def dealt(self) -> list[Dealt]:
        return self.game.dealt(self.state)

    def record(self) -> JSON:
        return self.game.record(self.state, self.names)

    # -- undo ---------------------------------------------------------------------------------------------------

    def can_undo(self, seat: int) -> bool:
        return seat in self.movers

    def undo(self, seat: int) -> bool:
        """Take back ``seat``'s last move and every move after it (the bots' replies): the match is played again
        from its seed up to that decision, so it is ``seat``'s turn again in the same position, and the bots,
        seeded by the position, will answer as before to the same moves. False (nothing changed) when ``seat``
        has made no move."""
        if seat not in self.movers:
            return False
        last = len(self.movers) - 1 - self.movers[::-1].index(seat)
        self.replay_moves(self.moves[:last])
        self.note("Undone: your last move and the moves after it")
        return True

    def replay_moves(self, moves: Sequence[Mapping[str, JSON]]) -> None:
        """Set the match to its start again and make ``moves`` (``TableError`` naming the first that does not
        apply, with the session left at its start)."""
        dealt = self.dealt()
        self.state = self.game.new_state(self.settings, self.seed, dealt, self.fairness)
        self.moves, self.movers, self.log = [], [], []
        self.note(*self.game.opening(self.state, self.names))
        for i, message in enumerate(moves, 1):
            if not isinstance(message, Mapping):
                raise TableError(_("move {i} is not a message (an object)", i=i), "bad")
            try:
                self.move(None, message)
            except TableError as e:
                self.state = self.game.new_state(self.settings, self.seed, dealt, self.fairness)
                self.moves, self.movers, self.log = [], [], []
                why = said_of(e)
                raise TableError(_("move {i} ({move}): {why}", i=i, move=_short(message), why=why), e.code) from None

    # -- save and resume ----------------------------------------------------------------------------------------

    def to_json(self, people: Sequence[int] = (0,)) -> dict[str, JSON]:
        """The save file: the game, its settings as its adapter reads them, the seed, the names, which seats are
        people, how the deals were dealt, every move; the game's own record beside (for other tools); and a
        check of all that, so that a file changed by hand is refused rather than played wrongly."""
        s = self.settings
        body: dict[str, JSON] = {
            "kind": SAVE_KIND, "version": SAVE_VERSION, "game": self.game.name,
            "settings": {"players": s.players, "rules": self.game.rules_json(s), "length": s.length,
                         "level": s.level},
            "seed": self.seed, "names": list(self.names), "people": list(people),
            "dealt": [{"dealer": d.dealer, "pack": d.pack, "notes": d.notes} for d in self.dealt()],
            "moves": list(self.moves), "record": self.record(),
        }
        body["check"] = _check(body)
        return body

    def save(self, path: Path, people: Sequence[int] = (0,)) -> None:
        """Write the save file (whole or not at all: through a file beside it)."""
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(people)) + "\n", encoding="utf-8")
        tmp.replace(path)

    @classmethod
    def from_json(cls, data: JSON) -> tuple[TableMatch, list[int]]:
        """A saved match played again from its seed and moves, and the seats its people play (``SaveError``
        in one sentence for anything else: another kind of file, a file changed since it was saved, settings
        the game refuses, a move that does not apply)."""
        if not isinstance(data, dict) or data.get("kind") != SAVE_KIND:
            raise SaveError(_("not a taash save file (a game record? taash replay FILE shows one)"))
        if data.get("version") != SAVE_VERSION:
            raise SaveError(_("a save file of another version ({version}; this taash reads version {ours})",
                              version=_short(data.get("version")), ours=SAVE_VERSION))
        if data.get("check") != _check(data):
            raise SaveError(_("the save file was changed after it was saved (its check does not match)"))
        try:
            game = adapter(str(data.get("game")))
        except TableError as e:
            raise SaveError(said_of(e)) from None
        raw = data.get("settings")
        if not isinstance(raw, dict):
            raise SaveError(_("settings must be an object"))
        level = raw.get("level")
        offered = levels(game.name)
        if level not in offered:
            raise SaveError(_("the level must be one of {levels}, not {level}", levels=", ".join(offered),
                              level=_short(level)))
        try:
            make_bot(level, 0, game=game.name)
        except ValueError:
            raise SaveError(_("{game} has no bot of the level {level} yet", game=game.title, level=level)) from None
        players = raw.get("players")
        if isinstance(players, bool) or not isinstance(players, int):
            raise SaveError(_("players must be a whole number, not {players}", players=_short(players)))
        try:
            settings = game.settings(players, raw.get("rules"), raw.get("length"), level, False)
        except TableError as e:
            raise SaveError(_("settings: {why}", why=said_of(e))) from None
        seed, names, people = data.get("seed"), data.get("names"), data.get("people")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SaveError(_("seed must be a whole number, not {seed}", seed=_short(seed)))
        if not isinstance(names, list) or len(names) != players or not all(isinstance(n, str) for n in names):
            raise SaveError(_("names must be a list of {n} names", n=players))
        if (not isinstance(people, list) or not all(isinstance(p, int) and not isinstance(p, bool)
                                                    and 0 <= p < players for p in people)):
            raise SaveError(_("people must be a list of seats from 0 to {last}", last=players - 1))
        dealt = data.get("dealt")
        if not isinstance(dealt, list) or not all(
                isinstance(d, dict) and isinstance(d.get("dealer"), int) and isinstance(d.get("pack"), str)
                and isinstance(d.get("notes"), str) for d in dealt):
            raise SaveError(_("dealt must be a list of {fields}", fields="{dealer, pack, notes}"))
        moves = data.get("moves")
        if not isinstance(moves, list):
            raise SaveError(_("moves must be a list of messages"))
        try:
            session = cls(game, settings, seed, [marked(n) for n in names],
                          [Dealt(d["dealer"], d["pack"], d["notes"]) for d in dealt])
            session.replay_moves(moves)
        except TableError as e:
            raise SaveError(_("the saved match does not play again: {why}", why=said_of(e))) from None
        except (ValueError, KeyError, IndexError) as e:  # a pack the game cannot deal
            raise SaveError(_("the saved match does not play again: {why}", why=_short(e, 80))) from None
        return session, list(people)

    @classmethod
    def load(cls, path: Path) -> tuple[TableMatch, list[int]]:
        """:meth:`from_json` of a file (``SaveError`` for one that is not JSON, too large, or not UTF-8)."""
        try:
            if path.stat().st_size > SAVE_MOST:
                raise SaveError(_("{path}: too large for a save file", path=path))
            text = path.read_bytes().decode("utf-8-sig")
            data = json.loads(text)
        except UnicodeDecodeError:
            raise SaveError(_("not a taash save file (not UTF-8 text)")) from None
        except json.JSONDecodeError as e:
            raise SaveError(not_json_save(e)) from None
        except RecursionError:
            raise SaveError(_("not a taash save file (nested too deeply)")) from None
        return cls.from_json(data)


def not_json_save(error: json.JSONDecodeError) -> str:
    """The refusal of a save file that is not JSON: the parser's reason where the language can say it, and the
    line."""
    why = json_message(error)
    if why is None:
        return _("not a taash save file (not valid JSON, line {line})", line=error.lineno)
    return _("not a taash save file (not valid JSON: {why}, line {line})", why=why, line=error.lineno)


def _check(data: Mapping[str, JSON]) -> str:
    """The check of a save file: a hash of everything in it but the check itself."""
    body = {k: v for k, v in data.items() if k != "check"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _short(value: object, most: int = 40) -> str:
    """A value for a message: its JSON (a string as it is), cut to ``most`` characters."""
    text = value if isinstance(value, str | Exception) else json.dumps(value, default=str)
    text = str(text)
    return text[:most] + ("…" if len(text) > most else "")
