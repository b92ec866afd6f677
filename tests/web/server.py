"""Servers started by the tests on loopback (SQLite, or PostgreSQL when the CI provides one), and people who
talk to them over HTTP and websockets, each with their own cookies."""

from __future__ import annotations

import json
import os
import secrets
import select
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

#: Debian's Chromium, which the browser tests drive (Playwright downloads no browser of its own here).
CHROMIUM = Path("/usr/bin/chromium")
#: A PostgreSQL URL the tests may create databases through (the CI script sets it).
POSTGRES = os.environ.get("TAASH_TEST_POSTGRES_URL")
#: The SSL context every HTTP client of the tests is given (``verify=TLS``). httpx otherwise builds one, loading
#: certifi's certificates, for each client, transport and ``httpx.get``: 0.2 s of CPU each on the loaded machine,
#: though the tests speak plain HTTP on loopback.
TLS = ssl.create_default_context()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _admin() -> str:
    assert POSTGRES is not None
    return POSTGRES.replace("postgresql+psycopg://", "postgresql://")


def _postgres_url(name: str) -> str:
    assert POSTGRES is not None
    return f"{POSTGRES.rpartition('/')[0]}/{name}"


@contextmanager
def postgres_database(migrated: bool = False) -> Iterator[str]:
    """A new PostgreSQL database, empty or (``migrated``) with the newest schema as :func:`migrated_database`
    makes it; dropped afterwards."""
    import psycopg

    name = f"taash_test_{secrets.token_hex(4)}"
    template = f" TEMPLATE {_postgres_template()}" if migrated else ""
    with psycopg.connect(_admin(), autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}{template}")
    try:
        yield _postgres_url(name)
    finally:
        drop_postgres_database(name)


def drop_postgres_database(name: str) -> None:
    import psycopg

    # A server killed with ``kill -9`` can leave a backend of the test database still starting up (no role yet),
    # which a non-superuser may not terminate: wait for it to finish or go, then drop.
    for attempt in range(40):
        try:
            with psycopg.connect(_admin(), autocommit=True) as c:
                c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            break
        except (psycopg.errors.InsufficientPrivilege, psycopg.errors.ObjectInUse):
            if attempt == 39:
                raise
            time.sleep(0.25)


#: The databases this test process migrated once, which :func:`migrated_database` copies: an SQLite file, and the
#: name of a PostgreSQL database (made on first use; gone when the process ends).
_templates: dict[str, str] = {}


def _migrated_once(url: str) -> None:
    from taash.web.db import make_engine, migrate

    engine = make_engine(url)
    try:
        migrate(engine)
    finally:
        engine.dispose()  # no connection left: SQLite's log is folded into the file, PostgreSQL's template is free


def _sqlite_template() -> Path:
    if "sqlite" not in _templates:
        import atexit
        import shutil
        import tempfile

        directory = Path(tempfile.mkdtemp(prefix="taash-template-"))
        atexit.register(shutil.rmtree, directory, True)
        _migrated_once(f"sqlite:///{directory / 'template.db'}")
        _templates["sqlite"] = str(directory / "template.db")
    return Path(_templates["sqlite"])


def _postgres_template() -> str:
    if "postgres" not in _templates:
        import atexit

        import psycopg

        name = f"taash_template_{secrets.token_hex(4)}"
        with psycopg.connect(_admin(), autocommit=True) as c:
            c.execute(f"CREATE DATABASE {name}")
        atexit.register(drop_postgres_database, name)
        _migrated_once(_postgres_url(name))
        _templates["postgres"] = name
    return _templates["postgres"]


def migrated_sqlite(tmp: Path, name: str = "taash.db") -> str:
    """The URL of the SQLite file ``name`` in ``tmp``: a copy of the migrated one (:func:`migrated_database`),
    unless an earlier server's database is there already (kept, as a restart keeps it)."""
    import shutil

    path = tmp / name
    if not path.exists():
        shutil.copyfile(_sqlite_template(), path)
    return f"sqlite:///{path}"


