"""Rematch: at the end of a match, one of its people proposes the same seats and settings again; the new table
starts once every seated person has answered, each in the seat he had.

Bots accept at once. A person who declines, or leaves (his last connection to the table closes, or he has none
when it is proposed, or he lets :data:`REMATCH_SECONDS` go by without answering), is replaced by a bot: so the
rematch starts at once for those who want it, as a match goes on with a bot in an away person's seat, and nobody
who said no is held to a stake. The proposer may take his offer back (his decline, or his leaving, ends it). The
new table is made and started through the hub like any other (its creator is the proposer): a staked match holds
every seat's stake again at its start, by the same path, and a start the chips refuse abandons the new table (no
chips held) and says why. Everyone connected to the old table, watchers too, is told the new table's id, and the
browser moves there.

Offers are kept in the database as they change (:class:`taash.web.offer_rows.RematchOfferRow`), and so are the
rematches started: a server restarted carries on with each open offer (its answers, and its expiry on the wall
clock: an offer that ran out while the server was down is settled at once, as it would have been) and sends a late
connection of an old table on to its new one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from taash.i18n import N_, _, in_language, said_of
from taash.tables.adapter import TableError
from taash.web.hub import Connection, Hub, Live
from taash.web.lease import SoleLease
from taash.web.offer_rows import RematchOfferRow, seconds_of, wall
from taash.web.table_models import sit_action

log = logging.getLogger("taash.web")
JSON = Any
#: Seconds a seated person has to answer a rematch; then he counts as having declined.
REMATCH_SECONDS = 60.0
#: The rematches started that are remembered (to send a late connection of the old table on to the new one).
STARTED_KEPT = 2000
#: Days an offer's row is kept in the database (a started rematch's, to send late connections on).
KEPT_DAYS = 2
ANSWERS = ("propose", "accept", "decline")
#: The tables with an open offer (not started yet).
OPEN_OFFERS = select(RematchOfferRow.table_id).where(RematchOfferRow.started.is_(None))

#: What each seat said, as the ``rematch`` message lists them.
WAITING, ACCEPTED, DECLINED, LEFT, BOT = "waiting", "accepted", "declined", "left", "bot"


@dataclass(eq=False)
class Offer:
    """A rematch proposed at a finished table: who proposed it, and each seat's answer so far."""

    live: Live
    by: int
    answers: list[str]
    until: float
    #: When (the hub's monotonic clock) the seats still waiting count as having declined.
    due: float
    timer: asyncio.Task[None] | None = field(default=None, repr=False)

    def waiting(self) -> bool:
        return WAITING in self.answers


