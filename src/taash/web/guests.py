"""Becoming a guest: a display name, and the signed cookie that names the guest from then on."""

from __future__ import annotations

import asyncio
import secrets

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field, field_validator

from taash.web.fair_play import AS_GUEST
from taash.web.http import COOKIE, ERRORS, NAME_RULE, ApiError, StrictIn, display_name
from taash.web.state import State

router = APIRouter()


class GuestIn(StrictIn):
    name: str = Field(min_length=1, max_length=24, description=f"The display name: {NAME_RULE}")

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return display_name(v)


class GuestOut(BaseModel):
    id: str
    name: str




@router.post("/api/guest", response_model=GuestOut, responses=ERRORS)
async def new_guest(body: GuestIn, response: Response, request: Request, state: State) -> GuestOut:
    """Become a guest with a display name (409 ``name_taken`` for an account's name, or one that looks or
    reads like it); the answer sets the signed guest cookie. A guest's wallet opens empty: free chips come
    with an account."""
    refused = await asyncio.to_thread(state.fair.name_refusal, body.name, None)
    if refused is not None:
        raise ApiError("name_taken", refused)
    state.creating(request)
    guest = secrets.token_hex(16)
    await state.store.add_guest(guest, body.name)
    await state.store.write(state.fair.seen(guest, request.client.host if request.client else "?", AS_GUEST))
    await asyncio.to_thread(state.ledger.open_wallet, guest, False)
    response.set_cookie(COOKIE, await state.sessions.open(guest), httponly=True, samesite="lax",
                        secure=state.config.secure_cookies, max_age=60 * 60 * 24 * 365)
    return GuestOut(id=guest, name=body.name)