#: The kinds of database the tests run on, as the ``database`` fixture's parameters name them.
DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
    not POSTGRES, reason="TAASH_TEST_POSTGRES_URL is not set (the CI script sets it)"))]


@contextmanager
def migrated_database(tmp: Path, kind: str = "sqlite", name: str = "taash.db") -> Iterator[str]:
    """The URL of a new database of ``kind`` (``sqlite``: the file ``name`` in ``tmp``; ``postgres``) with the
    newest schema, as a server's first start leaves it before it writes anything: a copy of one this process
    migrated once (migrating costs a fifth of a second on SQLite and half a second on PostgreSQL; copying a file,
    or ``CREATE DATABASE ... TEMPLATE``, far less). A PostgreSQL database is dropped afterwards."""
    if kind == "sqlite":
        yield migrated_sqlite(tmp, name)
    else:
        assert kind in ("postgres", "postgresql"), kind
        with postgres_database(migrated=True) as url:
            yield url


#: ``TAASH_TEST_COLD_SERVERS=1``: every server a new interpreter of its own (``python -m taash.cli.main serve``)
#: instead of a fork of tests/web/zygote.py, which imported the server once.
COLD = os.environ.get("TAASH_TEST_COLD_SERVERS", "") not in ("", "0")


#: ``TAASH_TEST_REAL_PASSWORDS=1``: every server hashes passwords with Argon2's defaults, as ``taash serve`` does
#: (see :class:`Server`'s ``real_passwords``).
REAL_PASSWORDS = os.environ.get("TAASH_TEST_REAL_PASSWORDS", "") not in ("", "0")


@dataclass
class Forked:
    """A server forked by the zygote: as much of :class:`subprocess.Popen` as :class:`Server` uses (it is not this
    process's child: a pidfd tells when it ends, and the zygote reaps it and says how)."""

    pid: int
    zygote: Zygote
    pidfd: int
    returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None and select.select([self.pidfd], [], [], 0)[0]:
            self.returncode = self.zygote.reap(self.pid)
            os.close(self.pidfd)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None and not select.select([self.pidfd], [], [], timeout)[0]:
            raise subprocess.TimeoutExpired(["taash", "serve"], timeout or 0)
        code = self.poll()
        assert code is not None
        return code

    def terminate(self) -> None:
        if self.returncode is None:
            os.kill(self.pid, signal.SIGTERM)

    def kill(self) -> None:
        if self.returncode is None:
            os.kill(self.pid, signal.SIGKILL)


class Zygote:
    """tests/web/zygote.py, started once per test process: servers fork from it (see there)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-P", str(Path(__file__).with_name("zygote.py"))],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.imported_with = self.import_environment()
        self.lock = threading.Lock()
        assert self.answer() == {"ready": True}

    #: The variables the server's modules read as they are imported (the cores' TAASH_PURE, where Pyodide lies,
    #: the language): a test that changes one gets a cold start. The others reach each server as they are then.
    IMPORT_VARIABLES = ("TAASH_PURE", "TAASH_PYODIDE_DIR", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

    @classmethod
    def import_environment(cls) -> dict[str, str | None]:
        return {name: os.environ.get(name) for name in cls.IMPORT_VARIABLES}

    def answer(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        with self.lock:
            if request is not None:
                self.proc.stdin.write(json.dumps(request) + "\n")
                self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        if not line:
            raise AssertionError("the server zygote (tests/web/zygote.py) stopped")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def serve(self, args: list[str], log: Path, fast_passwords: bool = True) -> Forked:
        pid = int(self.answer({"serve": args, "log": str(log), "env": dict(os.environ), "cwd": os.getcwd(),
                               "fast_passwords": fast_passwords})["pid"])
        return Forked(pid, self, os.pidfd_open(pid))  # a child that ended stays a zombie until reaped: no race

    def reap(self, pid: int) -> int:
        return int(self.answer({"reap": pid})["code"])


_zygote: Zygote | None = None


def zygote() -> Zygote | None:
    """This process's zygote (started on first use), or None where servers start cold: asked to, or the
    environment the server's modules were imported with has changed."""
    global _zygote
    if COLD or not hasattr(os, "pidfd_open"):
        return None
    if _zygote is None or _zygote.proc.poll() is not None:
        _zygote = Zygote()
    return _zygote if _zygote.imported_with == Zygote.import_environment() else None