class Rematches:
    """Every rematch offer of the server's finished tables, and the rematches started (old table -> new)."""

    def __init__(self, hub: Hub, seconds: float = REMATCH_SECONDS):
        self.hub = hub
        self.seconds = seconds
        self.offers: dict[str, Offer] = {}
        self.started: OrderedDict[str, str] = OrderedDict()
        #: Finished tables whose rematch is being made (no new offer meanwhile).
        self.starting: set[str] = set()
        hub.ownership.also.append(self.take_up_lapsed)

    # -- a seat's answer ------------------------------------------------------------------------------------------

    async def answer(self, live: Live, seat: int | None, said: object) -> None:
        """A seated person's ``propose``, ``accept`` or ``decline`` (TableError, in his words, when it cannot
        be: a watcher, a match not over, no offer to answer, a rematch already started)."""
        if said not in ANSWERS:
            raise TableError(N_("a rematch's answer is propose, accept or decline"), "malformed")
        if seat is None:
            raise TableError(N_("only the match's players may ask for a rematch"), "not_seated")
        table_id = live.table.id
        if table_id in self.started or table_id in self.starting:
            raise TableError(N_("the rematch has started already"), "rematch_started")
        if live.gone or live.table.status != "finished":
            raise TableError(N_("a rematch is proposed once the match is over"), "not_finished")
        offer = self.offers.get(table_id)
        if offer is None:
            if said != "propose":
                raise TableError(N_("nobody has proposed a rematch: propose one"), "no_rematch")
            offer = self._propose(live, seat)
        else:
            now = DECLINED if said == "decline" else ACCEPTED
            if offer.answers[seat] == now:
                return  # the same answer again changes nothing
            offer.answers[seat] = now
        await self._after_answer(offer, seat)

    def _propose(self, live: Live, seat: int) -> Offer:
        seats = live.table.seats
        answers = [BOT if s.bot or s.guest is None else WAITING if any(c.seat == i for c in live.connections)
                   else LEFT for i, s in enumerate(seats)]
        answers[seat] = ACCEPTED
        clock = self.hub.clock
        offer = Offer(live, seat, answers, clock.time() + self.seconds, clock.monotonic() + self.seconds)
        self.offers[live.table.id] = offer
        if offer.waiting():
            offer.timer = asyncio.create_task(self._expire(offer))
        return offer

    async def left(self, live: Live, conn: Connection) -> None:
        """``conn`` has closed: a seat with no connection left counts as declined."""
        offer = self.offers.get(live.table.id)
        seat = conn.seat
        if offer is None or offer.live is not live or seat is None or live.seat_connected(seat):
            return
        if offer.answers[seat] in (WAITING, ACCEPTED):
            offer.answers[seat] = LEFT
            await self._after_answer(offer, seat)

    async def _expire(self, offer: Offer) -> None:
        await self.hub.clock.sleep_until(offer.due)
        if self.offers.get(offer.live.table.id) is not offer:
            return
        offer.answers = [DECLINED if a == WAITING else a for a in offer.answers]
        offer.timer = None
        await self._after_answer(offer, None)

    async def _after_answer(self, offer: Offer, seat: int | None) -> None:
        """Tell everyone where the offer stands; end it (the proposer said no) or start it (nobody is waiting)."""
        live = offer.live
        if offer.answers[offer.by] in (DECLINED, LEFT):
            self._close(offer)
            await self._forget(live.table.id)
            self.tell(live, {"type": "rematch_over", "version": live.table.version,
                             "reason": _("{name} took back the rematch", name=live.table.seats[offer.by].name)})
            self.hub.forget_if_idle(live)  # a table kept for its offer alone (restored) leaves memory, and its lease
            return
        await self._keep(offer)
        self.tell(live, self.offer_message(offer))
        if not offer.waiting():
            self._close(offer)
            self.starting.add(live.table.id)
            try:
                await self._start(offer)
            finally:
                self.starting.discard(live.table.id)
                self.hub.forget_if_idle(live)

    def _close(self, offer: Offer) -> None:
        self.offers.pop(offer.live.table.id, None)
        if offer.timer is not None and offer.timer is not asyncio.current_task():
            offer.timer.cancel()
        offer.timer = None

    # -- the new table ----------------------------------------------------------------------------------------------

    async def _start(self, offer: Offer) -> None:
        """Make the new table with the old one's settings and stake, seat each person who accepted where he sat,
        bots in the other seats, and start it (holding the stakes as any start does)."""
        old, hub = offer.live, self.hub
        proposer = old.table.seats[offer.by].guest
        try:
            new = await hub.create(old.table.settings, proposer, old.stake)
        except TableError as e:
            await self._forget(old.table.id)
            self.tell(old, {"type": "rematch_over", "version": old.table.version,
                            "reason": _("the rematch could not start: {why}", why=said_of(e))})
            return
        try:
            await self._seat_and_start(offer, new, proposer)
        except TableError as e:
            with contextlib.suppress(TableError):
                await hub.abandon(new, reason="the rematch could not start")
            await self._forget(old.table.id)
            self.tell(old, {"type": "rematch_over", "version": old.table.version,
                            "reason": _("the rematch could not start: {why}", why=said_of(e))})
            return
        self.started[old.table.id] = new.table.id
        await self._keep(offer, started=new.table.id)
        while len(self.started) > STARTED_KEPT:
            self.started.popitem(last=False)
        log.info("table %s: rematch at table %s", old.table.id, new.table.id)
        self.tell(old, self.started_message(old))

    async def _seat_and_start(self, offer: Offer, new: Live, proposer: str | None) -> None:
        hub, seats = self.hub, offer.live.table.seats
        for seat, said in enumerate(offer.answers):
            person = seats[seat].guest
            if said == ACCEPTED and person is not None:
                await hub.act(new, sit_action(seat, seats[seat].name, None), person)
        if any(s.empty for s in new.table.seats):
            await hub.act(new, {"type": "bots"}, proposer)
        await hub.act(new, {"type": "start"}, proposer)

    # -- kept in the database ---------------------------------------------------------------------------------------

    async def _keep(self, offer: Offer, started: str | None = None) -> None:
        """Write the offer as it stands (its answers; the new table once started)."""
        row = RematchOfferRow(table_id=offer.live.table.id, by=offer.by, answers=json.dumps(offer.answers),
                              until=wall(offer.until), started=started, made_at=wall(self.hub.clock.time()))

        def keep(s: Session) -> None:
            s.merge(row)

        await self.hub.store.write(keep)

    async def _forget(self, table_id: str) -> None:
        def forget(s: Session) -> None:
            s.execute(delete(RematchOfferRow).where(RematchOfferRow.table_id == table_id))

        await self.hub.store.write(forget)

    def _rows(self) -> list[RematchOfferRow]:
        oldest = wall(self.hub.clock.time()) - timedelta(days=KEPT_DAYS)
        with Session(self.hub.store.engine, expire_on_commit=False) as s, s.begin():
            s.execute(delete(RematchOfferRow).where(RematchOfferRow.made_at < oldest))
            rows = list(s.scalars(select(RematchOfferRow).order_by(RematchOfferRow.made_at)))
            s.expunge_all()
            return rows

    async def restore(self) -> int:
        """Take up the offers kept (at the server's start): the rematches started, and each open offer at its
        finished table (held in memory, so that its connections share it), its expiry running on; how many open
        offers."""
        for row in await asyncio.to_thread(self._rows):
            if row.started is not None:
                self.started[row.table_id] = row.started
                continue
            read = await asyncio.to_thread(self._claimed_finished, row.table_id)
            if read is not None:
                self._take_up(row, read)
        while len(self.started) > STARTED_KEPT:
            self.started.popitem(last=False)
        return len(self.offers)

    async def take_up_lapsed(self) -> int:
        """Take up the open offers of finished tables that no server holds any more (their holder died while this
        server runs: the scan for lapsed leases calls this), each as :meth:`restore` does, its table's lease claimed
        first so that one server alone does, and its row read again once claimed (the answers as the holder last
        wrote them); how many offers were taken up."""
        taken = 0
        for table_id in await asyncio.to_thread(self.hub.lease.unheld_among, OPEN_OFFERS):
            if table_id in self.offers or table_id in self.starting:
                continue
            read = await asyncio.to_thread(self._claimed_finished, table_id)
            if read is None:
                continue
            row = await asyncio.to_thread(self._row, table_id)
            if row is None or row.started is not None:  # ended or started meanwhile: nothing to take up
                if row is not None and row.started is not None:
                    self.started[table_id] = row.started
                if self.hub.live.get(table_id) is not read:  # claimed for the offer alone: let it go again
                    await asyncio.to_thread(self.hub.lease.release, table_id)
                continue
            log.info("table %s: its rematch offer is taken up here (its server stopped holding it)", table_id)
            self._take_up(row, read)
            taken += 1
        return taken

    async def take_up_here(self, live: Live) -> None:
        """A connection has just joined ``live``, a finished table that no server holds (its holder died, and no
        scan has taken its offer up yet): take the open offer up on this server now, with ``live`` (so that the
        connection shares it and is told of the offer), rather than leave it out of the offer until it
        reconnects. Nothing for a lone server (its restart took every offer up), nor for a table held anywhere."""
        table_id = live.table.id
        if (isinstance(self.hub.lease, SoleLease) or live.owner is not None or live.gone
                or live.table.status != "finished" or table_id in self.offers or table_id in self.started
                or table_id in self.hub.live):
            return
        row = await asyncio.to_thread(self._row, table_id)
        if row is None or row.started is not None:
            return
        claim = await asyncio.to_thread(self.hub.lease.claim, table_id)
        if not claim.owned:
            return
        row = await asyncio.to_thread(self._row, table_id)  # as the holder last wrote it, now that it is ours
        if row is None or row.started is not None or table_id in self.offers or table_id in self.hub.live:
            await asyncio.to_thread(self.hub.lease.release, table_id)
            return
        live.epoch = claim.epoch
        log.info("table %s: its rematch offer is taken up here (its server stopped holding it)", table_id)
        self._take_up(row, live)

    def _take_up(self, row: RematchOfferRow, read: Live) -> None:
        """Hold the finished table ``read`` in memory with the open offer ``row``, its expiry running on."""
        clock = self.hub.clock
        live = self.hub.registry.keep(read)
        until = seconds_of(row.until)
        offer = Offer(live, row.by, json.loads(row.answers), until, clock.monotonic() + until - clock.time())
        self.offers[row.table_id] = offer
        if offer.waiting():
            offer.timer = asyncio.create_task(self._expire(offer))

    def _row(self, table_id: str) -> RematchOfferRow | None:
        """The offer kept for ``table_id`` as the database has it now (a worker thread's call)."""
        with Session(self.hub.store.engine, expire_on_commit=False) as s:
            row = s.get(RematchOfferRow, table_id)
            if row is not None:
                s.expunge(row)
            return row

    def _claimed_finished(self, table_id: str) -> Live | None:
        """The finished table of an open offer, its lease claimed by this server (so that one server among several
        takes the offer up, and the others send its connections there); None when it is not finished, or another
        server holds it (that server has the offer). A worker thread's call: it reads the database."""
        hub = self.hub
        live = hub.live.get(table_id)
        if live is not None:
            return live if live.table.status == "finished" and not live.gone else None
        read = hub.get(table_id)
        if read is None or read.gone or read.owner is not None or read.table.status != "finished":
            return None
        claim = hub.lease.claim(table_id)
        if not claim.owned:
            return None
        read.epoch = claim.epoch
        return read

    # -- messages ---------------------------------------------------------------------------------------------------

    @staticmethod
    def offer_message(offer: Offer) -> dict[str, JSON]:
        return {"type": "rematch", "version": offer.live.table.version, "by": offer.by,
                "seats": list(offer.answers), "until": offer.until}

    def started_message(self, old: Live) -> dict[str, JSON]:
        return {"type": "rematch_started", "version": old.table.version, "table": self.started[old.table.id]}

    @staticmethod
    def tell(live: Live, message: dict[str, JSON]) -> None:
        """Send ``message`` to every connection of ``live``, its sentences in each one's language."""
        texts: dict[str, str] = {}
        for conn in list(live.connections):
            if conn.close_code == 1000:
                if conn.lang not in texts:
                    texts[conn.lang] = json.dumps(in_language(conn.lang, message), separators=(",", ":"))
                conn.send(texts[conn.lang])

    def greet(self, live: Live, conn: Connection) -> None:
        """A new connection to a finished table is told of its rematch: the offer open, or the table started."""
        if live.table.id in self.started:
            conn.send(json.dumps(self.started_message(live), separators=(",", ":")))
            return
        offer = self.offers.get(live.table.id)
        if offer is not None and offer.live is live:
            conn.send(json.dumps(self.offer_message(offer), separators=(",", ":")))
