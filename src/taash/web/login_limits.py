"""How many passwords may be tried, counted in the database before each is checked (the ``login_limits`` table,
migration 0013).

Three counts, each over a fixed window of ``WINDOW`` seconds that begins with its first attempt:

- a name from one client address (``PAIR_LIMIT``): an owner's own address is never locked by someone else's
  wrong passwords, which are counted against their address, not his;
- one client address, whatever the names (``ADDRESS_LIMIT``): one machine cannot go through many names;
- one name from every address together (``ACCOUNT_LIMIT``, far higher): many machines guessing one password
  together are stopped too (only they can lock its owner out, for the rest of the window).

An attempt is counted before its password is checked, in one transaction that refuses it, counting nothing, when
any of the three is full: attempts sent at once cannot slip between a check and a count, whether they reach one
server or several sharing the database (each count is one row, changed by one conditional statement). The right
password takes its own attempt off the counts and clears its name's count from that address. A name without an
account is counted the same way (by its look key), so the answers tell nobody whether a name has an account.
"""

from __future__ import annotations

import hashlib
import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import BigInteger, CheckConstraint, Integer, String, Table, case, delete, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, Session, mapped_column

from taash.web.db import Base
from taash.web.store import Store

#: Seconds each count runs for, from its first attempt.
WINDOW = 15 * 60
#: Wrong passwords for one name from one client address in a window.
PAIR_LIMIT = 5
#: Wrong passwords from one client address in a window, whatever the names.
ADDRESS_LIMIT = 20
#: Wrong passwords for one name from all addresses together in a window.
ACCOUNT_LIMIT = 100


class LoginLimitRow(Base):
    """One count of attempts: ``key`` names what is counted (see :class:`Counted`)."""

    __tablename__ = "login_limits"
    __table_args__ = (CheckConstraint("attempts >= 0", name="ck_login_limits_attempts"),)

    key: Mapped[str] = mapped_column(String(160), primary_key=True)
    attempts: Mapped[int] = mapped_column(Integer)
    #: When the window began (seconds since the epoch).
    since: Mapped[int] = mapped_column(BigInteger, index=True)


@dataclass(frozen=True, slots=True)
class Counted:
    """Something attempts are counted against: its key in the table, its limit, and the sentence of a refusal."""

    key: str
    limit: int
    refusal: str


def address_key(host: str | None) -> str:
    """What a client's attempts are counted under: its IPv4 address, or its IPv6 address's /64 network (one
    household or machine is given a whole /64, so counting single IPv6 addresses would count nothing).

    >>> address_key("203.0.113.9"), address_key("2001:db8:1:2:3:4:5:6"), address_key("::ffff:10.0.0.1")
    ('203.0.113.9', '2001:db8:1:2::/64', '10.0.0.1')
    """
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]  # a trusted proxy's word that is not an address: counted as it is
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def name_subject(look_key: str) -> str:
    """What a name without an account is counted as: its look key (hashed: keys are long)."""
    return "name:" + hashlib.sha256(look_key.encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class Attempt:
    """An attempt that was counted: the window each of its counts was counted in (to take it off again)."""

    subject: str
    address: str
    windows: tuple[tuple[str, int], ...]


def counted(subject: str, address: str) -> list[Counted]:
    """The three counts of an attempt on ``subject`` (an account's guest id, or :func:`name_subject`) from
    ``address`` (:func:`address_key`), the narrowest first."""
    return [
        Counted(f"pair {subject} {address}", PAIR_LIMIT,
                "too many wrong passwords for this name from your address: try again in 15 minutes"),
        Counted(f"address {address}", ADDRESS_LIMIT,
                "too many wrong passwords from your address: try again in 15 minutes"),
        Counted(f"name {subject}", ACCOUNT_LIMIT,
                "too many wrong passwords for this name lately: try again in 15 minutes"),
    ]


class LoginLimits:
    """The counts, in the server's database (writes through its :class:`Store`); ``clock`` gives seconds since
    the epoch (a test's own clock lets time pass without sleeping)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock

    async def attempt(self, subject: str, address: str) -> Attempt | str:
        """Count an attempt before its password is checked: the :class:`Attempt`, or the sentence of the first
        count that is full (and then nothing is counted)."""
        at = int(self.clock())
        outcome: list[Attempt | str] = []

        def work(s: Session) -> None:
            outcome.clear()  # a batch that failed is run again, one write at a time
            s.execute(delete(LoginLimitRow).where(LoginLimitRow.since <= at - WINDOW))
            windows: list[tuple[str, int]] = []
            for count in counted(subject, address):
                since = _count(s, count, at)
                if since is None:
                    for key, began in windows:  # the attempt is refused: the counts made for it are taken back
                        _take_back(s, key, began)
                    outcome.append(count.refusal)
                    return
                windows.append((count.key, since))
            outcome.append(Attempt(subject, address, tuple(windows)))

        await self.store.write(work)
        return outcome[0]

    async def succeeded(self, attempt: Attempt) -> None:
        """The right password: the attempt is taken off its counts, and its name's count from its address is
        cleared."""
        pair, *others = attempt.windows

        def work(s: Session) -> None:
            s.execute(delete(LoginLimitRow).where(LoginLimitRow.key == pair[0]))
            for key, since in others:
                _take_back(s, key, since)

        await self.store.write(work)


def _count(s: Session, count: Counted, at: int) -> int | None:
    """Add one to a count (a new window when its last is over): the start of its window, or None when it is full
    (and unchanged)."""
    table = LoginLimitRow.__table__
    assert isinstance(table, Table)
    insert = postgresql.insert if s.get_bind().dialect.name == "postgresql" else sqlite.insert
    row = table.c
    over = row.since <= at - WINDOW
    statement = (insert(table).values(key=count.key, attempts=1, since=at)
                 .on_conflict_do_update(index_elements=[row.key],
                                        set_={"attempts": case((over, 1), else_=row.attempts + 1),
                                              "since": case((over, at), else_=row.since)},
                                        where=over | (row.attempts < count.limit))
                 .returning(row.since))
    since: int | None = s.execute(statement).scalar()
    return since


def _take_back(s: Session, key: str, since: int) -> None:
    """Take one attempt off a count, if its window is still the one it was counted in."""
    row = LoginLimitRow
    s.execute(update(row).where(row.key == key, row.since == since, row.attempts > 0)
              .values(attempts=row.attempts - 1).execution_options(synchronize_session=False))
