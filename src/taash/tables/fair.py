"""Checking a match record's fair dealing (:mod:`taash.fairness`) for any game: ``taash verify`` and the server's
``/api/tables/{id}/verify`` both call :func:`verify_record`, which asks the game the record names."""

from __future__ import annotations

from typing import Any

from taash.i18n import N_, said_of
from taash.tables.adapter import TableError, adapter

JSON = Any


def verify_record(data: JSON) -> list[str]:
    """Check a finished match's record (as ``/api/tables/{id}/record`` gives it): its secret against its
    commitment, every deal against the secret, and the rules. One line per deal; ``TableError`` in one line for
    the first thing wrong (code ``unfair``, or ``not_fair`` for a record with no fairness block)."""
    if not isinstance(data, dict):
        raise TableError(N_("a match record must be a JSON object"), "unfair")
    block = data.get("fairness")
    if block is None:
        raise TableError(N_("the record has no fairness block: its match was not dealt fairly by a server"), "not_fair")
    game = block.get("game") if isinstance(block, dict) else None
    if not isinstance(game, str):
        raise TableError(N_("the fairness block must name its game"), "unfair")
    try:
        checker = adapter(game)
    except TableError as e:
        raise TableError(said_of(e), "unfair") from None
    return checker.verify(data)
