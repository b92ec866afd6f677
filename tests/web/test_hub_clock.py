"""The hub's fake clock: sleepers wake when the test moves it past their time, in order, and not before."""

from __future__ import annotations

import asyncio

from taash.web.hub import FakeClock, RealClock


def test_sleepers_wake_in_order_once_the_clock_passes_their_time() -> None:
    async def scenario() -> list[str]:
        clock = FakeClock(start=100.0, wall=1_000_100.0)
        woke: list[str] = []

        async def sleeper(name: str, seconds: float) -> None:
            await clock.sleep(seconds)
            woke.append(f"{name}@{clock.monotonic():g}")

        tasks = [asyncio.create_task(sleeper(n, s)) for n, s in (("b", 20), ("a", 10), ("now", 0))]
        for _ in range(3):
            await asyncio.sleep(0)
        assert woke == ["now@100"] and clock.sleepers == 2
        clock.advance(9.9)
        await asyncio.sleep(0)
        assert woke == ["now@100"]
        clock.advance(15)
        await asyncio.gather(*tasks)
        assert clock.time() == 1_000_124.9
        await clock.sleep_until(50.0)  # a moment passed: at once
        return woke

    assert asyncio.run(scenario()) == ["now@100", "a@124.9", "b@124.9"]


def test_the_real_clock_reads_the_machine() -> None:
    clock = RealClock()
    before = clock.monotonic()
    asyncio.run(clock.sleep_until(before - 1))
    assert clock.monotonic() >= before and clock.time() > 1_600_000_000
