"""Every message the server sends, byte for byte: seeded matches of both games played through a real server's
websockets (``taash serve`` on loopback, as tests/web/server.py starts it), each connection's messages recorded
in order as the text frames it received, and compared with the transcripts kept under tests/web/golden/ (JSON
lines, one file per scenario: ``{"connection": label, "message": text}``, and ``{"connection": label, "closed":
[code, reason]}`` where the server closed one). A change to the server that changes one byte of one message fails
here; where that change is meant, rewrite the transcripts with

    TAASH_GOLDEN_UPDATE=1 .venv/bin/python -m pytest -q -n 0 tests/web/test_golden_messages.py

and read their diff before committing it.

Determinism:

- Randomness: the server runs with the ``secrets`` functions that taash calls (``token_hex``, ``token_bytes``,
  ``token_urlsafe``, ``randbits``, ``choice``) replaced by seeded streams, one per function, for calls from taash's
  own modules only (a library's calls keep real randomness). So guest ids, table ids and invite codes, each
  table's seed and its fair-dealing secret (hence every card, and the commitment every state publishes) are the
  same on every run; nothing random is normalised. Bots are seeded from the table's seed and the position.
- Time: two fields of a turn timer (``"timer"``) read the clock and are normalised to ``"<clock>"``: ``left``
  (the seconds left of the turn as the message was made, rounded to a tenth: a loaded machine takes more than
  a tenth now and then) and ``deadline`` (a Unix time). ``bank`` (the extra time left) is kept: it changes only
  when a turn runs past its own seconds, which the scenarios do only on purpose (the timeout, over seconds).
- Order: bots move at once (``--bot-delay 0``); an action's acknowledgement is queued before any bot task it
  wakes can move (the bot thinks in a worker thread first), so a connection's messages come in one order. The
  test opens, closes and acts on connections only where the server is quiet (a person to move, whose turns are
  long, or before the start) and reads every connection up to a known message before the next step; a ping and
  its pong on each connection mark that everything sent before it was read.

The transcripts were recorded with the compiled Rummy solver (its arrangements may group equal hands otherwise),
so the Rummy scenarios are skipped where it is not built.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.web.server import Person, Server, Socket, free_port

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("TAASH_GOLDEN_UPDATE") == "1"

#: The server, its ``secrets`` seeded for taash's own callers (see the module's docstring).
SEEDED_SERVER = """
import base64, random, secrets, sys

_streams = {}
_real = {name: getattr(secrets, name) for name in ("token_hex", "token_bytes", "token_urlsafe", "randbits", "choice")}

def _seeded(name, draw):
    def function(*args):
        if not sys._getframe(1).f_globals.get("__name__", "").startswith("taash."):
            return _real[name](*args)
        stream = _streams.setdefault(name, random.Random(f"golden/{name}"))
        return draw(stream, *args)
    setattr(secrets, name, function)

