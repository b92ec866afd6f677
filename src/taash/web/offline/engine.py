"""A match against bots with no server: the same :class:`~taash.tables.table.Table` as the server's, answering the
same websocket messages (docs/web-protocol.md) in the same shapes, run in the browser by Pyodide in a Web Worker
(``static/offline/worker.js``) or by CPython in the tests.

Only the standard library and taash's pure modules are used here (no FastAPI, no database, no orjson), so that
:mod:`taash.web.offline.bundle` can ship exactly these. Cards come from the seed, as in ``taash play``, never from
a server's secret: the same seed and settings give the same match as ``taash play --seed``.

A match is its setup and the actions made so far (:meth:`OfflineMatch.save`); loading a save plays them again, so
a closed app resumes where it was, and the record of a finished match is what the server replays on upload.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from taash.i18n import N_, _
from taash.rulebook import rules_document
from taash.tables.adapter import TIMEOUT, Settings, TableError, adapter
from taash.tables.table import Table

JSON = Any
#: The guest id of the one person at an offline table (seat 0); bots hold the other seats.
PERSON = "offline"
#: The table id an offline table goes by (its page's /api/tables/{id}/... calls are answered here too).
TABLE_ID = "offline"
#: The bots' levels offered offline: ``expert`` thinks 1.6 s a decision in the median in Pyodide and up to 2.3 s
#: (docs/results/offline.md), over the 2 s a decision it must keep to.
LEVELS = ("easy", "medium", "hard")
#: The longest message read, as the server's default.
MAX_MESSAGE = 16 * 1024


class SetupError(TableError):
    """A setup or a save that cannot be played offline: its sentence is a message of the catalogue (``msgid``) with
    its ``values``, so that the browser shows it in the person's language (the offline engine has no catalogue)."""

    def __init__(self, msgid: str, **values: JSON):
        super().__init__(msgid.format(**values))
        self.msgid = msgid
        self.values = values

    def refusal(self) -> str:
        """The refusal as the page translates it: JSON ``{"message": msgid, "values": {...}}``."""
        return json.dumps({"message": self.msgid, "values": self.values})


#: What the page says of a start refused for another reason than a :class:`SetupError` (a rule of the game's own
#: settings): a message of the catalogue, with the English reason beside it.
OTHER_REFUSAL = N_("these settings cannot be played offline: {why}")


def opened(op: str, text: str) -> tuple[OfflineMatch | None, str | None]:
    """The match a page's ``start`` (its setup, JSON) or ``resume`` (its save) opens, or None and the refusal as
    JSON ``{"message", "values"}`` (a message of the catalogue, translated by the page)."""
    try:
        return (OfflineMatch.start(text) if op == "start" else OfflineMatch.load(text)), None
    except SetupError as e:
        return None, e.refusal()
    except TableError as e:
        return None, json.dumps({"message": OTHER_REFUSAL, "values": {"why": str(e)}})


@dataclass(frozen=True, slots=True)
class Setup:
    """What "Play offline" chose: the game, players, the bots' level, the match's length (Seep: baazis to win, 0
    a single deal; Rummy: the format's name; None: the game's default), the rules preset, the seed, the name."""

    game: str
    players: int
    level: str
    length: int | str | None
    rules: str | None
    seed: int
    name: str

    @classmethod
    def from_json(cls, data: JSON) -> Setup:
        """A setup read back from a save or the page (``TableError`` for anything that is not one)."""
        if not isinstance(data, Mapping):
            raise SetupError(N_("the match's settings are not a JSON object"))
        fields = {"game": str, "players": int, "level": str, "seed": int, "name": str}
        for key, kind in fields.items():
            value = data.get(key)
            if isinstance(value, bool) or not isinstance(value, kind):
                raise SetupError(N_("the setting {key} is missing or not a {kind}"), key=key, kind=kind.__name__)
        if data["level"] not in LEVELS:
            raise SetupError(N_("the computer's level must be one of {levels} offline"), levels=", ".join(LEVELS))
        length, rules = data.get("length"), data.get("rules")
        if length is not None and (isinstance(length, bool) or not isinstance(length, int | str)):
            raise SetupError(N_("the match length must be a whole number, a format's name or null"))
        if rules is not None and not isinstance(rules, str):
            raise SetupError(N_("the rules must be a preset's name or null"))
        name = data["name"].strip()
        if not 0 < len(name) <= 40:
            raise SetupError(N_("your name must be 1 to 40 characters"))
        return cls(data["game"], data["players"], data["level"], length, rules, data["seed"], name)

    def settings(self) -> Settings:
        """The table's settings, read and checked by the game's adapter as ``taash play`` reads its options."""
        table_game = adapter(self.game)
        rules = self.rules if self.rules is not None else table_game.presets[0]
        if rules not in table_game.presets:
            raise SetupError(N_("the rules must be one of {presets}"), presets=", ".join(table_game.presets))
        document = rules_document(rules, {p: p for p in table_game.presets}, TableError)
        length = self.length
        if length is None:
            length = table_game.formats[0] if table_game.formats else 1
        return table_game.settings(self.players, document, length, self.level, False)


