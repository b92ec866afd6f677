"""The guard every HTTP request passes before any route sees it (plain ASGI middleware): the body's size, another
site's pages, form bodies on the JSON API, and the security headers of every page."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from types import MappingProxyType
from typing import ClassVar

from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taash.web.http import CROSS_SITE, FORM_TYPES, SAFE_METHODS, cross_site


class Guard:
    """Plain ASGI middleware: refuses HTTP bodies over ``max_body`` bytes (413, before reading them),
    state-changing requests from another site's pages (403: see :func:`cross_site`) and form bodies on the JSON
    API (415), and adds the security headers to every page (no framing, no sniffing, scripts and connections only
    from this server). No route can forget these."""

    CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
           "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'")

    #: The offline engine's worker runs Pyodide, whose CPython is WebAssembly: it may compile WebAssembly (never
    #: evaluate JavaScript text); every page keeps :attr:`CSP`.
    WORKER = "/static/offline/worker.js"
    WORKER_CSP = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")

    #: Routes whose bodies may be larger than ``max_body``, and how large: a finished offline match's save
    #: (:mod:`taash.web.offline.routes`), every move of a long match in it.
    LARGER_BODIES: ClassVar[Mapping[str, int]] = MappingProxyType({"/api/offline/matches": 512 * 1024})

    def __init__(self, app: ASGIApp, max_body: int, allowed_origins: Collection[str] = ()):
        self.app = app
        self.max_body = max_body
        self.allowed_origins = frozenset(allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        max_body = self.LARGER_BODIES.get(scope["path"], self.max_body)
        too_big = length is not None and (not length.isdigit() or int(length) > max_body)
        if too_big:
            await self._refuse(send, 413, "too_big", f"a request body may be at most {max_body} bytes")
            return
        refused = self.refusal(scope["method"], scope["path"], headers)
        if refused is not None:
            await self._refuse(send, *refused)
            return
        received = 0
        page = not scope["path"].startswith(("/api/", "/docs", "/redoc", "/openapi.json"))

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > max_body:
                    raise BodyTooBig(max_body)
            return message

        async def secured_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin"),
                         (b"x-frame-options", b"DENY")]
                if page:
                    csp = self.WORKER_CSP if scope["path"] == self.WORKER else self.CSP
                    extra.append((b"content-security-policy", csp.encode()))
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        try:
            await self.app(scope, limited_receive, secured_send)
        except BodyTooBig:
            await self._refuse(send, 413, "too_big", f"a request body may be at most {max_body} bytes")

    def refusal(self, method: str, path: str, headers: dict[bytes, bytes]) -> tuple[int, str, str] | None:
        """The status, code and sentence that refuse a request before any route sees it, or None: a
        state-changing one from another site's page, or one that posts a form's body to the JSON API."""
        if method in SAFE_METHODS:
            return None

        def header(name: bytes) -> str | None:
            value = headers.get(name)
            return None if value is None else value.decode("latin-1")

        if cross_site(header(b"origin"), header(b"sec-fetch-site"), header(b"host"), self.allowed_origins):
            return 403, "forbidden", CROSS_SITE
        media = (header(b"content-type") or "").split(";")[0].strip().lower()
        if path.startswith("/api/") and media in FORM_TYPES:
            return 415, "unsupported", "the API takes JSON bodies (Content-Type: application/json)"
        return None

    @staticmethod
    async def _refuse(send: Send, status: int, code: str, detail: str) -> None:
        body = json.dumps({"detail": detail, "code": code})
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body.encode()})


class BodyTooBig(StarletteHTTPException):
    """A request body (sent in chunks, with no length given) that grew over the limit while it was read."""

    def __init__(self, limit: int):
        super().__init__(413, f"a request body may be at most {limit} bytes")

