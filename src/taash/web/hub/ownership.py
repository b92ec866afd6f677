"""Tables owned by one server among several: the hub's two seams, and the loop that keeps what this server owns.

- the **lease** (:mod:`taash.web.lease`): who owns a table. A lone server owns all its tables; servers sharing a
  database hold each under a lease with an epoch, renewed here every second; a table whose lease another server
  took leaves this server's memory at once, and a table whose owner died (its lease lapsed) is taken here;
- the **relay** (:class:`Relay`): how an action or a connection reaches the owner of a table this server does not
  own (:class:`taash.web.relay.RedisRelay`, over Redis pub/sub). A lone server has none (:class:`NoRelay`): every
  table it sees is its own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
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


class NoRelay:
    """A lone server: every table it sees is its own, so nothing is ever relayed."""

    async def act(self, live: Live, action: dict[str, JSON], guest: str | None, client_id: str | None,
                  version: int | None) -> int:
        raise TableError(MOVED, "moved")


class Ownership:
    """Renew this server's leases, let go of the tables it lost, and take those whose owner stopped renewing."""

    def __init__(self, lease: Lease, registry: Registry, schedule_bots: Callable[[Live], None],
                 closing: Callable[[], bool]):
        self.lease = lease
        self.registry = registry
        self.schedule_bots = schedule_bots
        self.closing = closing

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
            if live is not None and live.owner is None and self.registry.live.get(table_id) is live:
                log.info("table %s: taken over (its owner stopped renewing its lease)", table_id)
                self.schedule_bots(live)
                taken += 1
        return taken

    async def once(self) -> None:
        lost = await asyncio.to_thread(self.lease.renew)
        self.lost(lost)
        lapsed = await asyncio.to_thread(self.lease.lapsed)
        if lapsed and not self.closing():
            self.take_lapsed(lapsed)

    async def keep_forever(self, every: float = RENEW_SECONDS) -> None:
        """Renew and take over every ``every`` seconds until cancelled (a failed round is logged and retried)."""
        while not self.closing():
            try:
                await self.once()
            except Exception:
                log.exception("could not renew the leases")
            await asyncio.sleep(every)
