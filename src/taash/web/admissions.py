"""Who may open a websocket: the server's connections counted per client address and per guest, with room kept
for players.

A connection is admitted (counted) before its handshake is accepted and released when it ends, in one step with
no ``await`` between the check and the count, so that many handshakes at once cannot slip past a limit together.
The limits:

- the server's ``max_connections`` in all; a share of them (``reserved_for_players``) only for a seated player
  connecting to his own table, so that spectators and the Play now queue can never lock the players out;
- ``per_address``: connections from one client address, a player's connections to his own tables apart (those
  are bounded by the per-guest limit, and a household or an office behind one address may play and watch);
- ``per_guest``: connections of one signed-in guest, to any table or the queue.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

#: Why a connection was refused (the close reason, with code 1013: try again later).
SERVER_FULL = "the server is full: try again later"


@dataclass(frozen=True, slots=True)
class Admission:
    """One admitted connection: from where, whose (None: no guest cookie), and whether a seated player's to his
    own table."""

    address: str
    guest: str | None
    player: bool


class Admissions:
    """The server's websockets counted, and the limits they are held to."""

    def __init__(self, max_connections: int = 5000, per_address: int = 50, per_guest: int = 20,
                 reserved_for_players: float = 0.1):
        self.max_connections = max_connections
        self.per_address = per_address
        self.per_guest = per_guest
        #: Connections only players to their own tables may have: the others stop this far below the maximum.
        self.reserved = int(max_connections * reserved_for_players)
        self.open = 0
        self.by_address: Counter[str] = Counter()
        self.by_guest: Counter[str] = Counter()

    def refusal(self, address: str, guest: str | None, player: bool) -> str | None:
        """Why a connection from ``address`` by ``guest`` (a seated ``player`` of the table it opens, or not)
        may not be opened now, or None."""
        if guest is not None and self.by_guest[guest] >= self.per_guest:
            return f"you have {self.per_guest} connections open, the most one person may: close a tab and try again"
        if not player and self.by_address[address] >= self.per_address:
            return (f"{self.per_address} connections are open from your address, the most one address may: close "
                    "some and try again")
        if self.open >= self.max_connections - (0 if player else self.reserved):
            return SERVER_FULL
        return None

    def admit(self, address: str, guest: str | None, player: bool) -> Admission | str:
        """Count a new connection (an :class:`Admission` to :meth:`release` when it ends), or the sentence that
        refuses it."""
        refused = self.refusal(address, guest, player)
        if refused is not None:
            return refused
        self.open += 1
        if not player:
            self.by_address[address] += 1
        if guest is not None:
            self.by_guest[guest] += 1
        return Admission(address, guest, player)

    def release(self, admission: Admission) -> None:
        """A connection counted by :meth:`admit` has ended."""
        self.open -= 1
        if not admission.player:
            self._forget(self.by_address, admission.address)
        if admission.guest is not None:
            self._forget(self.by_guest, admission.guest)

    @staticmethod
    def _forget(counts: Counter[str], key: str) -> None:
        counts[key] -= 1
        if counts[key] <= 0:
            del counts[key]
