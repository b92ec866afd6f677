"""Which server answered (plain ASGI middleware of a server among several, ``taash serve --redis-url``): every
HTTP answer and websocket handshake names this server in ``X-Taash-Server`` (its ``--server-id``), so that an
operator, and the cluster's tests, can tell which server behind the proxy served a request."""

from __future__ import annotations

from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADER = b"x-taash-server"


class ServedBy:
    """Adds ``X-Taash-Server: ID`` to every answer once ``server()`` knows this server's id (None: nothing added)."""

    def __init__(self, app: ASGIApp, server: Callable[[], str | None]) -> None:
        self.app = app
        self.server = server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        name = self.server() if scope["type"] in ("http", "websocket") else None
        if name is None:
            await self.app(scope, receive, send)
            return
        header = (HEADER, name.encode())

        async def named(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                message = {**message, "headers": [*message.get("headers", []), header]}
            await send(message)

        await self.app(scope, receive, named)
