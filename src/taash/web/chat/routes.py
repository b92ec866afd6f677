"""The chat over HTTP: the quick phrases and emotes in a language, a report of a line (kept for the operator:
``taash admin reports``), and the players' chat of a finished match for its replay, for those who played it."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Cookie, Query
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from taash.i18n import N_
from taash.web.chat.phrases import catalogue
from taash.web.chat.room import PLAYERS, ChatLine
from taash.web.db import ResultRow
from taash.web.http import ERRORS, ApiError, StrictIn
from taash.web.hub import Live
from taash.web.state import AppState, Guest, State
from taash.web.table_models import private_refused
from taash.web.tournament_book import read
from taash.web.tournament_socket import may_hear_line

router = APIRouter()


class ReportIn(StrictIn):
    line: str = Field(min_length=1, max_length=32, description="The id of the line reported (its message's line)")


class ReportOut(BaseModel):
    reported: bool = Field(description="False when this person had reported the line already")


@router.get("/api/chat/phrases")
async def phrases(lang: Annotated[str, Query(max_length=8)] = "en") -> dict[str, list[dict[str, str]]]:
    """The quick phrases and emotes, each with its id and its words in ``lang`` (English for a language taash
    does not speak)."""
    return catalogue(lang)


def participants(state: AppState, live: Live) -> set[str]:
    """Whoever played the table's match: its seated people, and those its results name."""
    seated = {s.guest for s in live.table.seats if s.guest is not None}
    with Session(state.store.engine) as s:
        results = s.scalars(select(ResultRow.guest).where(ResultRow.table_id == live.table.id)).all()
    return seated | {g for g in results if g is not None}


def table_of(state: AppState, line: ChatLine) -> Live:
    kind, _, table_id = line.room.partition(":")
    live = state.hub.get(table_id) if kind == "table" else None
    if live is None:
        raise ApiError("not_found", N_("no such chat line"))
    return live


def could_hear(state: AppState, guest: str, line: ChatLine) -> bool:
    """Whether ``guest`` was one of the line's listeners: a player of its table (the players' channel), or a
    watcher of its public table (the watchers'); in a tournament's room, an entrant (the entrants' channel) or
    anyone (the watchers')."""
    kind, _, key = line.room.partition(":")
    if kind == "tournament":
        record = read(state.store.engine, key)
        if record is None:
            raise ApiError("not_found", N_("no such chat line"))
        return may_hear_line(record, guest, line.channel)
    live = table_of(state, line)
    if line.channel == PLAYERS:
        return live.table.seat_of(guest) is not None or guest in participants(state, live)
    return live.table.settings.public


@router.post("/api/chat/report", response_model=ReportOut, responses=ERRORS)
async def report(body: ReportIn, guest: Guest, state: State) -> ReportOut:
    """Report a chat line to the operator; only someone who could hear it may, and not its speaker."""
    chat = state.chat
    line = await asyncio.to_thread(chat.line, body.line)
    if line is None:
        raise ApiError("not_found", N_("no such chat line"))
    if line.speaker.guest == guest:
        raise ApiError("bad", N_("you cannot report your own line"))
    if not await asyncio.to_thread(could_hear, state, guest, line):
        raise ApiError("forbidden", N_("you can report only a line you could hear"))
    return ReportOut(reported=await chat.report(line, guest))


class FilterOut(BaseModel):
    on: bool = Field(description="Whether the table's word filter stars out rude words")
    may_switch: bool = Field(description="Whether this person may switch it (a private table's creator)")


@router.get("/api/tables/{table_id}/chat-filter", response_model=FilterOut, responses=ERRORS)
async def chat_filter(table_id: str, state: State, taash_guest: Annotated[str | None, Cookie()] = None) -> FilterOut:
    """A table's word filter, and whether the asker may switch it (over the websocket: ``chat_filter``); a private
    table's only for its creator and players (403)."""
    live = await state.live_table(table_id)
    guest = await state.guest_of(taash_guest)
    private_refused(live, guest, N_("a private table: only its players may see its chat"))
    room = await state.chat.room(f"table:{table_id}")
    may = not live.table.settings.public and guest is not None and guest == live.table.owner
    return FilterOut(on=room.filter_on, may_switch=may)


@router.get("/api/tables/{table_id}/chat", responses=ERRORS)
async def match_chat(table_id: str, state: State,
                     taash_guest: Annotated[str | None, Cookie()] = None) -> dict[str, list[dict[str, object]]]:
    """The players' chat of a finished match, for its replay: only for those who played it (anyone else, watchers
    included, gets no lines: every replay page asks, and a refusal would be an error in its console); 409 before
    the match is over."""
    live = await state.live_table(table_id)
    guest = await state.guest_of(taash_guest)
    if guest is None or guest not in await asyncio.to_thread(participants, state, live):
        return {"lines": []}
    if live.table.status != "finished":
        raise ApiError("not_finished", N_("the chat is shown with the replay, once the match is over"))
    chat = state.chat
    lines = await asyncio.to_thread(chat.lines, f"table:{table_id}", PLAYERS)
    return {"lines": [line.message() for line in lines if chat.may_hear(guest, line.speaker.guest)]}

