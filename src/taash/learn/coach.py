"""The coach: what the expert bot would do in a seat's place, and its one-line reason, decided from that seat's
view alone. It is :meth:`taash.tables.session.Session.hint`, the terminal's hint key, asked of a snapshot of the
match, so that the search may run in another thread while the table goes on."""

from __future__ import annotations

import copy
import re
from typing import Any

from taash.cards import SUIT_SYMBOLS, SUITS
from taash.tables.session import Session

JSON = Any
#: A card's name inside a bot's words (``9s``, ``Td``), said by its suit's symbol as everywhere a player reads.
_CARD_NAME = re.compile(r"\b([2-9TJQKA])([shdc])\b")
#: The bot whose choice the coach gives, whatever the table's level.
COACH_LEVEL = "expert"


def snapshot(session: Session) -> Session:
    """A copy of ``session`` whose state is its own (the moves and names are only read)."""
    snap = copy.copy(session)
    snap.state = session.state.clone()
    return snap


def advice(session: Session, seat: int, level: str = COACH_LEVEL) -> dict[str, JSON]:
    """``{"move": MESSAGE, "why": LINE}``: the bot's move for ``seat`` (a table message) and why
    (``TableError`` ``not_your_turn`` when ``seat`` is not to move). The bot sees ``seat``'s view only."""
    action, why = session.hint(seat, level)
    return {"move": session.game.action_to(action),
            "why": _CARD_NAME.sub(lambda m: m[1] + SUIT_SYMBOLS[SUITS.index(m[2])], why)}