_seeded("token_hex", lambda r, n=32: r.randbytes(n).hex())
_seeded("token_bytes", lambda r, n=32: r.randbytes(n))
_seeded("token_urlsafe", lambda r, n=32: base64.urlsafe_b64encode(r.randbytes(n)).rstrip(b"=").decode())
_seeded("randbits", lambda r, k: r.getrandbits(k))
_seeded("choice", lambda r, seq: seq[r.randrange(len(seq))])
from taash.cli.main import run
run()
"""

TIMER = re.compile(r'"timer": ?\{[^{}]*\}')
CLOCK_FIELDS = re.compile(r'"(left|deadline)": ?-?[0-9.eE+-]+')


def normalised(text: str) -> str:
    """``text`` with the clock's fields of every turn timer in it replaced (see the module's docstring)."""
    return TIMER.sub(lambda m: CLOCK_FIELDS.sub(lambda f: f'"{f.group(1)}":"<clock>"', m.group(0)), text)


def rummy_compiled() -> bool:
    from taash.rummy.core import CORE

    return CORE == "compiled"


class PatientServer(Server):
    """A server given two minutes to start: on a machine busy with other work, a start can take longer than the
    usual half minute, and a transcript is no less exact for it."""

    def start(self) -> None:
        assert self.log is not None
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([sys.executable, *self.launcher, "serve", *self.args],
                                         stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server stopped: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        self.stop()  # not left running behind the failure
        raise AssertionError("the server did not start in 120 s")


@contextmanager
def seeded_server(tmp: Path, turn: float = 30, extra: float = 60) -> Iterator[Server]:
    port = free_port()
    url = f"sqlite:///{tmp / 'golden.db'}"
    server = PatientServer(f"http://127.0.0.1:{port}", url, [
        "--port", str(port), "--database-url", url, "--bot-delay", "0", "--away-seconds", "30",
        "--turn-seconds", str(turn), "--extra-seconds", str(extra), "--rate", "1000", "--creations", "1000000",
        "--sweep-seconds", "0", "--log-level", "warning"], log=tmp / "server.log", launcher=("-c", SEEDED_SERVER))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Wire:
    """One websocket of the transcript: its label, and how the server closed it (if it did)."""

    label: str
    socket: Socket
    closed: tuple[int, str] | None = None
    open: bool = True

    def recv(self) -> dict[str, Any]:
        try:
            return self.socket.recv(timeout=30)
        except ConnectionClosed as e:
            self.open = False
            if e.rcvd is not None:
                self.closed = (e.rcvd.code, e.rcvd.reason)
            raise

    def until(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            message = self.recv()
            if wanted(message):
                return message

    def lines(self) -> list[str]:
        out = [json.dumps({"connection": self.label, "message": normalised(text)}, ensure_ascii=False)
               for text in self.socket.raw]
        if self.closed is not None:
            out.append(json.dumps({"connection": self.label, "closed": list(self.closed)}, ensure_ascii=False))
        return out


@dataclass
class Scene:
    """The connections of one scenario, in the order they were opened."""

    server: Server
    wires: list[Wire] = field(default_factory=list)
    #: seat -> the wire of its person (the connection he acts through now).
    seated: dict[int, Wire] = field(default_factory=dict)

    def connect(self, label: str, person: Person, table_id: str, seat: int | None = None,
                since: int | None = None, code: str | None = None) -> Wire:
        wire = Wire(label, person.socket(table_id, since=since, code=code))
        self.wires.append(wire)
        wire.recv()  # its snapshot (or what it missed)
        if seat is not None:
            self.seated[seat] = wire
        return wire

    def sync(self) -> None:
        """Read every open connection up to a pong: all the server sent it before is read."""
        for wire in self.wires:
            if wire.open:
                wire.socket.send({"type": "ping"})
                wire.until(lambda m: m["type"] == "pong")

    def close(self, wire: Wire, told: list[Wire]) -> None:
        """Close ``wire``; each of ``told`` reads up to the presence message that says its seat went."""
        wire.socket.close()
        wire.open = False
        for other in told:
            other.until(lambda m: m["type"] == "presence")

    def quiet(self, observer: Wire, people: set[int]) -> dict[str, Any]:
        """Read ``observer`` until a person is to move or the match is over (nothing more happens by itself),
        then every connection up to that version and a pong; returns the observer's state. The observer first
        reads up to the latest version any connection has seen (its state may be older than what happened)."""
        floor = max(wire.socket.version for wire in self.wires if wire.open)
        while observer.socket.version < floor:
            observer.recv()
        while True:
            state = observer.socket.state
            deal = state.get("deal") if state else None
            if state and (state["status"] == "finished" or (deal and deal.get("to_move") in people)):
                break
            observer.recv()
        version = observer.socket.version
        for wire in self.wires:
            if wire.open and wire is not observer:
                while wire.socket.version < version:
                    wire.recv()
        self.sync()
        assert state is not None
        return state

    def move(self, seat: int, pick: int = 0) -> dict[str, Any]:
        """The person of ``seat`` makes the move of his state's choices at ``pick`` (-1: a plain Rummy move, the
        stock's card or the first discard); returns its ack."""
        wire = self.seated[seat]
        state = wire.socket.state
        assert state is not None
        deal = state["deal"]
        mid = wire.socket.person.next_id()
        if pick < 0:  # at Rummy: the stock's card, or the first discard
            pick = next((i for i, m in enumerate(deal["legal"]) if m == {"type": "take", "from": "stock"}), 0)
        if deal.get("bids"):
            message: dict[str, Any] = {"type": "bid", "value": deal["bids"][pick % len(deal["bids"])]}
        else:
            legal = deal["legal"]
            choice = legal[pick % len(legal)]
            message = {"type": "play", "play": choice["play"]} if "play" in choice else dict(choice)
        return self.send(wire, {**message, "version": wire.socket.version, "id": mid}, "ack")

    def send(self, wire: Wire, message: dict[str, Any] | str, *answers: str) -> dict[str, Any]:
        """Send ``message`` on ``wire`` and read it up to its answer, of one of the types ``answers``."""
        wire.socket.send(message)
        return wire.until(lambda m: m["type"] in answers)

    def play_out(self, observer: Wire, people: set[int], before: Callable[[int, int], bool] | None = None) -> int:
        """The people's moves (their first choice) until the match is over; ``before(seat, turn)`` runs at each
        person's turn before his move (to refuse, reconnect, ...), and returns True where it made the move itself.
        Returns how many turns the people had."""
        turn = 0
        while True:
            state = self.quiet(observer, people)
            if state["status"] == "finished":
                return turn
            seat = state["deal"]["to_move"]
            if before is None or not before(seat, turn):
                self.move(seat)
            turn += 1

    def finish(self) -> list[str]:
        """Close what is still open, each seated person's last (everyone left reads his going), and return the
        transcript."""
        self.sync()
        watchers = [w for w in self.wires if w.open and w not in self.seated.values()]
        for wire in watchers:
            wire.socket.close()
            wire.open = False
        people = [w for w in self.seated.values() if w.open]
        for i, wire in enumerate(people):
            self.close(wire, people[i + 1:])
        return [line for wire in self.wires for line in wire.lines()]


