"""Accounts in the database: a guest who claimed his name with a password (the ``accounts`` table, migration 0007).

An account belongs to a guest (its key is the guest's id), so everything kept under the guest id (his tables and,
with the chips ledger, his wallet) is the account's. Its name is unique by both keys of
:func:`taash.web.names.name_keys`: unique constraints of the database, not only a check here. Attempts at its
password are counted in the database too (:mod:`taash.web.login_limits`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import CheckConstraint, ForeignKey, String, UniqueConstraint, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column
from sqlalchemy.types import DateTime

from taash.web.db import Base, GuestRow, now
from taash.web.names import NameKeys
from taash.web.store import Store


class AccountRow(Base):
    __tablename__ = "accounts"
    __table_args__ = (UniqueConstraint("name_key", name="uq_accounts_name_key"),
                      UniqueConstraint("look_key", name="uq_accounts_look_key"),
                      UniqueConstraint("sound_key", name="uq_accounts_sound_key"),
                      CheckConstraint("length(name_key) > 0 AND length(look_key) > 0", name="ck_accounts_keys"))

    guest_id: Mapped[str] = mapped_column(String(32), ForeignKey("guests.id"), primary_key=True)
    #: The name as its owner wrote it (shown); it is unique by its keys (never shown: ``NameKeys``).
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(200))
    look_key: Mapped[str] = mapped_column(String(200))
    sound_key: Mapped[str] = mapped_column(String(400))
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    #: The language its person chose (migration 0020; None: none yet): every browser he signs in from speaks it.
    language: Mapped[str | None] = mapped_column(String(8), nullable=True, default=None)


class AccountError(ValueError):
    """A claim the database refused: ``code`` is ``name_taken`` or ``claimed``."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Account:
    guest_id: str
    name: str
    password_hash: str
    language: str | None = None


def _account(row: AccountRow | None) -> Account | None:
    return None if row is None else Account(row.guest_id, row.name, row.password_hash, row.language)


class Accounts:
    """Reads straight from the database; writes through the server's :class:`Store` (awaited commits)."""

    def __init__(self, store: Store):
        self.store = store
        self.engine: Engine = store.engine

    # -- reading ------------------------------------------------------------------------------------------------

    def of_guest(self, guest_id: str) -> Account | None:
        with Session(self.engine) as s:
            return _account(s.get(AccountRow, guest_id))

    def by_name(self, keys: NameKeys) -> Account | None:
        """The account of a name, or of one that looks or reads like it (the one of the same case-folded name
        first)."""
        with Session(self.engine) as s:
            rows = s.scalars(select(AccountRow).where(
                (AccountRow.name_key == keys.folded) | (AccountRow.look_key == keys.look)
                | (AccountRow.sound_key == keys.sound)))
            return _account(min(rows, key=lambda row: row.name_key != keys.folded, default=None))

    # -- writing ------------------------------------------------------------------------------------------------

    async def claim(self, guest_id: str, name: str, keys: NameKeys, password_hash: str,
                    also: Callable[[Session], None] | None = None) -> None:
        """Make ``guest_id``'s account, and give the guest its name; AccountError when the name (by its key) or
        the guest already has one (the database decides: two claims at once cannot both win). ``also`` runs
        first in the same transaction (it may refuse the claim with an AccountError)."""

        def work(s: Session) -> None:
            if also is not None:
                also(s)
            s.add(AccountRow(guest_id=guest_id, name=name, name_key=keys.folded, look_key=keys.look,
                             sound_key=keys.sound,
                             password_hash=password_hash))
            guest = s.get(GuestRow, guest_id)
            if guest is not None:
                guest.name = name

        try:
            await self.store.write(work)
        except IntegrityError:
            if self.of_guest(guest_id) is not None:
                raise AccountError("claimed", "you have an account already") from None
            if self.by_name(keys) is not None:
                raise AccountError("name_taken",
                                   "that name (or one that looks or reads like it) has an account already") from None
            raise

    async def set_password(self, guest_id: str, password_hash: str) -> None:
        await self.store.write(lambda s: _update(s, guest_id, password_hash=password_hash))

    async def set_language(self, guest_id: str, language: str) -> None:
        """Keep the language the account's person chose (one of :data:`taash.i18n.LANGUAGES`)."""
        await self.store.write(lambda s: _update(s, guest_id, language=language))


def _update(s: Session, guest_id: str, **values: Any) -> None:
    s.execute(update(AccountRow).where(AccountRow.guest_id == guest_id).values(**values)
              .execution_options(synchronize_session=False))
