"""What a table has written down, over HTTP: its whole log, and once its match is over its record, its replay and
the check of its fair dealing (as ``taash verify`` does it). A private table's only for its creator and players."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Cookie, Request
from fastapi.responses import JSONResponse

from taash.i18n import N_, in_language, said_of
from taash.tables.adapter import TableError
from taash.web.http import ERRORS, ApiError
from taash.web.languages import language_of
from taash.web.state import State
from taash.web.table_models import LogOut, private_refused

router = APIRouter()


@router.get("/api/tables/{table_id}/log", response_model=LogOut, responses=ERRORS)
async def whole_log(table_id: str, state: State, request: Request,
                    taash_guest: Annotated[str | None, Cookie()] = None) -> LogOut:
    """Every line of a table's log so far (the state carries the last few): what everyone at the table was
    told, in words (in the language the request asks for); a private table's only for its creator and its
    players (403)."""
    live = await state.live_table(table_id)
    private_refused(live, await state.guest_of(taash_guest), N_("a private table: only its players may see its log"))
    return LogOut(log=in_language(language_of(request), list(live.table.log)))


@router.get("/api/tables/{table_id}/record", responses=ERRORS)
async def record(table_id: str, state: State, taash_guest: Annotated[str | None, Cookie()] = None) -> JSONResponse:
    """The game record of a finished match (every hand: only once the match is over), with its scores; a
    private table's only for its creator and its players (403)."""
    live = await state.live_table(table_id)
    private_refused(live, await state.guest_of(taash_guest), N_("a private table: only its players may see its record"))
    if live.table.status != "finished":
        raise ApiError("not_finished", N_("the record is published when the match is over"))
    data = live.table.record()
    name = f"{live.table.settings.game}-{table_id}.json"
    return JSONResponse(data, headers={"Content-Disposition": f'inline; filename="{name}"'})


@router.get("/api/tables/{table_id}/replay", responses=ERRORS)
async def replay_steps(table_id: str, state: State, request: Request,
                       taash_guest: Annotated[str | None, Cookie()] = None) -> JSONResponse:
    """Every step of a finished match as the engine plays it again (every hand, the floor, what happened in
    words), for the replay page; 409 before the match is over; a private table's only for its creator and
    its players (403)."""
    live = await state.live_table(table_id)
    private_refused(live, await state.guest_of(taash_guest), N_("a private table: only its players may see its replay"))
    if live.table.status != "finished":
        raise ApiError("not_finished", N_("the replay is published when the match is over"))
    return JSONResponse(in_language(language_of(request), await asyncio.to_thread(live.table.replay)))


@router.get("/api/tables/{table_id}/verify", responses=ERRORS)
async def verify(table_id: str, state: State, request: Request,
                 taash_guest: Annotated[str | None, Cookie()] = None) -> JSONResponse:
    """Check a finished match's record against its fair dealing, as ``taash verify`` does: the secret against
    the commitment published from the start, and every deal against the secret. ``{"ok": true, "deals":
    [line per deal], ...}`` or ``{"ok": false, "error": line}``; 409 before the match is over (the secret is
    not yet revealed) or for a table made before tables dealt fairly; a private table's only for its creator
    and its players (403)."""
    live = await state.live_table(table_id)
    private_refused(live, await state.guest_of(taash_guest), N_("a private table: only its players may see its record"))
    fairness = live.table.fairness_state()
    try:
        deals = await asyncio.to_thread(live.table.verify)
    except TableError as e:
        if e.code != "unfair":
            raise ApiError(e.code, said_of(e)) from None
        return JSONResponse({"ok": False, "error": in_language(language_of(request), said_of(e)), "fairness": fairness})
    return JSONResponse({"ok": True, "deals": deals, "fairness": fairness})
