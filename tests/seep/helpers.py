"""Small builders shared by the Seep tests."""

from __future__ import annotations

import json
from typing import Any

from taash.cards import mask_of, parse_card
from taash.seep.notation import Position, play_to_json, position_from_json
from taash.seep.plays import Play


def position(**fields: Any) -> Position:
    fields.setdefault("seat", 0)
    return position_from_json(fields)


def mask(*names: str) -> int:
    return mask_of(parse_card(n) for n in names)


def card(name: str) -> int:
    return parse_card(name)


def plays_json(pos: Position) -> set[str]:
    """The legal plays as canonical JSON strings (order-free)."""
    return {json.dumps(play_to_json(p), sort_keys=True) for p in pos.legal_plays()}


def pj(play: dict[str, Any]) -> str:
    """A play written by hand, made canonical (cards sorted) for comparison with :func:`plays_json`."""
    from taash.cards import names_of, parse_mask

    out = dict(play)
    for key in ("capture", "loose"):
        if key in out:
            out[key] = names_of(parse_mask(out[key]))
    out["card"] = names_of(parse_mask([out["card"]]))[0]
    return json.dumps(out, sort_keys=True)


def outcome_of(pos: Position, play: Play) -> dict[str, Any]:
    return pos.outcome(play)
