"""How uvicorn runs the app (taash.web.serving): a request's headers have ``--header-timeout`` seconds, and only
named proxies' forwarded headers are believed (the latter's tests are with the login limits, test_accounts)."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
import pytest

from taash.web.serving import trusted_proxy
from tests.web.server import Person, running_server


def trickling(port: int, silent: bool = False) -> socket.socket:
    """A connection that begins a request and sends its headers a line at a time (or nothing at all)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    if not silent:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    sock.setblocking(False)
    return sock


def closed(sock: socket.socket) -> bool:
    try:
        return sock.recv(1024) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_trickled_headers_are_cut_off_while_requests_and_websockets_carry_on(tmp_path: Path) -> None:
    """Issue 26, item 7: 150 sockets sending a header line every 20 s were all still open after 60 s."""
    with running_server(tmp_path, extra=("--header-timeout", "1")) as server:
        port = int(server.url.rsplit(":", 1)[1])
        host = Person(server, "Wren")
        table = host.post("/api/tables", {"players": 2}).json()["id"]
        ws = host.socket(table)
        assert ws.recv()["type"] == "snapshot"
        slow = [trickling(port) for _ in range(5)] + [trickling(port, silent=True)]
        start = time.monotonic()
        cut: dict[int, float] = {}
        while len(cut) < len(slow) and time.monotonic() - start < 6:
            for i, sock in enumerate(slow):
                if i in cut:
                    continue
                if closed(sock):
                    cut[i] = time.monotonic() - start
                elif i < 5:
                    try:
                        sock.send(b"X-Slow: 1\r\n")
                    except OSError:
                        cut[i] = time.monotonic() - start
            time.sleep(0.2)
        assert len(cut) == len(slow) and max(cut.values()) < 3, cut
        # The websocket opened before them is still served, and so is a plain request.
        ws.send({"type": "ping"})
        assert ws.recv_until("pong")["type"] == "pong"
        assert httpx.get(f"{server.url}/api/health", timeout=5).status_code == 200
        # A request whose headers come within the time is answered, however slowly it began.
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(b"GET /api/health HTTP/1.1\r\n")
        time.sleep(0.5)
        sock.sendall(b"Host: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert sock.recv(100).startswith(b"HTTP/1.1 200")
        sock.close()
        ws.close()
        for s in slow:
            s.close()


@pytest.mark.parametrize("text", ["localhost", "*", "10.0.0.0/33", "10.0.0.1/8", ""])
def test_a_trusted_proxy_is_an_address_or_a_network(text: str) -> None:
    with pytest.raises(ValueError, match="a proxy is an IP address"):
        trusted_proxy(text)
