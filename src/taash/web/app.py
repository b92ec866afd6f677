"""The web server (FastAPI): guests, the lobby's HTTP API, the table websocket, and the browser client.

``create_app(config)`` builds it from routers by concern over one typed state (:mod:`taash.web.state`); ``taash
serve`` runs it with uvicorn. The websocket protocol is described in ``docs/web-protocol.md``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

from fastapi import FastAPI

from taash.web import (
    chips_routes,
    friends,
    guests,
    history,
    languages,
    pages,
    records,
    sockets,
    tables_routes,
    tournament_routes,
    tournament_socket,
)
from taash.web.accounts import accounts_router
from taash.web.chat import routes as chat_routes
from taash.web.errors import add_error_handlers
from taash.web.games import games_router
from taash.web.guard import Guard
from taash.web.http import ServerConfig
from taash.web.learn import learn_router
from taash.web.lease import renew_period
from taash.web.offline import routes as offline_routes
from taash.web.served_by import ServedBy
from taash.web.shared import director_lease
from taash.web.sockets import MAX_FRAME
from taash.web.state import AppState, Services
from taash.web.tournaments import Tournaments

log = logging.getLogger("taash.web")


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The server: its state, its routers (in the order their paths are matched and published), the guard, and
    the answers to every refusal."""
    state = AppState(config or ServerConfig())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with serving(app, state):
            yield

    app = FastAPI(title="taash", version="1", lifespan=lifespan,
                  description="Seep and 13-card Rummy with friends and bots: guests, tables, and a websocket per "
                              "table.")
    app.state.taash = state
    app.add_middleware(Guard, max_body=state.config.max_body, allowed_origins=state.config.allowed_origins)
    if state.config.redis_url:  # one server among several: each answer says which one served it
        app.add_middleware(ServedBy, server=lambda: state.started.relay.server
                           if state.started is not None and state.started.relay is not None else None)
    add_error_handlers(app)
    app.include_router(guests.router)
    app.include_router(languages.router)  # GET /api/i18n/{lang}: a language's catalogue for the browser
    app.include_router(chips_routes.router)
    app.include_router(accounts_router())  # /api/me, and claiming a name, login, logout, password
    app.include_router(learn_router(lambda: state.hub))  # /learn/{game}, its lesson's steps, and the coach at a table
    app.include_router(tables_routes.router)
    app.include_router(friends.router)  # friends, blocks and invitations to tables
    app.include_router(records.router)
    app.include_router(games_router())  # GET /api/games, the games' browser modules, each game's own endpoints
    app.include_router(sockets.router)
    app.include_router(offline_routes.router)  # the manifest, the service worker, offline play and its uploads
    app.include_router(pages.router)
    app.include_router(history.router)
    app.include_router(chat_routes.router)  # the phrases, reports, and one's own match's chat for its replay
    app.include_router(tournament_routes.router)
    app.include_router(tournament_socket.router)  # a tournament page's pushes and its chat room
    pages.mount_static(app)
    return app


@asynccontextmanager
async def serving(app: FastAPI, state: AppState) -> AsyncIterator[None]:
    """Open the server's services, restart the restored tables' bots and the idle sweep, serve, then close."""
    config = state.config
    services = state.started = await Services.open(config)
    hub = services.hub
    for live in hub.live.values():
        hub.schedule_bots(live)
    await services.rematches.restore()  # the offers a restart must not forget
    services.friends.restore()
    sweeper = (asyncio.create_task(hub.sweep_forever(config.sweep_seconds, config.idle_minutes * 60))
               if config.sweep_seconds > 0 else None)
    relay = services.relay  # one server among several: a tournament is directed by the one holding its lease
    director = services.tournaments = Tournaments(
        services.store.engine, hub, services.ledger, tournament_routes.ratings_from(services.store),
        directs=None if relay is None else director_lease(relay.redis, relay.server))
    hub.on_match_end(director.match_ended)
    ticker = asyncio.create_task(director.run_forever(config.tournament_seconds))
    keeper = sharer = None
    if services.relay is not None:  # one server among several: answer the others, keep and take leases
        await services.relay.start(hub, partial(sockets.on_frame, state), lambda: sockets.Throttle(config.rate),
                                   partial(sockets.welcome, state), partial(sockets.farewell, state))
        keeper = asyncio.create_task(hub.ownership.keep_forever(renew_period(config.lease_seconds)))
        assert services.snapshots is not None and services.shared_queue is not None
        sharer = asyncio.create_task(services.snapshots.keep_forever())
        await services.shared_queue.start()
    # Latency: what is loaded so far is never garbage, collections run less often, and the threads (the
    # writer thread on PostgreSQL, the chips' work) hand the interpreter back to the event loop sooner.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    sys.setswitchinterval(0.001)
    log.info("taash server ready: %d unfinished tables restored", services.restored)
    yield
    for task in (sweeper, keeper, sharer, ticker):
        if task is not None:
            task.cancel()
    await services.close()


__all__ = ["MAX_FRAME", "ServerConfig", "create_app"]
