"""``taash cluster``: several web servers and HAProxy in front of them, on this machine (docs/cluster.md)."""

from __future__ import annotations

import shlex
import shutil
import signal
import socket
import tempfile
import time
from pathlib import Path
from typing import Annotated

import typer

from taash.cli.common import fail


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop_on_sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def cluster(
    servers: Annotated[int, typer.Option(help="Server processes (each uses one core at most).")] = 2,
    port: Annotated[int, typer.Option(help="The proxy's port on 127.0.0.1 (the address to open).")] = 8000,
    database_url: Annotated[str, typer.Option(
        help="The PostgreSQL database the servers share (postgresql+psycopg://USER:PASSWORD@HOST/DB).")]
    = "postgresql+psycopg://taash:taash@127.0.0.1/taash",
    redis_url: Annotated[str, typer.Option(help="The Redis the servers share.")] = "redis://127.0.0.1:6379/0",
    serve_args: Annotated[str, typer.Option(
        help="More options for each `taash serve`, as one string (e.g. \"--bot-delay 0.3\").")] = "",
) -> None:
    """Start SERVERS web servers on PostgreSQL and Redis, and HAProxy in front of them on PORT, until Ctrl-C."""
    from taash.cli.web import redis_problem
    from taash.web.cluster import Cluster
    from taash.web.db import database_problem

    if not 1 <= servers <= 64:
        fail(f"--servers must be from 1 to 64, not {servers}")
    if not 0 < port < 65536:
        fail(f"--port must be from 1 to 65535, not {port}")
    if shutil.which("haproxy") is None:
        fail("HAProxy is not installed (Debian: apt-get install haproxy, or scripts/ensure-haproxy)")
    problem = redis_problem(redis_url, database_url) or database_problem(database_url)
    if problem:
        fail(problem)
    try:
        extra = shlex.split(serve_args)
    except ValueError as e:
        fail(f"--serve-args: {e}")
    signal.signal(signal.SIGTERM, stop_on_sigterm)  # stopped by a service manager: stop the servers too
    with tempfile.TemporaryDirectory(prefix="taash-cluster-") as tmp:
        run = Cluster(Path(tmp), port, [free_port() for _ in range(servers)], database_url, redis_url, extra)
        try:
            run.start()
            print(f"taash: {servers} servers behind HAProxy at http://localhost:{port}/  (Ctrl-C stops them; logs "
                  f"in {tmp})", flush=True)
            while all(p is not None and p.poll() is None for p in [*run.servers, run.proxy]):
                time.sleep(1)
            fail("a server or the proxy stopped (see its log above)", 1)
        except RuntimeError as e:
            fail(str(e), 1)
        except KeyboardInterrupt:
            pass
        finally:
            run.stop()
