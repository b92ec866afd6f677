"""The relay's bridged connections (:mod:`taash.web.relay`): what each side keeps of one (:class:`Remote` on the
table's owner, :class:`Bridge` on the server holding the websocket), and what an owner sends the servers that hold
its bridged websockets. Every message to one server goes into that server's outbox, and one task per server sends
the outbox in order, as many messages as have gathered in one round trip to Redis (a pipeline of PUBLISHes).

A round trip per message, each on a pooled connection, is what failed under load: a table's every action sends a
message to each of its bridged connections, so a busy owner had hundreds of publishes waiting at once, more than a
pool of connections holds. Batching sends the same messages in far fewer round trips, on one connection a server,
and keeps each connection's messages in the order they were sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from taash.web.hub import Connection, Live

log = logging.getLogger("taash.web")
JSON = Any
#: Messages sent in one round trip at most (the rest go in the next).
BATCH = 500


@dataclass(eq=False)
class Remote:
    """On the owner: a connection opened for a websocket that another server holds."""

    live: Live
    conn: Connection
    throttle: Any
    origin: str
    #: Frames from the client (text, or the length of a binary one); None: its websocket closed.
    inbox: asyncio.Queue[tuple[str | None, int] | None] = field(default_factory=asyncio.Queue)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)


@dataclass(eq=False)
class Bridge:
    """On the server holding a websocket: what the owner sends it (a message, or None: close with ``close``)."""

    table_id: str
    owner: str
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    close: tuple[int, str] = (1000, "")


@dataclass(eq=False)
class Outbox:
    """The messages waiting to go to one server, with the connection each is for, and the task sending them (it
    ends, and the outbox goes, once they are sent)."""

    messages: list[tuple[bytes, str]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None


class Outboxes:
    """One :class:`Outbox` per server with messages waiting. ``redis`` is the relay's client; ``channel`` names a
    server's channel; ``failed`` is told the connections whose messages could not be sent (Redis away), to be
    closed."""

    def __init__(self, redis: Any, channel: Callable[[str], str], failed: Callable[[set[str]], None]):
        self.redis = redis
        self.channel = channel
        self.failed = failed
        self.boxes: dict[str, Outbox] = {}

    def send(self, server: str, message: dict[str, JSON], conn: str) -> None:
        """Queue ``message`` for the connection ``conn`` that ``server`` holds; it goes after every message queued
        for that server before it."""
        box = self.boxes.get(server)
        if box is None:
            box = self.boxes[server] = Outbox()
            box.task = asyncio.create_task(self._drain(server, box))
        box.messages.append((orjson.dumps(message), conn))

    async def _drain(self, server: str, box: Outbox) -> None:
        """Send ``box`` in batches until it is empty, then let it go (a later message makes a new one)."""
        while box.messages:
            batch, box.messages = box.messages[:BATCH], box.messages[BATCH:]
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for data, _ in batch:
                        pipe.publish(self.channel(server), data)
                    await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # Redis away: these connections lost messages, so they close (and reconnect)
                log.warning("the relay could not send %d messages to %s: %s", len(batch), server,
                            str(e).splitlines()[0] if str(e) else type(e).__name__)
                self.failed({conn for _, conn in batch})
        del self.boxes[server]  # empty, with nothing in flight: no await between the check and here

    async def close(self) -> None:
        for box in list(self.boxes.values()):
            if box.task is not None:
                box.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await box.task
        self.boxes.clear()
