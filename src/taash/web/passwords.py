"""Passwords hashed with Argon2id (``argon2-cffi``'s defaults, RFC 9106's second recommended set), off the event
loop and a few at a time (each hash holds 64 MiB for a moment)."""

from __future__ import annotations

import asyncio
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

#: Passwords hashed at once (each Argon2 hash holds 64 MiB for a moment).
HASHING_AT_ONCE = 4


class Passwords:
    """Argon2id hashing off the event loop, a few at a time."""

    def __init__(self, hasher: PasswordHasher | None = None):
        self.hasher = hasher or PasswordHasher()
        self.at_once = asyncio.Semaphore(HASHING_AT_ONCE)
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        async with self.at_once:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, hashed: str | None, password: str) -> bool:
        """Whether ``password`` is the one of ``hashed``; with None (an unknown name) a dummy hash is checked, so
        that the answer takes as long as for a real account."""
        if hashed is None:
            if self._dummy is None:
                self._dummy = await self.hash(secrets.token_hex(16))
            hashed = self._dummy
        async with self.at_once:
            try:
                return await asyncio.to_thread(self.hasher.verify, hashed, password)
            except (VerificationError, InvalidHashError):
                return False

    def outdated(self, hashed: str) -> bool:
        return self.hasher.check_needs_rehash(hashed)
