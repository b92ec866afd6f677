"""``taash ARGS`` run in the test's own process through the installed entry point, as a subprocess would run it
(exit status, standard output and error, standard input given as text or bytes), without the second or more that
starting an interpreter and importing the command costs on a loaded machine. Each module that uses it still runs
the real command in a subprocess at least once."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path
from unittest import mock


def taash(*args: str, stdin: str | bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``taash ARGS`` in this process (see the module's docstring), in the folder ``cwd`` if given; standard input
    empty (not a terminal) unless given."""
    from taash.cli.main import run
    from taash.i18n import current, use

    spoken = current()  # a player's command chooses the process's language: this test's is given back after it
    data = stdin.encode() if isinstance(stdin, str) else (stdin or b"")
    out, err = io.StringIO(), io.StringIO()
    with (mock.patch.object(sys, "argv", ["taash", *args]),
          mock.patch.object(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")),
          contextlib.redirect_stdout(out), contextlib.redirect_stderr(err),
          contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext()):
        try:
            run()
            code: int = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        finally:
            use(spoken)
    return subprocess.CompletedProcess(["taash", *args], code, out.getvalue(), err.getvalue())
