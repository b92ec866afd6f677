"""How the web server answers a request it refuses: one shape for every error, ``{"detail": sentence, "code":
code}``, whatever refused it (a route, the schema, the router, or a bug of ours)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Route

from taash.i18n import DEFAULT, N_, ngettext, said_of, say_in, speaking
from taash.web.http import ApiError
from taash.web.languages import language_of

log = logging.getLogger("taash.web")

HTTP_CODES = {400: "bad", 401: "no_guest", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
              413: "too_big", 415: "unsupported", 422: "invalid"}
HTTP_SENTENCES = {404: N_("no such page"), 405: N_("that method is not allowed here")}


def validation_sentence(e: RequestValidationError, lang: str = DEFAULT) -> str:
    """The first thing wrong with a request, in one sentence: "body.seat: Input should be ..." (English: pydantic's
    own words, as they always were; another language: the catalogue's sentence for that kind of error, naming the
    field; our own validators' sentences are messages of the catalogue, said in ``lang``)."""
    errors = e.errors()
    if not errors:
        return say_in(lang, N_("the request does not fit the schema"))
    first = errors[0]
    if first.get("type") == "json_invalid":
        return say_in(lang, N_("the body is not valid JSON"))
    where = ".".join(str(x) for x in first.get("loc", ()) if x != "body") or "body"
    if lang != DEFAULT:
        said = error_in(lang, first, where)
        if len(errors) > 1:
            said = say_in(lang, N_("{said} (and {n} more)"), said=said, n=len(errors) - 1)
        return " ".join(said.split())[:300]
    message = str(first.get("msg", "is not valid")).removeprefix("Value error, ")
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    said = message if first.get("type") == "value_error" else f"{where}: {message}"  # ours name their field
    return " ".join(f"{said}{more}".split())[:300]


#: The catalogue's sentence for each kind of pydantic error (its ``type``), the field named ``{field}`` and the
#: error's limits (its ``ctx``) named as pydantic names them; a kind not here gets :data:`NOT_VALID`.
VALIDATION_SENTENCES: dict[str, str] = {
    "missing": N_("{field}: this is required"),
    "extra_forbidden": N_("{field}: there is no such field"),
    "string_type": N_("{field}: must be text"),
    "string_pattern_mismatch": N_("{field}: does not have the form asked for"),
    "int_type": N_("{field}: must be a whole number"),
    "int_parsing": N_("{field}: must be a whole number"),
    "int_from_float": N_("{field}: must be a whole number"),
    "float_type": N_("{field}: must be a number"),
    "float_parsing": N_("{field}: must be a number"),
    "bool_type": N_("{field}: must be true or false"),
    "bool_parsing": N_("{field}: must be true or false"),
    "list_type": N_("{field}: must be a list"),
    "tuple_type": N_("{field}: must be a list"),
    "dict_type": N_("{field}: must be an object"),
    "model_type": N_("{field}: must be an object"),
    "model_attributes_type": N_("{field}: must be an object"),
    "greater_than_equal": N_("{field}: must be {ge} or more"),
    "greater_than": N_("{field}: must be more than {gt}"),
    "less_than_equal": N_("{field}: must be {le} or less"),
    "less_than": N_("{field}: must be less than {lt}"),
    "literal_error": N_("{field}: must be one of {expected}"),
    "enum": N_("{field}: must be one of {expected}"),
}
#: A kind of error the catalogue has no sentence of its own for.
NOT_VALID = N_("{field}: this value is not valid")


def counted(kind: str, n: int, field: str) -> str | None:
    """The sentence of a kind of error whose limit is a count (of characters, of items), ``n``, with the plural
    forms of the language spoken; None for another kind."""
    if kind == "string_too_short":
        return ngettext("{field}: must be at least {n} character long", "{field}: must be at least {n} characters long",
                        n, field=field)
    if kind == "string_too_long":
        return ngettext("{field}: must be at most {n} character long", "{field}: must be at most {n} characters long",
                        n, field=field)
    if kind == "too_short":
        return ngettext("{field}: must hold at least {n} item", "{field}: must hold at least {n} items", n, field=field)
    if kind == "too_long":
        return ngettext("{field}: must hold at most {n} item", "{field}: must hold at most {n} items", n, field=field)
    return None


def error_in(lang: str, error: Mapping[str, Any], field: str) -> str:
    """One pydantic error said in ``lang``: our validator's own sentence (a message of the catalogue), else the
    catalogue's sentence for its kind, naming ``field``."""
    kind, ctx = str(error.get("type", "")), dict(error.get("ctx") or {})
    if kind == "value_error" and isinstance(ctx.get("error"), BaseException):
        return say_in(lang, said_of(ctx["error"]))
    limit = ctx.get("min_length", ctx.get("max_length"))
    with speaking(lang):
        said = counted(kind, limit if isinstance(limit, int) else 0, field)
    if said is not None:
        return str(said)
    values = {k: str(v).replace(" or ", ", ") if k == "expected" else v for k, v in ctx.items()}
    try:
        return say_in(lang, VALIDATION_SENTENCES.get(kind, NOT_VALID), field=field, **values)
    except (KeyError, IndexError):  # a limit pydantic did not give
        return say_in(lang, NOT_VALID, field=field)


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
    async def _invalid(request: Request, e: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": validation_sentence(e, language_of(request)), "code": "invalid"},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, e: StarletteHTTPException) -> JSONResponse:
        lang = language_of(request)
        sentence = HTTP_SENTENCES.get(e.status_code)
        detail = say_in(lang, sentence) if sentence else (e.detail if isinstance(e.detail, str) else "")
        headers = dict(getattr(e, "headers", None) or {})
        if e.status_code == 405:
            headers["Allow"] = allowed_methods(app, request.url.path)
        return JSONResponse({"detail": detail or say_in(lang, N_("the request was refused")),
                             "code": HTTP_CODES.get(e.status_code, "http")},
                            status_code=e.status_code, headers=headers or None)

    @app.exception_handler(Exception)
    async def _server_error(_: Request, e: Exception) -> JSONResponse:  # pragma: no cover - a bug of ours
        log.exception("unexpected error")
        return JSONResponse({"detail": "the server failed on that request", "code": "server"}, status_code=500)
