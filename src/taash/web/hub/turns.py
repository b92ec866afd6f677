"""Presence and the turn's time, on the hub's clock: who is connected or away, the turn timer every state carries,
each seat's extra time for the match (its bank), the turns a person let run out, and when (and why) a bot may
play for the seat to move."""

from __future__ import annotations

from typing import Any

from taash.web.hub.clock import Clock
from taash.web.hub.live import Live

JSON = Any
#: Turns in a row a person may let run out before a bot takes his seat (until he acts again), in a game with no
#: move of its own for a turn out of time (Seep; at Rummy the rule book's timeout is made instead).
IDLE_AFTER = 3


class Turns:
    """The seconds of a turn and of the extra time, the seconds a person may be away, and the bots' pause."""

    def __init__(self, clock: Clock, bot_delay: float, away_seconds: float, turn_seconds: float,
                 extra_seconds: float):
        self.clock = clock
        self.bot_delay = bot_delay
        self.away_seconds = away_seconds
        #: Seconds a person has for a turn (0: no limit), and besides, for the whole match, ``extra_seconds``
        #: spent only once a turn's own have run out; then the game's timeout move is made for him (Rummy), or a
        #: bot plays his turn (Seep).
        self.turn_seconds = turn_seconds
        self.extra_seconds = extra_seconds

    # -- presence -----------------------------------------------------------------------------------------------

    def presence(self, live: Live) -> list[dict[str, bool]]:
        """Per seat: whether its person has a connection open, whether he has been gone long enough that a bot
        plays for him at his turn, and whether a bot plays for him because he let his turns run out."""
        present = {c.seat for c in live.connections}
        now = self.clock.monotonic()
        return [{"connected": seat in present,
                 "away": seat in live.away_since and now - live.away_since[seat] >= self.away_seconds,
                 "idle": seat in live.idle}
                for seat in range(len(live.table.seats))]

    def reseat(self, live: Live) -> None:
        """After sitting down or leaving: each connection's seat follows its guest, and a person seated with no
        connection open counts as away from now (so that a bot plays for him if he never comes)."""
        for conn in live.connections:
            conn.seat = None if conn.guest is None else live.table.seat_of(conn.guest)
        now = self.clock.monotonic()
        for seat, s in enumerate(live.table.seats):
            if s.guest is None:
                live.away_since.pop(seat, None)
            elif not live.seat_connected(seat):
                live.away_since.setdefault(seat, now)
            else:
                live.away_since.pop(seat, None)

    def gone_away(self, live: Live, seat: int) -> None:
        """The last connection of ``seat``'s person closed: he is away from now."""
        live.away_since[seat] = self.clock.monotonic()

    def left_to_bots(self, live: Live, guest: str | None) -> bool:
        """Whether the move just made (by ``guest``; None: a bot's or the server's) was a bot's for people who
        have all left: every seat of a person has been away long enough for a bot to play for him. Such a match
        is recorded as finished by bots, and not rated."""
        now = self.clock.monotonic()
        people = [seat for seat, s in enumerate(live.table.seats) if s.guest is not None]
        return guest is None and bool(people) and all(
            seat in live.away_since and now - live.away_since[seat] >= self.away_seconds for seat in people)

    # -- the turn's time ----------------------------------------------------------------------------------------

    def timer(self, live: Live) -> dict[str, JSON] | None:
        """The turn timer of the person to move: his seat, the seconds a turn has and those left of it, his extra
        seconds for the match and those left of them (spent once the turn's own are), the deadline when both are
        gone (Unix time), and what happens then (``timeout``: the game's move for a turn out of time; ``bot``: a
        bot plays the turn); None when no person is to move, a bot plays the seat, or turns are not timed."""
        table = live.table
        seat = table.to_move()
        if self.turn_seconds <= 0 or seat is None or table.seats[seat].bot or seat in live.idle:
            return None
        elapsed = self.clock.monotonic() - live.turn_since
        bank = self.bank_left(live, seat)
        left = max(0.0, self.turn_seconds - elapsed)
        bank_now = max(0.0, bank - max(0.0, elapsed - self.turn_seconds))
        return {"seat": seat, "seconds": self.turn_seconds, "left": round(left, 1), "extra": self.extra_seconds,
                "bank": round(bank_now, 1), "deadline": round(live.turn_since_wall + self.turn_seconds + bank, 3),
                "then": "timeout" if table.timeout_action() is not None else "bot"}

    def start_clock(self, live: Live) -> None:
        """The turn in progress (or the next) is timed from now: a table made, or loaded after a restart."""
        live.last_active = live.turn_since = self.clock.monotonic()
        live.turn_since_wall = self.clock.time()

    def end_turn(self, live: Live, seat: int | None, bank: float | None) -> None:
        """The turn of ``seat`` (None: nobody's) is over, with ``bank`` extra seconds left to him as he acted
        (:meth:`bank_at`; None: not timed), and the next turn's clock starts."""
        if seat is not None and bank is not None:
            live.bank[seat] = bank
        live.turn_since = self.clock.monotonic()
        live.turn_since_wall = self.clock.time()

    def bank_left(self, live: Live, seat: int) -> float:
        """The extra seconds ``seat`` had left when the turn in progress began."""
        return live.bank.get(seat, self.extra_seconds)

    def bank_at(self, live: Live, seat: int | None, moment: float, away: bool = False) -> float | None:
        """The extra seconds ``seat`` has left at ``moment`` (monotonic) of the turn in progress: what the turn took
        beyond its own seconds comes out of them, except the time since its person went away when ``away`` (a bot
        plays for him: time away is not his). None when the seat's turns are not timed (no limit, or a bot's)."""
        if seat is None or self.turn_seconds <= 0 or live.table.seats[seat].bot:
            return None
        until = moment
        if away and seat in live.away_since:
            until = min(moment, live.away_since[seat])
        over = until - live.turn_since - self.turn_seconds
        return max(0.0, self.bank_left(live, seat) - max(0.0, over))

    def bank_now(self, live: Live, seat: int | None, away: bool = False) -> float | None:
        """:meth:`bank_at` now."""
        return self.bank_at(live, seat, self.clock.monotonic(), away)

    # -- turns let run out --------------------------------------------------------------------------------------

    def acted(self, live: Live, seat: int | None) -> bool:
        """The person of ``seat`` acted (a bid, a play, or said he is back): his run of lapsed turns is over, and
        a bot that took his seat gives it back; returns whether it had."""
        if seat is None:
            return False
        live.timeouts.pop(seat, None)
        if seat not in live.idle:
            return False
        live.idle.discard(seat)
        return True

    def lapsed(self, live: Live, seat: int) -> None:
        """A bot played the turn ``seat``'s person let run out: IDLE_AFTER in a row, and a bot keeps his seat."""
        live.timeouts[seat] = live.timeouts.get(seat, 0) + 1
        if live.timeouts[seat] >= IDLE_AFTER:
            live.idle.add(seat)

    # -- when a bot may move ------------------------------------------------------------------------------------

    def bot_due(self, live: Live) -> float | None:
        """When (monotonic) a bot may move for the seat to move: a bot's or an idle person's after the bots'
        pause; an away person's once away long enough; anyone's once his turn's time is up; None: never."""
        table = live.table
        seat = table.to_move()
        if seat is None:
            return None
        now = self.clock.monotonic()
        if table.seats[seat].bot or seat in live.idle:
            return now + self.bot_delay
        due = []
        if seat in live.away_since:
            due.append(live.away_since[seat] + self.away_seconds)
        if self.turn_seconds > 0:
            due.append(live.turn_since + self.turn_seconds + self.bank_left(live, seat))
        return max(now + self.bot_delay, min(due)) if due else None

    def bot_reason(self, live: Live, seat: int) -> str | None:
        """Why a bot may move for ``seat`` now: ``bot`` (a bot's seat), ``idle`` (his person let his turns run
        out), ``away`` (gone long enough), ``lapsed`` (his turn's time and his extra time are up); None: it may
        not."""
        if live.table.seats[seat].bot:
            return "bot"
        if seat in live.idle:
            return "idle"
        now = self.clock.monotonic()
        since = live.away_since.get(seat)
        if since is not None and now - since >= self.away_seconds:
            return "away"
        if self.turn_seconds > 0 and now - live.turn_since >= self.turn_seconds + self.bank_left(live, seat):
            return "lapsed"
        return None
