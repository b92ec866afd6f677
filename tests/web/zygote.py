"""A process that imports the server's modules once and forks a ``taash serve`` for each test that starts one.

Each server a test starts used to be a new interpreter importing FastAPI, SQLAlchemy, Alembic and the whole of
``taash.web`` again: seconds of CPU a start, hundreds of starts a run. A forked child is that same interpreter
after the imports: it runs what ``python -m taash.cli.main serve ARGS`` runs (``taash.cli.main.run``, with a fresh
database, port and process of its own), in the test's environment and directory, writing to the test's log.

tests/web/server.py drives it over stdin/stdout, one JSON line each way:
``{"serve": [ARGS], "log": PATH, "env": {...}, "cwd": DIR, "fast_passwords": BOOL}`` answers ``{"pid": N}``;
``{"reap": N}`` (once that process has ended) answers ``{"code": EXIT_STATUS}``. The zygote ends when its stdin
closes (the test process ended); children it never reaped are the system's then.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import sys
import threading
import traceback
from typing import Any, NoReturn

import taash.web.app  # noqa: F401 - the imports every server would repeat
from taash.cli.main import run

#: What ``taash serve`` imports only as it starts (uvicorn and its protocols, the serving module, a game's routes,
#: the databases' and Redis's clients): imported here once rather than in every server (tenths of a second each).
STARTUP_IMPORTS = ("sqlite3", "taash.web.serving", "taash.web.rummy_routes", "uvicorn.lifespan.on",
                   "uvicorn.loops.auto", "uvicorn.protocols.http.httptools_impl", "uvicorn.protocols.websockets.auto",
                   "uvicorn.protocols.websockets.websockets_sansio_impl", "uvloop", "psycopg", "redis")
for name in STARTUP_IMPORTS:
    with contextlib.suppress(ImportError):  # an optional one not installed: the server imports what it uses
        importlib.import_module(name)


def fast_passwords() -> None:
    """Argon2 at its cheapest (one pass over 1 MiB in one lane) instead of its defaults (three passes over 64 MiB in
    four lanes: about a second a hash on a loaded 2-core machine): the tests' servers hash a password for each of
    hundreds of accounts, and what makes the hash strong is checked by tests/web/test_accounts.py, whose servers
    keep the defaults (``real_passwords``)."""
    import functools

    from argon2 import PasswordHasher

    import taash.web.passwords

    taash.web.passwords.PasswordHasher = functools.partial(  # type: ignore[misc]
        PasswordHasher, time_cost=1, memory_cost=1024, parallelism=1)


def serve(request: dict[str, Any]) -> NoReturn:
    """In the child: become ``python -m taash.cli.main serve ARGS`` with the test's environment and log."""
    code = 1
    try:
        log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        nothing = os.open(os.devnull, os.O_RDONLY)
        os.dup2(nothing, 0)
        os.close(nothing)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        sys.argv = ["taash", "serve", *request["serve"]]
        if request.get("fast_passwords"):
            fast_passwords()
        run()  # what ``python -m taash.cli.main`` runs
        code = 0
    except SystemExit as e:
        if isinstance(e.code, int) or e.code is None:
            code = e.code or 0
        else:
            print(e.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def main() -> None:
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        if "reap" in request:
            _, status = os.waitpid(request["reap"], 0)
            print(json.dumps({"code": os.waitstatus_to_exitcode(status)}), flush=True)
            continue
        # A fork copies only the calling thread: the imports must have started none.
        assert threading.active_count() == 1, threading.enumerate()
        pid = os.fork()
        if pid == 0:
            serve(request)
        print(json.dumps({"pid": pid}), flush=True)


if __name__ == "__main__":
    main()
