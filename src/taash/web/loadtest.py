"""``taash web loadtest``: simulated people at tables of a game (Seep: four seats; 13-card Rummy: six), over real
websockets on loopback.

Each simulated person waits for his turn, thinks for a random while (so that on average he acts every
``interval`` seconds), sends his move and measures the time until its acknowledgement arrives. At Rummy a person
takes (from the stock or the discard pile) and discards, at random among the legal moves; he never drops or
declares, so that every table plays on for the whole test (the stock is made again from the discard pile). The server is
started by the load test itself (a fresh SQLite file) unless ``url`` names one already running on loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
import websockets
from websockets.asyncio.client import ClientConnection

from taash.games.registry import default_game, plugins

LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: Seconds the load test waits for every person's socket to read its first state before starting the tables.
CONNECT_SECONDS = 120.0


def load_games() -> dict[str, tuple[int, dict[str, Any]]]:
    """Each game's seats at a load test's table, and the table it asks for (a long match: it plays on to the end),
    from the games' plugins (their ``loadtest``)."""
    games = {}
    for p in plugins():
        if p.loadtest:
            settings = {"game": p.name, **dict(p.loadtest)}
            games[p.name] = (int(settings["players"]), settings)
    return games



@dataclass
class Results:
    players: int
    tables: int
    duration: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    disconnects: int = 0
    #: Seconds each step of setting the test up took, before the window opened (see :data:`SETUP_STEPS`).
    setup: dict[str, float] = field(default_factory=dict)
    #: Websockets that reached a server not owning their table and connected again to the owner.
    moved: int = 0

    @property
    def plays(self) -> int:
        return len(self.latencies)

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players, "tables": self.tables, "seconds": round(self.duration, 1),
            "plays": self.plays, "plays_per_sec": round(self.plays / self.duration, 1) if self.duration else 0,
            "p50_ms": round(self.percentile(50), 1), "p99_ms": round(self.percentile(99), 1),
            "max_ms": round(max(self.latencies) * 1000, 1) if self.latencies else None,
            "mean_ms": round(statistics.fmean(self.latencies) * 1000, 1) if self.latencies else None,
            "errors": self.errors, "disconnects": self.disconnects, "moved_to_owner": self.moved,
            "setup_seconds": {step: round(seconds, 1) for step, seconds in self.setup.items()},
        }


#: The steps of setting a load test up, in order: every person a guest; every table made and sat at; every person
#: connected (his table's first state read); every table started.
SETUP_STEPS = ("guests", "tables", "connected", "started")


class Steps:
    """Times the steps of setting a load test up into its :attr:`Results.setup`."""

    def __init__(self, results: Results) -> None:
        self.results = results
        self.since = time.monotonic()

    def done(self, step: str) -> None:
        now = time.monotonic()
        self.results.setup[step] = now - self.since
        self.since = now


class Window:
    """The measured window: it opens once every table has started (so that setting the tables up, however long it
    takes on a slow database or through a proxy, is never counted as time without plays), and lasts ``duration``
    seconds from then. Each person's session ends when it closes; plays acknowledged before it opened are not
    counted."""

    def __init__(self, people: int) -> None:
        self.opened: float | None = None
        self.timeouts: set[asyncio.Timeout] = set()
        self._close_at = 0.0
        #: Set once every person has read his table's first state (or given up): the tables may start.
        self.everyone = asyncio.Event()
        self._waiting = people
        self._in: set[int] = set()
        if people == 0:
            self.everyone.set()

    def arrived(self, person: object) -> None:
        """``person`` has read his first state (or his socket failed): counted once."""
        if id(person) not in self._in:
            self._in.add(id(person))
            if len(self._in) >= self._waiting:
                self.everyone.set()

    def open(self, duration: float) -> None:
        loop = asyncio.get_running_loop()
        self.opened = time.monotonic()
        self._close_at = loop.time() + duration
        for timeout in self.timeouts:
            timeout.reschedule(self._close_at)

    @contextlib.asynccontextmanager
    async def joined(self, timeout: asyncio.Timeout) -> AsyncIterator[None]:
        """A person's session, ``timeout`` ending it when the window closes (rescheduled once it opens); a session
        that ends first (his socket closed) is forgotten, so that opening never reschedules a finished timeout."""
        self.timeouts.add(timeout)
        if self.opened is not None:
            timeout.reschedule(self._close_at)
        try:
            yield
        finally:
            self.timeouts.discard(timeout)

    @property
    def counting(self) -> bool:
        return self.opened is not None