class OfflineMatch:
    """One offline table: the person in seat 0, bots in the others, started at once."""

    def __init__(self, setup: Setup):
        self.setup = setup
        try:
            adapter(setup.game)
        except (KeyError, ValueError):
            raise SetupError(N_("no such game {game}"), game=repr(setup.game[:40])) from None
        self.table = Table(TABLE_ID, "", setup.settings(), setup.seed, owner=PERSON)
        #: Every action made after the start, with who made it (True: the person), in order.
        self.actions: list[tuple[dict[str, JSON], bool]] = []
        for opening in ({"type": "sit", "seat": 0, "name": setup.name}, {"type": "bots"}, {"type": "start"}):
            self.table.apply(opening, PERSON)

    @classmethod
    def start(cls, setup_text: str) -> OfflineMatch:
        """A new match of a setup given as JSON text (the page's)."""
        try:
            data = json.loads(setup_text)
        except ValueError:
            raise SetupError(N_("the match's settings are not JSON")) from None
        return cls(Setup.from_json(data))

    # -- saving -------------------------------------------------------------------------------------------------

    def save(self) -> str:
        """The match as a save: its setup and its actions (JSON text, for IndexedDB)."""
        return json.dumps({"setup": asdict(self.setup),
                           "actions": [{"action": a, "person": p} for a, p in self.actions]})

    @classmethod
    def load(cls, text: str) -> OfflineMatch:
        """A save played again from its setup (``TableError`` for a save that is not one, or a refused action)."""
        try:
            data = json.loads(text)
        except ValueError:
            raise SetupError(N_("this saved match cannot be read: it is not JSON")) from None
        if not isinstance(data, dict) or not isinstance(data.get("actions"), list):
            raise SetupError(N_("this saved match cannot be read: it has no settings and moves"))
        match = cls(Setup.from_json(data.get("setup")))
        for made in data["actions"]:
            if not isinstance(made, dict) or not isinstance(made.get("action"), dict):
                raise SetupError(N_("this saved match cannot be read: a move is not an object"))
            match.make(made["action"], bool(made.get("person")))
        return match

    # -- messages -----------------------------------------------------------------------------------------------

    def message(self, kind: str, **extra: JSON) -> str:
        """The table as the person's seat sees it, in a message of ``kind``: the server's fields (the hub's
        :meth:`~taash.web.hub.messages.Messages.message_for`) with the person connected, no turn timer."""
        table = self.table
        state = table.state_for(0)
        state["seats_present"] = [{"connected": seat == 0, "away": False, "idle": False}
                                  for seat in range(len(table.seats))]
        state["seats_account"] = [False for _ in table.seats]
        state["timer"] = None
        state["can_manage"] = True
        return json.dumps({"type": kind, "version": table.version, **extra, "state": state})

    def receive(self, text: str) -> list[str]:
        """Answer one message from the page as the server's table socket does: a pong, an error, or an ack after
        the update of the move made."""
        try:
            message = json.loads(text) if len(text) <= MAX_MESSAGE else None
        except ValueError:
            message = None
        if not isinstance(message, dict):
            return [error(None, "malformed", "a message is a JSON object")]
        mid = message.get("id")
        if mid is not None and (not isinstance(mid, str) or not 0 < len(mid) <= 64):
            return [error(None, "malformed", "id must be a string of 1 to 64 characters")]
        kind = message.get("type")
        if kind == "ping":
            return [json.dumps({"type": "pong", "version": self.table.version})]
        if kind == TIMEOUT or not self.table.is_move(message):
            return [error(mid, "malformed", f"unknown message type {str(kind)[:40]!r}")]
        version = message.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            return [error(mid, "malformed", "version must be the table version you saw")]
        if version != self.table.version:
            stale = f"stale version {version}: the table is at version {self.table.version}"
            return [error(mid, "stale", stale, json.loads(self.message("snapshot")))]
        fields = self.table.game.move_fields
        action = {k: v for k, v in message.items() if k == "type" or k in fields}
        try:
            said = self.make(action, True)
        except TableError as e:
            return [error(mid, e.code, str(e))]
        return [self.message("update", said=said), json.dumps({"type": "ack", "id": mid,
                                                               "version": self.table.version})]

    def bot_to_move(self) -> bool:
        """Whether a bot's seat is to move."""
        seat = self.table.to_move()
        return self.table.status == "playing" and seat is not None and self.table.seats[seat].bot

    def bot_move(self) -> list[str]:
        """The move of the bot to move, as the update every page is sent (nothing when no bot is to move)."""
        if not self.bot_to_move():
            return []
        action = self.table.bot_action()
        return [self.message("update", said=self.make(action, False))]

    def make(self, action: dict[str, JSON], person: bool) -> str:
        """Make an action of the person (True) or of a bot, checked by the table; returns it in words."""
        said = self.table.apply(action, PERSON if person else None)
        self.actions.append((action, person))
        return said

    # -- the rest of the page's calls ---------------------------------------------------------------------------

    def api(self, method: str, path: str, body_text: str = "null") -> str:
        """The HTTP calls a table's page makes (the body as JSON text), answered here (JSON text): the log, and a
        game's own endpoints that need no server (its table adapter's ``offline_calls``)."""
        try:
            body = json.loads(body_text)
        except ValueError:
            raise TableError("a body is JSON") from None
        if method == "GET" and path == f"/api/tables/{TABLE_ID}/log":
            return json.dumps({"log": self.table.log})
        # A game's own endpoints that need no server: its table adapter's ``offline_calls``, by path.
        calls: Mapping[str, Callable[[JSON], JSON]] = getattr(self.table.game, "offline_calls", {})
        if method == "POST" and path in calls:
            return json.dumps(calls[path](body))
        raise TableError(_("not available offline: {method} {path}", method=method, path=path[:60]), "offline")

    @property
    def over(self) -> bool:
        return self.table.status == "finished"

    def record(self) -> str:
        """The upload of a finished match: its setup and every action (the server plays them again)."""
        return self.save()


def error(mid: str | None, code: str, message: str, snapshot: Mapping[str, JSON] | None = None) -> str:
    """An error message, as the server's (with the snapshot of a stale move's table)."""
    out: dict[str, JSON] = {"type": "error", "id": mid, "code": code, "message": message}
    if snapshot is not None:
        out["state"], out["version"] = snapshot["state"], snapshot["version"]
    return json.dumps(out, separators=(",", ":"))

