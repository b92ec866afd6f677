"""Friends and blocks in the database (the ``friendships`` and ``blocks`` tables, migration 0015_social).

A friendship is one row: ``asker`` asked ``asked``; it counts once ``accepted``. A block is one row too:
``blocker`` takes no friend request, no invitation (and, through :meth:`FriendStore.is_blocked`, no chat) from
``blocked``. Both are between accounts, by their guest ids. The blocks are also kept in memory, loaded at startup
and changed with every write, so that asking whether a message may be delivered costs no query.

:class:`Friends` is the server's service over it (``AppState.friends``): who is online and where, and the
invitations to tables (in memory, and kept in the database as :class:`taash.web.offer_rows.InviteRow` so that a
restarted server still has them, each good until it runs out); the routes are :mod:`taash.web.friends`.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, CheckConstraint, ColumnElement, ForeignKey, String, and_, delete, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column
from sqlalchemy.types import DateTime

from taash.i18n import N_
from taash.web.db import Base, now
from taash.web.hub import Hub, Live
from taash.web.offer_rows import InviteRow, seconds_of, wall
from taash.web.shared import Seated, Snapshot
from taash.web.store import Store


class FriendshipRow(Base):
    __tablename__ = "friendships"
    __table_args__ = (CheckConstraint("asker <> asked", name="ck_friendships_two_people"),)

    asker: Mapped[str] = mapped_column(String(32), ForeignKey("guests.id"), primary_key=True)
    asked: Mapped[str] = mapped_column(String(32), ForeignKey("guests.id"), primary_key=True, index=True)
    accepted: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class BlockRow(Base):
    __tablename__ = "blocks"
    __table_args__ = (CheckConstraint("blocker <> blocked", name="ck_blocks_two_people"),)

    blocker: Mapped[str] = mapped_column(String(32), ForeignKey("guests.id"), primary_key=True)
    blocked: Mapped[str] = mapped_column(String(32), ForeignKey("guests.id"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class FriendError(ValueError):
    """A change of friends refused, in a person's words; ``code`` is the API's (``already``, ``not_found``,
    ``blocked``)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Circle:
    """One person's friends (accepted), the requests he was sent and has sent (pending), and whom he blocked;
    guest ids, oldest first."""

    friends: list[str]
    asked_me: list[str]
    i_asked: list[str]
    blocked: list[str]


def _between(a: str, b: str) -> ColumnElement[bool]:
    return or_(and_(FriendshipRow.asker == a, FriendshipRow.asked == b),
               and_(FriendshipRow.asker == b, FriendshipRow.asked == a))


class FriendStore:
    """Reads straight from the database; writes through the server's :class:`Store` (awaited commits)."""

    def __init__(self, store: Store):
        self.store = store
        self.engine = store.engine
        #: blocker -> the people he blocked (the ``blocks`` table, in memory).
        self.blocks: defaultdict[str, set[str]] = defaultdict(set)
        with Session(self.engine) as s:
            for row in s.scalars(select(BlockRow)):
                self.blocks[row.blocker].add(row.blocked)

    # -- reading ------------------------------------------------------------------------------------------------

    def is_blocked(self, listener: str | None, speaker: str | None) -> bool:
        """Whether ``listener`` has blocked ``speaker`` (guest ids; None, a bot or nobody, blocks nobody): then
        nothing of ``speaker``'s reaches him, no friend request, no invitation, no chat."""
        return listener is not None and speaker is not None and speaker in self.blocks.get(listener, ())

    def circle(self, guest: str) -> Circle:
        with Session(self.engine) as s:
            rows = list(s.scalars(select(FriendshipRow).where(
                or_(FriendshipRow.asker == guest, FriendshipRow.asked == guest)).order_by(FriendshipRow.created_at)))
            blocked = list(s.scalars(select(BlockRow.blocked).where(BlockRow.blocker == guest)
                                     .order_by(BlockRow.created_at)))
        other = {id(r): r.asked if r.asker == guest else r.asker for r in rows}
        return Circle(friends=[other[id(r)] for r in rows if r.accepted],
                      asked_me=[r.asker for r in rows if not r.accepted and r.asked == guest],
                      i_asked=[r.asked for r in rows if not r.accepted and r.asker == guest],
                      blocked=blocked)

    def are_friends(self, a: str, b: str) -> bool:
        with Session(self.engine) as s:
            row = s.scalars(select(FriendshipRow).where(_between(a, b))).first()
            return row is not None and row.accepted

    # -- writing ------------------------------------------------------------------------------------------------

    async def ask(self, asker: str, asked: str) -> bool:
        """``asker`` asks ``asked`` to be friends; returns True when that accepted a request ``asked`` had sent
        him (they are friends now). FriendError when they are friends already or the request is pending."""
        if self.is_blocked(asked, asker) or self.is_blocked(asker, asked):
            raise FriendError("blocked", N_("you cannot ask that person to be friends"))
        accepted: list[bool] = []

        def work(s: Session) -> None:
            row = s.scalars(select(FriendshipRow).where(_between(asker, asked)).with_for_update()).first()
            if row is None:
                s.add(FriendshipRow(asker=asker, asked=asked, accepted=False))
            elif row.accepted:
                raise FriendError("already", N_("you are friends already"))
            elif row.asker == asker:
                raise FriendError("already", N_("you have asked already: wait for the answer"))
            else:
                row.accepted = True
                accepted.append(True)

        try:
            await self.store.write(work)
        except IntegrityError:  # two requests between them at once: the other one was written
            raise FriendError("already", N_("you have asked already: wait for the answer")) from None
        return bool(accepted)

    async def answer(self, guest: str, asker: str, accept: bool) -> None:
        """``guest`` accepts (or refuses: the request is gone) the request ``asker`` sent him."""

        def work(s: Session) -> None:
            row = s.get(FriendshipRow, (asker, guest), with_for_update=True)
            if row is None or row.accepted:
                raise FriendError("not_found", N_("that person has not asked you to be friends"))
            if accept:
                row.accepted = True
            else:
                s.delete(row)

        await self.store.write(work)

    async def remove(self, guest: str, other: str) -> None:
        """End a friendship (or take back a request sent): either of the two may."""

        def work(s: Session) -> None:
            gone = s.execute(delete(FriendshipRow).where(_between(guest, other)))
            if not getattr(gone, "rowcount", 0):
                raise FriendError("not_found", N_("that person is not your friend and has no request from you"))

        await self.store.write(work)

    async def block(self, blocker: str, blocked: str) -> None:
        """Block a person: a friendship or a request between them ends too. Blocking again changes nothing."""

        def work(s: Session) -> None:
            s.execute(delete(FriendshipRow).where(_between(blocker, blocked)))
            if s.get(BlockRow, (blocker, blocked)) is None:
                s.add(BlockRow(blocker=blocker, blocked=blocked))

        with contextlib.suppress(IntegrityError):  # blocked at the same moment from another tab: blocked all the same
            await self.store.write(work)
        self.blocks[blocker].add(blocked)

    async def unblock(self, blocker: str, blocked: str) -> None:
        def work(s: Session) -> None:
            gone = s.execute(delete(BlockRow).where(BlockRow.blocker == blocker, BlockRow.blocked == blocked))
            if not getattr(gone, "rowcount", 0):
                raise FriendError("not_found", N_("you have not blocked that person"))

        await self.store.write(work)
        self.blocks[blocker].discard(blocked)


