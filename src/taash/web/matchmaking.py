"""Play now: people who press it wanting the same game, players, rules, match length and stake are seated at one
new public table as soon as it is full; once the first-come's wait is over, the table starts with whoever waits
and bots in the empty seats.

The queue is kept in memory beside the live tables, in the hub (the one owner of live tables). An entry holds
nothing (no seat, no chips): a restart loses places in the queue, which each browser is told to take again, and
never anyone's chips. The stakes are held when the match starts, as at any staked table
(:mod:`taash.web.stakes`); a person whose wallet can no longer pay then is dropped before the start and told why,
and the hold, all or none, is tried again for those left.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from taash.chips.errors import UnknownAccount
from taash.chips.ledger import wallet_of
from taash.i18n import DEFAULT, N_, _, said_of
from taash.tables.adapter import TableError, adapter
from taash.web.stakes import hold_for

if TYPE_CHECKING:
    from taash.web.hub import Hub, Live

log = logging.getLogger("taash.web")
JSON = Any
#: The waits a person may choose, in seconds, before bots fill the seats nobody took.
WAITS = (0, 15, 30, 60, 120)
#: The longest name a seat takes (a name clashing with another person's at the table gets a number after it).
NAME_LONGEST = 24


@dataclass(frozen=True, slots=True)
class Wanted:
    """What people must all want to be seated together: the game, its players, the rules preset, the match length
    (Seep: baazis, 0 a single deal; Rummy: the format) and the stake in chips."""

    game: str
    players: int
    rules: str
    length: int | str
    stake: int


@dataclass(eq=False)
class Entry:
    """One person in the queue: who, what he wants, the bots' level and the wait he accepts, and how to tell him
    (a message, or None when he is done with: matched, or his entry gone)."""

    guest: str
    name: str
    wanted: Wanted
    level: str
    #: Seconds he accepts to wait before bots fill the empty seats (one of WAITS when a person chose it).
    wait: float
    tell: Callable[[dict[str, JSON] | None], None]
    since: float = field(default_factory=time.monotonic)
    #: Gone from the queue (cancelled, replaced or disconnected): if his match is being made, he is not seated.
    gone: bool = False
    #: The language he is told things in (what ``tell`` is given holds sentences to be said in it).
    lang: str = DEFAULT

    @property
    def due(self) -> float:
        """When (monotonic) his wait is over."""
        return self.since + self.wait


class Matchmaker:
    """The Play now queue of a hub: a pool of entries per :class:`Wanted`, in the order they came."""

    def __init__(self, hub: Hub):
        self.hub = hub
        self.pools: dict[Wanted, list[Entry]] = {}
        self.by_guest: dict[str, Entry] = {}
        self.timers: dict[Wanted, asyncio.TimerHandle] = {}
        self.matching: set[asyncio.Task[None]] = set()

    # -- the queue ----------------------------------------------------------------------------------------------

    def check(self, wanted: Wanted, level: str, wait: int) -> int:
        """Refuse (``TableError``) what cannot be queued: a wait not offered, settings no table takes, a stake on a
        server without chips. Returns the chips the match will hold from each seat (0: none)."""
        if wait not in WAITS:
            raise TableError(_("wait must be one of {waits} seconds", waits=", ".join(map(str, WAITS))))
        game = adapter(wanted.game)
        settings = game.settings(wanted.players, wanted.rules, wanted.length, level, True)
        if wanted.stake and self.hub.ledger is None:
            raise TableError(N_("this server keeps no chips: its tables have no stakes"), "bad")
        return hold_for(settings, wanted.stake)

    def short_of(self, guest: str, hold: int) -> str | None:
        """Why ``guest``'s wallet cannot pay a hold of ``hold`` chips (None: it can). A worker thread's call."""
        if hold == 0 or self.hub.ledger is None:
            return None
        ledger = self.hub.ledger
        try:
            balance = ledger.balance(wallet_of(guest))
        except UnknownAccount:  # a person from before the server kept chips: his wallet opens now (empty for a guest)
            fair = self.hub.fair
            ledger.open_wallet(guest, fair is None or bool(fair.accounts([guest])))
            balance = ledger.balance(wallet_of(guest))
        if balance >= hold:
            return None
        return _("not enough chips: this match holds {hold} chips from each seat when it starts, and you have "
                 "{balance}", hold=f"{hold:,}", balance=f"{balance:,}")

    def press(self, entry: Entry) -> None:
        """Queue ``entry`` (checked), replacing its person's entry if he had one; seat the pool if it is full."""
        old = self.by_guest.get(entry.guest)
        if old is not None:
            self.cancel(old)
            if old.tell is not entry.tell:
                old.tell({"type": "cancelled", "reason": _("you pressed Play now again elsewhere")})
        pool = self.pools.setdefault(entry.wanted, [])
        pool.append(entry)
        self.by_guest[entry.guest] = entry
        if len(pool) >= entry.wanted.players:
            self._seat(entry.wanted, entry.wanted.players)
        else:
            self._changed(entry.wanted)

    def cancel(self, entry: Entry) -> bool:
        """Take ``entry`` out of the queue (cancelled, or its person disconnected); returns whether it was in it.
        An entry whose match is being made is marked gone: its person is not seated, or leaves before the start."""
        entry.gone = True
        if self.by_guest.get(entry.guest) is entry:
            del self.by_guest[entry.guest]
        pool = self.pools.get(entry.wanted)
        if pool is None or entry not in pool:
            return False
        pool.remove(entry)
        self._changed(entry.wanted)
        return True

    def waiting(self) -> int:
        """How many people are in the queue."""
        return len(self.by_guest)

    def _changed(self, wanted: Wanted) -> None:
        """A pool changed: its timer follows its first-come's wait, and everyone in it is told how it stands."""
        timer = self.timers.pop(wanted, None)
        if timer is not None:
            timer.cancel()
        pool = self.pools.get(wanted)
        if not pool:
            self.pools.pop(wanted, None)
            return
        first = pool[0]
        loop = asyncio.get_running_loop()
        self.timers[wanted] = loop.call_later(max(0.0, first.due - time.monotonic()), self._due, wanted)
        bots_at = round(time.time() + max(0.0, first.due - time.monotonic()), 3)
        for e in pool:
            e.tell({"type": "waiting", "waiting": len(pool), "players": wanted.players, "bots_at": bots_at,
                    "wait": first.wait})

    def _due(self, wanted: Wanted) -> None:
        """The first-come's wait is over: whoever waits is seated, with bots."""
        self.timers.pop(wanted, None)
        pool = self.pools.get(wanted)
        if pool:
            self._seat(wanted, len(pool))

    def _seat(self, wanted: Wanted, count: int) -> None:
        """Take the first ``count`` of the pool out of the queue and make their match."""
        pool = self.pools[wanted]
        group, pool[:] = pool[:count], pool[count:]
        for e in group:
            del self.by_guest[e.guest]
        self._changed(wanted)
        task = asyncio.get_running_loop().create_task(self._match_or_say_why(wanted, group))
        self.matching.add(task)
        task.add_done_callback(self._matched)

    def _matched(self, task: asyncio.Task[None]) -> None:
        self.matching.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a Play now match failed", exc_info=task.exception())

    # -- the match ----------------------------------------------------------------------------------------------

    async def _match_or_say_why(self, wanted: Wanted, group: list[Entry]) -> None:
        """:meth:`_match`; should the server fail at it (the database), each person is told, not left waiting."""
        try:
            await self._match(wanted, group)
        except Exception:
            log.exception("a Play now match could not be made")
            for entry in group:
                entry.tell({"type": "error", "code": "server",
                            "message": _("the server could not make your match: press Play now again")})

    async def _match(self, wanted: Wanted, group: list[Entry]) -> None:
        """A new public table with the group seated in the order they came, bots in the empty seats, started
        (the stakes held); each person is told his table, or why he has none."""
        hub = self.hub
        settings = adapter(wanted.game).settings(wanted.players, wanted.rules, wanted.length, group[0].level, True)
        try:
            live = await hub.create(settings, None, wanted.stake)
        except TableError as e:
            for e_ in group:
                e_.tell({"type": "error", "code": e.code, "message": said_of(e)})
            return
        seated: list[Entry] = []
        names: set[str] = set()
        for seat, entry in enumerate(group):
            if entry.gone:
                continue
            name = unique_name(entry.name, names)
            try:
                await hub.act(live, {"type": "sit", "seat": seat, "name": name}, entry.guest)
            except TableError as e:
                entry.tell({"type": "error", "code": e.code,
                            "message": _("you could not be seated: {why}", why=said_of(e))})
                continue
            names.add(name.casefold())
            seated.append(entry)
        for _try in range(len(group) + 1):
            await self._leave(live, [e for e in seated if e.gone])
            seated = [e for e in seated if not e.gone]
            if not seated:
                await hub.abandon(live)
                return
            try:
                if any(s.empty for s in live.table.seats):
                    await hub.act(live, {"type": "bots"}, None)
                await hub.act(live, {"type": "start"}, None)
                break
            except TableError as e:
                if e.code != "short":
                    await self._give_up(live, seated, e)
                    return
                short = await asyncio.to_thread(self._short_seats, live, seated)
                for entry in short:  # they leave at the top of the loop, and the hold is tried again without them
                    entry.gone = True
                    entry.tell({"type": "error", "code": "short", "message": _(
                        "you were dropped from the match: your wallet can no longer pay its stake")})
        else:
            await self._give_up(live, seated, TableError(N_("the stakes could not be held"), "stakes"))
            return
        for entry in seated:
            entry.tell({"type": "matched", "table": live.table.id, "seat": live.table.seat_of(entry.guest),
                        "url": f"/t/{live.table.id}"})
            entry.tell(None)

    def _short_seats(self, live: Live, seated: list[Entry]) -> list[Entry]:
        """The people seated whose wallets cannot pay the hold now (a worker thread's call)."""
        hold = hold_for(live.table.settings, live.stake)
        return [e for e in seated if self.short_of(e.guest, hold) is not None]

    async def _leave(self, live: Live, entries: list[Entry]) -> None:
        """People seated but gone from the queue (disconnected, or short of chips) leave before the start."""
        for entry in entries:
            with contextlib.suppress(TableError):
                await self.hub.act(live, {"type": "leave"}, entry.guest)

    async def _give_up(self, live: Live, seated: list[Entry], e: TableError) -> None:
        log.error("a Play now table %s could not start: %s", live.table.id, e)
        with contextlib.suppress(TableError):
            await self.hub.abandon(live)
        for entry in seated:
            entry.tell({"type": "error", "code": e.code,
                        "message": _("the match could not start: {why}", why=said_of(e))})

    async def close(self) -> None:
        """The server stops: everyone waiting is told to press again later (nothing was held for anyone)."""
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        for entry in list(self.by_guest.values()):
            entry.tell({"type": "error", "code": "closing",
                        "message": _("the server is restarting: press Play now again in a moment")})
            entry.tell(None)
        self.by_guest.clear()
        self.pools.clear()
        for task in list(self.matching):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def unique_name(name: str, taken: set[str]) -> str:
    """``name``, or ``name 2``, ``name 3``... the first not in ``taken`` (casefolded names)."""
    if name.casefold() not in taken:
        return name
    n = 2
    while True:
        candidate = f"{name[:NAME_LONGEST - len(str(n)) - 1]} {n}"
        if candidate.casefold() not in taken:
            return candidate
        n += 1