def answered(r: httpx.Response) -> httpx.Response:
    """``r`` if it succeeded, else RuntimeError saying in one line what the server refused and why."""
    if r.is_success:
        return r
    try:
        said = r.json().get("message") or r.text
    except ValueError:
        said = r.text
    raise RuntimeError(f"the server refused {r.request.method} {r.request.url.path}: {r.status_code} "
                       f"{' '.join(str(said).split())[:200]}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(directory: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    log = (directory / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "taash.cli.main", "serve", "--port", str(port), "--database-url",
         f"sqlite:///{directory / 'loadtest.db'}", "--log-level", "warning",
         "--creations", "10000000"], stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server did not start: {(directory / 'server.log').read_text()[-500:]}")
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start in 30 s")


class Person:
    def __init__(self, url: str, name: str, rng: random.Random, think: float, results: Results,
                 window: Window, relayed: bool = False):
        self.url = url
        #: Whether he stays on the server the proxy gave him, however many servers relay his table's messages.
        self.relayed = relayed
        self.window = window
        self.name = name
        self.rng = rng
        self.think = think
        self.results = results
        self.cookie = ""

    async def sign_in(self, http: httpx.AsyncClient) -> None:
        r = answered(await http.post(f"{self.url}/api/guest", json={"name": self.name}))
        self.cookie = r.cookies["taash_guest"]

    async def connect(self, table_id: str) -> tuple[ClientConnection, bytes]:
        """A websocket to the table and its first message; one served through another server of a cluster (its
        first message names the table's owner) is left for one to the owner (``?owner=``), as the browser's
        page does, unless the test stays relayed."""
        ws_url = self.url.replace("http://", "ws://") + f"/ws/{table_id}"
        owner = None
        while True:
            ws = await websockets.connect(ws_url + (f"?owner={owner}" if owner else ""), max_size=2**20,
                                          additional_headers={"Cookie": f"taash_guest={self.cookie}"},
                                          open_timeout=60)
            first = await ws.recv(decode=False)
            told = orjson.loads(first)
            if told["type"] != "owner" or self.relayed or owner is not None:
                return ws, first
            owner = str(told["server"])
            self.results.moved += 1
            await ws.close()

    async def play(self, table_id: str) -> None:
        ws, first = await self.connect(table_id)
        async with ws:
            state: dict[str, Any] | None = None
            version = 0
            pending: dict[str, float] = {}
            count = 0
            turn_task: asyncio.Task[None] | None = None

            async def move(seen: int, offered: dict[str, Any]) -> None:
                nonlocal count
                await asyncio.sleep(self.rng.expovariate(1 / self.think) if self.think else 0)
                count += 1
                mid = f"{self.name}-{count}"
                if offered.get("bids"):
                    message = {"type": "bid", "value": self.rng.choice(offered["bids"])}
                elif "play" in offered["legal"][0]:
                    message = {"type": "play", "play": self.rng.choice(offered["legal"])["play"]}
                else:  # Rummy: the legal moves are messages; take and discard, never drop or declare
                    moves = [m for m in offered["legal"] if m["type"] in ("take", "discard")]
                    message = self.rng.choice(moves or offered["legal"])
                pending[mid] = time.perf_counter()
                with contextlib.suppress(websockets.ConnectionClosed):
                    await ws.send(orjson.dumps({**message, "version": seen, "id": mid}).decode())

            # One deadline for the whole session (not a timer per message: the load test's own cost must stay
            # small beside the server's, on the same machine), set when the window opens; orjson reads the states.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(None) as session, self.window.joined(session):
                    while True:
                        m = orjson.loads(first if first else await ws.recv(decode=False))
                        first = b""
                        kind = m["type"]
                        if kind == "owner":  # staying relayed: the owner's messages follow
                            continue
                        if kind == "ack":
                            sent = pending.pop(m["id"], None)
                            if sent is not None and self.window.counting:
                                self.results.latencies.append(time.perf_counter() - sent)
                            continue
                        if kind == "error":
                            self.results.errors[m["code"]] = self.results.errors.get(m["code"], 0) + 1
                            pending.pop(m.get("id") or "", None)
                        if "state" in m:
                            self.window.arrived(self)
                            state, version = m["state"], m["version"]
                            deal = state.get("deal")
                            if deal and (deal.get("bids") or deal["legal"]) and (turn_task is None or turn_task.done()):
                                turn_task = asyncio.create_task(move(version, deal))
            if turn_task is not None:
                turn_task.cancel()


async def set_up(http: httpx.AsyncClient, url: str, seated: list[Person], settings: dict[str, Any]) -> str:
    """A table made by the first of ``seated`` (he sits in seat 0) and sat at by the others, in turn; its id."""
    r = answered(await http.post(f"{url}/api/tables", json={**settings, "public": False},
                                 cookies={"taash_guest": seated[0].cookie}))
    tid, code = str(r.json()["id"]), r.json()["code"]
    for seat, p in enumerate(seated[1:], start=1):
        answered(await http.post(f"{url}/api/tables/{tid}/sit", json={"seat": seat, "code": code},
                                 cookies={"taash_guest": p.cookie}))
    return tid


