"""The relay's traffic under load: a burst of publishes waits for Redis connections rather than failing (against a
real redis-server, skipped where there is none), and an owner's messages to another server go in order, in batches,
with the connections of a batch Redis refused let go; an outbox sent in full goes."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson

from taash.web.relay import REDIS_CONNECTIONS, RedisRelay, channel
from taash.web.relay_links import BATCH, Outboxes
from tests.web.test_shared import redis_url

__all__ = ["redis_url"]


def test_a_burst_of_publishes_waits_for_a_connection_instead_of_failing(redis_url: str) -> None:
    """Regression: redis-py's default pool refused the 101st command in flight ("Too many connections"): relayed
    starts failed with 503 ``unavailable`` and bridged connections stopped getting messages, at 2 servers and more."""

    async def scenario() -> None:
        relay = RedisRelay(redis_url, "s1")
        try:
            sent = await asyncio.gather(*(relay._publish("s2", {"op": "out", "n": n})
                                          for n in range(6 * REDIS_CONNECTIONS)))
            assert sent == [0] * (6 * REDIS_CONNECTIONS)  # nobody listens on s2: each went through, none failed
        finally:
            await relay.close()

    asyncio.run(scenario())


def test_an_owners_messages_reach_the_other_server_in_order_in_few_round_trips(redis_url: str) -> None:
    import redis.asyncio as redis

    async def scenario() -> None:
        client = redis.Redis.from_url(redis_url)
        listener = client.pubsub(ignore_subscribe_messages=True)
        await listener.subscribe(channel("s2"))
        trips: list[int] = []
        counted = CountedRedis(client, trips)
        boxes = Outboxes(counted, channel, lambda conns: None)
        for n in range(1200):
            boxes.send("s2", {"conn": f"c{n % 3}", "n": n}, f"c{n % 3}")
        got: list[dict[str, Any]] = []
        deadline = asyncio.get_running_loop().time() + 10
        while len(got) < 1200:
            assert asyncio.get_running_loop().time() < deadline, f"only {len(got)} of 1200 messages came"
            message = await listener.get_message(timeout=1)  # None: the subscription's own reply, or nothing yet
            if message is not None:
                got.append(orjson.loads(message["data"]))
        assert [m["n"] for m in got] == list(range(1200))
        assert len(trips) == 3 and max(trips) <= BATCH  # queued at once: sent in batches of at most BATCH
        for _ in range(100):  # its last round trip answered, the outbox goes
            if not boxes.boxes:
                break
            await asyncio.sleep(0.01)
        assert boxes.boxes == {}
        await boxes.close()
        await listener.aclose()
        await client.aclose()

    asyncio.run(scenario())


def test_the_connections_of_a_batch_redis_refused_are_let_go() -> None:
    async def scenario() -> None:
        failed: list[set[str]] = []
        boxes = Outboxes(RefusingRedis(), channel, failed.append)
        boxes.send("s2", {"n": 1}, "c1")
        boxes.send("s2", {"n": 2}, "c2")
        boxes.send("s3", {"n": 3}, "c3")
        for _ in range(10):
            await asyncio.sleep(0)
        assert sorted(map(sorted, failed)) == [["c1", "c2"], ["c3"]]
        assert boxes.boxes == {}  # nothing left to send
        await boxes.close()

    asyncio.run(scenario())


class CountedRedis:
    """A Redis client whose pipelines count the commands of each round trip into ``trips``."""

    def __init__(self, client: Any, trips: list[int]):
        self.client, self.trips = client, trips

    def pipeline(self, transaction: bool = True) -> Any:
        pipe = self.client.pipeline(transaction=transaction)
        execute, trips = pipe.execute, self.trips

        async def counted() -> Any:
            trips.append(len(pipe.command_stack))
            return await execute()

        pipe.execute = counted
        return pipe


class RefusingRedis:
    """A Redis that is away: every round trip fails."""

    def pipeline(self, transaction: bool = True) -> Any:
        return RefusingPipeline()


class RefusingPipeline:
    async def __aenter__(self) -> RefusingPipeline:
        return self

    async def __aexit__(self, *_: object) -> None:
        return None

    def publish(self, _channel: str, _data: bytes) -> None:
        return None

    async def execute(self) -> None:
        raise ConnectionError("Redis went away")
