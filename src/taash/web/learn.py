"""Learning at the web server: each game's learn page and its lesson, whose every step the engine checks
(``/api/learn/{game}``, ``POST /api/learn/{game}/step``), and the coach at a table
(``POST /api/tables/{id}/coach``): the expert bot's move and reason for the asking player's seat, from that seat's
view alone. The coach is refused at tables played for chips: advice from a stronger player than oneself would be
a way to win chips that the other players have no part in."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from taash.i18n import N_, _, said_of, speaking
from taash.learn import learn_page, lesson, step_index
from taash.learn.coach import advice, snapshot
from taash.tables.adapter import TableError
from taash.web.http import ERRORS, ApiError, StrictIn
from taash.web.hub import Hub, Live
from taash.web.languages import language_of
from taash.web.state import Guest

JSON = Any
STATIC = Path(__file__).parent / "static"


class StepIn(StrictIn):
    model_config = ConfigDict(strict=True, extra="forbid")

    step: int = Field(ge=0, le=50, description="The lesson's step, from 0")
    action: dict[str, JSON] = Field(description="The move tried: a table message of the game ({\"type\": \"bid\", "
                                                "\"value\": 13}, {\"type\": \"play\", \"play\": {...}}, {\"type\": "
                                                "\"take\", \"from\": \"discard\"}, ...; a Rummy meld step: "
                                                "{\"type\": \"meld\", \"cards\": [...]})")


class VerdictOut(BaseModel):
    verdict: str = Field(description="right (the move taught), legal (allowed, not the one taught) or refused")
    ok: bool
    said: str = Field(description="One line: the engine's reason for a refusal, else what the move did")


class CoachOut(BaseModel):
    move: dict[str, JSON] = Field(description="The expert bot's move, as the table's message for it")
    why: str = Field(description="Its one-line reason")


def coach_refusal(live: Live, guest: str) -> tuple[str, str] | None:
    """Why ``guest`` may not ask the coach at this table (an error's code and sentence), or None: only a player
    at the table, while the match is played, and never at a table played for chips."""
    if live.stake > 0:
        return "forbidden", _("The coach is not available at tables played for chips.")
    if live.table.seat_of(guest) is None:
        return "forbidden", _("Only a player at this table may ask the coach.")
    if live.table.session is None or live.table.session.over:
        return "not_playing", _("The coach helps while the match is played.")
    return None


async def coached(h: Hub, thinking: set[tuple[str, int]], table_id: str, guest: str) -> CoachOut:
    """What the expert bot would do in the asking player's seat, and why (his turn; never at a table played
    for chips); ``thinking``: the seats whose question is being answered now."""
    live = await h.find(table_id) if re.fullmatch(r"[0-9a-f]{16}", table_id) else None
    if live is None:
        raise ApiError("not_found", N_("no such table"))
    refused = coach_refusal(live, guest)
    if refused is not None:
        raise ApiError(*refused)
    seat, session = live.table.seat_of(guest), live.table.session
    assert seat is not None and session is not None
    if (table_id, seat) in thinking:  # one search at a time per seat: the coach costs half a second's work
        raise ApiError("too_many", _("The coach is still thinking about your last question."))
    thinking.add((table_id, seat))
    try:
        async with live.lock:
            snap = snapshot(session)
        said = await asyncio.to_thread(advice, snap, seat)
    except TableError as e:
        raise ApiError(e.code, said_of(e)) from None
    finally:
        thinking.discard((table_id, seat))
    return CoachOut(**said)


def learn_router(hub: Callable[[], Hub]) -> APIRouter:
    """The learn pages, the lessons' API and the coach; ``hub`` gives the app's table hub once it has started."""
    router = APIRouter()
    #: The seats whose question the coach is answering now.
    thinking: set[tuple[str, int]] = set()

    def taught(game: str) -> Any:
        try:
            return lesson(game)
        except TableError as e:
            raise ApiError(e.code, said_of(e)) from None

    @router.get("/api/learn/{game}", responses=ERRORS)
    async def learn_data(game: str, request: Request) -> JSON:
        """The game's rules in words (each preset's, from its rules data) and every step of its first deal, in the
        language the request asks for."""
        with speaking(language_of(request)):
            return learn_page(taught(game))

    @router.post("/api/learn/{game}/step", response_model=VerdictOut, responses=ERRORS)
    async def learn_step(game: str, body: StepIn, request: Request) -> VerdictOut:
        """A move tried at a step of the lesson, checked by the engine: refused with the engine's reason, or
        accepted (the move taught, or a legal one with the lesson's note)."""
        with speaking(language_of(request)):
            lessoned = taught(game)
            try:
                verdict = lessoned.check(step_index(lessoned, body.step), body.action)
            except TableError as e:
                raise ApiError("bad" if e.code == "malformed" else e.code, said_of(e)) from None
            return VerdictOut(**verdict.to_json())

    @router.post("/api/tables/{table_id}/coach", response_model=CoachOut, responses=ERRORS)
    async def coach(table_id: str, guest: Guest, request: Request) -> CoachOut:
        """What the expert bot would do in the asking player's seat, and why, in the language asked for."""
        with speaking(language_of(request)):
            return await coached(hub(), thinking, table_id, guest)


    @router.get("/learn/{game}", include_in_schema=False)
    async def learn_page_html(game: str) -> FileResponse:
        taught(game)
        return FileResponse(STATIC / "learn.html", headers={"Cache-Control": "no-cache"})

    return router