def compared(name: str, lines: list[str]) -> None:
    """Compare ``lines`` with the golden transcript ``name`` byte for byte (or rewrite it: TAASH_GOLDEN_UPDATE)."""
    path = GOLDEN / f"{name}.jsonl"
    made = ("\n".join(lines) + "\n").encode()
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(made)
        return
    assert path.exists(), f"no golden transcript {path.name}: record it with TAASH_GOLDEN_UPDATE=1"
    kept = path.read_bytes()
    if made == kept:
        return
    old, new = kept.decode().splitlines(), made.decode().splitlines()
    first = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new)))
    raise AssertionError(f"{path.name}: line {first + 1} differs ({len(old)} lines kept, {len(new)} made)\n"
                         f"kept: {old[first][:600] if first < len(old) else '(none)'}\n"
                         f"made: {new[first][:600] if first < len(new) else '(none)'}")


def table_of(person: Person, body: dict[str, Any]) -> dict[str, Any]:
    r = person.post("/api/tables", body)
    assert r.status_code == 200, r.text
    table: dict[str, Any] = r.json()
    return table


def posted(person: Person, path: str, body: dict[str, Any] | None = None) -> None:
    r = person.post(path, body)
    assert r.status_code == 200, r.text


def test_seep_four_players_people_bots_a_spectator_refusals_and_reconnects(tmp_path: Path) -> None:
    """Anil and Bela partners against two bots, a single deal, a spectator watching from before the start: a
    stale move, a move out of turn, a spectator's move, a timeout sent by a player and a message that is not JSON
    are refused; Anil says he is back; he goes away while others play and resumes from the version he saw; Bela
    reconnects with no version (a snapshot)."""
    with seeded_server(tmp_path) as server:
        anil, bela, watcher = Person(server, "Anil"), Person(server, "Bela"), Person(server)
        table = table_of(anil, {"game": "seep", "players": 4, "baazis": 0, "level": "easy", "seat": 0})
        tid = table["id"]
        scene = Scene(server)
        a = scene.connect("anil", anil, tid, seat=0)
        w = scene.connect("spectator", watcher, tid)
        posted(bela, f"/api/tables/{tid}/sit", {"seat": 2})
        b = scene.connect("bela", bela, tid, seat=2)
        scene.sync()
        posted(anil, f"/api/tables/{tid}/bots")
        posted(anil, f"/api/tables/{tid}/start")

        def before(seat: int, turn: int) -> bool:
            mover, other = scene.seated[seat], scene.seated[2 - seat]
            if turn == 0:
                scene.send(mover, {"type": "bid", "value": 13, "version": mover.socket.version - 1, "id": "stale"},
                           "error")
                scene.send(other, {"type": "play", "play": {"card": "KS"}, "version": other.socket.version,
                                   "id": "early"}, "error")
                scene.send(w, {"type": "bid", "value": 13, "version": w.socket.version, "id": "watching"}, "error")
                scene.send(other, {"type": "timeout", "id": "mine"}, "error")
                scene.send(other, "{not json", "error")
                scene.send(other, {"type": "back", "id": "here"}, "ack")
                scene.sync()
            if turn == 3:  # the other one goes away while this one and the bots play, and comes back after
                away = 2 - seat
                name = "anil" if away == 0 else "bela"
                seen = scene.seated[away].socket.version
                scene.close(scene.seated[away], [mover, w])
                scene.move(seat)
                back_at = scene.quiet(w, {away})
                assert back_at["deal"]["to_move"] == away
                scene.connect(f"{name}-again", anil if away == 0 else bela, tid, seat=away, since=seen)
                scene.sync()
                return True
            if turn == 6:
                scene.close(scene.seated[2], [scene.seated[0], w])
                scene.connect("bela-snapshot", bela, tid, seat=2)
                scene.sync()
            return False

        assert scene.play_out(w, {0, 2}, before) > 6
        compared("seep_4_players", scene.finish())
    assert a.socket.raw and b.socket.raw


