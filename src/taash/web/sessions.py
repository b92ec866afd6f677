"""Sessions: what a signed cookie names, so that the server can end it (the ``sessions`` table, migration 0009).

A cookie made since sessions exist is the signed pair ``[guest id, session token]``; it is good while the session
is in the table. Logging out ends the browser's own session; changing the password ends every session of the
guest and opens a new one for the browser that changed it (so any copied cookie stops working at once).
The table keeps a hash of each token (SHA-256), never the token itself.

A cookie from before sessions (the signed guest id alone) still works for a guest *without* an account: he has
nothing to log out of, and refusing it would lose him his tables and chips. It no longer works once the guest has
an account: claiming the name gives the claiming browser a session cookie, and any other browser logs in again.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import ForeignKey, String, delete
from sqlalchemy.orm import Mapped, Session, mapped_column
from sqlalchemy.types import DateTime

from taash.web.account_store import AccountRow
from taash.web.db import Base, now
from taash.web.store import Store


class SessionRow(Base):
    __tablename__ = "sessions"

    #: SHA-256 (hex) of the session's token: the token itself is only in the cookie.
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    guest_id: Mapped[str] = mapped_column(String(32), ForeignKey("guests.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


def token_key(token: str) -> str:
    """The key under which a session token is kept."""
    return hashlib.sha256(token.encode()).hexdigest()


def read_cookie(signer: URLSafeSerializer, cookie: str | None) -> tuple[str, str | None] | None:
    """``(guest, session token)`` of a well-signed cookie, the token None for a cookie from before sessions; None
    for no cookie, or a forged or foreign one."""
    if not cookie:
        return None
    try:
        value = signer.loads(cookie)
    except BadSignature:
        return None
    if isinstance(value, str):
        return value, None
    if (isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)
            and 0 < len(value[1]) <= 100):
        return value[0], value[1]
    return None


class Sessions:
    """The sessions of the server's guests: reads straight from the database, writes through the :class:`Store`."""

    def __init__(self, store: Store, signer: URLSafeSerializer):
        self.store = store
        self.signer = signer

    async def open(self, guest: str) -> str:
        """A new session of ``guest``: the cookie that names it."""
        token = secrets.token_urlsafe(32)
        await self.store.write(lambda s: s.add(SessionRow(id=token_key(token), guest_id=guest, created_at=now())))
        return self.signer.dumps([guest, token])

    def signed_in(self, cookie: str | None) -> tuple[str, str | None] | None:
        """``(guest, session token)`` of a cookie that is still good (see the module's doc), or None."""
        found = read_cookie(self.signer, cookie)
        if found is None:
            return None
        guest, token = found
        with Session(self.store.engine) as s:
            if token is None:
                return None if s.get(AccountRow, guest) is not None else found
            row = s.get(SessionRow, token_key(token))
            return found if row is not None and row.guest_id == guest else None

    def guest(self, cookie: str | None) -> str | None:
        """The guest of a cookie that is still good, or None."""
        found = self.signed_in(cookie)
        return None if found is None else found[0]

    async def end(self, token: str) -> None:
        """End one session (logging out)."""
        key = token_key(token)

        def work(s: Session) -> None:
            s.execute(delete(SessionRow).where(SessionRow.id == key))

        await self.store.write(work)

    async def end_all(self, guest: str) -> None:
        """End every session of ``guest`` (a new password)."""

        def work(s: Session) -> None:
            s.execute(delete(SessionRow).where(SessionRow.guest_id == guest))

        await self.store.write(work)
