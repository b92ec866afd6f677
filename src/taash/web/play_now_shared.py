"""Play now across servers (``taash serve --redis-url``): one queue for the whole cluster, kept by one server at a
time, the way Colyseus's matchmaker reserves seats for rooms on any process.

The server holding the Redis lease ``taash:play-now`` (:class:`~taash.web.shared.RedisLease`) keeps the queue, in
its :class:`~taash.web.matchmaking.Matchmaker`, exactly as a lone server does: it pools the entries, makes each
match's table (so it owns it) and seats the people. Every other server forwards the presses of its Play now
connections to it over the relay (``pn_press``, ``pn_cancel``), and passes on what it tells them (``pn_tell``).
The matchmaker's entries hold nothing (no seat, no chips), so when its server dies, or the lease moves, the people
waiting are told to press Play now again, as at a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import asdict
from typing import Any

from taash.i18n import DEFAULT, LANGUAGES, _, in_language
from taash.tables.adapter import TableError
from taash.web.matchmaking import Entry, Matchmaker, Wanted
from taash.web.relay import UNREACHABLE, RedisRelay
from taash.web.shared import RedisLease

log = logging.getLogger("taash.web")
JSON = Any
#: The Redis key of the matchmaker's lease.
MATCHMAKER = "taash:play-now"
#: What people waiting are told when the server keeping the queue stops or changes.
PRESS_AGAIN = {"type": "error", "code": "closing",
               "message": _("the server is restarting: press Play now again in a moment")}


class SharedQueue:
    """Play now's queue as one server of a cluster sees it: the local :class:`Matchmaker` while this server holds
    the matchmaker's lease, else a forwarder to the server that does. It answers what
    :func:`taash.web.play_now.press` asks of a queue (``check``, ``short_of``, ``hub``, ``press``, ``cancel``)."""

    def __init__(self, local: Matchmaker, relay: RedisRelay):
        self.local = local
        self.hub = local.hub
        self.relay = relay
        self.server = relay.server
        self.lease = RedisLease(relay.redis, MATCHMAKER, relay.server)
        #: The server keeping the queue, as of the last round (None: nobody, or not known yet).
        self.holder: str | None = None
        #: This server's entries forwarded to the holder, by their id there, and the holder each went to.
        self.sent: dict[str, tuple[Entry, str]] = {}
        #: On the holder: the other servers' entries, by (their server, their id).
        self.proxies: dict[tuple[str, str], Entry] = {}
        self.outbox: asyncio.Queue[tuple[str, dict[str, JSON]]] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []
        relay.handlers.update(pn_press=self._pressed, pn_cancel=self._cancelled, pn_tell=self._told)

    # -- what play_now asks of a queue ----------------------------------------------------------------------------

    def check(self, wanted: Wanted, level: str, wait: int) -> int:
        return self.local.check(wanted, level, wait)

    def short_of(self, guest: str, hold: int) -> str | None:
        return self.local.short_of(guest, hold)

    def press(self, entry: Entry) -> None:
        """Queue ``entry`` here (this server keeps the queue) or at the server that does; ``TableError`` when no
        server keeps it just now."""
        if self.holder == self.server:
            self.local.press(entry)
            return
        if self.holder is None:
            raise TableError(UNREACHABLE, "unavailable")
        entry_id = secrets.token_hex(8)
        self.sent[entry_id] = (entry, self.holder)
        w = entry.wanted
        self._send(self.holder, {"op": "pn_press", "from": self.server, "entry": entry_id, "guest": entry.guest,
                                 "name": entry.name, "wanted": asdict(w), "level": entry.level, "wait": entry.wait,
                                 "lang": entry.lang})

    def cancel(self, entry: Entry) -> bool:
        for entry_id, (sent, holder) in list(self.sent.items()):
            if sent is entry:
                entry.gone = True
                del self.sent[entry_id]
                self._send(holder, {"op": "pn_cancel", "from": self.server, "entry": entry_id})
                return True
        return self.local.cancel(entry)

    # -- the holder's side ----------------------------------------------------------------------------------------

    def _pressed(self, m: dict[str, JSON]) -> None:
        origin, entry_id = str(m["from"]), str(m["entry"])
        lang = str(m["lang"]) if m.get("lang") in LANGUAGES else DEFAULT  # a server from before languages: none
        if self.holder != self.server:  # the queue moved meanwhile: that server's people press again
            self._send(origin, {"op": "pn_tell", "entry": entry_id, "message": in_language(lang, PRESS_AGAIN)})
            self._send(origin, {"op": "pn_tell", "entry": entry_id, "message": None})
            return
        key = (origin, entry_id)

        def tell(message: dict[str, JSON] | None) -> None:  # said here, in his language: the relay carries JSON
            self._send(origin, {"op": "pn_tell", "entry": entry_id, "message": in_language(lang, message)})
            if message is None:
                self.proxies.pop(key, None)

        try:
            w = m["wanted"]
            wanted = Wanted(str(w["game"]), int(w["players"]), str(w["rules"]), w["length"], int(w["stake"]))
            entry = Entry(str(m["guest"]), str(m["name"]), wanted, str(m["level"]), float(m["wait"]), tell,
                          lang=lang)
        except (KeyError, TypeError, ValueError) as e:
            log.warning("a malformed Play now entry from %s: %s", origin, e)
            return
        self.proxies[key] = entry
        self.local.press(entry)

    def _cancelled(self, m: dict[str, JSON]) -> None:
        entry = self.proxies.pop((str(m["from"]), str(m["entry"])), None)
        if entry is not None:
            self.local.cancel(entry)

    # -- the forwarding server's side -----------------------------------------------------------------------------

    def _told(self, m: dict[str, JSON]) -> None:
        entry_id = str(m["entry"])
        found = self.sent.get(entry_id)
        if found is None:
            return
        message = m.get("message")
        found[0].tell(message)
        if message is None:
            self.sent.pop(entry_id, None)

    def _press_again(self, holder: str | None = None) -> None:
        """Tell the people whose entries went to ``holder`` (None: to any server) to press again."""
        for entry_id, (entry, at) in list(self.sent.items()):
            if holder is None or at == holder:
                del self.sent[entry_id]
                entry.tell(PRESS_AGAIN)
                entry.tell(None)

    # -- keeping the lease ----------------------------------------------------------------------------------------

    def _send(self, server: str, message: dict[str, JSON]) -> None:
        self.outbox.put_nowait((server, message))

    async def _sending(self) -> None:
        """Publish the outbox in order (a press before its cancel)."""
        while True:
            server, message = await self.outbox.get()
            try:
                await self.relay.publish(server, message)
            except Exception as e:
                log.warning("Play now could not reach server %s: %s", server, e)

    async def round(self) -> None:
        """Take or renew the matchmaker's lease, or learn who holds it; tell whoever waited at a holder that is
        gone to press again, and let the local queue go if this server lost the lease."""
        held = await self.lease.hold()
        was, self.holder = self.holder, self.server if held else await self.lease.holder()
        if was == self.server and self.holder != self.server:
            log.warning("Play now's queue moved to server %s", self.holder)
            await self.local.close()
        if was is not None and was != self.holder:
            self._press_again(was)

    async def keep_forever(self, every: float = 1.0) -> None:
        while True:
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("could not keep Play now's lease: %s", e)
                if self.holder != self.server:
                    self._press_again()
                    self.holder = None
            await asyncio.sleep(every)

    async def start(self) -> None:
        with contextlib.suppress(Exception):
            await self.round()
        self.tasks = [asyncio.create_task(self._sending()), asyncio.create_task(self.keep_forever())]

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        self._press_again()
        while not self.outbox.empty():  # what the local queue told other servers' people on closing
            server, message = self.outbox.get_nowait()
            with contextlib.suppress(Exception):
                await self.relay.publish(server, message)
        with contextlib.suppress(Exception):
            await self.lease.release()
