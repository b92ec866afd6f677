"""The path of one action, from a person, a bot or the server, top to bottom (:meth:`Pipeline.act`):

1. under the table's lock, a message sent again under its id is answered with the version it made, and one sent
   for a version the table has passed is refused (``stale``);
2. the table reads and checks the action once (:meth:`Table.prepare`: the step that makes it, or a refusal),
   and the server's fair-play rules theirs; a start played for chips holds every seat's stake;
3. the action is written to the database and committed (a write that fails changes nothing);
4. only then the table makes the step, the deals it dealt are written, the turn's clock and the seats' extra
   time are kept, and every connection is sent its own view of the new version;
5. a match that starts, ends or is split has its status (and results) written, and a finished staked match is
   settled; then the bots are asked whether one is to move.

So whatever anyone reads of a table is committed, and an action the database refuses changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from taash.chips.errors import ChipsError, InsufficientChips
from taash.chips.ledger import Ledger
from taash.i18n import N_, _, said_of
from taash.tables.adapter import TableError
from taash.tables.table import Step
from taash.web.fair_play import CHECKED_ACTIONS, FairPlay
from taash.web.hub.live import MISSED_KEPT, SEEN_KEPT, Live, fingerprint
from taash.web.hub.messages import Messages
from taash.web.hub.records import result_rows
from taash.web.hub.turns import Turns
from taash.web.lease import LeaseLost
from taash.web.stakes import match_id, short_words, stakes_of
from taash.web.store import Store

log = logging.getLogger("taash.web")
#: Why an action or a connection is refused by a server that no longer owns the table.
MOVED = N_("the table moved to another server: reconnect")
JSON = Any


class Pipeline:
    """Every action of every table. ``reseat`` is asked after a sit or a leave, ``close_watchers`` when a private
    table starts, ``settle`` when a staked match ends (in a worker thread), ``schedule_bots`` after each action."""

    def __init__(self, store: Store, ledger: Ledger | None, fair: FairPlay | None, turns: Turns, messages: Messages,
                 reseat: Callable[[Live], None], close_watchers: Callable[[Live, str], None],
                 settle: Callable[[Live], None], schedule_bots: Callable[[Live], None]):
        self.store = store
        self.ledger = ledger
        self.fair = fair
        self.turns = turns
        self.messages = messages
        self.reseat = reseat
        self.close_watchers = close_watchers
        self.settle = settle
        self.schedule_bots = schedule_bots
        #: Told of every match that ends (finished, its status and results written): a tournament's next step.
        self.ended: list[Callable[[Live], None]] = []

    async def act(self, live: Live, action: dict[str, JSON], guest: str | None, client_id: str | None = None,
                  version: int | None = None, lapsed: int | None = None, away: bool = False) -> int:
        """Check, store, apply and announce one action; returns the version it made.

        ``version`` is the table version the sender saw (None: not checked); ``lapsed``, the seat whose person
        let his turn run out (a bot's action for him); ``away``: a bot's action for the seat to move, whose person
        is away (the time since he left is not taken from his extra time). Raises TableError. The work runs to its
        end even if the caller is cancelled (a closing connection, a bot's task at shutdown): an action whose write
        may have committed is always applied in memory too.
        """
        return await asyncio.shield(self._act(live, action, guest, client_id, version, lapsed, away))

    async def _act(self, live: Live, action: dict[str, JSON], guest: str | None, client_id: str | None,
                   version: int | None, lapsed: int | None, away: bool) -> int:
        async with live.lock:
            made = self._made_already(live, action, guest, client_id, version)
            if made is not None:
                return made
            step = await self._checked(live, action, guest)
            status_before = live.table.status
            if action.get("type") == "start" and live.stake > 0 and self.ledger is not None:
                await self._hold(live, guest)
            mover = live.table.to_move()
            bank = self.turns.bank_now(live, mover, away)
            await self._write(live, step, guest, client_id, bank)
            # Committed: now the table in memory may change and everyone may be told.
            said = live.table.commit(step)
            await self.store_deals(live)
            self._keep(live, step, guest, client_id, mover, bank, lapsed, said)
            if step.action.get("type") in ("sit", "leave"):
                await self._mark_accounts(live)
            if status_before != live.table.status and live.table.status == "playing" \
                    and not live.table.settings.public:
                # Its watchers are closed before the start is announced: they see nothing of the match.
                self.close_watchers(live, "a private table: only its players may watch it")
            self.messages.broadcast(live, said)
            if status_before != live.table.status:
                await self.store_status(live, guest)
        self.schedule_bots(live)
        return step.version + 1

    def _made_already(self, live: Live, action: dict[str, JSON], guest: str | None, client_id: str | None,
                      version: int | None) -> int | None:
        """The version a message sent again under its id made (None: a new one); refuses an action at a table
        abandoned, an id used for another message, and a version the table has passed."""
        if live.gone:
            raise TableError(N_("the table was abandoned"), "abandoned")
        if client_id is not None and (guest, client_id) in live.seen:
            made, what = live.seen[(guest, client_id)]
            if what != fingerprint(action):
                raise TableError(_("the id {id} was used for another message (which made version {made}): give "
                                   "each message a new id", id=client_id, made=made), "id_reused")
            return made  # the same message again: applied once already
        if version is not None and version != live.table.version:
            raise TableError(_("stale version {version}: the table is at version {now}", version=version,
                               now=live.table.version), "stale")
        return None

    async def _checked(self, live: Live, action: dict[str, JSON], guest: str | None) -> Step:
        """The table's step for ``action`` (read and checked once), allowed by the server's fair-play rules (which
        read the database for a sit or a start: on a worker thread, the table's lock held)."""
        step = live.table.prepare(action, guest)
        if self.fair is not None and action.get("type") in CHECKED_ACTIONS:
            await asyncio.to_thread(self.fair.check, live.table, live.stake, action, guest)
        return step

    async def _write(self, live: Live, step: Step, guest: str | None, client_id: str | None,
                     bank: float | None) -> None:
        """Write the action (with what the seat to move had spent of its extra time) and commit it."""
        spent = None if bank is None else self.turns.extra_seconds - bank
        try:
            fenced = {} if live.epoch is None else {"epoch": live.epoch}  # a lone server's write is as it was
            await self.store.add_action(live.table.id, step.version + 1, guest, client_id, dict(step.action), spent,
                                        **fenced)
        except LeaseLost:
            log.warning("table %s: another server has taken it; this one no longer writes", live.table.id)
            raise TableError(MOVED, "moved") from None
        except Exception:
            log.exception("could not store an action of table %s", live.table.id)
            raise TableError(N_("the server could not store that; please try again"), "server") from None

    def _keep(self, live: Live, step: Step, guest: str | None, client_id: str | None, mover: int | None,
              bank: float | None, lapsed: int | None, said: str) -> None:
        """What the hub keeps beside the table after an action: the turn's clock and the bank, a person's run
        of lapsed turns, the message id, what a reconnecting client missed, and the seats."""
        table, action = live.table, step.action
        live.last_active = self.turns.clock.monotonic()
        if table.ends_turn(action):
            self.turns.end_turn(live, mover, bank)
        if guest is not None and table.is_move(action):
            self.turns.acted(live, table.seat_of(guest))
        if lapsed is not None:
            self.turns.lapsed(live, lapsed)
        if client_id is not None:
            live.seen[(guest, client_id)] = (step.version + 1, fingerprint(dict(action)))
            while len(live.seen) > SEEN_KEPT:
                live.seen.popitem(last=False)
        live.missed.append((step.version + 1, said))
        del live.missed[:-MISSED_KEPT]
        if action.get("type") in ("sit", "leave"):
            self.reseat(live)

    async def _mark_accounts(self, live: Live) -> None:
        """Which of the table's seated people have an account (after a sit or a leave; read on a worker thread)."""
        if self.fair is not None:
            live.accounts = await asyncio.to_thread(self.fair.seated_accounts, live.table)

    async def store_status(self, live: Live, guest: str | None) -> None:
        """Write a status that changed (with the results once finished) and settle a finished staked match."""
        table = live.table
        log.info("table %s is %s", table.id, table.status)
        try:
            left = table.status == "finished" and self.turns.left_to_bots(live, guest)
            await self.store.set_status(table.id, table.status, result_rows(table, finished_by_bots=left))
            if table.status == "finished":
                await asyncio.to_thread(self.settle, live)
        except Exception:  # derived from the actions, and put right on the next restart
            log.exception("could not store the status (or settle the stakes) of table %s", table.id)
        if table.status == "finished":
            for told in self.ended:
                told(live)

    async def _hold(self, live: Live, asking: str | None) -> None:
        """Hold every seat's stake before the start is written (a short wallet refuses the start, in a player's
        words, and nothing changes). Should the start's write then fail, the hold stays and a start again finds
        it."""
        assert self.ledger is not None
        try:
            await asyncio.to_thread(self.ledger.hold, match_id(live.table.id), stakes_of(live.table, live.stake),
                                    live.table.id)
        except InsufficientChips as e:
            if e.seat is None or e.balance is None:
                raise TableError(_("not enough chips to start: {why}", why=said_of(e)), "short") from None
            raise TableError(short_words(live.table, live.stake, e.seat, e.balance, asking), "short") from None
        except ChipsError as e:
            raise TableError(_("the stakes could not be held: {why}", why=said_of(e)), "stakes") from None

    async def store_deals(self, live: Live) -> None:
        """Write the deals dealt since the last write, before anyone sees them. Should that fail, the table's
        seed still deals them again the same way on a restart by the same version of taash."""
        dealt = live.table.dealt_so_far()
        if len(dealt) <= live.deals_stored:
            return
        try:
            await self.store.add_deals(live.table.id, live.deals_stored, dealt[live.deals_stored:])
            live.deals_stored = len(dealt)
        except Exception:
            log.exception("could not store a deal of table %s", live.table.id)