#: How long a server may take to answer its health check (importing the app alone took 30 s on a loaded machine).
START_SECONDS = 90.0


@dataclass
class Server:
    url: str
    database_url: str
    args: list[str]
    proc: subprocess.Popen[bytes] | Forked | None = None
    log: Path | None = None
    #: How Python runs taash (a test may give ``("-c", code)`` that changes something first and then runs it).
    launcher: tuple[str, ...] = ("-m", "taash.cli.main")
    #: Whether passwords are hashed as ``taash serve`` hashes them; otherwise (a forked server) with Argon2 at its
    #: cheapest, a second less an account on a loaded machine (tests/web/zygote.py's ``fast_passwords``).
    real_passwords: bool = False

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://")

    def start(self) -> None:
        assert self.log is not None
        forks = zygote() if self.launcher == ("-m", "taash.cli.main") else None
        if forks is not None:
            self.proc = forks.serve(self.args, self.log, fast_passwords=not (self.real_passwords or REAL_PASSWORDS))
        else:
            with self.log.open("ab") as out:
                self.proc = subprocess.Popen([sys.executable, *self.launcher, "serve", *self.args],
                                             stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server stopped: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1, verify=TLS).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()  # never left running behind a failed test
        raise AssertionError(f"the server did not start in {START_SECONDS:.0f} s: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """``kill -9``: no chance to finish anything."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


#: Python that a :class:`Server`'s ``launcher`` (``("-c", TEST_CLOCK + ...)``) runs before ``taash serve``: the
#: hub reads the FakeClock of the hub's own tests, started at the machine's time, which stands still until the
#: test sends the server SIGUSR1 (:func:`move_clock`) and then moves on a minute. A turn runs out, or a bot's delay
#: passes, when the test says, not when a loaded machine gets to it (give such a server ``bot_delay=0``).
TEST_CLOCK = """
import asyncio, signal, time

import taash.web.hub
from taash.web.hub.clock import FakeClock

clock = FakeClock(start=time.monotonic(), wall=time.time())
taash.web.hub.RealClock = lambda: clock
signal.signal(signal.SIGUSR1, lambda *_: asyncio.get_running_loop().call_soon(clock.advance, 60.0))
"""
#: :data:`TEST_CLOCK`, then ``taash`` as it runs.
WITH_TEST_CLOCK = ("-c", TEST_CLOCK + "from taash.cli.main import run\nrun()\n")


def move_clock(server: Server) -> None:
    """Move the clock of a server started with :data:`TEST_CLOCK` on a minute."""
    assert server.proc is not None
    os.kill(server.proc.pid, signal.SIGUSR1)


@contextmanager
def served(tmp: Path, database: str, *options: str, bot_delay: float | None = None,
           launcher: tuple[str, ...] = ("-m", "taash.cli.main")) -> Iterator[Server]:
    """``taash serve`` on a free loopback port over the SQLite file ``database`` in ``tmp`` (a migrated copy where
    there is none yet), with ``options`` (and ``--bot-delay`` when given), as the browser tests start it; stopped
    afterwards."""
    port = free_port()
    url = migrated_sqlite(tmp, database)
    delay = ("--bot-delay", str(bot_delay)) if bot_delay is not None else ()
    server = Server(f"http://127.0.0.1:{port}", url, ["--port", str(port), "--database-url", url, *delay, *options,
                                                      "--log-level", "warning"], log=tmp / "server.log",
                    launcher=launcher)
    server.start()
    try:
        yield server
    finally:
        server.stop()


#: The Playwright and Chromium that :func:`chromium` lends, while the tests that use them follow one another.
_launched: tuple[Any, Any] | None = None
#: How many :func:`chromium` blocks are open now.
_borrowers = 0


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (the browser tests skip themselves without either).

    Starting Playwright and Chromium costs seconds: the next browser test of the same module gets the same browser
    (tests/conftest.py's ``pytest_runtest_teardown`` closes it before any other test, as the sync Playwright
    marks the thread's event loop as running). Each block still starts clean: the contexts and pages it made are
    closed when it ends, and contexts share neither cookies nor storage."""
    global _launched, _borrowers
    if _launched is None:
        from playwright.sync_api import sync_playwright

        p = sync_playwright().start()
        try:
            _launched = (p, p.chromium.launch(executable_path=str(CHROMIUM), headless=True))
        except BaseException:
            p.stop()
            raise
    browser = _launched[1]
    before = list(browser.contexts)
    _borrowers += 1
    try:
        yield browser
    finally:
        _borrowers -= 1
        for context in browser.contexts:
            if context not in before:
                context.close()


def close_chromium() -> None:
    """Close the Chromium :func:`chromium` lends and stop Playwright, unless a block still uses them."""
    global _launched
    if _launched is not None and _borrowers == 0:
        p, browser = _launched
        _launched = None
        try:
            browser.close()
        finally:
            p.stop()


@contextmanager
def running_server(tmp: Path, database: str = "sqlite", bot_delay: float = 0.0,
                   away_seconds: float = 30.0, rate: float = 1000.0, extra: tuple[str, ...] = (),
                   creations: float = 1e6, accounts_per_address: int = 1000,
                   related_stakes: bool = False, real_passwords: bool = False) -> Iterator[Server]:
    """A server on a free loopback port; bots move at once, and a test client may send fast (``rate``) and make
    many guests, tables (``creations`` a minute) and accounts (``accounts_per_address`` a day); everyone comes
    from one address, so people play each other for chips only where ``related_stakes`` lets related people;
    ``extra`` are more options of ``taash serve``; ``real_passwords``: see :class:`Server`."""
    port = free_port()

    def run(url: str) -> Iterator[Server]:
        server = Server(f"http://127.0.0.1:{port}", url, [
            "--port", str(port), "--database-url", url, "--bot-delay", str(bot_delay),
            "--away-seconds", str(away_seconds), "--rate", str(rate), "--creations", str(creations),
            "--accounts-per-address", str(accounts_per_address),
            *(("--allow-related-stakes",) if related_stakes else ()), "--log-level", "warning", *extra],
            log=tmp / "server.log", real_passwords=real_passwords)
        server.start()
        try:
            yield server
        finally:
            server.stop()

    with migrated_database(tmp, database) as url:
        yield from run(url)


@dataclass
class Person:
    """Someone with a browser: a cookie jar and websockets that send it."""

    server: Server
    name: str | None = None
    #: Whether he claims his name as an account at once (free chips, and playing for them, need one).
    account: bool = False
    #: The loopback address his HTTP calls come from (127.0.0.2, ...: another address, so not related to people
    #: of 127.0.0.1); None: the system's choice.
    address: str | None = None
    http: httpx.Client = field(init=False)
    counter: int = 0

    def __post_init__(self) -> None:
        transport = None if self.address is None else httpx.HTTPTransport(local_address=self.address, verify=TLS)
        self.http = httpx.Client(base_url=self.server.url, timeout=30, transport=transport, verify=TLS)
        if self.name:
            r = self.http.post("/api/guest", json={"name": self.name})
            assert r.status_code == 200, r.text
        if self.account:
            self.claim()

    def claim(self, password: str = "a long password") -> httpx.Response:
        """Claim his name as an account (the starting chips are granted then)."""
        r = self.http.post("/api/account", json={"password": password})
        assert r.status_code == 200, r.text
        return r

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post(path, json=body)

    def socket(self, table_id: str, since: int | None = None, origin: str | None = None,
               code: str | None = None, source: str | None = None, lang: str | None = None,
               owner: str | None = None) -> Socket:
        """A websocket to the table, with this person's cookie; ``source``: the loopback address it comes from
        (127.0.0.1 unless told: any of 127.0.0.0/8); ``lang``: the language it asks for (``?lang=``); ``owner``:
        the server it names as the table's owner (``?owner=``: a cluster's proxy sends it there)."""
        headers = {}
        token = self.http.cookies.get("taash_guest")
        if token:
            headers["Cookie"] = f"taash_guest={token}"
        if origin:
            headers["Origin"] = origin
        params = {k: str(v) for k, v in (("since", since), ("code", code), ("lang", lang), ("owner", owner))
                  if v is not None}
        query = f"?{urlencode(params)}" if params else ""
        where = {"source_address": (source, 0)} if source else {}
        connection = connect(f"{self.server.ws_url}/ws/{table_id}{query}", additional_headers=headers,
                             open_timeout=10, **where)
        return Socket(connection.__enter__(), self)  # closed by Socket.close() (or when the server goes)

    def refusal(self, table_id: str, **options: Any) -> tuple[int, str]:
        """Connect as :meth:`socket` does, expecting the server to accept and close at once without a word:
        returns the close code and reason."""
        sock = self.socket(table_id, **options)
        try:
            text = sock.ws.recv(timeout=10)
        except ConnectionClosed as e:
            assert e.rcvd is not None, "closed without a close frame"
            return e.rcvd.code, e.rcvd.reason
        raise AssertionError(f"not refused: it was sent {text[:200]!r}")

    def next_id(self) -> str:
        self.counter += 1
        return f"{self.name}-{self.counter}"


@dataclass
class Socket:
    ws: ClientConnection
    person: Person
    received: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    state: dict[str, Any] | None = None
    version: int = -1
    #: The table's owner, as a server of a cluster that does not own it said (its first message, ``owner``: kept
    #: here, not among the messages, so that a bridged socket reads as a direct one).
    owner: str | None = None

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        if not self.raw and self.owner is None and text.startswith('{"type":"owner"'):
            self.owner = json.loads(text)["server"]
            return self.recv(timeout)
        self.raw.append(text)
        message: dict[str, Any] = json.loads(text)
        self.received.append(message)
        if "state" in message:
            self.state = message["state"]
            self.version = message["version"]
        return message

    def recv_until(self, kind: str, timeout: float = 10, **match: Any) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            m = self.recv(max(0.01, deadline - time.monotonic()))
            if m["type"] == kind and all(m.get(k) == v for k, v in match.items()):
                return m
            if kind == "ack" and m["type"] == "error":
                raise AssertionError(f"an error instead of an ack: {m['code']}: {m['message']}")

    def drain(self, quiet: float = 0.3) -> None:
        """Read until nothing arrives for ``quiet`` seconds."""
        while True:
            try:
                self.recv(quiet)
            except TimeoutError:
                return

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def my_turn(self) -> bool:
        d = self.state and self.state.get("deal")
        return bool(d and (d["bids"] or d["legal"]))

    def move(self, pick: int = 0) -> str:
        """Make a move from what the state offers; returns the message id."""
        assert self.state is not None
        d = self.state["deal"]
        mid = self.person.next_id()
        if d["bids"]:
            self.send({"type": "bid", "value": d["bids"][pick % len(d["bids"])], "version": self.version, "id": mid})
        else:
            self.send({"type": "play", "play": d["legal"][pick % len(d["legal"])]["play"], "version": self.version,
                       "id": mid})
        return mid

    def close(self) -> None:
        self.ws.close()


def until_finished(http: httpx.Client, table_id: str, stall_seconds: float = 60.0) -> None:
    """Wait until a table of bots has finished its match; fails only when its version stops moving for
    ``stall_seconds`` (a stall, not a slow machine)."""
    version, moved = -1, time.monotonic()
    while True:
        table = http.get(f"/api/tables/{table_id}").json()
        if table["status"] == "finished":
            return
        if table["version"] != version:
            version, moved = table["version"], time.monotonic()
        assert time.monotonic() - moved < stall_seconds, f"the match stalled at version {version}"
        time.sleep(0.2)