def test_seep_two_people_at_a_private_table(tmp_path: Path) -> None:
    """Anil and Bela at a private table: Chetan watches with its invite code until the start closes his
    connection; they play the deal out; a move out of turn is refused."""
    with seeded_server(tmp_path) as server:
        anil, bela, chetan = Person(server, "Anil"), Person(server, "Bela"), Person(server, "Chetan")
        table = table_of(anil, {"game": "seep", "players": 2, "baazis": 0, "level": "easy", "seat": 0,
                                "public": False})
        tid, code = table["id"], table["invite"].rsplit("/", 1)[1]
        scene = Scene(server)
        scene.connect("anil", anil, tid, seat=0)
        c = scene.connect("chetan-with-code", chetan, tid, code=code)
        posted(bela, f"/api/tables/{tid}/sit", {"seat": 1, "code": code})
        scene.connect("bela", bela, tid, seat=1)
        scene.sync()
        posted(anil, f"/api/tables/{tid}/start")
        with pytest.raises(ConnectionClosed):
            c.until(lambda m: False)
        assert c.closed is not None and c.closed[0] == 1008

        def before(seat: int, turn: int) -> bool:
            if turn == 1:
                other = scene.seated[1 - seat]
                scene.send(other, {"type": "play", "play": {"card": "KS"}, "version": other.socket.version,
                                   "id": "early"}, "error")
            return False

        assert scene.play_out(scene.seated[0], {0, 1}, before) > 10
        compared("seep_2_players", scene.finish())


