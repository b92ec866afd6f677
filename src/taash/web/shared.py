"""What the servers of a cluster (``taash serve --redis-url``) share in Redis besides their tables' relay: what each
server holds, and the leases of the jobs only one server may do at a time.

- **Each server's snapshot** (:class:`Snapshots`): every second a server writes what it holds under
  ``taash:server-state:ID`` (kept :data:`SNAPSHOT_SECONDS`, so a dead server's disappears by itself): the public
  tables it owns as the lobby lists them, the people connected to it (or whose lobby asked for their friends
  lately), the unfinished table each of its seated people sits at, and each person's table still waiting for
  players that he made or sits at. The lobby lists every server's tables, and
  friends' presence reads every server's people, as lila-ws keeps its connected users in Redis.
- **Leases in Redis** (:class:`RedisLease`): a key whose value is its holder, taken when free (``SET NX PX``) and
  renewed by its holder only (a check and a ``PEXPIRE`` in one script), lapsing when the holder stops renewing.
  Play now's matchmaker (:mod:`taash.web.play_now_shared`) and each tournament's director hold one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

log = logging.getLogger("taash.web")
JSON = Any
#: Redis's set of the servers that have written a snapshot.
SERVERS = "taash:servers"
#: Seconds a server's snapshot is kept unless written again (written every :data:`SNAPSHOT_EVERY`).
SNAPSHOT_SECONDS = 3.0
SNAPSHOT_EVERY = 1.0
#: Seconds a Redis lease lasts unless renewed (renewed every second).
LEASE_SECONDS = 3.0

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 1
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def snapshot_key(server: str) -> str:
    return f"taash:server-state:{server}"


#: Seconds a tournament's director lease lasts unless renewed (it is renewed at each step, every tick).
DIRECTOR_SECONDS = 10.0


def director_lease(redis: Any, server: str) -> Callable[[str], Awaitable[bool]]:
    """Whether ``server`` directs a tournament now: it takes the tournament's lease (``taash:director:ID``) when
    nobody holds it, and renews it at each step; a director that dies lets it lapse, and the next server to tick
    takes it (a tournament's steps are written one by one, so the new director carries on from the database)."""

    async def directs(tournament_id: str) -> bool:
        try:
            return await RedisLease(redis, f"taash:director:{tournament_id}", server, DIRECTOR_SECONDS).hold()
        except Exception as e:  # Redis gone: nobody steps until it is back
            log.warning("could not take tournament %s's lease: %s", tournament_id, e)
            return False

    return directs


class RedisLease:
    """A job only one server of the cluster does at a time, under the Redis key ``key``: :meth:`hold` takes it
    when nobody holds it and renews it when this server does; it lapses :data:`LEASE_SECONDS` after its holder's
    last renewal (a server killed), and then the next server to ask takes it."""

    def __init__(self, redis: Any, key: str, server: str, seconds: float = LEASE_SECONDS):
        self.redis, self.key, self.server, self.millis = redis, key, server, int(seconds * 1000)

    async def hold(self) -> bool:
        """Take or renew the lease; whether this server holds it now."""
        return bool(await self.redis.eval(_RENEW, 1, self.key, self.server, self.millis))

    async def holder(self) -> str | None:
        found = await self.redis.get(self.key)
        return None if found is None else found.decode()

    async def release(self) -> None:
        """Let the lease go now (a server stopping), if this server holds it."""
        await self.redis.eval(_RELEASE, 1, self.key, self.server)


@dataclass(frozen=True, slots=True)
class Seated:
    """Where a person sits: an unfinished table, whether it is public, and its game."""

    table: str
    public: bool
    game: str


@dataclass
class Snapshot:
    """What one server holds: its public unfinished tables as the lobby lists them (JSON objects), the people
    online there, where its seated people sit, and each person's table still waiting for players that he made or
    sits at (his "my table", where the lobby invites his friends)."""

    server: str
    tables: list[dict[str, JSON]] = field(default_factory=list)
    online: set[str] = field(default_factory=set)
    seated: dict[str, Seated] = field(default_factory=dict)
    waiting: dict[str, str] = field(default_factory=dict)

    def dumps(self) -> bytes:
        return orjson.dumps({"server": self.server, "tables": self.tables, "online": sorted(self.online),
                             "seated": {g: [s.table, s.public, s.game] for g, s in self.seated.items()},
                             "waiting": self.waiting})

    @classmethod
    def loads(cls, raw: bytes) -> Snapshot:
        data = orjson.loads(raw)
        return cls(str(data["server"]), list(data["tables"]), set(data["online"]),
                   {g: Seated(str(t), bool(p), str(game)) for g, (t, p, game, *_) in data["seated"].items()},
                   {str(g): str(t) for g, t in data.get("waiting", {}).items()})


class Snapshots:
    """This server's snapshot written every second (and soon after :meth:`changed`), and the other servers' read
    back: :attr:`others`, as of the last round (at most about two seconds old)."""

    def __init__(self, redis: Any, server: str, take: Callable[[], Snapshot]):
        self.redis = redis
        self.server = server
        self.take = take
        self.others: dict[str, Snapshot] = {}
        self.wake = asyncio.Event()

    def changed(self) -> None:
        """Something the others list changed here (a table made, a seat taken): write the snapshot now."""
        self.wake.set()

    async def write(self) -> None:
        mine = self.take()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(snapshot_key(self.server), mine.dumps(), px=int(SNAPSHOT_SECONDS * 1000))
            pipe.sadd(SERVERS, self.server)
            await pipe.execute()

    async def read(self) -> dict[str, Snapshot]:
        """Every other server's snapshot, read now (and kept as :attr:`others`)."""
        servers = sorted(s.decode() for s in await self.redis.smembers(SERVERS))
        others = [s for s in servers if s != self.server]
        found: dict[str, Snapshot] = {}
        if others:
            for server, raw in zip(others, await self.redis.mget([snapshot_key(s) for s in others]), strict=True):
                if raw is not None:
                    found[server] = Snapshot.loads(raw)
        self.others = found
        return found

    async def keep_forever(self, every: float = SNAPSHOT_EVERY) -> None:
        """Write this server's snapshot and read the others' every ``every`` seconds (or at once after a change)
        until cancelled; Redis gone: tried again next round."""
        while True:
            try:
                await self.write()
                await self.read()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("could not share this server's snapshot: %s", e)
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), every)

    async def forget(self) -> None:
        """A server stopping: its snapshot goes at once."""
        with contextlib.suppress(Exception):
            await self.redis.delete(snapshot_key(self.server))


class Fanout:
    """Messages to every other server of the cluster (those that wrote a snapshot lately), sent in order by one
    task: what each server keeps a copy of, such as the invitations (``fr_invite``, ``fr_used``)."""

    def __init__(self, relay: Any, snapshots: Snapshots):
        self.relay = relay
        self.snapshots = snapshots
        self.outbox: asyncio.Queue[dict[str, JSON]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    def send(self, message: dict[str, JSON]) -> None:
        self.outbox.put_nowait(message)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._sending())

    async def _sending(self) -> None:
        while True:
            message = await self.outbox.get()
            for server in list(self.snapshots.others):
                try:
                    await self.relay.publish(server, message)
                except Exception as e:
                    log.warning("could not tell server %s: %s", server, e)

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
