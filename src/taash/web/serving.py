"""How uvicorn runs the app: whose forwarded headers are believed, and how long a request's headers may take.

uvicorn believes ``X-Forwarded-For`` from 127.0.0.1 unless told otherwise, so anything on the server's own machine
could name any client address (and escape the limits counted per address); here the headers are read only from
the proxies ``taash serve --trusted-proxy`` names, and without one not at all. uvicorn also waits for a request's
headers without end, so a few hundred sockets trickling a header line now and then would hold their connections
for ever; here a connection whose request has not sent all its headers ``--header-timeout`` seconds after it
began (or after the connection opened, for one that sends nothing) is closed.
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import Any

import uvicorn

from taash.web.app import MAX_FRAME
from taash.web.http import ServerConfig


def trusted_proxy(text: str) -> str:
    """A proxy's address or network (``10.0.0.5``, ``10.0.0.0/8``, ``::1``) as uvicorn takes it; ValueError when
    ``text`` is neither.

    >>> trusted_proxy("127.0.0.1"), trusted_proxy("10.1.0.0/16"), trusted_proxy("::1")
    ('127.0.0.1', '10.1.0.0/16', '::1')
    """
    try:
        if "/" in text:
            return str(ipaddress.ip_network(text.strip(), strict=True))
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        raise ValueError(f"a proxy is an IP address (127.0.0.1, ::1) or a network (10.0.0.0/8), not {text!r}") \
            from None


class HeaderDeadline:
    """A timer that closes a connection when its request's headers are not all in on time."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.timer: asyncio.TimerHandle | None = None

    def start(self, loop: asyncio.AbstractEventLoop, transport: asyncio.BaseTransport) -> None:
        """From now (unless it runs already: a request's first byte does not restart the connection's time)."""
        if self.timer is None:
            self.timer = loop.call_later(self.seconds, self._late, transport)

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _late(self, transport: asyncio.BaseTransport) -> None:
        self.timer = None
        if not transport.is_closing():
            transport.close()


def header_timeout_protocol(seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools' where it is installed, as uvicorn's own choice, else h11's) with a
    deadline of ``seconds`` for the headers of each request, from the connection's start or the request's first
    byte. Once they are in, nothing changes: a request's body, a long response or a websocket take their time."""
    try:
        import httptools  # noqa: F401
    except ImportError:  # pragma: no cover - uvicorn[standard] brings httptools
        return _h11_protocol(seconds)
    return _httptools_protocol(seconds)


def _httptools_protocol(seconds: float) -> type[asyncio.Protocol]:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class HttpToolsWithHeaderDeadline(HttpToolsProtocol):
        def __init__(self, *args: Any, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self.headers_due = HeaderDeadline(seconds)

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.headers_due.start(self.loop, transport)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self.headers_due.start(self.loop, self.transport)

        def on_headers_complete(self) -> None:
            self.headers_due.stop()  # before a websocket's upgrade hands the connection over
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self.headers_due.stop()
            super().connection_lost(exc)

    return HttpToolsWithHeaderDeadline


def _h11_protocol(seconds: float) -> type[asyncio.Protocol]:
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class H11WithHeaderDeadline(H11Protocol):
        def __init__(self, *args: Any, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self.headers_due = HeaderDeadline(seconds)

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.headers_due.start(self.loop, transport)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is h11.IDLE:  # a request begun whose headers are not all in
                self.headers_due.start(self.loop, self.transport)
            else:
                self.headers_due.stop()

        def connection_lost(self, exc: Exception | None) -> None:
            self.headers_due.stop()
            super().connection_lost(exc)

    return H11WithHeaderDeadline


def uvicorn_config(app: Any, config: ServerConfig, log_level: str = "warning",
                   http: type[asyncio.Protocol] | None = None) -> uvicorn.Config:
    """uvicorn's settings for serving ``app`` by ``config`` (``http``: another protocol class, for tests)."""
    return uvicorn.Config(
        app, ws_max_size=MAX_FRAME, ws_per_message_deflate=False, log_level=log_level, timeout_graceful_shutdown=3,
        http=http or header_timeout_protocol(config.header_timeout),
        proxy_headers=bool(config.trusted_proxies), forwarded_allow_ips=list(config.trusted_proxies))