async def start(http: httpx.AsyncClient, url: str, owner: Person, tid: str) -> None:
    answered(await http.post(f"{url}/api/tables/{tid}/start", cookies={"taash_guest": owner.cookie}))


async def run_async(url: str, players: int, duration: float, interval: float, seed: int,
                    on_tick: Callable[[float], None] | None = None, game: str | None = None,
                    relayed: bool = False) -> Results:
    seats, settings = load_games()[game or default_game()]
    tables = players // seats
    # The seats move in turn, each his share of the moves (Seep: one play a turn; Rummy: a take and a discard):
    # each person acts every ``seats`` thinks.
    think = interval / seats
    results = Results(tables * seats, tables)
    rng = random.Random(seed)
    window = Window(tables * seats)
    people = [Person(url, f"p{i}", random.Random(rng.random()), think, results, window, relayed)
              for i in range(tables * seats)]
    # Idle connections are let go after 2 s, before the server's keep-alive of 5 s ends them: a request must never
    # be sent on a connection the server is closing at that moment (httpx.ReadError, seen once in some 25 runs).
    limits = httpx.Limits(max_connections=50, keepalive_expiry=2.0)
    step = Steps(results)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        await asyncio.gather(*(p.sign_in(http) for p in people))
        step.done("guests")
        table_ids = list(await asyncio.gather(*(set_up(http, url, people[seats * t:seats * (t + 1)], settings)
                                                for t in range(tables))))
        step.done("tables")

    async def ticker() -> None:
        while True:
            await asyncio.sleep(0.5)
            if on_tick and window.opened is not None:
                on_tick(min(duration, time.monotonic() - window.opened))

    async def person_task(p: Person, tid: str) -> None:
        try:
            await p.play(tid)
        except (OSError, websockets.ConnectionClosed):
            results.disconnects += 1
        finally:
            window.arrived(p)  # a person whose socket failed is not waited for

    tasks = [asyncio.create_task(person_task(p, table_ids[i // seats])) for i, p in enumerate(people)]
    with contextlib.suppress(TimeoutError):  # everyone connected (his first state read) before the tables start
        async with asyncio.timeout(CONNECT_SECONDS):
            await window.everyone.wait()
    step.done("connected")
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        await asyncio.gather(*(start(http, url, people[seats * t], tid) for t, tid in enumerate(table_ids)))
    step.done("started")
    window.open(duration)
    tick = asyncio.create_task(ticker())
    await asyncio.gather(*tasks)
    tick.cancel()
    assert window.opened is not None
    results.duration = time.monotonic() - window.opened
    return results


def run(players: int, duration: float, interval: float = 2.0, seed: int = 0, url: str | None = None,
        on_tick: Callable[[float], None] | None = None, game: str | None = None, relayed: bool = False) -> Results:
    """Run a load test of ``game``'s tables; starts (and stops) a server unless ``url`` names one on loopback;
    ``relayed``: every person stays on the server the proxy gave him (see :meth:`Person.connect`)."""
    games = load_games()
    game = default_game() if game is None else game
    if game not in games:
        raise ValueError(f"the load test plays {' or '.join(games)}, not {game[:40]!r}")
    if players < games[game][0]:
        raise ValueError(f"--players must be at least {games[game][0]} at {game} (a table's seats)")
    if url is not None and urlsplit(url).hostname not in LOOPBACK:
        raise ValueError("the load test only runs against a server on loopback (127.0.0.1)")
    with tempfile.TemporaryDirectory(prefix="taash-loadtest-") as tmp:
        proc = None
        if url is None:
            proc, url = start_server(Path(tmp))
        try:
            try:
                return run_loop(run_async(url, players, duration, interval, seed, on_tick, game, relayed))
            except httpx.HTTPError as e:
                raise RuntimeError(f"the load test could not reach the server: {type(e).__name__} {e}") from e
        finally:
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()


def run_loop(main: Coroutine[Any, Any, Results]) -> Results:
    """Run the simulated people on uvloop where it is installed (as the server runs: with uvicorn[standard] on
    Linux and macOS), else on asyncio's own loop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    run_on_uvloop = getattr(uvloop, "run", None)  # uvloop 0.18 and later
    return asyncio.run(main) if run_on_uvloop is None else run_on_uvloop(main)


def raise_open_files_limit(wanted: int) -> None:
    """Each websocket is a file on both ends: make room for them."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    except (ImportError, ValueError, OSError):
        pass
    os.environ.setdefault("TAASH_LOADTEST", "1")
