"""The wallet's HTTP API: a guest's balance and recent transfers, and the daily bonus."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime

from fastapi import APIRouter
from pydantic import BaseModel
from sqlalchemy import or_, select

from taash.chips.errors import ChipsError, UnknownAccount
from taash.chips.ledger import TRANSFERS, Ledger, wallet_of
from taash.web.http import ERRORS, ApiError, Guest

#: Transfers GET /api/chips lists, newest first.
RECENT = 20


class TransferOut(BaseModel):
    id: str
    kind: str
    amount: int  # positive: into the wallet; negative: out of it
    match_id: str | None


class ChipsOut(BaseModel):
    balance: int
    bonus_floor: int
    daily_bonus: int
    rake_percent: float
    recent: list[TransferOut]


def recent_transfers(ledger: Ledger, guest: str, limit: int = RECENT) -> list[TransferOut]:
    wallet = wallet_of(guest)
    with ledger.engine.connect() as c:
        rows = c.execute(select(TRANSFERS).where(or_(TRANSFERS.c.debit_id == wallet, TRANSFERS.c.credit_id == wallet))
                         .order_by(TRANSFERS.c.created_at.desc(), TRANSFERS.c.id.desc()).limit(limit))
        return [TransferOut(id=r.id, kind=r.kind, amount=r.amount if r.credit_id == wallet else -r.amount,
                            match_id=r.match_id) for r in rows]


def chips_router(ledger: Callable[[], Ledger]) -> APIRouter:
    router = APIRouter()

    def wallet(guest: str) -> ChipsOut:
        books = ledger()
        try:
            balance = books.balance(wallet_of(guest))
        except UnknownAccount:  # a guest from before the server kept chips: his wallet opens now
            books.open_wallet(guest)
            balance = books.balance(wallet_of(guest))
        return ChipsOut(balance=balance, bonus_floor=books.bonus_floor, daily_bonus=books.bonus,
                        rake_percent=float(books.rake_percent), recent=recent_transfers(books, guest))

    @router.get("/api/chips", response_model=ChipsOut, responses=ERRORS)
    async def my_chips(guest: Guest) -> ChipsOut:
        """Your wallet: its balance and its latest transfers (grants, bonuses, stakes held, settled, refunded)."""
        return await asyncio.to_thread(wallet, guest)

    @router.post("/api/chips/bonus", response_model=ChipsOut, responses=ERRORS)
    async def daily_bonus(guest: Guest) -> ChipsOut:
        """Claim today's bonus (once a day, UTC, and only below the floor: 409 ``no_bonus`` otherwise)."""
        def claim() -> ChipsOut:
            before = wallet(guest)
            try:
                given = ledger().daily_bonus(guest, datetime.now(UTC).date())
            except ChipsError as e:
                raise ApiError("no_bonus", str(e)) from None
            if given is None:
                raise ApiError("no_bonus", f"the daily bonus is for wallets below {before.bonus_floor:,} chips; "
                                           f"yours has {before.balance:,}")
            if any(t.id == given.id for t in before.recent):
                raise ApiError("no_bonus", "today's bonus was given already; come back tomorrow (UTC)")
            return wallet(guest)
        return await asyncio.to_thread(claim)

    return router
