"""Small builders shared by the Seep tests."""

from __future__ import annotations

import json
from typing import Any

from taash.cards import mask_of, names_of, parse_card, parse_mask
from taash.seep.notation import Position, legal_outcomes, play_to_json, position_from_json


def position(**fields: Any) -> Position:
    """A position from protocol fields (seat 0 unless given)."""
    fields.setdefault("seat", 0)
    return position_from_json(fields)


def mask(*names: str) -> int:
    return mask_of(parse_card(n) for n in names)


def card(name: str) -> int:
    return parse_card(name)


def pj(play: dict[str, Any]) -> str:
    """A play written by hand, made canonical (cards in canonical order) for comparison with :func:`plays_json`."""
    out = dict(play)
    for key in ("capture", "loose"):
        if key in out:
            out[key] = names_of(parse_mask(out[key]))
    out["card"] = names_of(parse_mask([out["card"]]))[0]
    return json.dumps(out, sort_keys=True)


def plays_json(pos: Position) -> set[str]:
    """The legal plays as canonical JSON strings (order-free)."""
    return {json.dumps(play_to_json(p), sort_keys=True) for p in pos.legal_plays()}


def plays_of_card(pos: Position, name: str) -> set[str]:
    """The legal plays of one card, as :func:`pj` writes them."""
    return {p for p in plays_json(pos) if json.loads(p)["card"] == name}


def outcome_of(pos: Position, play: dict[str, Any]) -> dict[str, Any]:
    """The outcome object of one legal play given in protocol form (fails if the play is not legal)."""
    want = pj(play)
    for o in legal_outcomes(pos):
        if json.dumps(o["play"], sort_keys=True) == want:
            return o
    raise AssertionError(f"{want} is not a legal play of {json.dumps(pos.to_json())}")


def house(value: int, cards: list[str], owners: list[int], cemented: bool = False) -> dict[str, Any]:
    """A house as the protocol writes it (cards in canonical order)."""
    return {"value": value, "cards": names_of(parse_mask(cards)), "cemented": cemented, "owners": owners}


def next_position(pos: Position, outcome: dict[str, Any], seat: int, hand: list[str]) -> Position:
    """The position of ``seat`` holding ``hand`` on the floor an outcome left."""
    return position(rules=pos.rules.to_json(), players=pos.players, seat=seat, hand=hand, loose=outcome["loose"],
                    houses=outcome["houses"])
