"""The relay between servers that share tables (``taash serve --redis-url``), over Redis pub/sub: the hub's
"relay" seam (:class:`taash.web.hub.ownership.Relay`).

A table lives in one server, its owner (:mod:`taash.web.lease`); any server accepts any request and any table's
websocket. A websocket that reaches another server is *bridged*: that server opens a connection on the owner
(``open``), hands it every frame the client sends (``frame``), and writes to the websocket every message the owner
sends the connection (``out``; ``close`` ends it). The owner serves such a connection exactly as one of its own
(the same :class:`~taash.web.hub.live.Connection`, the same answers, in the language its websocket asked for), so
each seat still gets only its own view. Such a websocket is first told the owner's id (``owner``) unless it asked
for that owner (``?owner=ID``): a client that connects again with ``?owner=ID`` is sent by the proxy to the owner
itself, and the bridge is kept for the moments a table moves (docs/cluster.md, "Each table's websocket on its
owner").
An HTTP action at such a table is sent to the owner (``act``) and answered with the version it made or the table's
refusal (``acted``, ``refused``). Each server listens on one channel, ``taash:server:ID``.

When the owner dies, its bridged websockets are closed with 1012 as soon as its lease lapses (checked every
second), and their clients reconnect, through the proxy, to whichever server then owns the table. A table's abandon
by its creator is sent to the owner too (``abandon``), which checks it again and answers as for an action.

Redis restarting or briefly gone: the bridges close (1012: their clients reconnect), and while it is away what
needs it is refused in one sentence (:data:`UNREACHABLE`): an HTTP action or abandon at a table another server
owns (503 ``unavailable``), and a websocket to such a table (an ``error`` message, then 1013). The relay listens
again by itself, waiting longer after each failed try (:func:`backoff`), and serves again as soon as Redis answers;
nothing is lost meanwhile (the tables, their actions and the chips live in the database, and each table's owner
goes on serving the sockets and requests that reach it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import orjson
from fastapi import WebSocket
from starlette.websockets import WebSocketState

from taash.i18n import N_, best_language, say_in
from taash.tables.adapter import TableError
from taash.tables.table import Table
from taash.web.hub import Connection, Hub, Live, rebuild_or_log
from taash.web.hub.ending import abandon_refusal
from taash.web.hub.pipeline import MOVED
from taash.web.languages import socket_language
from taash.web.relay_links import Bridge, Outboxes, Remote

log = logging.getLogger("taash.web")
JSON = Any
#: Answers a frame of a connection the owner serves for another server, its refusals in the language given (False:
#: close the connection).
FrameHandler = Callable[[Live, Connection, Any, str | None, bytes | None, str], Awaitable[bool]]
#: Makes the per-connection message throttle of a bridged connection on its owner.
ThrottleMaker = Callable[[], Any]
#: What the owner does for a connection it joined or left, bridged or not (a rematch on offer, the chat's lines).
ConnectionHook = Callable[[Live, Connection], Coroutine[Any, Any, None]]
#: Why a relayed action or a bridged connection is refused when the servers cannot reach each other.
UNREACHABLE = N_("the servers cannot reach each other just now: try again in a moment")
#: Seconds an owner has to answer a relayed action or to open a bridged connection.
ANSWER_SECONDS = 10.0
#: Connections to Redis a server keeps at most (its channel's subscription is one): a command waits for a free one,
#: at most half of :data:`ANSWER_SECONDS`.
REDIS_CONNECTIONS = 50
#: How many owners a relayed request is sent to at most (the next when one says the table moved meanwhile).
MOVED_TRIES = 3
#: Seconds between two tries to reach Redis again: the first, and the most.
BACKOFF_SECONDS = (0.25, 5.0)


def backoff(failures: int) -> float:
    """Seconds to wait before the next try to reach Redis after ``failures`` failed tries in a row.

    >>> [backoff(n) for n in range(1, 7)]
    [0.25, 0.5, 1.0, 2.0, 4.0, 5.0]
    """
    first, most = BACKOFF_SECONDS
    return float(min(most, first * 2 ** max(0, failures - 1)))


def channel(server: str) -> str:
    return f"taash:server:{server}"


class RedisRelay:
    """This server's end of the relay (see the module's description)."""

    def __init__(self, url: str, server: str, watch_every: float = 1.0):
        import redis.asyncio as redis
        from redis.asyncio.retry import Retry
        from redis.backoff import ExponentialBackoff

        self.url = url
        self.server = server
        self.watch_every = watch_every
        # A command on a pooled connection that Redis closed (it restarted) is sent again once on a new one. The pool
        # makes a command wait for a free connection: redis-py's default pool refuses the 101st at once ("Too many
        # connections"), which under load failed relayed actions and stopped bridged connections' messages.
        pool = redis.BlockingConnectionPool.from_url(
            url, max_connections=REDIS_CONNECTIONS, timeout=ANSWER_SECONDS / 2, socket_connect_timeout=2,
            socket_timeout=5, retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 1),
            retry_on_error=[redis.ConnectionError])
        self.redis = redis.Redis(connection_pool=pool)
        #: Messages to the servers holding this one's bridged connections, sent in order and in batches.
        self.outboxes = Outboxes(self.redis, channel, self._unsent)
        self.remotes: dict[str, Remote] = {}
        self.bridges: dict[str, Bridge] = {}
        self.replies: dict[str, asyncio.Future[dict[str, JSON]]] = {}
        self.hub: Hub | None = None
        self.on_frame: FrameHandler | None = None
        self.throttle: ThrottleMaker | None = None
        self.on_join: ConnectionHook | None = None
        self.on_leave: ConnectionHook | None = None
        self.tasks: list[asyncio.Task[None]] = []
        #: Work started on its own (answers to other servers), kept until it ends.
        self.running: set[asyncio.Task[object]] = set()
        #: Whether this server listens on its channel now (False while Redis is away: what needs it is refused).
        self.connected = False
        #: What other parts of the server answer on this channel, by ``op`` (:mod:`taash.web.shared`).
        self.handlers: dict[str, Callable[[dict[str, JSON]], None]] = {}

    # -- starting and stopping ------------------------------------------------------------------------------------

    async def start(self, hub: Hub, on_frame: FrameHandler, throttle: ThrottleMaker, on_join: ConnectionHook,
                    on_leave: ConnectionHook) -> None:
        """Serve: ``on_frame`` answers a bridged connection's frames; ``on_join`` and ``on_leave`` are what a
        connection joined or left here is given, as a websocket of this server's own is."""
        self.hub, self.on_frame, self.throttle = hub, on_frame, throttle
        self.on_join, self.on_leave = on_join, on_leave
        self.tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._watch())]

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for bridge in list(self.bridges.values()):
            self._close_bridge(bridge, 1012, "the server is restarting: reconnect")
        await self.outboxes.close()
        with contextlib.suppress(Exception):
            await self.redis.aclose(close_connection_pool=True)

    def _spawn(self, work: Coroutine[Any, Any, object]) -> None:
        """Run ``work`` on its own, kept until it ends."""
        task = asyncio.create_task(work)
        self.running.add(task)
        task.add_done_callback(self.running.discard)

    async def publish(self, server: str, message: dict[str, JSON]) -> None:
        """Send ``message`` to the server ``server`` (its ``op`` answered there by a handler)."""
        await self._publish(server, message)

    async def _publish(self, server: str, message: dict[str, JSON]) -> int:
        """Send ``message`` to ``server``; returns how many listened (0: it is not listening, as while it
        subscribes again after Redis came back, or when it died)."""
        return int(await self.redis.publish(channel(server), orjson.dumps(message)))

    async def _deliver(self, server: str, message: dict[str, JSON]) -> None:
        """Send ``message`` to ``server``, which must be listening (else ConnectionError)."""
        if not await self._publish(server, message):
            raise ConnectionError(f"server {server} is not listening")

    async def _listen(self) -> None:
        """Read this server's channel for ever, subscribing again (after :func:`backoff`) when Redis is away."""
        failures = 0
        while True:
            try:
                async with self.redis.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(channel(self.server))
                    if failures:
                        log.warning("the relay reached Redis again after %d tries", failures)
                    self.connected, failures = True, 0
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            self._received(orjson.loads(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as e:
                failures += 1
                if self.connected or failures == 1:
                    log.warning("the relay lost Redis (%s); trying again by itself",
                                str(e).splitlines()[0] if str(e) else type(e).__name__)
                self._lost_redis()
                await asyncio.sleep(backoff(failures))

    def _lost_redis(self) -> None:
        """Redis went away: what was in flight through it is lost, so the bridges close (their clients reconnect)
        and the actions waiting for an owner's answer are refused now rather than after :data:`ANSWER_SECONDS`."""
        self.connected = False
        for bridge in list(self.bridges.values()):
            self._close_bridge(bridge, 1012, UNREACHABLE)
        for future in list(self.replies.values()):
            if not future.done():
                future.set_exception(ConnectionError("Redis went away"))

    def _received(self, m: dict[str, JSON]) -> None:
        op = m.get("op")
        if op == "out" or op == "close":
            bridge = self.bridges.get(m["conn"])
            if bridge is not None:
                if op == "out":
                    bridge.outbox.put_nowait(m["message"])
                else:
                    self._close_bridge(bridge, int(m["code"]), str(m["reason"]))
        elif op in ("acted", "refused"):
            future = self.replies.pop(m["reply"], None)
            if future is not None and not future.done():
                future.set_result(m)
        elif op == "open":
            self._opened(m)
        elif op == "frame" or op == "gone":
            remote = self.remotes.get(m["conn"])
            if remote is not None:
                remote.inbox.put_nowait((m.get("text"), int(m.get("binary", 0))) if op == "frame" else None)
        elif op == "act":
            self._spawn(self._act_for(m))
        elif op == "abandon":
            self._spawn(self._abandon_for(m))
        elif isinstance(op, str) and op in self.handlers:
            try:
                self.handlers[op](m)
            except Exception:  # one bad message must not stop the channel
                log.exception("the relay could not answer a %r message", op)

    # -- the owner's side -----------------------------------------------------------------------------------------

    def _owned(self, table_id: str) -> Live | None:
        assert self.hub is not None
        live = self.hub.get(table_id)
        return live if live is not None and live.owner is None and not live.gone else None

    def _opened(self, m: dict[str, JSON]) -> None:
        """A websocket on another server opens a connection to a table of this one."""
        assert self.hub is not None and self.throttle is not None
        cid, origin = str(m["conn"]), str(m["from"])
        live = self._owned(str(m["table"]))
        if live is None:
            self._spawn(self._publish(origin, {"op": "close", "conn": cid, "code": 1012, "reason": MOVED}))
            return
        guest, code = m.get("guest"), m.get("code")
        if not self.hub.may_watch(live, guest, code):
            self._spawn(self._publish(origin, {"op": "close", "conn": cid, "code": 1008,
                                               "reason": "a private table: only its players may watch it"}))
            return
        lang = m.get("lang")  # the language its websocket asked for (its ?lang=), said to it as on a socket here
        conn = self.hub.join(live, guest, m.get("since"), best_language(lang if isinstance(lang, str) else None))
        remote = Remote(live, conn, self.throttle(), origin)
        self.remotes[cid] = remote
        remote.tasks = [asyncio.create_task(self._pump(cid, remote)), asyncio.create_task(self._serve(cid, remote))]

    async def _pump(self, cid: str, remote: Remote) -> None:
        """Send the bridged connection's messages to the server that holds its websocket, in order (through that
        server's outbox)."""
        conn = remote.conn
        try:
            while True:
                message = await conn.queue.get()
                if message is None:
                    self.outboxes.send(remote.origin, {"op": "close", "conn": cid, "code": conn.close_code,
                                                       "reason": conn.close_reason}, cid)
                    return
                self.outboxes.send(remote.origin, {"op": "out", "conn": cid, "message": message}, cid)
        finally:
            self._forget(cid, remote)

    def _unsent(self, cids: set[str]) -> None:
        """Messages of these bridged connections could not be sent: they are let go (their clients reconnect)."""
        for cid in cids:
            remote = self.remotes.get(cid)
            if remote is not None:
                self._forget(cid, remote)

    async def _serve(self, cid: str, remote: Remote) -> None:
        """Welcome the bridged connection, then answer its frames in order, as the owner answers its own
        websockets' frames."""
        assert self.on_frame is not None and self.on_join is not None
        try:
            await self.on_join(remote.live, remote.conn)
            while True:
                frame = await remote.inbox.get()
                if frame is None:
                    return
                text, binary = frame
                raw = None if text is not None else bytes(min(binary, 1 << 20))
                if not await self.on_frame(remote.live, remote.conn, remote.throttle, text, raw, remote.conn.lang):
                    return
        finally:
            remote.conn.send(None)
            self._forget(cid, remote)

    def _forget(self, cid: str, remote: Remote) -> None:
        if self.remotes.pop(cid, None) is not None:
            assert self.hub is not None
            self.hub.leave(remote.live, remote.conn)
            if self.on_leave is not None:
                self._spawn(self.on_leave(remote.live, remote.conn))
            remote.conn.send(None)
            remote.inbox.put_nowait(None)  # its frames' task ends too

    async def _act_for(self, m: dict[str, JSON]) -> None:
        """An HTTP action another server received for a table of this one."""
        assert self.hub is not None
        answer: dict[str, JSON] = {"reply": m["reply"]}
        live = self._owned(str(m["table"]))
        try:
            if live is None:
                raise TableError(MOVED, "moved")
            made = await self.hub.act(live, m["action"], m.get("guest"), m.get("client_id"), m.get("version"))
            answer.update(op="acted", version=made)
        except TableError as e:
            answer.update(op="refused", code=e.code, message=str(e))
        with contextlib.suppress(Exception):
            await self._publish(str(m["from"]), answer)

    async def _abandon_for(self, m: dict[str, JSON]) -> None:
        """A table's abandon another server received for a table of this one: checked again here, where the time
        of its last move is known."""
        assert self.hub is not None
        answer: dict[str, JSON] = {"reply": m["reply"]}
        live = self._owned(str(m["table"]))
        try:
            if live is None:
                raise TableError(MOVED, "moved")
            refused = abandon_refusal(live, m.get("guest"), float(m.get("quiet", 0.0)), self.hub.clock.monotonic())
            if refused is not None:
                raise TableError(refused[1], refused[0])
            answer.update(op="acted", version=live.table.version, abandoned=await self.hub.abandon(live))
        except TableError as e:
            answer.update(op="refused", code=e.code, message=str(e))
        with contextlib.suppress(Exception):
            await self._publish(str(m["from"]), answer)

    # -- the side of the server that holds the websocket or the request ------------------------------------------

    async def _ask(self, live: Live, message: dict[str, JSON]) -> dict[str, JSON]:
        """Send ``message`` to the owner of ``live`` and wait for its answer (``acted``); its refusal, or Redis
        away, or no answer in time, raise the :class:`TableError` to tell. An owner that says the table moved
        (another server took it meanwhile: nothing was done) is looked up again and asked once more."""
        assert self.hub is not None
        for tries_left in range(MOVED_TRIES - 1, -1, -1):
            answer = await self._ask_once(str(live.owner), {**message, "table": live.table.id})
            if answer["op"] != "refused":
                return answer
            if answer["code"] != "moved" or not tries_left:
                raise TableError(str(answer["message"]), str(answer["code"]))
            owner = await asyncio.to_thread(self.hub.lease.owner, live.table.id)
            if owner is None or owner in (self.server, live.owner):  # nobody to ask (yet): the caller may retry
                raise TableError(str(answer["message"]), "moved")
            live.owner = owner
        raise AssertionError("unreachable")  # pragma: no cover

    async def _ask_once(self, owner: str, message: dict[str, JSON]) -> dict[str, JSON]:
        if not self.connected:
            raise TableError(UNREACHABLE, "unavailable")
        reply = secrets.token_hex(8)
        future: asyncio.Future[dict[str, JSON]] = asyncio.get_running_loop().create_future()
        self.replies[reply] = future
        try:
            await self._deliver(owner, {**message, "from": self.server, "reply": reply})
            return await asyncio.wait_for(future, ANSWER_SECONDS)
        except (TimeoutError, OSError, ConnectionError) as e:
            raise TableError(UNREACHABLE, "unavailable") from e
        except Exception as e:  # redis-py's own errors (its ConnectionError is no OSError)
            log.warning("could not relay to %s: %s", owner, str(e).splitlines()[0] if str(e) else e)
            raise TableError(UNREACHABLE, "unavailable") from None
        finally:
            self.replies.pop(reply, None)

    async def abandon(self, live: Live, guest: str | None, quiet: float) -> bool:
        """Have the owner of ``live`` abandon it for its creator ``guest`` (the hub's relay seam): it checks the
        request again (:func:`~taash.web.hub.ending.abandon_refusal`, ``quiet`` seconds for a staked match in
        play); returns whether it was abandoned."""
        answer = await self._ask(live, {"op": "abandon", "guest": guest, "quiet": quiet})
        if answer.get("abandoned"):
            live.gone = True
        return bool(answer.get("abandoned"))

    async def act(self, live: Live, action: dict[str, JSON], guest: str | None, client_id: str | None,
                  version: int | None) -> int:
        """Have the owner of ``live`` play ``action`` (the hub's relay seam); then ``live``, a view, is read
        again from the database, where the action is by now (on a worker thread: rebuilding a table replays its
        match, which on the event loop would hold up the owners' answers to every other request)."""
        assert self.hub is not None
        answer = await self._ask(live, {"op": "act", "action": action, "guest": guest, "client_id": client_id,
                                        "version": version})
        table = await asyncio.to_thread(self._read_again, live.table.id)
        if table is not None:
            live.table = table
        return int(answer["version"])

    def _read_again(self, table_id: str) -> Table | None:
        assert self.hub is not None
        stored = self.hub.store.table(table_id)
        return None if stored is None else rebuild_or_log(stored)

    async def bridge(self, ws: WebSocket, live: Live, guest: str | None, since: int | None,
                     code: str | None) -> None:
        """Serve an admitted websocket to a table another server owns, through that server, until either end
        closes it."""
        cid = secrets.token_hex(8)
        bridge = Bridge(live.table.id, str(live.owner))
        await ws.accept()
        if ws.query_params.get("owner") != bridge.owner:  # it may connect to the owner itself (docs/cluster.md)
            with contextlib.suppress(Exception):
                await ws.send_text(orjson.dumps({"type": "owner", "server": bridge.owner}).decode())
        try:
            if not self.connected:
                raise ConnectionError("Redis is away")
            self.bridges[cid] = bridge
            await self._deliver(bridge.owner, {"op": "open", "conn": cid, "from": self.server,
                                               "table": live.table.id, "guest": guest, "since": since, "code": code,
                                               "lang": socket_language(ws)})
        except Exception:
            self.bridges.pop(cid, None)
            await self._unreachable(ws)
            return
        sender = asyncio.create_task(self._send_out(ws, bridge))
        try:
            while not sender.done():
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                out: dict[str, JSON] = {"op": "frame", "conn": cid, "text": text}
                if text is None:  # binary: refused by the owner's reading, as on a websocket of its own
                    out["binary"] = len(frame.get("bytes") or b"")
                try:
                    await self._publish(bridge.owner, out)
                except Exception:  # Redis away: this frame cannot reach the owner, the client is told so
                    await self._unreachable(ws)
                    break
        except Exception as e:
            log.info("a bridged websocket of table %s ended: %s", live.table.id, e)
        finally:
            self.bridges.pop(cid, None)
            with contextlib.suppress(Exception):
                await self._publish(bridge.owner, {"op": "gone", "conn": cid})
            bridge.outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await sender

    @staticmethod
    async def _unreachable(ws: WebSocket) -> None:
        """Tell an accepted websocket that its table's owner cannot be reached now (an ``error`` message in its
        language, ``unavailable``), and close it (1013: try again later)."""
        said = say_in(socket_language(ws), UNREACHABLE)
        with contextlib.suppress(Exception):
            await ws.send_text(orjson.dumps({"type": "error", "id": None, "code": "unavailable",
                                             "message": said}).decode())
            await ws.close(1013, UNREACHABLE)

    async def _send_out(self, ws: WebSocket, bridge: Bridge) -> None:
        """Write to the websocket what the owner sends it; an owner that does not answer the opening in
        :data:`ANSWER_SECONDS` (it missed it) is unreachable, as the client is told."""
        first = True
        while True:
            try:
                message = await (asyncio.wait_for(bridge.outbox.get(), ANSWER_SECONDS) if first
                                 else bridge.outbox.get())
            except TimeoutError:
                await self._unreachable(ws)
                return
            first = False
            if message is None:
                if ws.client_state is WebSocketState.CONNECTED:
                    with contextlib.suppress(Exception):
                        await ws.close(*bridge.close)
                return
            try:
                await ws.send_text(message)
            except Exception:
                return

    def _close_bridge(self, bridge: Bridge, code: int, reason: str) -> None:
        bridge.close = (code, reason)
        bridge.outbox.put_nowait(None)

    async def _watch(self) -> None:
        """Close the bridges whose table's owner changed or died (its lease lapsed), so that their clients
        reconnect to the new owner."""
        assert self.hub is not None
        while True:
            await asyncio.sleep(self.watch_every)
            tables = {b.table_id for b in self.bridges.values()}
            try:
                owners = {t: await asyncio.to_thread(self.hub.lease.owner, t) for t in tables}
            except Exception as e:
                log.warning("could not read the leases: %s", e)
                continue
            for bridge in list(self.bridges.values()):
                if owners.get(bridge.table_id, bridge.owner) != bridge.owner:
                    self._close_bridge(bridge, 1012, MOVED)
