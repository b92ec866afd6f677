"""Fair play with chips: free chips belong to accounts, and people who may be one person do not play each other
for chips.

The policy of play-money card rooms, against chips farmed with throwaway guests (a new guest and a wrong
declaration moved 10,000 chips in seconds):

- A guest's wallet opens with no chips; the starting grant is paid when he claims an account (once per person: its
  transfer id is ``grant:PERSON``, the one a wallet opened with before), and the daily bonus goes to accounts only.
  Guests play at tables without stakes: a staked table refuses a guest's seat and a start with one seated
  (``playing for chips needs an account``).
- Accounts made from one address are limited (``ServerConfig.accounts_per_address`` a day).
- Two people are *related* when an address was seen for both of them when they became guests, claimed an account
  or logged in. A staked table refuses to seat, or to start with, two related people, as card rooms refuse players
  from one address at one table (``ServerConfig.related_stakes`` lets an operator allow it).
- A guest may not take an account's name, nor one that looks or reads like it (:func:`taash.web.names.name_keys`,
  the keys accounts are unique by), as his guest name or at a table.

Addresses are kept only as a keyed hash (HMAC-SHA256 with a key of the server's, :func:`taash.web.db.server_key`),
in the ``identity_addresses`` table (migration 0014): enough to tell that two people shared one, never which it was.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import DateTime, ForeignKey, String, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, Session, mapped_column

from taash.i18n import N_, _
from taash.tables.adapter import TableError
from taash.tables.table import Table
from taash.web.account_store import AccountRow
from taash.web.db import Base, now
from taash.web.names import name_keys

#: What a guest is told at a staked table.
#: The ways an address is seen for a person.
AS_GUEST, AT_CLAIM, AT_LOGIN = "guest", "claim", "login"
#: Accounts one address may make in a day (``taash serve --accounts-per-address``).
ACCOUNTS_PER_ADDRESS = 3
DAY = timedelta(days=1)


class AddressRow(Base):
    """An address (its keyed hash) seen for a person, and how: when he became a guest, claimed or logged in."""

    __tablename__ = "identity_addresses"

    guest_id: Mapped[str] = mapped_column(String(32), ForeignKey("guests.id"), primary_key=True)
    address_hash: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    seen_as: Mapped[str] = mapped_column(String(8), primary_key=True)
    #: The first time it was seen so (a claim's: when the account was made).
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


def address_hash(key: str, address: str) -> str:
    """The keyed hash an address is kept as (hex HMAC-SHA256)."""
    return hmac.new(key.encode(), address.encode(), hashlib.sha256).hexdigest()


def add_address(s: Session, guest: str, hashed: str, seen_as: str) -> None:
    """Record ``hashed`` for ``guest`` (seen ``seen_as``) in a transaction, once: a second sighting keeps the first
    one's time."""
    dialect: Any = postgresql if s.bind is not None and s.bind.dialect.name == "postgresql" else sqlite
    s.execute(dialect.insert(AddressRow).values(guest_id=guest, address_hash=hashed, seen_as=seen_as, seen_at=now())
              .on_conflict_do_nothing())


def accounts_made_from(s: Session, hashed: str, since: datetime) -> int:
    """How many accounts were claimed from the address ``hashed`` since ``since``."""
    return int(s.scalar(select(func.count()).select_from(AddressRow).where(
        AddressRow.address_hash == hashed, AddressRow.seen_as == AT_CLAIM, AddressRow.seen_at >= since)) or 0)


def shared_addresses(engine: Engine, people: Iterable[str] | None = None) -> dict[frozenset[str], int]:
    """Each pair of people (of ``people``; None: everyone) that shares addresses, and how many they share."""
    query = select(AddressRow.address_hash, AddressRow.guest_id).distinct()
    if people is not None:
        query = query.where(AddressRow.guest_id.in_(sorted(set(people))))
    by_address: dict[str, set[str]] = defaultdict(set)
    with engine.connect() as c:
        for hashed, guest in c.execute(query):
            by_address[hashed].add(guest)
    shared: dict[frozenset[str], int] = defaultdict(int)
    for guests in by_address.values():
        ordered = sorted(guests)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1:]:
                shared[frozenset((a, b))] += 1
    return dict(shared)


def accounts_among(engine: Engine, people: Iterable[str]) -> set[str]:
    """Which of ``people`` (guest ids) have an account."""
    wanted = sorted({p for p in people if p})
    if not wanted:
        return set()
    with engine.connect() as c:
        return set(c.scalars(select(AccountRow.guest_id).where(AccountRow.guest_id.in_(wanted))))