#: Seconds after a lobby last asked for its friends during which its person counts as online.
ONLINE_SECONDS = 30.0
#: Seconds an invitation is kept for the person invited.
INVITE_SECONDS = 600.0
#: Invitations kept per person invited (the oldest go first).
INVITES_KEPT = 20


@dataclass(frozen=True, slots=True)
class Invite:
    """An invitation to a table: by whom, to which table, and (a private table's) the code that opens it."""

    table_id: str
    by: str
    by_name: str
    game: str
    code: str | None
    at: float


def waiting_people(live: Live) -> set[str]:
    """Whose "my table" ``live`` may be: its creator and its seated people while it still waits for players."""
    table = live.table
    if live.gone or table.status != "waiting":
        return set()
    return {g for g in (table.owner, *(s.guest for s in table.seats)) if g is not None}


@dataclass
class Friends:
    """The server's friends: the database's (:class:`FriendStore`), who was seen lately, and the invitations."""

    store: FriendStore
    hub: Hub
    #: guest -> when (the hub's monotonic clock) his lobby last asked for his friends.
    seen: dict[str, float] = field(default_factory=dict)
    #: guest invited -> table id -> the invitation.
    invites: dict[str, dict[str, Invite]] = field(default_factory=dict)
    #: The other servers' snapshots (one server among several, :mod:`taash.web.shared`): who is online there and
    #: where he sits.
    elsewhere: Callable[[], Mapping[str, Snapshot]] = dict
    #: Tells every other server of an invitation made or used up here (None: a lone server).
    tell_others: Callable[[dict[str, Any]], None] | None = None

    def is_blocked(self, listener: str | None, speaker: str | None) -> bool:
        """Whether ``listener`` has blocked ``speaker`` (guest ids): nothing of ``speaker``'s is to reach him."""
        return self.store.is_blocked(listener, speaker)

    def online(self, guest: str) -> bool:
        now = self.hub.clock.monotonic()
        return (self.hub.admissions.by_guest[guest] > 0 or now - self.seen.get(guest, -1e18) < ONLINE_SECONDS
                or any(guest in s.online for s in self.elsewhere().values()))

    def seated_at(self, guest: str) -> Seated | None:
        """Where ``guest`` sits: a table of this server's (:meth:`playing_at`), or one another server owns."""
        live = self.playing_at(guest)
        if live is not None:
            return Seated(live.table.id, live.table.settings.public, live.table.settings.game)
        found = [s.seated[guest] for s in self.elsewhere().values() if guest in s.seated]
        found.sort(key=lambda s: s.public, reverse=True)
        return found[0] if found else None

    def playing_at(self, guest: str) -> Live | None:
        """The unfinished table ``guest`` is seated at (the latest made first; a public one first)."""
        seated = [lv for lv in self.hub.live.values()
                  if not lv.gone and lv.table.status != "finished" and lv.table.seat_of(guest) is not None]
        seated.sort(key=lambda lv: (lv.table.settings.public, lv.table.status == "playing"), reverse=True)
        return seated[0] if seated else None

    def waiting_table_of(self, guest: str) -> Live | None:
        """The newest table ``guest`` made or sits at that still waits for players (where he would invite a
        friend from the lobby)."""
        waiting = [lv for lv in self.hub.live.values() if guest in waiting_people(lv)]
        return waiting[-1] if waiting else None

    def waiting_elsewhere(self, guest: str) -> str | None:
        """A table another server owns that ``guest`` made or sits at, still waiting for players (None: none)."""
        return next((s.waiting[guest] for s in self.elsewhere().values() if guest in s.waiting), None)

    async def invite(self, live: Live, by: str, by_name: str, friend: str) -> None:
        """Invite ``friend`` to ``live`` (kept, so that a restart keeps it, and told to the other servers)."""
        code = None if live.table.settings.public else live.table.code
        invite = Invite(live.table.id, by, by_name, live.table.settings.game, code, self.hub.clock.monotonic())
        gone = self._keep(friend, invite)
        row = InviteRow(guest=friend, table_id=live.table.id, by=by, by_name=by_name, game=live.table.settings.game,
                        code=code, made_at=wall(self.hub.clock.time()))

        def keep(s: Session) -> None:
            s.merge(row)
            if gone:
                s.execute(delete(InviteRow).where(InviteRow.guest == friend, InviteRow.table_id.in_(gone)))

        await self.store.store.write(keep)
        if self.tell_others is not None:
            self.tell_others({"op": "fr_invite", "to": friend, "table": invite.table_id, "by": by,
                              "by_name": by_name, "game": invite.game, "code": invite.code})

    def _keep(self, friend: str, invite: Invite) -> list[str]:
        """Keep ``invite`` in memory; returns the tables of the invitations it pushed out (the oldest)."""
        mine = self.invites.setdefault(friend, {})
        mine.pop(invite.table_id, None)
        mine[invite.table_id] = invite
        gone = []
        while len(mine) > INVITES_KEPT:
            gone.append(next(iter(mine)))
            del mine[gone[-1]]
        return gone

    async def forget(self, guest: str, table_id: str) -> None:
        """An invitation used or dismissed: forgotten here, on every server and in the database."""
        self.used(guest, table_id)

        def forget(s: Session) -> None:
            s.execute(delete(InviteRow).where(InviteRow.guest == guest, InviteRow.table_id == table_id))

        await self.store.store.write(forget)

    def restore(self) -> int:
        """Take up the invitations kept (at the server's start), each with the time it has left; the ones run out
        are deleted. How many."""
        clock = self.hub.clock
        oldest = wall(clock.time() - INVITE_SECONDS)
        with Session(self.store.store.engine) as s, s.begin():
            s.execute(delete(InviteRow).where(InviteRow.made_at < oldest))
            rows = list(s.scalars(select(InviteRow).order_by(InviteRow.made_at)))
            for row in rows:
                age = clock.time() - seconds_of(row.made_at)
                mine = self.invites.setdefault(row.guest, {})
                mine[row.table_id] = Invite(row.table_id, row.by, row.by_name, row.game, row.code,
                                            clock.monotonic() - age)
        return len(rows)

    def used(self, guest: str, table_id: str) -> None:
        """``guest``'s invitation to ``table_id`` is used up (accepted or dismissed), here and on every server."""
        self.invites.get(guest, {}).pop(table_id, None)
        if self.tell_others is not None:
            self.tell_others({"op": "fr_used", "guest": guest, "table": table_id})

    def told(self, m: dict[str, Any]) -> None:
        """Another server's invitation made or used up (``fr_invite``, ``fr_used``), kept here too."""
        if m.get("op") == "fr_used":
            self.invites.get(str(m["guest"]), {}).pop(str(m["table"]), None)
            return
        code = m.get("code")
        self._keep(str(m["to"]), Invite(str(m["table"]), str(m["by"]), str(m["by_name"]), str(m["game"]),
                                        None if code is None else str(code), self.hub.clock.monotonic()))

    def _table(self, table_id: str) -> Live | None:
        """A table as invitations see it: in memory, or (one server among several) another server's."""
        live = self.hub.live.get(table_id)
        if live is None and self.tell_others is not None:
            live = self.hub.get(table_id)
        return live

    def invites_of(self, guest: str) -> list[Invite]:
        """``guest``'s invitations still good: not too old, to a table still waiting, from someone he has not
        blocked (the others are forgotten)."""
        now = self.hub.clock.monotonic()
        mine = self.invites.get(guest, {})
        for table_id, inv in list(mine.items()):
            live = self._table(table_id)
            if (now - inv.at > INVITE_SECONDS or live is None or live.gone or live.table.status != "waiting"
                    or self.is_blocked(guest, inv.by)):
                del mine[table_id]
        return list(mine.values())
