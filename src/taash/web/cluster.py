"""Several ``taash serve`` processes behind HAProxy on one machine (``taash cluster``; docs/cluster.md): the
proxy's configuration, made here, and the processes started, watched and stopped together.

Every server shares one PostgreSQL database and one Redis; the proxy spreads requests and websockets over the
servers in turn (any server serves any table: see :mod:`taash.web.relay`), except a table's websocket that names
its owner (``?owner=s2``, as the server it first reached told it), which goes to that server while it is up. The
proxy checks every second that each server takes connections, and sends a request that finds a server dead to
another one.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from taash.web.db import make_engine, migrate

#: The servers' options that the proxy's loopback address needs: every client arrives from 127.0.0.1, so the
#: per-address limits are counted by the X-Forwarded-For that HAProxy adds.
PROXIED = ["--trusted-proxy", "127.0.0.1"]


def max_connections() -> int:
    """Connections the proxy may hold: 50,000, or fewer where the process may open fewer files (each connection
    takes two, the client's and the server's)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 50_000 if hard == resource.RLIM_INFINITY else max(100, min(50_000, (hard - 200) // 2))


def server_id(index: int) -> str:
    """The ``--server-id`` of the cluster's server ``index`` (from 0), and its name in the proxy's configuration: the
    same, so that the proxy finds the server a client names by the id a server told it."""
    return f"s{index + 1}"


def haproxy_config(port: int, ports: list[int], host: str = "127.0.0.1") -> str:
    """HAProxy's configuration for the proxy on ``host:port`` in front of servers on loopback ``ports``."""
    names = [server_id(i) for i in range(len(ports))]
    servers = "\n".join(f"    server {name} 127.0.0.1:{p}" for name, p in zip(names, ports, strict=True))
    owners = "\n".join(f"    use-server {name} if {{ urlp(owner) -m str {name} }}" for name in names)
    return f"""global
    maxconn {max_connections()}

defaults
    mode http
    option forwardfor
    # A new connection to a server for each request: an idle one the server is closing just then (uvicorn's
    # keep-alive ends after 5 s) would otherwise take a request and close without an answer.
    option http-server-close
    option redispatch
    retries 3
    timeout connect 2s
    timeout client 120s
    timeout server 120s
    timeout tunnel 1h
    timeout check 5s

frontend taash
    bind {host}:{port}
    default_backend servers

backend servers
    balance roundrobin
    # A table's websocket that names its owner (?owner=ID, the id its server told it) goes to that server, while it
    # is up; any other request, in turn.
{owners}
    # A connection check (a dead server refuses it at once); an HTTP one marked a server busy on a loaded machine
    # as down and left the proxy with none.
    default-server check inter 1s fall 2 rise 1
{servers}
"""


@dataclass
class Cluster:
    """``servers`` taash servers on loopback ports and HAProxy on ``port``, logging into ``directory``."""

    directory: Path
    port: int
    ports: list[int]
    database_url: str
    redis_url: str
    serve_args: list[str] = field(default_factory=list)
    servers: list[subprocess.Popen[bytes] | None] = field(default_factory=list)
    proxy: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def server_url(self, index: int) -> str:
        return f"http://127.0.0.1:{self.ports[index]}"

    def start_server(self, index: int) -> subprocess.Popen[bytes]:
        log = (self.directory / f"server{index + 1}.log").open("ab")
        proc = subprocess.Popen(
            [sys.executable, "-m", "taash.cli.main", "serve", "--port", str(self.ports[index]), "--database-url",
             self.database_url, "--redis-url", self.redis_url, "--server-id", server_id(index), *PROXIED,
             *self.serve_args], stdout=log, stderr=subprocess.STDOUT)
        while len(self.servers) <= index:
            self.servers.append(None)
        self.servers[index] = proc
        return proc

    def start(self, seconds: float = 90.0) -> None:
        """Bring the database's schema up to date (once, here: servers migrating one new database together would
        race), start every server, wait for each to answer, then start the proxy; raises RuntimeError (with the
        log's last lines) when one does not come up."""
        engine = make_engine(self.database_url)
        try:
            migrate(engine)
        finally:
            engine.dispose()
        config = self.directory / "haproxy.cfg"
        config.write_text(haproxy_config(self.port, self.ports))
        for i in range(len(self.ports)):
            self.start_server(i)
        for i in range(len(self.ports)):
            self.wait(i, seconds)
        log = (self.directory / "haproxy.log").open("ab")
        self.proxy = subprocess.Popen(["haproxy", "-db", "-f", str(config)], stdout=log, stderr=subprocess.STDOUT)
        self.wait_for(self.url, seconds, self.proxy, self.directory / "haproxy.log")

    def wait(self, index: int, seconds: float = 90.0) -> None:
        proc = self.servers[index]
        assert proc is not None
        self.wait_for(self.server_url(index), seconds, proc, self.directory / f"server{index + 1}.log")

    @staticmethod
    def wait_for(url: str, seconds: float, proc: subprocess.Popen[bytes], log: Path) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                lines = log.read_text(errors="replace").strip().splitlines() or ["(no output)"]
                raise RuntimeError(f"{url} stopped: " + "\n".join(lines[-15:]))
            try:
                if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{url} did not answer in {seconds:g} s")

    def kill(self, index: int) -> None:
        """Kill a server at once (``kill -9``: no lease handed over, nothing flushed)."""
        proc = self.servers[index]
        if proc is not None:
            proc.kill()
            proc.wait()
            self.servers[index] = None

    def stop(self) -> None:
        for proc in [*self.servers, self.proxy]:
            if proc is not None and proc.poll() is None:
                proc.terminate()
        for proc in [*self.servers, self.proxy]:
            if proc is not None:
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
