"""The pages watching each tournament (:mod:`taash.web.tournament_socket`) and how the director tells them of a
change: an event per tournament, set at its next change and then forgotten, so that a page takes the event, reads
the tournament, sends it, and waits, missing nothing between the read and the wait."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field


@dataclass(eq=False)
class Watcher:
    """A tournament page's websocket: who it is, the channel of the tournament's chat it is in (the entrants' or
    the watchers'), and the messages waiting to be sent (None: close)."""

    guest: str | None
    channel: str
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)

    def send(self, text: str | None) -> None:
        self.queue.put_nowait(text)


class Watchers:
    """Every tournament's pages, and the events they wait on."""

    def __init__(self) -> None:
        #: tournament id -> the event its pages wait on, set (and forgotten) at its next change.
        self._changes: dict[str, asyncio.Event] = {}
        #: tournament id -> its pages' websockets.
        self.pages: dict[str, set[Watcher]] = {}

    def change_of(self, tournament_id: str) -> asyncio.Event:
        """The event set at the tournament's next change (its standings, round, matches or entrants); take it
        before reading the tournament."""
        return self._changes.setdefault(tournament_id, asyncio.Event())

    def changed(self, tournament_id: str) -> None:
        """Tell the tournament's pages it changed."""
        event = self._changes.pop(tournament_id, None)
        if event is not None:
            event.set()

    def add(self, tournament_id: str, watcher: Watcher) -> None:
        self.pages.setdefault(tournament_id, set()).add(watcher)

    def remove(self, tournament_id: str, watcher: Watcher) -> None:
        found = self.pages.get(tournament_id)
        if found is not None:
            found.discard(watcher)
            if not found:
                del self.pages[tournament_id]
