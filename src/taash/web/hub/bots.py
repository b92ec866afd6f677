"""Bots at the tables: one task per table waits (on the hub's clock) until a bot may move for the seat to move
(a bot's seat, a person away, idle, or out of time), then makes its move through the hub like anyone's. At
Rummy a turn out of time gets the rule book's timeout instead; a bot that fails or is refused makes way for the
engine's first legal move, so a table never stops."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from taash.tables.adapter import TableError
from taash.web.hub.live import Live
from taash.web.hub.turns import Turns

log = logging.getLogger("taash.web")
JSON = Any


class Act(Protocol):
    """The hub's action pipeline, as the bots call it."""

    def __call__(self, live: Live, action: dict[str, JSON], guest: str | None, client_id: str | None = None,
                 version: int | None = None, lapsed: int | None = None, away: bool = False) -> Awaitable[int]: ...


class Bots:
    """The bot tasks of every table; :attr:`closing` stops them all (a server closing, or a test that wants the
    tables to stay as it left them)."""

    def __init__(self, turns: Turns, act: Act, is_closing: Callable[[], bool]):
        self.turns = turns
        self.act = act
        self.is_closing = is_closing

    def schedule(self, live: Live) -> None:
        """If a bot (or a bot for a person away, idle, or out of time) is to move at the table's version, let it
        move when due. A task waiting for an earlier version, or to wake later than now needed, is cancelled."""
        table = live.table
        if self.is_closing() or live.gone:
            return
        due = self.turns.bot_due(live)
        waiting = live.bot_task if live.bot_task is not None and not live.bot_task.done() else None
        if waiting is not None and live.bot_version == table.version and (due is None or live.bot_due <= due):
            return  # one will wake in time (and see then whether it is still wanted)
        if waiting is not None and waiting is not asyncio.current_task():
            waiting.cancel()
        live.bot_task = None
        if due is None:
            return
        live.bot_version, live.bot_due = table.version, due
        live.bot_task = asyncio.get_running_loop().create_task(
            self._bot_move(live, due, table.version))
        live.bot_task.add_done_callback(_log_failure)

    async def _bot_move(self, live: Live, due: float, version: int) -> None:
        """Wake at ``due`` (monotonic); if the table is still at ``version`` and a bot may move, make the turn's
        timeout or the bot's move."""
        await self.turns.clock.sleep_until(due)
        me = asyncio.current_task()
        seat = live.table.to_move()
        if live.bot_task is not me or live.table.version != version or seat is None:
            return
        reason = self.turns.bot_reason(live, seat)
        if reason is None:
            live.bot_task = None
            self.schedule(live)  # not away long enough yet (he left again), or back: wait again or not at all
            return
        if reason == "lapsed" and await self._time_out(live, version):
            return
        await self._bot_plays(live, seat, version)

    async def _time_out(self, live: Live, version: int) -> bool:
        """Make the rule book's move for a turn out of time (Rummy), as the server; returns whether that was the
        end of it (False: the game has none now, or it was refused, and a bot plays the turn)."""
        me = asyncio.current_task()
        timeout = live.table.timeout_action()
        if timeout is None:
            return False
        live.bot_task = None
        try:
            await self.act(live, timeout, None, version=version)
        except TableError as e:
            if e.code == "stale" or live.bot_task is not None:
                self.schedule(live)
                return True
            log.error("a timeout was refused at table %s (%s); a bot plays the turn", live.table.id, e)
            live.bot_task = me
            return False
        self.schedule(live)
        return True

    async def _bot_plays(self, live: Live, seat: int, version: int) -> None:
        """The bot thinks in a worker thread on its own copy of the seat's view: a slow bot never stalls the other
        tables. Its action is made only if nothing happened meanwhile (say, the person came back)."""
        me = asyncio.current_task()
        table = live.table
        try:
            action = await asyncio.to_thread(table.bot_turn().action)
        except Exception:  # a bot's bug must not stop the table: the engine's first legal move instead
            log.exception("a bot failed at table %s; the engine's first legal move is made for it", table.id)
            action = table.first_legal_action()
        if live.bot_task is not me:
            return
        live.bot_task = None
        reason = self.turns.bot_reason(live, seat)
        if reason is None:
            self.schedule(live)
            return
        try:
            await self.act(live, action, None, version=version, lapsed=seat if reason == "lapsed" else None,
                           away=reason == "away")
        except TableError as e:
            if e.code != "stale":  # a bot's bug: the table must go on all the same
                log.error("a bot's action was refused at table %s (%s); the engine's first legal move is made for "
                          "it", table.id, e)
                with contextlib.suppress(TableError):
                    await self.act(live, table.first_legal_action(), None, version=version)
        self.schedule(live)

    @staticmethod
    def stop(live: Live) -> None:
        """Cancel the table's bot task, if it has one."""
        if live.bot_task is not None:
            live.bot_task.cancel()


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a bot task failed", exc_info=task.exception())
