"""Tables that end without finishing: one abandoned (by its creator, Play now, or the sweep), its stakes
refunded and its watchers told; and the sweep that abandons every table left idle, on the hub's clock."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable

from taash.chips.errors import UnknownAccount
from taash.chips.ledger import Ledger
from taash.i18n import N_
from taash.tables.adapter import TableError
from taash.web.hub.clock import Clock
from taash.web.hub.live import Live
from taash.web.stakes import match_id
from taash.web.store import Store

log = logging.getLogger("taash.web")
#: Minutes without a move, with no seated person connected, after which the sweep abandons an unfinished table.
IDLE_TABLE_MINUTES = 30.0
#: Seconds between two sweeps.
SWEEP_SECONDS = 60.0


#: Why a staked match in play may not be abandoned yet (its ``{minutes}`` filled by whoever answers).
TOO_SOON = N_("a staked match may be abandoned only after {minutes} minutes without a move")
#: Why someone other than a table's creator may not abandon it.
NOT_CREATOR = N_("only the table's creator may abandon it")


def abandon_refusal(live: Live, guest: str | None, quiet: float, now: float) -> tuple[str, str] | None:
    """Why ``guest`` may not abandon ``live`` at the monotonic time ``now`` (its code and sentence), or None: only
    its creator may, and a staked match in play only after ``quiet`` seconds without a move. Asked by the server
    the request reached and again by the table's owner, which alone knows when the last move was."""
    if guest != live.table.owner:
        return "forbidden", NOT_CREATOR
    if live.table.status == "playing" and live.stake > 0 and now - live.last_active < quiet:
        return "playing", TOO_SOON
    return None


class Endings:
    """Abandoning tables: ``drop`` lets one go from memory, ``stop_bots`` cancels its bot task, ``tables`` lists
    those in memory, and the sweep runs until ``is_closing``."""

    def __init__(self, store: Store, ledger: Ledger | None, clock: Clock, tables: Callable[[], list[Live]],
                 drop: Callable[[Live], None], stop_bots: Callable[[Live], None], is_closing: Callable[[], bool]):
        self.store = store
        self.ledger = ledger
        self.clock = clock
        self.tables = tables
        self.drop = drop
        self.stop_bots = stop_bots
        self.is_closing = is_closing

    async def abandon(self, live: Live, still: Callable[[Live], bool] | None = None,
                      reason: str = "the table was abandoned") -> bool:
        """Abandon a table that has not finished: its status becomes ``abandoned`` (it leaves memory and is not
        restored) and its staked match, if one was held, is refunded to every payer; returns whether it was.
        ``still`` is asked again under the table's lock (False: something happened meanwhile, nothing changes).
        The status is written before the refund, so a crash between the two is refunded on the restart."""
        async with live.lock:
            if live.gone:
                return False
            if still is not None and not still(live):
                return False
            if live.table.status == "finished":
                raise TableError(N_("the match has finished: it cannot be abandoned"), "finished")
            await self.store.set_status(live.table.id, "abandoned")
            live.gone = True
            if live.stake > 0 and self.ledger is not None:
                with contextlib.suppress(UnknownAccount):  # no stakes were held: nothing to refund
                    await asyncio.to_thread(self.ledger.refund, match_id(live.table.id))
            self.stop_bots(live)
            told = json.dumps({"type": "abandoned", "version": live.table.version, "reason": reason})
            for conn in list(live.connections):
                if conn.close_code == 1000:
                    conn.send(told)
                conn.close_code, conn.close_reason = 1001, reason
                conn.send(None)
            self.drop(live)
            return True

    def idle(self, live: Live, idle_seconds: float, now: float | None = None) -> bool:
        """Whether the sweep may abandon ``live``: unfinished, no seated person connected (watchers do not
        count), and no action nor connection for ``idle_seconds`` (a waiting table: none since it was made or
        loaded). Not the turn's clock: a take at Rummy is an action but does not end the turn."""
        moment = self.clock.monotonic() if now is None else now
        return (not live.gone and live.table.status != "finished"
                and not any(c.seat is not None for c in live.connections)
                and moment - live.last_active >= idle_seconds)

    async def sweep(self, idle_seconds: float, now: float | None = None) -> int:
        """Abandon every idle table (:meth:`idle`), its stakes refunded; returns how many. Each is checked again
        under its lock, so a move that arrives first keeps its table, and one that arrives after is refused."""
        swept = 0
        for live in [lv for lv in self.tables() if self.idle(lv, idle_seconds, now)]:
            try:
                if await self.abandon(live, lambda lv: self.idle(lv, idle_seconds, now),
                                      f"the table was abandoned after {idle_seconds / 60:g} minutes without a move"):
                    swept += 1
                    log.info("table %s abandoned by the sweep", live.table.id)
            except Exception:  # one table's fault must not stop the sweep (a restart refunds what is left)
                log.exception("the sweep could not abandon table %s", live.table.id)
        return swept

    async def sweep_forever(self, every: float, idle_seconds: float) -> None:
        """Sweep every ``every`` seconds until the server closes."""
        while not self.is_closing():
            await self.clock.sleep(every)
            await self.sweep(idle_seconds)