@pytest.mark.skipif(not rummy_compiled(), reason="the transcripts were recorded with the compiled Rummy solver")
def test_rummy_two_players_a_turn_out_of_time_then_a_drop(tmp_path: Path) -> None:
    """Anil against a bot with short turns (3 s, 1 s of extra time): his first turn runs out and the rule book's
    timeout is made for him; he plays a turn, then drops."""
    with seeded_server(tmp_path, turn=3, extra=1) as server:
        anil, watcher = Person(server, "Anil"), Person(server)
        table = table_of(anil, {"game": "rummy", "players": 2, "format": "points", "level": "easy", "seat": 0})
        tid = table["id"]
        scene = Scene(server)
        a = scene.connect("anil", anil, tid, seat=0)
        w = scene.connect("spectator", watcher, tid)
        posted(anil, f"/api/tables/{tid}/bots")
        posted(anil, f"/api/tables/{tid}/start")
        state = scene.quiet(w, {0})
        assert state["status"] == "playing" and state["timer"]["then"] == "timeout"
        timed_out = a.until(lambda m: m["type"] == "update" and "ran out of time" in m["said"])
        assert timed_out["said"].startswith("Anil ran out of time")
        turns = 0
        while scene.quiet(w, {0})["status"] != "finished":
            deal = a.socket.state["deal"]  # type: ignore[index]
            if turns == 2:
                drop = next(i for i, m in enumerate(deal["legal"]) if m["type"] == "drop")
                scene.move(0, drop)
            else:
                scene.move(0, -1)
            turns += 1
        assert turns == 3, [m.get("said") for m in a.socket.received]
        compared("rummy_2_players_timeout", scene.finish())


@pytest.mark.skipif(not rummy_compiled(), reason="the transcripts were recorded with the compiled Rummy solver")
def test_rummy_three_players_a_declaration_and_a_drop(tmp_path: Path) -> None:
    """Anil, Bela and a bot, points: Bela drops at her first turn; Anil takes and declares his hand as the server
    arranges it at his second (a wrong declaration this early); a stale move and a malformed one are refused; a
    spectator watches throughout, and Anil reconnects from the version he saw."""
    with seeded_server(tmp_path) as server:
        anil, bela, watcher = Person(server, "Anil"), Person(server, "Bela"), Person(server)
        table = table_of(anil, {"game": "rummy", "players": 3, "format": "points", "level": "easy", "seat": 0})
        tid = table["id"]
        scene = Scene(server)
        scene.connect("anil", anil, tid, seat=0)
        posted(bela, f"/api/tables/{tid}/sit", {"seat": 1})
        scene.connect("bela", bela, tid, seat=1)
        w = scene.connect("spectator", watcher, tid)
        posted(anil, f"/api/tables/{tid}/bots")
        posted(anil, f"/api/tables/{tid}/start")
        anil_turns = 0
        bela_dropped = False
        while (state := scene.quiet(w, {0, 1}))["status"] != "finished":
            seat = state["deal"]["to_move"]
            wire = scene.seated[seat]
            deal = wire.socket.state["deal"]  # type: ignore[index]
            if seat == 1 and not bela_dropped:
                scene.send(wire, {"type": "take", "from": "stock", "version": wire.socket.version - 1, "id": "s"},
                           "error")
                scene.send(wire, {"type": "discard", "card": "ZZ", "version": wire.socket.version, "id": "z"},
                           "error")
                scene.move(1, next(i for i, m in enumerate(deal["legal"]) if m["type"] == "drop"))
                bela_dropped = True
            elif seat == 0 and anil_turns == 1 and deal["phase"] == "take":
                seen = wire.socket.version
                scene.close(wire, [scene.seated[1], w])
                wire = scene.connect("anil-again", anil, tid, seat=0, since=seen - 2)
                scene.sync()
                scene.move(0, -1)
                arranged = wire.socket.state["deal"]["arrangement"]  # type: ignore[index]
                discard = arranged["discard"]
                melds = [[c for c in g["cards"] if c != discard] for g in arranged["groups"]]
                scene.send(wire, {"type": "declare", "discard": discard, "melds": [g for g in melds if g],
                                  "version": wire.socket.version, "id": "declare"}, "ack", "error")
                anil_turns += 1
            else:
                scene.move(seat, -1)
                anil_turns += seat == 0 and deal["phase"] != "take"
        compared("rummy_3_players", scene.finish())
