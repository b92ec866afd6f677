"""Tables owned by one server among several: the hub's two seams, and the loop that keeps what this server owns.

- the **lease** (:mod:`taash.web.lease`): who owns a table. A lone server owns all its tables; servers sharing a
  database hold each under a lease with an epoch, renewed here every third of its length from a thread of its own
  (:class:`Renewer`: an event loop busy for seconds cannot let a lease lapse); a table whose lease another server
  took leaves this server's memory at once, and a table whose owner died (its lease lapsed) is taken here;
- the **relay** (:class:`Relay`): how an action or a connection reaches the owner of a table this server does not
  own (:class:`taash.web.relay.RedisRelay`, over Redis pub/sub). A lone server has none (:class:`NoRelay`): every
  table it sees is its own.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from taash.tables.adapter import TableError
from taash.web.hub.bots import Bots
from taash.web.hub.live import Live
from taash.web.hub.pipeline import MOVED
from taash.web.hub.registry import Registry
from taash.web.lease import RENEW_SECONDS, Lease

log = logging.getLogger("taash.web")
JSON = Any


class Relay(Protocol):
    """The hub's seam for tables other servers own: their actions go to the owner (which answers with the version
    made, or refuses with the table's own error)."""

    async def act(self, live: Live, action: dict[str, JSON], guest: str | None, client_id: str | None,
                  version: int | None) -> int: ...

    async def abandon(self, live: Live, guest: str | None, quiet: float) -> bool: ...


class NoRelay:
    """A lone server: every table it sees is its own, so nothing is ever relayed."""

    async def act(self, live: Live, action: dict[str, JSON], guest: str | None, client_id: str | None,
                  version: int | None) -> int:
        raise TableError(MOVED, "moved")

    async def abandon(self, live: Live, guest: str | None, quiet: float) -> bool:
        raise TableError(MOVED, "moved")


class Renewer:
    """Renews this server's leases every ``every`` seconds from a thread of its own, so that an event loop held up
    (a burst of work, a long collection) cannot let them lapse; the tables it finds lost are handed to ``lost`` on
    the event loop ``loop``."""

    def __init__(self, lease: Lease, every: float, lost: Callable[[set[str]], object],
                 loop: asyncio.AbstractEventLoop):
        self.lease = lease
        self.every = every
        self.lost = lost
        self.loop = loop
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, name="taash-leases", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()

    def run(self) -> None:
        while not self.stopping.is_set():
            self.once()
            self.stopping.wait(self.every)

    def once(self) -> None:
        """Renew every lease once (a failure is logged: the next round tries again, well before they lapse)."""
        try:
            lost = self.lease.renew()
        except Exception as e:
            log.warning("could not renew the leases: %s", str(e).splitlines()[0] if str(e) else type(e).__name__)
            return
        if lost and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.lost, lost)


class Ownership:
    """Renew this server's leases, let go of the tables it lost, and take those whose owner stopped renewing."""

    def __init__(self, lease: Lease, registry: Registry, schedule_bots: Callable[[Live], None],
                 closing: Callable[[], bool], finish: Callable[[Live], Coroutine[Any, Any, None]] | None = None):
        self.lease = lease
        self.registry = registry
        self.schedule_bots = schedule_bots
        self.closing = closing
        #: Writes the end of a match (status, results, settlement) that its dead owner had played but not written.
        self.finish = finish
        #: Such endings being written, kept until they end.
        self.finishing: set[asyncio.Task[None]] = set()
        #: What else each scan takes up from servers that died (a rematch offer at a finished table: registered by
        #: :class:`taash.web.rematch.Rematches`).
        self.also: list[Callable[[], Coroutine[Any, Any, object]]] = []

    def lost(self, table_ids: set[str]) -> int:
        """Let go of tables another server has taken: their bots stop and their connections are closed (1012),
        so that their clients reconnect, through the proxy, to whichever server now owns them."""
        for table_id in table_ids:
            live = self.registry.lost(table_id)
            if live is None:
                continue
            log.warning("table %s: its lease was taken by another server", table_id)
            Bots.stop(live)
            live.gone = True  # an action waiting for the lock is refused
            for conn in list(live.connections):
                conn.close_code, conn.close_reason = 1012, MOVED
                conn.send(None)
        return len(table_ids)

    def take_lapsed(self, table_ids: list[str]) -> int:
        """Take the tables whose owner died (their leases lapsed) and start their bots; returns how many."""
        taken = 0
        for table_id in table_ids:
            if table_id in self.registry.live:
                continue
            live = self.registry.get(table_id)
            if live is not None and live.owner is None and live.table.status == "finished" \
                    and self.finish is not None:  # its owner died between the match's last action and its end
                task = asyncio.get_running_loop().create_task(self.finish(live))
                self.finishing.add(task)
                task.add_done_callback(self.finishing.discard)
            elif live is not None and live.owner is None and self.registry.live.get(table_id) is live:
                log.info("table %s: taken over (its owner stopped renewing its lease)", table_id)
                self.schedule_bots(live)
                taken += 1
        return taken

    def fenced(self, table_id: str) -> None:
        """A write of this server to ``table_id`` was refused by its epoch: another server has taken it, so this
        one lets it go at once (not at its next renewal), and asking for it again finds its new owner."""
        self.lease.forget(table_id)
        self.lost({table_id})

    async def once(self) -> None:
        lost = await asyncio.to_thread(self.lease.renew)
        self.lost(lost)
        await self.scan()

    async def scan(self) -> None:
        """Take the tables whose owner stopped renewing, and what else they held (:attr:`also`)."""
        lapsed = await asyncio.to_thread(self.lease.lapsed)
        if lapsed and not self.closing():
            self.take_lapsed(lapsed)
        for take_up in self.also:
            if not self.closing():
                await take_up()

    async def keep_forever(self, every: float = RENEW_SECONDS) -> None:
        """Renew (on a thread of its own: :class:`Renewer`) and take over every ``every`` seconds until cancelled
        (a failed round is logged and retried)."""
        renewer = Renewer(self.lease, every, self.lost, asyncio.get_running_loop())
        renewer.start()
        try:
            while not self.closing():
                try:
                    await self.scan()
                except Exception as e:
                    log.warning("could not look for lapsed leases: %s", str(e).splitlines()[0] if str(e) else e)
                await asyncio.sleep(every)
        finally:
            renewer.stop()
