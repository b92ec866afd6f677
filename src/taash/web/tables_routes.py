"""The lobby's tables over HTTP: listing, making and finding tables, taking and leaving seats, filling them with
bots, starting and abandoning a match, what a stake holds, and a match against the computer in one click."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Cookie, Query, Request

from taash.i18n import N_, said_of
from taash.tables.adapter import TableError
from taash.web import lobby
from taash.web.http import ERRORS, ApiError
from taash.web.hub import Live
from taash.web.hub.ending import abandon_refusal
from taash.web.stakes import hold_for, hold_words
from taash.web.state import AppState, Guest, State
from taash.web.table_models import (
    HoldOut,
    SitIn,
    TableIn,
    TableOut,
    TableQuery,
    code_shown,
    private_refused,
    settings_of,
    sit_action,
    table_out,
)

router = APIRouter()


@router.get("/api/tables", response_model=list[TableOut])
async def public_tables(state: State) -> list[TableOut]:
    """Public tables that are waiting or playing (for the lobby and spectators)."""
    return await lobby.public_tables(state.hub, state.services.snapshots)


@router.post("/api/tables", response_model=TableOut, responses=ERRORS)
async def create_table(body: TableIn, guest: Guest, request: Request, state: State) -> TableOut:
    """Create a table, its creator seated in ``seat`` (0 unless told); share its invite link or code."""
    state.creating(request)
    live = await new_table(state, body, guest)
    return table_out(live, True)


@router.get("/api/stakes/hold", response_model=HoldOut, responses=ERRORS)
async def stake_hold(query: Annotated[TableQuery, Query()]) -> HoldOut:
    """What a table of these settings (as ``POST /api/tables`` takes them) played for ``stake`` holds from
    each player when its match starts, before it is created: the chips and the sentence saying why."""
    try:
        settings = settings_of(query)
    except TableError as e:
        raise ApiError(e.code, said_of(e)) from None
    return HoldOut(hold=hold_for(settings, query.stake),
                   said=hold_words(settings, query.stake) if query.stake else "not played for chips")


async def new_table(state: AppState, body: TableIn, guest: str) -> Live:
    name = await state.guest_name(guest)
    if body.stake > 0 and not state.fair.accounts([guest]):
        raise ApiError("account_needed", N_("playing for chips needs an account: claim your name (Account) first, "
                                            "or play without stakes"))
    try:
        live = await state.hub.create(settings_of(body), guest, body.stake)
    except TableError as e:
        raise ApiError(e.code, said_of(e)) from None
    if body.seat is not None:
        live = await state.act(live, sit_action(body.seat, name, body.seed), guest)
    if state.services.snapshots is not None:  # the other servers' lobbies list it soon
        state.services.snapshots.changed()
    return live


@router.get("/api/tables/{table_id}", response_model=TableOut, responses=ERRORS)
async def get_table(table_id: str, state: State, taash_guest: Annotated[str | None, Cookie()] = None) -> TableOut:
    """A table's seats and status; a private table's only for its creator and its players (403)."""
    live = await state.live_table(table_id)
    guest = await state.guest_of(taash_guest)
    private_refused(live, guest, N_("a private table: only its players may see it"))
    return table_out(live, True)


@router.get("/api/join/{code}", response_model=TableOut, responses=ERRORS)
async def find_table(code: str, request: Request, state: State,
                     taash_guest: Annotated[str | None, Cookie()] = None) -> TableOut:
    """The table of an invite code (a client that tries many wrong codes is made to wait); a private table
    that has started only for its creator and its players (403)."""
    who = request.client.host if request.client else "?"
    if not state.wrong_codes.allowed(who):
        raise ApiError("too_many", N_("too many wrong codes: wait a little and check the code"))
    live = await state.hub.find_by_code(code) if re.fullmatch(r"[A-Za-z0-9]{4,12}", code) else None
    if live is None:
        state.wrong_codes.spend(who)
        raise ApiError("not_found", N_("no table has that code"))
    if not state.hub.may_watch(live, await state.guest_of(taash_guest), code):
        raise ApiError("forbidden", N_("the match at that private table has started: only its players may see it"))
    return table_out(live, True)


@router.post("/api/tables/{table_id}/sit", response_model=TableOut, responses=ERRORS)
async def sit(table_id: str, body: SitIn, guest: Guest, request: Request, state: State) -> TableOut:
    """Take a seat (partners sit opposite: seats 0 and 2, 1 and 3), under your name or another one: names are
    unique per table. A private table needs its invite ``code`` (403 without it)."""
    live = await state.live_table(table_id)
    who = request.client.host if request.client else "?"
    if not code_shown(live, guest) and not state.code_opens(live, body.code, who):
        raise ApiError("forbidden", N_("a private table: sitting at it needs its invite code"))
    live = await state.act(live, sit_action(body.seat, body.name or await state.guest_name(guest), body.seed), guest)
    return table_out(live, True)


@router.post("/api/tables/{table_id}/leave", response_model=TableOut, responses=ERRORS)
async def leave(table_id: str, guest: Guest, state: State) -> TableOut:
    """Leave your seat before the start (400 ``bad`` when you are not seated here, 409 ``started`` after)."""
    live = await state.live_table(table_id)
    live = await state.act(live, {"type": "leave"}, guest)
    return table_out(live, code_shown(live, guest))


@router.post("/api/tables/{table_id}/bots", response_model=TableOut, responses=ERRORS)
async def fill_with_bots(table_id: str, guest: Guest, state: State) -> TableOut:
    """Put bots in every empty seat (the table's creator or a seated player only: 403)."""
    live = await state.live_table(table_id)
    live = await state.act(live, {"type": "bots"}, guest)
    return table_out(live, True)


@router.post("/api/tables/{table_id}/start", response_model=TableOut, responses=ERRORS)
async def start(table_id: str, guest: Guest, state: State) -> TableOut:
    """Start the match: every seat must be filled (the table's creator or a seated player only: 403)."""
    live = await state.live_table(table_id)
    live = await state.act(live, {"type": "start"}, guest)
    return table_out(live, True)


@router.post("/api/tables/{table_id}/abandon", response_model=TableOut, responses=ERRORS)
async def abandon(table_id: str, guest: Guest, state: State) -> TableOut:
    """Abandon a table that has not finished (its creator only: 403): every stake held is refunded."""
    live = await state.live_table(table_id)
    minutes = state.config.abandon_minutes
    quiet = minutes * 60
    # At a table another server owns, only the creator is checked here: its owner knows when the last move was.
    refused = abandon_refusal(live, guest, quiet if live.owner is None else 0.0, state.hub.clock.monotonic())
    if refused is not None:
        raise ApiError(*refused, minutes=f"{minutes:g}")
    try:
        await state.hub.abandon(live, guest=guest, quiet=quiet)
    except TableError as e:
        raise ApiError(e.code, said_of(e), minutes=f"{minutes:g}") from None
    return TableOut(**{**table_out(live, True).model_dump(), "status": "abandoned"})


@router.post("/api/quick", response_model=TableOut, responses=ERRORS)
async def play_the_computer(body: TableIn, guest: Guest, request: Request, state: State) -> TableOut:
    """One click: a private table with you in seat 0 and bots in the others, started."""
    await state.guest_name(guest)
    state.creating(request)
    live = await new_table(state, TableIn(**{**body.model_dump(), "public": False, "seat": 0}), guest)
    live = await state.act(live, {"type": "bots"}, guest)
    live = await state.act(live, {"type": "start"}, guest)
    return table_out(live, True)
