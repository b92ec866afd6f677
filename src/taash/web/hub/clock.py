"""The hub's clock, injected: the server reads the real one, tests a fake one they move on by hand (so a turn's
thirty seconds pass in no time, and a test never sleeps for time to pass)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class Clock(Protocol):
    """What the hub asks of time: monotonic seconds (for every interval), the Unix time (for a deadline told to
    people), and a sleep on the same monotonic clock."""

    def monotonic(self) -> float: ...

    def time(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...

    async def sleep_until(self, moment: float) -> None:
        """Sleep until the monotonic time ``moment`` (at once, but for a turn of the loop, if it has passed)."""


class RealClock:
    """The machine's clocks, and asyncio's sleep."""

    def monotonic(self) -> float:
        return time.monotonic()

    def time(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def sleep_until(self, moment: float) -> None:
        await asyncio.sleep(max(0.0, moment - time.monotonic()))


class FakeClock:
    """A clock that moves only when :meth:`advance` says: a sleeper wakes once the clock has passed its time (a
    sleep of nothing, or less, only lets the other tasks run, as asyncio's does)."""

    def __init__(self, start: float = 1000.0, wall: float = 1_700_000_000.0):
        self.now = start
        #: The Unix time at ``start``.
        self.wall = wall - start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return self.wall + self.now

    async def sleep(self, seconds: float) -> None:
        await self.sleep_until(self.now + seconds)

    async def sleep_until(self, moment: float) -> None:
        if moment <= self.now:
            await asyncio.sleep(0)
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (moment, next(self._order), woken))
        await woken

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds`` and wake every sleeper due by then (they run at the next await)."""
        self.now += seconds
        while self._sleepers and self._sleepers[0][0] <= self.now:
            _, _, woken = heapq.heappop(self._sleepers)
            if not woken.done():
                woken.set_result(None)

    @property
    def sleepers(self) -> int:
        """Sleepers still waiting (a cancelled one counts until its time comes)."""
        return sum(1 for _, _, woken in self._sleepers if not woken.done())
