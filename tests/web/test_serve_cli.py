"""`taash serve` refuses bad options and an unusable database or address in one line, before it announces an
address; with good ones it prints its address and serves."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.cli.test_seep_cli import one_line_error
from tests.web.server import free_port

TAASH = [sys.executable, "-m", "taash.cli.main"]


def serve(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TAASH, "serve", *args], capture_output=True, text=True, timeout=60, cwd=cwd)


@pytest.mark.parametrize(("args", "message"), [
    (["--port", "0"], "--port"),
    (["--port", "70000"], "--port"),
    (["--bot-delay", "-1"], "--bot-delay"),
    (["--away-seconds", "99999"], "--away-seconds"),
    (["--turn-seconds", "-1"], "--turn-seconds"),
    (["--turn-seconds", "0.1"], "--turn-seconds"),
    (["--turn-seconds", "nan"], "--turn-seconds"),
    (["--extra-seconds", "-1"], "--extra-seconds"),
    (["--extra-seconds", "3601"], "--extra-seconds"),
    (["--extra-seconds", "nan"], "--extra-seconds"),
    (["--extra-seconds", "soon"], "--extra-seconds"),
    (["--idle-minutes", "0"], "--idle-minutes"),
    (["--sweep-seconds", "0.5"], "--sweep-seconds"),
    (["--rate", "0"], "--rate"),
    (["--max-tables", "0"], "--max-tables"),
    (["--max-connections", "-5"], "--max-connections"),
    (["--allowed-origin", "evil"], "--allowed-origin"),
    (["--log-level", "loud"], "--log-level"),
    (["--trusted-proxy", "proxy.example"], "--trusted-proxy"),
    (["--header-timeout", "0"], "--header-timeout"),
    (["--header-timeout", "nan"], "--header-timeout"),
    (["--lease-seconds", "0.1"], "--lease-seconds must be from 0.3 to 600 seconds"),
    (["--lease-seconds", "nan"], "--lease-seconds"),
    (["--database-url", "mysql://x"], "--database-url"),
    (["--database-url", "sqlite:////no/such/dir/taash.db"], "cannot use the database"),
    (["--database-url", "postgresql+psycopg://who:secret@127.0.0.1:1/db"], "cannot use the database"),
    (["--database-url", "postgresql+nonsense://x"], "cannot use the database"),
    (["--host", "999.1.1.1"], "cannot serve on 999.1.1.1"),
])
def test_bad_options_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    line = one_line_error(serve(*args, "--port", str(free_port()), cwd=tmp_path) if "--port" not in args
                          else serve(*args, cwd=tmp_path), 2)
    assert message in line
    assert "secret" not in line  # a database password is never printed
    assert "Seep at" not in line


def test_the_help_tells_the_turn_timers_defaults(tmp_path: Path) -> None:
    import re

    proc = serve("--help", cwd=tmp_path)
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert re.search(r"--turn-seconds \S+ .*?\[default: 30\.0\]", text), text
    assert re.search(r"--extra-seconds \S+ .*?\[default: 60\.0\]", text), text
    assert "takes the stock's card and discards it for him" in text


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = serve("--port", str(port), "--database-url", f"sqlite:///{tmp_path / 't.db'}", cwd=tmp_path)
    assert f"cannot serve on 127.0.0.1:{port}" in one_line_error(proc, 2)
    assert "Seep at" not in proc.stdout


def test_serve_prints_its_address_and_serves(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen([*TAASH, "serve", "--port", str(port)], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        said = proc.stdout.readline().strip()
        assert said == f"taash: Seep and Rummy at http://localhost:{port}/  (Ctrl-C stops the server)"
        deadline = time.monotonic() + 30
        while True:
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/", timeout=1).status_code == 200
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert (tmp_path / "taash.db").exists()  # the default database: taash.db where it was started
    finally:
        proc.terminate()
        proc.wait(10)
    assert "Traceback" not in (proc.stderr.read() if proc.stderr else "")
