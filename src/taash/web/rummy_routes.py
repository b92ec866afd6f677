"""13-card Rummy's own endpoint (its plugin's ``routes``, mounted by :mod:`taash.web.games`): the engine's word on
a hand arranged in groups, for the browser's live labels. ``POST /api/games/rummy/groups``; the browser's first
URL, ``POST /api/rummy/groups``, answers the same."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from taash.i18n import said_of
from taash.tables.adapter import TableError
from taash.tables.rummy import judge_groups
from taash.web.http import ERRORS, ApiError, StrictIn

JSON = Any


class GroupsIn(StrictIn):
    rules: str | dict[str, JSON] | None = Field(None, description="The deal's rules as its state names them (a "
                                                                 "preset's name, or its parameters); null: octro")
    wild: str = Field(max_length=2, description="The deal's wild rank, as its state names it (\"7\", \"T\")")
    groups: list[list[str]] = Field(max_length=14, description="The hand in groups, cards by their protocol "
                                                               "names (\"Kd\", \"JK\"); 14 cards at most")


class GroupsOut(BaseModel):
    kinds: list[str | None] = Field(description="Each group's kind: pure, impure, set, free (jokers alone) or "
                                                "invalid")
    valid: bool = Field(description="Whether these 13 cards so grouped would make a valid declaration")
    points: int = Field(description="What the hand so grouped would score if another player declared now")


router = APIRouter()


@router.post("/api/games/rummy/groups", response_model=GroupsOut, responses=ERRORS)
@router.post("/api/rummy/groups", response_model=GroupsOut, responses=ERRORS)
async def rummy_groups(body: GroupsIn) -> GroupsOut:
    """The engine's word on a Rummy hand arranged in groups (stateless: it holds no table's cards): each
    group's kind, whether it is a valid declaration, and its points if another player declared now."""
    try:
        return GroupsOut(**judge_groups(body.rules, body.wild, body.groups))
    except TableError as e:
        raise ApiError(e.code, said_of(e)) from None
