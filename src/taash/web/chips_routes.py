"""The wallet's HTTP API: a guest's balance and recent transfers, and the daily bonus.

The daily bonus is for accounts (free chips belong to accounts: see :mod:`taash.web.fair_play`), and is given by
itself: an account below the floor that comes back on a new day (UTC) gets it when its
page asks who he is (``GET /api/me``) or for his wallet (``GET /api/chips``, the lobby's); ``POST /api/chips/bonus``
still claims it. Its transfer id, ``bonus:PERSON:DAY``, makes it once a day whatever asks for it, and however many
ask at once.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, date, datetime

from fastapi import APIRouter
from pydantic import BaseModel, Field
from sqlalchemy import or_, select

from taash.chips.books import BONUS
from taash.chips.errors import ChipsError, UnknownAccount
from taash.chips.ledger import TRANSFERS, Ledger, Transfer, wallet_of
from taash.i18n import N_, said_of
from taash.web.http import ERRORS, ApiError
from taash.web.state import AppState, Guest, State

log = logging.getLogger("taash.web")
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
    bonus_today: int = Field(0, description="The chips of today's bonus (UTC) given to this wallet (0: none)")
    account: bool = Field(description="Whether the wallet is an account's (only accounts get the starting grant "
                                      "and the daily bonus, and play for chips)")
    recent: list[TransferOut]


def today() -> date:
    """The bonus's day: today in UTC."""
    return datetime.now(UTC).date()


def bonus_id(guest: str, day: date) -> str:
    return f"{BONUS}:{guest}:{day.isoformat()}"


def recent_transfers(ledger: Ledger, guest: str, limit: int = RECENT) -> list[TransferOut]:
    wallet = wallet_of(guest)
    with ledger.engine.connect() as c:
        rows = c.execute(select(TRANSFERS).where(or_(TRANSFERS.c.debit_id == wallet, TRANSFERS.c.credit_id == wallet))
                         .order_by(TRANSFERS.c.created_at.desc(), TRANSFERS.c.id.desc()).limit(limit))
        return [TransferOut(id=r.id, kind=r.kind, amount=r.amount if r.credit_id == wallet else -r.amount,
                            match_id=r.match_id) for r in rows]


def give_daily_bonus(ledger: Ledger, guest: str, day: date | None = None) -> Transfer | None:
    """Today's bonus when ``guest`` is below the floor and has not had it yet: the transfer when this call gave it,
    else None. Reads first, so that a wallet with enough chips, or today's bonus, costs no write; a wallet not
    opened yet is left alone."""
    day = day or today()
    try:
        if ledger.bonus == 0 or ledger.balance(wallet_of(guest)) >= ledger.bonus_floor:
            return None
    except UnknownAccount:
        return None
    if ledger.transfer_by_id(bonus_id(guest, day)) is not None:
        return None
    try:
        given, new = ledger.claim_daily_bonus(guest, day)  # it checks again, in the transaction that pays it
    except ChipsError as e:  # the books too busy, say: the page still loads; the next visit gives it
        log.warning("the daily bonus of %s was not given: %s", guest, e)
        return None
    return given if new else None


router = APIRouter()


def wallet(state: AppState, guest: str) -> ChipsOut:
    """A guest's wallet as the lobby shows it (opened now when it is not yet: empty for a guest)."""
    books = state.ledger
    account = bool(state.fair.accounts([guest]))
    try:
        balance = books.balance(wallet_of(guest))
    except UnknownAccount:  # a person from before the server kept chips: his wallet opens now (empty for a guest)
        books.open_wallet(guest, account)
        balance = books.balance(wallet_of(guest))
    bonus = books.transfer_by_id(bonus_id(guest, today()))
    return ChipsOut(balance=balance, bonus_floor=books.bonus_floor, daily_bonus=books.bonus,
                    rake_percent=float(books.rake_percent), bonus_today=bonus.amount if bonus else 0,
                    account=account, recent=recent_transfers(books, guest))


def wallet_with_bonus(state: AppState, guest: str) -> ChipsOut:
    out = wallet(state, guest)  # opens it when it is not yet
    return wallet(state, guest) if out.account and give_daily_bonus(state.ledger, guest) else out


def claim_bonus(state: AppState, guest: str) -> ChipsOut:
    """Today's bonus claimed, and the wallet after it (409 ``no_bonus`` when there is none to give)."""
    before = wallet(state, guest)
    if not before.account:
        raise ApiError("no_bonus", N_("the daily bonus is for accounts: claim your name (Account) first"))
    try:
        given, new = state.ledger.claim_daily_bonus(guest, today())
    except ChipsError as e:
        raise ApiError("no_bonus", said_of(e)) from None
    if given is None:
        raise ApiError("no_bonus", N_("the daily bonus is for wallets below {floor} chips; yours has {balance}"),
                       floor=f"{before.bonus_floor:,}", balance=f"{before.balance:,}")
    if not new:
        raise ApiError("no_bonus", N_("today's bonus was given already; come back tomorrow (UTC)"))
    return wallet(state, guest)


@router.get("/api/chips", response_model=ChipsOut, responses=ERRORS)
async def my_chips(guest: Guest, state: State) -> ChipsOut:
    """Your wallet: its balance and its latest transfers (grants, bonuses, stakes held, settled, refunded).
    Below the floor, today's bonus is given first when you have not had it."""
    return await asyncio.to_thread(wallet_with_bonus, state, guest)


@router.post("/api/chips/bonus", response_model=ChipsOut, responses=ERRORS)
async def daily_bonus(guest: Guest, state: State) -> ChipsOut:
    """Claim today's bonus (an account's, once a day, UTC, and only below the floor: 409 ``no_bonus``
    otherwise; it is also given by itself at ``GET /api/me`` and ``GET /api/chips``)."""
    return await asyncio.to_thread(claim_bonus, state, guest)
