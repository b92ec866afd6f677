"""What every route module of the web server shares: its configuration, guests' names and cookies, and the one
shape of an HTTP error (a sentence and a code)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Cookie, Depends, HTTPException, Request
from pydantic import BaseModel

COOKIE = "taash_guest"
NAME_PUNCTUATION = frozenset(" .'-")


@dataclass(slots=True)
class ServerConfig:
    """How a server runs; every limit has a default fit for one small machine."""

    database_url: str = "sqlite:///taash.db"
    #: Seconds a bot waits before it moves (0 in tests).
    bot_delay: float = 0.8
    #: Seconds a person may be away (no connection) at his turn before a bot plays for him.
    away_seconds: float = 30.0
    #: Seconds a person has for a turn (0: no limit); then his extra time (below) runs, and when that is gone too
    #: the game's move for a turn out of time is made for him (Rummy: the stock's card discarded; the third in a
    #: row drops him), or a bot plays his turn (Seep: after IDLE_AFTER in a row, his seat until he acts again).
    turn_seconds: float = 30.0
    #: Extra seconds each seat has for the whole match, spent only once a turn's own have run out.
    extra_seconds: float = 60.0
    max_tables: int = 2000
    #: Unfinished tables one guest may have created.
    max_tables_per_guest: int = 10
    max_connections: int = 5000
    #: Connections to one table (its players and its spectators).
    max_table_connections: int = 200
    #: Largest websocket message accepted, in bytes.
    max_message: int = 4096
    #: Largest HTTP request body accepted, in bytes.
    max_body: int = 16384
    #: Messages a connection may send per second (with bursts of twice as many).
    rate: float = 10.0
    #: Guests and tables one client address may create per minute (with bursts of as many).
    creations: float = 60.0
    #: Origins allowed on the websocket besides the server's own address.
    allowed_origins: list[str] = field(default_factory=list)
    secure_cookies: bool = False
    #: Chips granted once to a person's wallet when he claims an account (a guest's opens empty) (taash serve
    #: --starting-chips).
    starting_chips: int = 10_000
    #: Accounts one client address may make in a day (taash serve --accounts-per-address).
    accounts_per_address: int = 3
    #: Whether related people (who shared an address) may play each other for chips (taash serve
    #: --allow-related-stakes; by default a staked table refuses to seat or start with them).
    related_stakes: bool = False
    #: The house's share of each winner's winnings, in percent (taash serve --rake).
    rake: float = 0.0
    #: Minutes without a move after which a staked match's creator may abandon it (its stakes refunded).
    abandon_minutes: float = 30.0
    #: Minutes without a move, with no seated person connected, after which the sweep abandons an unfinished
    #: table (a waiting one expires; a staked match is refunded) (taash serve --idle-minutes).
    idle_minutes: float = 30.0
    #: Seconds between two sweeps for idle tables (0: no sweep) (taash serve --sweep-seconds).
    sweep_seconds: float = 60.0


# -- names -----------------------------------------------------------------------------------------------------


def display_name(v: str) -> str:
    """A display name: 1 to 24 letters (of any script, with their marks: Devanagari, Gurmukhi, Tamil...),
    digits, spaces or . ' -; spaces are squeezed."""
    v = " ".join(unicodedata.normalize("NFC", v).split())
    if not 1 <= len(v) <= 24 or not all(c in NAME_PUNCTUATION or unicodedata.category(c)[0] in "LMN" for c in v):
        raise ValueError("a name is 1 to 24 letters, digits, spaces or . ' -")
    return v


NAME_RULE = ("1 to 24 letters of any script (with their marks: Devanagari, Gurmukhi, Tamil...), digits, spaces or "
             ". ' - (spaces are squeezed, and the name is compared without regard to case)")


# -- errors ----------------------------------------------------------------------------------------------------


class ErrorOut(BaseModel):
    detail: str
    code: str


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut}, 401: {"model": ErrorOut}, 403: {"model": ErrorOut}, 404: {"model": ErrorOut},
    409: {"model": ErrorOut}, 413: {"model": ErrorOut}, 422: {"model": ErrorOut}, 429: {"model": ErrorOut},
    503: {"model": ErrorOut}}
STATUS = {"not_found": 404, "forbidden": 403, "full": 503, "server": 503, "no_guest": 401, "too_many": 429}


class ApiError(HTTPException):
    def __init__(self, code: str, message: str):
        super().__init__(STATUS.get(code, 409 if code != "bad" else 400), message)
        self.code = code



# -- guests ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SignedIn:
    """Who a request's cookie signs in: the guest, and the session its cookie names (None: a guest's cookie from
    before sessions, see :mod:`taash.web.sessions`)."""

    guest: str
    session: str | None


def current_session(request: Request, taash_guest: Annotated[str | None, Cookie()] = None) -> SignedIn:
    found = request.app.state.sessions.signed_in(taash_guest)
    if found is None:
        raise ApiError("no_guest", "choose a name first (POST /api/guest)")
    return SignedIn(*found)


def current_guest(signed_in: Annotated[SignedIn, Depends(current_session)]) -> str:
    return signed_in.guest


Guest = Annotated[str, Depends(current_guest)]
Signed = Annotated[SignedIn, Depends(current_session)]
