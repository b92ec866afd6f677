"""The ledger: every movement of chips is a transfer between two accounts of the books, made in one database
transaction with the balances it changes (double-entry bookkeeping, after TigerBeetle).

A match's stakes are a two-phase transfer: :meth:`Ledger.hold` moves each seat's stake from its payer (a person's
wallet, or the house for a bot) into the match's escrow and leaves the hold *pending*; when the match ends
:meth:`Ledger.settle` *posts* it (pays the escrow out to the seats by their results, less the house's rake), or,
when it is abandoned, :meth:`Ledger.refund` *voids* it (pays every stake back). Either happens once, in one
transaction that also closes the escrow; a closed escrow holds nothing (a database constraint).

Every transfer's id is chosen from the event that makes it (``MATCH:SEAT:hold``, ``MATCH:SEAT:settle``,
``MATCH:rake``, ``grant:PERSON``, ``bonus:PERSON:DAY``), so a retry after a crash finds the transfer it made and
returns it, never paying twice; the same id with other accounts or another amount is refused
(:class:`ConflictingTransfer`).

How a table uses it (``ledger = Ledger(engine)``, ``engine`` the server's)::

    ledger.open_wallet(guest_id)                                   # once per person: the starting grant
    ledger.hold(f"{table_id}:1", [Stake(0, wallet_of(guest_id), 500), Stake(1, HOUSE_ACCOUNT, 500)],
                table_id=table_id)                                 # the match starts (InsufficientChips: it cannot)
    ledger.settle(f"{table_id}:1", {0: +300, 1: -300})             # it ends: each seat's chips won or lost
    ledger.refund(f"{table_id}:1")                                 # or it is abandoned

Each call may be repeated after a crash with the same arguments; the audit expects a table's match settled once
the table is ``finished`` and refunded once it is ``abandoned``.

Concurrency: on SQLite each write transaction starts with ``BEGIN IMMEDIATE`` (one writer at a time, so nothing
read can change before the commit); on PostgreSQL it locks the rows it will change (``SELECT ... FOR UPDATE``,
the match's escrow first, then the other accounts in the order of their ids, so two transactions never wait on
each other), and a transaction that loses a race (a deadlock, a serialization failure, a transfer or escrow
another made first) is run again from the start, where it finds what the other one did.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import TypeVar

from sqlalchemy import Connection, Engine, insert, select
from sqlalchemy.exc import IntegrityError, OperationalError

from taash.chips.books import (
    BONUS,
    CHIPS,
    ESCROW,
    GRANT,
    GRANTS_ACCOUNT,
    HOLD,
    HOUSE,
    MOVE,
    PENDING,
    POSTED,
    RAKE,
    REFUND,
    SETTLE,
    VOIDED,
    WALLET,
    now,
)
from taash.chips.errors import ChipsError, ConflictingTransfer, InsufficientChips, MatchClosed, UnknownAccount
from taash.chips.postings import (
    ACCOUNTS,
    TRANSFERS,
    _Account,
    _close,
    _create,
    _describe,
    _existing,
    _hold,
    _lock,
    _lost_a_race,
    _post,
    _refusal,
    _settlement,
    _stakes,
)
from taash.chips.transfers import Hold, Stake, Transfer, _check_name, escrow_of, wallet_of

__all__ = ["ACCOUNTS", "BONUS_FLOOR", "DAILY_BONUS", "MOST_CHIPS", "RAKE_PERCENT", "STARTING_GRANT", "TRANSFERS",
           "Hold", "Ledger", "Stake", "Transfer", "escrow_of", "wallet_of"]

#: Chips a new person's wallet opens with.
STARTING_GRANT = 10_000
#: A person below this many chips may claim the daily bonus ...
BONUS_FLOOR = 1_000
#: ... of this many chips, once a day.
DAILY_BONUS = 1_000
#: The house's share of each winner's winnings, in percent.
RAKE_PERCENT = Decimal(0)
#: The most chips one transfer may move (well inside a 64-bit balance).
MOST_CHIPS = 10**15


T = TypeVar("T")


def _check_chips(amount: object, what: str) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MOST_CHIPS:
        raise ChipsError(f"{what} must be a whole number of chips from 1 to {MOST_CHIPS:,}, not {amount!r}")
    return amount


def _rake_bps(percent: object) -> int:
    """A rake in percent (0 to 100, in hundredths at most) as hundredths of a percent."""
    try:
        bps = Decimal(str(percent)) * 100
    except (InvalidOperation, ValueError):
        bps = Decimal(-1)
    if isinstance(percent, bool) or not 0 <= bps <= 10_000 or bps != bps.to_integral_value():
        raise ChipsError(f"the rake must be from 0 to 100 percent, in hundredths of a percent at most, not {percent}")
    return int(bps)


class Ledger:
    """The books on ``engine`` (SQLite or PostgreSQL, migrated by :func:`taash.web.db.migrate`).

    ``starting_grant`` chips open each wallet; ``daily_bonus`` chips once a day for a person below
    ``bonus_floor``; the house keeps ``rake_percent`` of each winner's winnings (rounded down)."""

    def __init__(self, engine: Engine, *, starting_grant: int = STARTING_GRANT, bonus_floor: int = BONUS_FLOOR,
                 daily_bonus: int = DAILY_BONUS, rake_percent: Decimal | int = RAKE_PERCENT,
                 attempts: int = 30) -> None:
        _rake_bps(rake_percent)
        for name, value in (("the starting grant", starting_grant), ("the bonus floor", bonus_floor),
                            ("the daily bonus", daily_bonus)):
            if value != 0:
                _check_chips(value, name)
        self.engine = engine
        self.starting_grant = starting_grant
        self.bonus_floor = bonus_floor
        self.bonus = daily_bonus
        self.rake_percent = Decimal(_rake_bps(rake_percent)) / 100
        self.attempts = attempts
        self._sqlite = engine.dialect.name == "sqlite"
        self._jitter = random.Random()

    # -- reading -------------------------------------------------------------------------------------------------

    def balance(self, account: str) -> int:
        """The chips in ``account`` (``wallet_of(person)``, ``HOUSE_ACCOUNT``, an escrow ...)."""
        with self.engine.connect() as c:
            value = c.execute(select(ACCOUNTS.c.balance).where(ACCOUNTS.c.id == account)).scalar()
        if value is None:
            raise UnknownAccount(f"the books have no account {account!r}")
        return int(value)

    def balances(self) -> dict[str, int]:
        """Every account's balance, by account id."""
        with self.engine.connect() as c:
            return {row.id: int(row.balance) for row in c.execute(select(ACCOUNTS.c.id, ACCOUNTS.c.balance))}

    def transfer_by_id(self, transfer_id: str) -> Transfer | None:
        with self.engine.connect() as c:
            return _existing(c, transfer_id)

    def match(self, match_id: str) -> Hold | None:
        """The hold of ``match_id``, or None when nothing was held for it."""
        with self.engine.connect() as c:
            escrow = c.execute(select(ACCOUNTS).where(ACCOUNTS.c.id == escrow_of(match_id))).one_or_none()
            return None if escrow is None else _hold(c, match_id, escrow)

    # -- wallets -------------------------------------------------------------------------------------------------

    def open_wallet(self, person: str, grant: bool = True) -> Transfer | None:
        """Open ``person``'s wallet with the starting grant (once: opening it again changes nothing and returns
        the grant it was opened with); with ``grant`` False it opens empty (a guest's: the grant is paid when he
        claims an account, by this call again, under the same transfer id)."""
        wallet = wallet_of(person)

        def work(c: Connection) -> Transfer | None:
            _create(c, wallet, WALLET)
            accounts = _lock(c, [wallet, GRANTS_ACCOUNT])
            opened = _existing(c, f"{GRANT}:{person}")
            if opened is not None or self.starting_grant == 0 or not grant:
                return opened  # the wallet had its grant (perhaps of another amount, before a change of setting)
            return _post(c, accounts, Transfer(f"{GRANT}:{person}", GRANTS_ACCOUNT, wallet, self.starting_grant,
                                               GRANT))

        return self._write(work)

    def grant(self, person: str, amount: int, reason: str) -> Transfer:
        """Give ``person`` ``amount`` chips from the grant source, once per ``reason`` (a word naming why)."""
        _check_chips(amount, "a grant")
        _check_name(reason, "a grant's reason", 40, colons=False)
        wallet = wallet_of(person)
        return self._write(lambda c: _post(c, _lock(c, [wallet, GRANTS_ACCOUNT]),
                                           Transfer(f"{GRANT}:{person}:{reason}", GRANTS_ACCOUNT, wallet, amount,
                                                    GRANT)))

    def daily_bonus(self, person: str, day: date) -> Transfer | None:
        """The daily bonus for ``day`` when ``person`` has fewer chips than the floor (None when he has enough);
        asked again the same day it returns the bonus already given."""
        return self.claim_daily_bonus(person, day)[0]

    def claim_daily_bonus(self, person: str, day: date) -> tuple[Transfer | None, bool]:
        """As :meth:`daily_bonus`, and whether this call gave it (of two calls at once, one only: the second finds
        the transfer the first made)."""
        wallet = wallet_of(person)

        def work(c: Connection) -> tuple[Transfer | None, bool]:
            accounts = _lock(c, [wallet, GRANTS_ACCOUNT])
            if wallet not in accounts:
                raise UnknownAccount(f"{person} has no wallet in the books")
            bonus = Transfer(f"{BONUS}:{person}:{day.isoformat()}", GRANTS_ACCOUNT, wallet, self.bonus, BONUS)
            given = _existing(c, bonus.id)
            if given is not None:
                return given, False  # today's, whatever the bonus is now
            if self.bonus == 0 or accounts[wallet].balance >= self.bonus_floor:
                return None, False
            return _post(c, accounts, bonus), True

        return self._write(work)

    def transfer(self, transfer_id: str, debit: str, credit: str, amount: int, kind: str = MOVE) -> Transfer:
        """Move ``amount`` chips from ``debit`` to ``credit`` under ``transfer_id`` (a grant, a bonus or a plain
        move; a match's chips move only through :meth:`hold`, :meth:`settle` and :meth:`refund`)."""
        _check_name(transfer_id, "a transfer id", 200)
        _check_chips(amount, "a transfer")
        if kind not in (GRANT, BONUS, MOVE):
            raise ChipsError(f"a transfer of kind {kind!r} is made by a match's hold, settlement or refund, "
                             f"or is one of {GRANT}, {BONUS}, {MOVE}")
        spec = Transfer(transfer_id, debit, credit, amount, kind)
        return self._write(lambda c: _post(c, _lock(c, [debit, credit]), spec))

    # -- matches -------------------------------------------------------------------------------------------------

    def hold(self, match_id: str, stakes: Sequence[Stake], table_id: str | None = None,
             rake_percent: Decimal | int | None = None) -> Hold:
        """Hold every seat's stake in the match's escrow, all or none: a payer short of chips refuses the whole
        hold (:class:`InsufficientChips`, naming the seat). The match's rake (the ledger's unless given) is fixed
        now, with the stakes. Holding again with the same stakes returns the hold; with other stakes (or another
        table) it is refused."""
        escrow = escrow_of(match_id)
        rake_bps = _rake_bps(self.rake_percent if rake_percent is None else rake_percent)
        stakes = tuple(sorted(stakes, key=lambda s: s.seat))
        if not stakes:
            raise ChipsError(f"match {match_id} holds no stakes: a match without stakes needs no hold")
        for s in stakes:
            if isinstance(s.seat, bool) or not isinstance(s.seat, int) or not 0 <= s.seat < 100:
                raise ChipsError(f"a seat is a number from 0 to 99, not {s.seat!r}")
            _check_chips(s.amount, f"seat {s.seat}'s stake")
            if not isinstance(s.payer, str):
                raise ChipsError(f"seat {s.seat}'s payer must be an account id, not {s.payer!r}")
        if len({s.seat for s in stakes}) != len(stakes):
            raise ChipsError(f"match {match_id} names a seat twice")
        if table_id is not None:
            _check_name(table_id, "a table id", 32)

        def work(c: Connection) -> Hold:
            found = _lock(c, [escrow])
            if escrow in found:
                held = _hold(c, match_id, found[escrow])
                if held.stakes != stakes or held.table_id != table_id:
                    raise ConflictingTransfer(
                        f"match {match_id} already holds other stakes ({_stakes(held.stakes)}), not "
                        f"{_stakes(stakes)}" + ("" if held.table_id == table_id else f" at table {held.table_id}"))
                if held.rake_percent * 100 != rake_bps and rake_percent is not None:
                    raise ConflictingTransfer(f"match {match_id} was held with a rake of {held.rake_percent}%, "
                                              f"not {rake_percent}%")
                return held
            accounts = _lock(c, [s.payer for s in stakes])
            owed: dict[str, int] = {}
            for s in stakes:
                payer = accounts.get(s.payer)
                if payer is None:
                    raise UnknownAccount(f"seat {s.seat}'s payer {s.payer!r} has no account in the books")
                if payer.kind not in (WALLET, HOUSE):
                    raise ChipsError(f"seat {s.seat}'s stake must come from a wallet or the house, not {s.payer}")
                owed[s.payer] = owed.get(s.payer, 0) + s.amount
                if payer.kind == WALLET and owed[s.payer] > payer.balance:
                    raise InsufficientChips(f"seat {s.seat} has {payer.balance:,} chips, fewer than the "
                                            f"{owed[s.payer]:,} the match holds from {s.payer}",
                                            s.seat, payer.balance, owed[s.payer])
            c.execute(insert(ACCOUNTS).values(id=escrow, kind=ESCROW, currency=CHIPS, balance=0, state=PENDING,
                                              rake_bps=rake_bps, table_id=table_id, created_at=now()))
            accounts[escrow] = _Account(escrow, ESCROW, CHIPS, 0, PENDING)
            for s in stakes:
                _post(c, accounts, Transfer(f"{match_id}:{s.seat}:{HOLD}", s.payer, escrow, s.amount, HOLD,
                                            match_id, s.seat))
            return _hold(c, match_id, _lock(c, [escrow])[escrow])

        return self._write(work)

    def settle(self, match_id: str, results: Mapping[int, int]) -> Hold:
        """Post the match's hold: each seat gets back its stake plus its result (chips won, or minus chips lost;
        the results sum to 0 and nobody loses more than his stake), less the house's rake on winnings (the rake
        fixed by the hold), in one transaction that closes the escrow. Settling again with the same results
        returns the settlement; with other results, or after a refund, it is refused."""
        escrow = escrow_of(match_id)

        def work(c: Connection) -> Hold:
            held = self._held(c, match_id)
            if held.state == VOIDED:
                raise MatchClosed(f"match {match_id} was refunded: it cannot be settled")
            planned = _settlement(held, results)
            if held.state == POSTED:
                done = tuple(t for t in held.transfers if t.kind in (SETTLE, RAKE))
                if sorted(done, key=lambda t: t.id) != sorted(planned, key=lambda t: t.id):
                    raise ConflictingTransfer(f"match {match_id} was settled already with other results "
                                              f"({'; '.join(map(_describe, done))})")
                return held
            accounts = _lock(c, [escrow])
            accounts |= _lock(c, [t.credit for t in planned])
            for t in planned:
                _post(c, accounts, t)
            _close(c, escrow, POSTED)
            return _hold(c, match_id, _lock(c, [escrow])[escrow])

        return self._write(work)

    def refund(self, match_id: str) -> Hold:
        """Void the match's hold: every stake goes back to its payer, in one transaction that closes the escrow.
        Refunding again returns the refund; after a settlement it is refused."""
        escrow = escrow_of(match_id)

        def work(c: Connection) -> Hold:
            held = self._held(c, match_id)
            if held.state == POSTED:
                raise MatchClosed(f"match {match_id} was settled: it cannot be refunded")
            if held.state == VOIDED:
                return held
            accounts = _lock(c, [escrow])
            accounts |= _lock(c, [s.payer for s in held.stakes])
            for s in held.stakes:
                _post(c, accounts, Transfer(f"{match_id}:{s.seat}:{REFUND}", escrow, s.payer, s.amount, REFUND,
                                            match_id, s.seat))
            _close(c, escrow, VOIDED)
            return _hold(c, match_id, _lock(c, [escrow])[escrow])

        return self._write(work)

    def _held(self, c: Connection, match_id: str) -> Hold:
        """The match's hold, its escrow locked."""
        escrow = escrow_of(match_id)
        found = _lock(c, [escrow])
        if escrow not in found:
            raise UnknownAccount(f"no stakes were held for match {match_id}")
        return _hold(c, match_id, found[escrow])

    # -- transactions --------------------------------------------------------------------------------------------

    def _write(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in one write transaction, again from the start when it lost a race to another."""
        duplicates = 0
        for attempt in range(self.attempts):
            with self.engine.connect() as c:
                try:
                    if self._sqlite:
                        c.exec_driver_sql("BEGIN IMMEDIATE")
                    result = work(c)
                    c.commit()
                    return result
                except (OperationalError, IntegrityError) as e:
                    c.rollback()
                    # Run again after another made the same row first (the rerun finds it); a row that is there
                    # again and again is not a race but a fault of the books: say so.
                    duplicates += isinstance(e, IntegrityError)
                    if not _lost_a_race(e) or duplicates > 3:
                        raise _refusal(e) from None
                    if attempt == self.attempts - 1:
                        raise ChipsError(f"the books are too busy: {self.attempts} tries lost a race "
                                         f"({str(e.orig).splitlines()[0]})") from None
            time.sleep(self._jitter.uniform(0, 0.002 * 2 ** min(attempt, 7)))
        raise AssertionError("unreachable")  # pragma: no cover


