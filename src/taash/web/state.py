"""The web server's application state, typed: its configuration, the limits it counts per address, and the
services it opens at startup (the store, the chips' books, the hub of live tables, sessions, Play now's queue).

Every route reaches it through the :data:`State` dependency (or :func:`app_state` on a websocket): one object,
made by :func:`taash.web.app.create_app`, whose services are there once the server has started. :data:`Guest` and
:data:`Signed` are the guest (and session) a request's cookie signs in, through its sessions.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import socket
import time
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Annotated, Any

from fastapi import Cookie, Depends, Request
from itsdangerous import URLSafeSerializer
from starlette.requests import HTTPConnection

from taash.chips.ledger import Ledger
from taash.i18n import N_, _, said_of
from taash.tables.adapter import TableError
from taash.web.admissions import Admissions
from taash.web.chat import BotAnswers, Chat
from taash.web.db import make_engine, migrate, server_key
from taash.web.fair_play import FairPlay
from taash.web.friend_store import Friends, FriendStore
from taash.web.http import ApiError, ServerConfig
from taash.web.hub import Hub, Live, code_matches
from taash.web.lease import DatabaseLease, renew_period
from taash.web.lobby import snapshot
from taash.web.matchmaking import Matchmaker
from taash.web.passwords import Passwords
from taash.web.play_now_shared import SharedQueue
from taash.web.relay import RedisRelay
from taash.web.rematch import Rematches
from taash.web.sessions import Sessions
from taash.web.shared import Fanout, Snapshots
from taash.web.store import Store
from taash.web.tournaments import Tournaments

JSON = Any


class AddressBucket:
    """Something counted per client address, as a token bucket: ``burst`` at once, then ``rate`` a second. Wrong
    invite codes (while a client has none left every lookup is refused, so guessing the codes of private tables
    is slow), and guests and tables created (so one address cannot fill the server)."""

    def __init__(self, rate: float = 1.0, burst: float = 20.0, kept: int = 10_000):
        self.rate, self.burst, self.kept = rate, burst, kept
        self.buckets: dict[str, tuple[float, float]] = {}

    def _tokens(self, who: str, now: float) -> float:
        tokens, then = self.buckets.get(who, (self.burst, now))
        return min(self.burst, tokens + (now - then) * self.rate)

    def allowed(self, who: str) -> bool:
        return self._tokens(who, time.monotonic()) >= 1

    def spend(self, who: str) -> None:
        now = time.monotonic()
        self.buckets[who] = (self._tokens(who, now) - 1, now)
        if len(self.buckets) > self.kept:  # forget the oldest
            del self.buckets[next(iter(self.buckets))]


@dataclass(slots=True)
class Services:
    """What the server opens at startup, over its database."""

    store: Store
    ledger: Ledger
    fair: FairPlay
    hub: Hub
    signer: URLSafeSerializer
    sessions: Sessions
    #: The Play now queue (in memory: its entries hold nothing).
    play_now: Matchmaker
    #: Unfinished tables restored from the database.
    restored: int
    #: Friends, blocks and invitations (:mod:`taash.web.friends`).
    friends: Friends
    #: Rematch offers at finished tables (:mod:`taash.web.rematch`).
    rematches: Rematches
    #: The chat rooms (:mod:`taash.web.chat`), and when a table's bots answer an emote.
    chat: Chat
    bot_answers: BotAnswers
    #: The relay to the other servers (None: a lone server).
    relay: RedisRelay | None = None
    #: The tournaments' director (set once the server serves: :func:`taash.web.app.serving`).
    tournaments: Tournaments | None = None
    #: One server among several: what each server holds (:mod:`taash.web.shared`), and Play now's queue shared
    #: by them all (:mod:`taash.web.play_now_shared`).
    snapshots: Snapshots | None = None
    shared_queue: SharedQueue | None = None
    fanout: Fanout | None = None

    @classmethod
    async def open(cls, config: ServerConfig) -> Services:
        """Migrate the database, open the books and restore the unfinished tables."""
        engine = make_engine(config.database_url)
        await asyncio.to_thread(migrate, engine)
        store = Store(engine)
        ledger = Ledger(engine, starting_grant=config.starting_chips, rake_percent=Decimal(str(config.rake)))
        admissions = Admissions(config.max_connections, config.max_connections_per_address,
                                config.max_connections_per_guest, config.reserved_for_players)
        fair = FairPlay(engine, server_key(engine, "address"), config.accounts_per_address, config.related_stakes)
        lease, relay = None, None
        if config.redis_url:  # one server among several: tables under leases, the others reached through Redis
            server = config.server_id or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
            lease = DatabaseLease(engine, server, config.lease_seconds)
            relay = RedisRelay(config.redis_url, server, renew_period(config.lease_seconds))
        hub = Hub(store, config.bot_delay, config.away_seconds, config.max_tables, config.max_tables_per_guest,
                  config.turn_seconds, ledger, config.extra_seconds, admissions, fair, lease=lease, relay=relay)
        restored = await asyncio.to_thread(hub.restore)
        signer = URLSafeSerializer(server_key(engine), salt="guest")
        friends = Friends(FriendStore(store), hub)
        chat = Chat(store, hub.clock, blocked=friends.is_blocked)  # nobody hears a person he blocked
        services = cls(store, ledger, fair, hub, signer, Sessions(store, signer), Matchmaker(hub), restored,
                       friends, Rematches(hub), chat, BotAnswers(hub.clock.monotonic), relay)
        if relay is not None:
            services.snapshots = Snapshots(relay.redis, relay.server, lambda: snapshot(relay.server, hub, friends))
            friends.elsewhere = lambda: services.snapshots.others if services.snapshots else {}
            services.fanout = Fanout(relay, services.snapshots)
            friends.tell_others = services.fanout.send
            relay.handlers.update(fr_invite=friends.told, fr_used=friends.told)
            services.shared_queue = SharedQueue(services.play_now, relay)
        return services

    async def close(self) -> None:
        if self.tournaments is not None:
            await self.tournaments.close()
        await self.play_now.close()
        if self.shared_queue is not None:
            await self.shared_queue.close()
        if self.snapshots is not None:
            await self.snapshots.forget()
        if self.fanout is not None:
            self.fanout.close()
        await self.hub.close()
        if self.relay is not None:
            await self.relay.close()
            await asyncio.to_thread(self.hub.lease.hand_over)
        await asyncio.sleep(0)
        self.store.close()


@dataclass(slots=True)
class AppState:
    """The server's state: its configuration, what it counts per client address, and its services (once
    started)."""

    config: ServerConfig
    #: Guests and tables made, per address (``ServerConfig.creations`` a minute).
    creations: AddressBucket = field(init=False)
    #: Wrong invite codes, per address.
    wrong_codes: AddressBucket = field(default_factory=AddressBucket)
    passwords: Passwords = field(default_factory=Passwords)
    started: Services | None = None

    def __post_init__(self) -> None:
        self.creations = AddressBucket(rate=self.config.creations / 60, burst=self.config.creations)

    @property
    def services(self) -> Services:
        if self.started is None:
            raise RuntimeError("the server has not started")
        return self.started

    @property
    def hub(self) -> Hub:
        return self.services.hub

    @property
    def relay(self) -> RedisRelay | None:
        return self.services.relay

    @property
    def store(self) -> Store:
        return self.services.store

    @property
    def ledger(self) -> Ledger:
        return self.services.ledger

    @property
    def fair(self) -> FairPlay:
        return self.services.fair

    @property
    def chat(self) -> Chat:
        return self.services.chat

    @property
    def sessions(self) -> Sessions:
        return self.services.sessions

    @property
    def play_now(self) -> Matchmaker:
        return self.services.play_now

    @property
    def queue(self) -> Matchmaker | SharedQueue:
        """Play now's queue: this server's, or the one the servers of a cluster share."""
        return self.services.shared_queue or self.services.play_now

    @property
    def friends(self) -> Friends:
        return self.services.friends

    @property
    def rematches(self) -> Rematches:
        return self.services.rematches

    # -- guests and tables, as routes ask for them -------------------------------------------------------------

    # The database is read on a worker thread: on PostgreSQL each read is a round trip (and may wait for a pooled
    # connection), which would hold up every table of the server on the event loop.

    async def guest_of(self, token: str | None) -> str | None:
        """The guest a cookie signs in, if its session is still good."""
        return await asyncio.to_thread(self.sessions.guest, token)

    async def guest_name(self, guest: str) -> str:
        row = await asyncio.to_thread(self.store.guest, guest)
        if row is None:
            raise ApiError("no_guest", N_("unknown guest: choose a name again"))
        name: str = row.name
        return name

    async def live_table(self, table_id: str) -> Live:
        if not re.fullmatch(r"[0-9a-f]{16}", table_id):
            raise ApiError("not_found", N_("no such table"))
        live = await self.hub.find(table_id)
        if live is None:
            raise ApiError("not_found", N_("no such table"))
        return live

    async def act(self, live: Live, action: dict[str, JSON], guest: str | None) -> Live:
        """Play an HTTP request's action at ``live``; returns the table as it is after it (another one than
        ``live`` when the table moved to another server meanwhile: the action, refused with nothing done, is
        played again where the table is now, at most twice)."""
        for tries_left in (2, 1, 0):
            try:
                await self.hub.act(live, action, guest)
                return live
            except TableError as e:
                if e.code != "moved" or not tries_left:
                    raise ApiError(e.code, said_of(e)) from None
            live = await self.live_table(live.table.id)
        raise AssertionError("unreachable")  # pragma: no cover

    def may_create(self, who: str) -> str | None:
        """Count a guest or table made from the address ``who``; a refusal's sentence when it has made too many
        lately."""
        if not self.creations.allowed(who):
            return _("at most {n} guests and tables a minute from one address: wait a little",
                     n=f"{self.config.creations:g}")
        self.creations.spend(who)
        return None

    def creating(self, request: Request) -> None:
        """Count a guest or table made from the request's address; refuse when it has made too many lately."""
        refused = self.may_create(request.client.host if request.client else "?")
        if refused is not None:
            raise ApiError("too_many", refused)

    def code_opens(self, live: Live, code: str | None, who: str) -> bool:
        """Whether ``code`` opens the private table ``live`` to someone not one of its own; a wrong code counts
        against the client's address as at ``/api/join`` (none left: 429, even for the right code)."""
        if not code:
            return False
        if not self.wrong_codes.allowed(who):
            raise ApiError("too_many", N_("too many wrong codes: wait a little and check the code"))
        if code_matches(live, code):
            return True
        self.wrong_codes.spend(who)
        return False


def app_state(connection: HTTPConnection) -> AppState:
    """The state of the app serving a request or a websocket."""
    found = connection.app.state.taash
    if not isinstance(found, AppState):
        raise RuntimeError("the app has no taash state")
    return found


#: A route's parameter that is the app's state.
State = Annotated[AppState, Depends(app_state)]


# -- guests ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SignedIn:
    """Who a request's cookie signs in: the guest, and the session its cookie names (None: a guest's cookie from
    before sessions, see :mod:`taash.web.sessions`)."""

    guest: str
    session: str | None


def current_session(request: Request, taash_guest: Annotated[str | None, Cookie()] = None) -> SignedIn:
    found = app_state(request).sessions.signed_in(taash_guest)
    if found is None:
        raise ApiError("no_guest", N_("choose a name first (POST /api/guest)"))
    return SignedIn(*found)


def current_guest(signed_in: Annotated[SignedIn, Depends(current_session)]) -> str:
    return signed_in.guest


Guest = Annotated[str, Depends(current_guest)]
Signed = Annotated[SignedIn, Depends(current_session)]
