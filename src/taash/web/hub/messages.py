"""What the hub sends: each connection's view of a table at a version, encoded once per seat (the lists and
objects every seat shares encoded once for all), and the presence messages. A connection that asked for another
language than English is told the table's sentences (the log, what was said, the reasons and the deal explained)
in its language: the same message, with those strings said again (:func:`taash.i18n.in_language`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import orjson

from taash.i18n import DEFAULT, in_language
from taash.web.hub.live import Live, encoded_parts
from taash.web.hub.turns import Turns

JSON = Any


class Messages:
    """The messages of the tables, with the presence and the turn timer as :class:`Turns` finds them."""

    def __init__(self, turns: Turns):
        self.turns = turns

    def message_for(self, live: Live, seat: int | None, kind: str, guest: str | None = None, lang: str = DEFAULT,
                    **extra: JSON) -> str:
        """The table as ``seat`` (None: a spectator) of ``guest`` may see it, in a message of ``kind``, its
        sentences in ``lang``."""
        return self._message(live, seat, kind, guest, self.turns.presence(live), self.turns.timer(live), extra, lang)

    def _message(self, live: Live, seat: int | None, kind: str, guest: str | None, presence: list[dict[str, bool]],
                 timer: dict[str, JSON] | None, extra: dict[str, JSON], lang: str = DEFAULT) -> str:
        if lang == DEFAULT:
            state = self._encoded_state(live, seat)
        else:  # its own words (state_for's dict is its own to change): nothing encoded for everyone is shared
            state = in_language(lang, live.table.state_for(seat))
            extra = in_language(lang, extra)
        state["seats_present"] = presence
        state["seats_account"] = [s.guest is not None and s.guest in live.accounts for s in live.table.seats]
        state["timer"] = timer
        state["can_manage"] = seat is not None or (guest is not None and guest == live.table.owner)
        return orjson.dumps({"type": kind, "version": live.table.version, **extra, "state": state}).decode()

    def _encoded_state(self, live: Live, seat: int | None) -> dict[str, JSON]:
        """:meth:`Table.state_for`, with every list and object it shares with the table's public state replaced
        by that part already encoded (each encoded once a version, however many seats are told): the same bytes
        once the message is encoded."""
        table = live.table
        public = table.public_state()
        if live.encoded is None or live.encoded_from is not public:
            live.encoded, live.encoded_from = encoded_parts(public), public
        encoded = live.encoded
        state = table.state_for(seat)
        for key, part in encoded.top.items():
            if state.get(key) is public[key]:
                state[key] = part
        deal, public_deal = state.get("deal"), public.get("deal")
        if encoded.deal and isinstance(deal, dict) and isinstance(public_deal, Mapping):
            for key, part in encoded.deal.items():
                if deal.get(key) is public_deal[key]:
                    deal[key] = part
        return state

    def broadcast(self, live: Live, said: str) -> None:
        """Send each connection the version just made: one message per seat (and for the spectators, the owner's
        apart), the presence and timer found once for all."""
        cache: dict[tuple[int | None, bool, str], str] = {}
        owner = live.table.owner
        presence, timer = self.turns.presence(live), self.turns.timer(live)
        for conn in list(live.connections):
            if conn.close_code != 1000:  # being closed: told nothing more
                continue
            key = (conn.seat, conn.guest == owner, conn.lang)
            if key not in cache:
                cache[key] = self._message(live, conn.seat, "update", conn.guest, presence, timer, {"said": said},
                                           conn.lang)
            conn.version = live.table.version
            conn.send(cache[key])

    def send_presence(self, live: Live) -> None:
        message = json.dumps({"type": "presence", "seats": self.turns.presence(live), "timer": self.turns.timer(live)})
        for conn in list(live.connections):
            if conn.close_code == 1000:
                conn.send(message)
