"""Connections coming and going: who may watch a table, what a new connection is sent first (a snapshot, or the
actions it missed), a person who leaves counted away, and the watchers a private table's start closes."""

from __future__ import annotations

from collections.abc import Callable

from taash.i18n import DEFAULT
from taash.web.hub.live import Connection, Live, code_matches, is_member
from taash.web.hub.messages import Messages
from taash.web.hub.turns import Turns


class Connections:
    """The connection lifecycle of every table: ``schedule_bots`` is asked after a seat's person leaves or comes
    back, ``forget_if_idle`` after anyone leaves."""

    def __init__(self, turns: Turns, messages: Messages, schedule_bots: Callable[[Live], None],
                 forget_if_idle: Callable[[Live], None]):
        self.turns = turns
        self.messages = messages
        self.schedule_bots = schedule_bots
        self.forget_if_idle = forget_if_idle

    def may_watch(self, live: Live, guest: str | None, code: str | None = None) -> bool:
        """Whether ``guest`` (who gave the invite ``code``, or None) may see the table: anyone a public table; a
        private one its creator and its players, and while it waits for players whoever holds its code."""
        if live.table.settings.public or is_member(live, guest):
            return True
        return live.table.status == "waiting" and code_matches(live, code)

    def close_watchers(self, live: Live, reason: str) -> None:
        """Close the connections of everyone who may no longer watch (a private table has started), before
        anything else is sent to them: what is queued after the close is never sent."""
        for conn in list(live.connections):
            if conn.seat is None and not self.may_watch(live, conn.guest):
                conn.close_code, conn.close_reason = 1008, reason
                conn.send(None)

    def join(self, live: Live, guest: str | None, since: int | None, lang: str = DEFAULT) -> Connection:
        """A new connection: its seat (if its guest sits here), and a snapshot or the actions it missed, the
        table's sentences in ``lang``."""
        seat = None if guest is None else live.table.seat_of(guest)
        conn = Connection(guest, seat, lang=lang)
        live.connections.add(conn)
        live.last_active = self.turns.clock.monotonic()
        if seat is not None:
            live.away_since.pop(seat, None)
        table = live.table
        if since is not None and 0 <= since <= table.version and (
                since == table.version or (live.missed and live.missed[0][0] <= since + 1)):
            missed = [{"version": v, "said": said} for v, said in live.missed if v > since]
            conn.send(self.messages.message_for(live, seat, "resume", guest, lang, since=since, missed=missed))
        else:
            conn.send(self.messages.message_for(live, seat, "snapshot", guest, lang))
        conn.version = table.version
        if seat is not None:
            self.messages.send_presence(live)
        return conn

    def leave(self, live: Live, conn: Connection) -> None:
        if conn not in live.connections:
            return
        live.connections.discard(conn)
        if conn.seat is not None and not live.seat_connected(conn.seat):
            self.turns.gone_away(live, conn.seat)
            self.messages.send_presence(live)
            self.schedule_bots(live)
        self.forget_if_idle(live)

    def back(self, live: Live, seat: int) -> None:
        """The person of ``seat`` says he is back: he plays his seat himself again (at his turn, with what is left
        of it)."""
        if self.turns.acted(live, seat):
            self.messages.send_presence(live)
        self.schedule_bots(live)
