"""The languages of the web: each language's catalogue for the browser (GET /api/i18n/{lang}, made from the same
Babel .po files as the server's own), and the language a request or a socket asks to be answered in (its
``Accept-Language``, or a socket's ``?lang=``); English unless it asks, so that what everyone is sent stays the same
byte for byte until he does."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import JSONResponse

from taash.i18n import LANGUAGES, N_, best_language, client_catalogue
from taash.web.http import ERRORS, ApiError

router = APIRouter()


def language_of(request: Request) -> str:
    """The language an HTTP request asks its refusals in (its ``Accept-Language``, which the client sets to the page's
    language)."""
    return best_language(request.headers.get("accept-language"))


def socket_language(ws: WebSocket) -> str:
    """The language a websocket asks its refusals in: its ``?lang=`` (the browser's API cannot set headers on a
    socket), else its ``Accept-Language``."""
    return best_language(ws.query_params.get("lang") or ws.headers.get("accept-language"))


@router.get("/api/i18n/{lang}", responses=ERRORS)
async def catalogue(lang: str) -> JSONResponse:
    """A language's catalogue for the browser: ``{lang, languages, plural, messages}`` (see docs/languages.md)."""
    if lang not in LANGUAGES:
        raise ApiError("not_found", N_("no such language: {lang}"), lang=lang[:20])
    body: dict[str, Any] = client_catalogue(lang)
    return JSONResponse(body, headers={"Cache-Control": "no-cache"})
