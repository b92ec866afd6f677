"""What every route module of the web server shares: its configuration, guests' names and their cookie's name,
and the one shape of an HTTP error (a sentence and a code)."""

from __future__ import annotations

import unicodedata
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from fastapi import HTTPException
from pydantic import BaseModel, ConfigDict

from taash.i18n import _

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
    #: Websockets the server holds at most (tables' and the Play now queue's).
    max_connections: int = 5000
    #: The share of ``max_connections`` kept for players connecting to their own tables: spectators and the Play
    #: now queue stop this far below the maximum.
    reserved_for_players: float = 0.1
    #: Websockets from one client address, a player's to his own tables apart (taash serve
    #: --max-connections-per-address).
    max_connections_per_address: int = 50
    #: Websockets of one guest, wherever they go (taash serve --max-connections-per-guest).
    max_connections_per_guest: int = 20
    #: Connections to one table (a seated player's own are always let in).
    max_table_connections: int = 200
    #: Largest websocket message accepted, in bytes.
    max_message: int = 4096
    #: Largest HTTP request body accepted, in bytes.
    max_body: int = 16384
    #: Messages a connection may send per second (with bursts of twice as many).
    rate: float = 10.0
    #: Guests and tables one client address may create per minute (with bursts of as many).
    creations: float = 60.0
    #: Origins whose pages may open the websocket and make state-changing requests, besides the server's own.
    allowed_origins: list[str] = field(default_factory=list)
    #: Proxies (addresses or networks) whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed (taash
    #: serve --trusted-proxy); none by default: the client's address is the connection's.
    trusted_proxies: list[str] = field(default_factory=list)
    #: Seconds a connection has to send a request's headers, from its start or the request's first byte (taash
    #: serve --header-timeout); then it is closed.
    header_timeout: float = 10.0
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
    #: Seconds between two passes over the tournaments (starting those due, counting matches that ended).
    tournament_seconds: float = 1.0
    #: Redis, for a server among several sharing the database (taash serve --redis-url; docs/cluster.md): tables
    #: held under leases and reached through the relay. None: a lone server, as ever.
    redis_url: str | None = None
    #: This server's name among several (unique; made from the host and process when empty).
    server_id: str = ""
    #: Seconds a table's lease lasts unless renewed (renewed every third of it; taash serve --lease-seconds): a
    #: dead server's tables are taken within about this and a third; longer rides out a slower database.
    lease_seconds: float = 3.0


# -- names -----------------------------------------------------------------------------------------------------


#: Combining marks (Unicode category M: vowel signs, viramas, nuktas, accents) one letter or digit may carry in a
#: row. Devanagari and Gurmukhi need up to three ("हैं", "क़ीं", "ਗੁਰਪ੍ਰੀਤ"); a letter under a pile of marks that
#: spills over the lines around it is refused.
MAX_MARKS = 3


def display_name(v: str) -> str:
    """A display name: 1 to 24 letters (of any script, with their marks: Devanagari, Gurmukhi, Tamil...),
    digits, spaces or . ' -; spaces are squeezed; at most ``MAX_MARKS`` marks in a row, after a letter or digit."""
    v = " ".join(unicodedata.normalize("NFC", v).split())
    if not 1 <= len(v) <= 24 or not all(c in NAME_PUNCTUATION or unicodedata.category(c)[0] in "LMN" for c in v):
        raise ValueError(_("a name is 1 to 24 letters, digits, spaces or . ' -"))
    if not marks_carried(v):
        raise ValueError(_("a name's marks (accents, vowel signs) come after a letter or digit, {most} at most in a "
                           "row", most=MAX_MARKS))
    return v


def marks_carried(v: str) -> bool:
    """Whether every run of combining marks in ``v`` follows a letter or digit and is ``MAX_MARKS`` long at most.

    >>> marks_carried("ਗੁਰਪ੍ਰੀਤ"), marks_carried("a\u0301\u0302\u0303\u0304"), marks_carried("\u0301a")
    (True, False, False)
    """
    run, base = 0, False
    for c in v:
        kind = unicodedata.category(c)[0]
        if kind != "M":
            run, base = 0, kind in "LN"
            continue
        run += 1
        if not base or run > MAX_MARKS:
            return False
    return True


NAME_RULE = ("1 to 24 letters of any script (with their marks: Devanagari, Gurmukhi, Tamil...), digits, spaces or "
             f". ' -; at most {MAX_MARKS} marks in a row, after a letter or digit (spaces are squeezed, and the name "
             "is compared without regard to case)")


# -- where a request comes from --------------------------------------------------------------------------------

#: The methods that change nothing; every other one (POST, PUT, PATCH, DELETE) must come from this server's pages.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: The bodies a page of another site may post with no preflight (a form's): the JSON API takes none of them.
FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data", "text/plain"})
CROSS_SITE = "a page of another site may not change anything here"


def origin_allowed(origin: str, host: str | None, allowed: Collection[str]) -> bool:
    """Whether a page of ``origin`` may talk to this server: one of its own (the origin's host and port are the
    request's ``Host``), or one named in ``allowed`` (taash serve --allowed-origin)."""
    if origin in allowed:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:  # "http://[::1", say
        return False
    return bool(netloc) and host is not None and netloc.lower() == host.lower()


def cross_site(origin: str | None, fetch_site: str | None, host: str | None, allowed: Collection[str]) -> bool:
    """Whether a state-changing request comes from another site's page: its ``Origin`` is not allowed, or it has
    none and its ``Sec-Fetch-Site`` says another site (or another origin of this one). A request with neither
    header is no browser's (a browser sends ``Origin`` on every POST), or one with no cookie to abuse: the guest
    cookie is ``SameSite=Lax``."""
    if origin is not None:
        return not origin_allowed(origin, host, allowed)
    return fetch_site in ("cross-site", "same-site")


# -- request bodies --------------------------------------------------------------------------------------------


class StrictIn(BaseModel):
    """A request body, read strictly: a number is a JSON integer (not ``"100"``, ``true`` or ``1000.0``), a
    yes-or-no is ``true`` or ``false``, a text is a string; anything else is refused (422 ``invalid``, naming the
    field) rather than guessed at."""

    model_config = ConfigDict(strict=True)


# -- errors ----------------------------------------------------------------------------------------------------


class ErrorOut(BaseModel):
    detail: str
    code: str


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut}, 401: {"model": ErrorOut}, 403: {"model": ErrorOut}, 404: {"model": ErrorOut},
    409: {"model": ErrorOut}, 413: {"model": ErrorOut}, 422: {"model": ErrorOut}, 429: {"model": ErrorOut},
    503: {"model": ErrorOut}}
STATUS = {"not_found": 404, "forbidden": 403, "full": 503, "server": 503, "no_guest": 401, "too_many": 429,
          "moved": 503, "unavailable": 503}


class ApiError(HTTPException):
    """A refusal: ``message`` is an English sentence of the catalogue (marked ``N_``), its ``{placeholders}`` filled
    from ``values``; the error handler answers it in the language the request asked for."""

    def __init__(self, code: str, message: str, **values: Any):
        said = message.format(**values) if values else message
        super().__init__(STATUS.get(code, 409 if code != "bad" else 400), said)
        self.code = code
        self.message, self.values = message, values