def account_of_name(engine: Engine, name: str) -> str | None:
    """The guest id of the account whose name is ``name`` or one that looks or reads like it (None: no account)."""
    keys = name_keys(name)
    with engine.connect() as c:
        return c.scalar(select(AccountRow.guest_id).where(
            (AccountRow.name_key == keys.folded) | (AccountRow.look_key == keys.look)
            | (AccountRow.sound_key == keys.sound)).limit(1))


#: The actions :meth:`FairPlay.check` looks at (it reads the database for them); it lets every other one pass.
CHECKED_ACTIONS = frozenset({"sit", "start"})


class FairPlay:
    """The server's policy (see the module): where addresses are seen, and who may sit and start at a table."""

    def __init__(self, engine: Engine, key: str, accounts_per_address: int = ACCOUNTS_PER_ADDRESS,
                 related_stakes: bool = False):
        self.engine = engine
        self.key = key
        self.accounts_per_address = accounts_per_address
        self.related_stakes = related_stakes

    def hashed(self, address: str) -> str:
        return address_hash(self.key, address)

    def seen(self, guest: str, address: str, seen_as: str) -> Any:
        """The write (for :meth:`taash.web.store.Store.write`) that records ``address`` for ``guest``."""
        hashed = self.hashed(address)
        return lambda s: add_address(s, guest, hashed, seen_as)

    def claim_refusal(self, s: Session, address: str, at: datetime | None = None) -> str | None:
        """Why the address may make no more accounts today (None: it may), read in the claim's transaction."""
        since = (at or now()) - DAY
        if accounts_made_from(s, self.hashed(address), since) >= self.accounts_per_address:
            return (f"at most {self.accounts_per_address} accounts a day may be made from one address: "
                    "try again tomorrow")
        return None

    def accounts(self, people: Iterable[str]) -> set[str]:
        return accounts_among(self.engine, people)

    def seated_accounts(self, table: Table) -> set[str]:
        """Which of ``table``'s seated people have an account."""
        return self.accounts(s.guest for s in table.seats if s.guest is not None)

    def name_refusal(self, name: str, guest: str | None) -> str | None:
        """Why ``guest`` may not use ``name`` (an account's, or one like it, that is not his); None: he may."""
        owner = account_of_name(self.engine, name)
        if owner is None or owner == guest:
            return None
        return f"{name!r} is an account's name (or looks or reads like one): choose another"

    def check(self, table: Table, stake: int, action: Mapping[str, Any], guest: str | None) -> None:
        """Refuse (:class:`TableError`) a sit under an account's name that is not the sitter's, and at a staked
        table a guest's seat, a seat beside a related person, or a start with either."""
        kind = action.get("type")
        if kind == "sit":
            name = action.get("name")
            refused = self.name_refusal(name, guest) if isinstance(name, str) else None
            if refused is not None:
                raise TableError(refused, "name_taken")
            if stake > 0 and guest is not None:
                self._may_stake(table, guest)
        elif kind == "start" and stake > 0:
            self._may_start(table)

    def _may_stake(self, table: Table, guest: str) -> None:
        if not self.accounts([guest]):
            raise TableError(N_("playing for chips needs an account: claim your name (Account) first, or play at a "
                                "table without stakes"), "account_needed")
        if self.related_stakes:
            return
        others = {s.guest for s in table.seats if s.guest is not None and s.guest != guest}
        related = [p for p in shared_addresses(self.engine, {guest, *others}) if guest in p]
        if related:
            other = next(iter(set(related[0]) - {guest}))
            raise TableError(_("you and {name} have played from one address: related players may not play each "
                               "other for chips", name=_name_at(table, other)), "related")

    def _may_start(self, table: Table) -> None:
        people = {s.guest: s.name for s in table.seats if s.guest is not None}
        guests = sorted(set(people) - self.accounts(people))
        if guests:
            raise TableError(_("playing for chips needs an account: {name} has none", name=people[guests[0]]),
                             "account_needed")
        if self.related_stakes:
            return
        pairs = sorted(sorted(p) for p in shared_addresses(self.engine, people))
        if pairs:
            a, b = pairs[0]
            raise TableError(_("{a} and {b} have played from one address: related players may not play each other "
                               "for chips", a=people[a], b=people[b]), "related")


def _name_at(table: Table, guest: str) -> str:
    return next((s.name for s in table.seats if s.guest == guest and s.name), "another player")
