"""How the web server answers a request it refuses: one shape for every error, ``{"detail": sentence, "code":
code}``, whatever refused it (a route, the schema, the router, or a bug of ours)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Route

from taash.i18n import DEFAULT, say_in
from taash.web.http import ApiError
from taash.web.languages import language_of

log = logging.getLogger("taash.web")

HTTP_CODES = {400: "bad", 401: "no_guest", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
              413: "too_big", 415: "unsupported", 422: "invalid"}
HTTP_SENTENCES = {404: "no such page", 405: "that method is not allowed here"}


def validation_sentence(e: RequestValidationError) -> str:
    """The first thing wrong with a request, in one sentence: "body.seat: Input should be ..."."""
    errors = e.errors()
    if not errors:
        return "the request does not fit the schema"
    first = errors[0]
    where = ".".join(str(x) for x in first.get("loc", ()) if x != "body") or "body"
    message = str(first.get("msg", "is not valid")).removeprefix("Value error, ")
    if first.get("type") == "json_invalid":
        return "the body is not valid JSON"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    said = message if first.get("type") == "value_error" else f"{where}: {message}"  # ours name their field
    return " ".join(f"{said}{more}".split())[:300]


def every_route(routes: Iterable[BaseRoute]) -> Iterator[BaseRoute]:
    """The routes of an app, those of the routers it includes too (FastAPI keeps an included router as one entry
    of ``app.routes``)."""
    for route in routes:
        included = getattr(route, "original_router", None)
        yield from every_route(included.routes) if included is not None else (route,)


def allowed_methods(app: FastAPI, path: str) -> str:
    """Every method of ``path``, for a 405's ``Allow`` header (the router names only its first route's)."""
    return ", ".join(sorted({m for r in every_route(app.routes) if isinstance(r, Route)
                             and r.path_regex.match(path) for m in r.methods or ()}))


def refusal_in(lang: str, e: ApiError) -> str:
    """A refusal's sentence in ``lang`` (English: its own words, as they always were)."""
    return str(e.detail) if lang == DEFAULT else say_in(lang, e.message, **e.values)


def add_error_handlers(app: FastAPI) -> None:
    """Answer every refusal in the one shape of an error."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, e: ApiError) -> JSONResponse:
        return JSONResponse({"detail": refusal_in(language_of(request), e), "code": e.code}, status_code=e.status_code)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, e: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": validation_sentence(e), "code": "invalid"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, e: StarletteHTTPException) -> JSONResponse:
        detail = HTTP_SENTENCES.get(e.status_code) or (e.detail if isinstance(e.detail, str) else "")
        headers = dict(getattr(e, "headers", None) or {})
        if e.status_code == 405:
            headers["Allow"] = allowed_methods(app, request.url.path)
        return JSONResponse({"detail": detail or "the request was refused",
                             "code": HTTP_CODES.get(e.status_code, "http")},
                            status_code=e.status_code, headers=headers or None)

    @app.exception_handler(Exception)
    async def _server_error(_: Request, e: Exception) -> JSONResponse:  # pragma: no cover - a bug of ours
        log.exception("unexpected error")
        return JSONResponse({"detail": "the server failed on that request", "code": "server"}, status_code=500)
