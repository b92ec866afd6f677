"""The hand check of ``shared/rummy-protocol.md`` (``taash rummy check``): a hand of 13 or 14 cards, a wild rank and
rules in; its least points, whether it is a valid declaration, the best discard and one arrangement out.

>>> check_json({"hand": "4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK".split(), "wild": "8"})["valid"]
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from taash.cards import CardError
from taash.i18n import said_of
from taash.packs import JOKER, face_name, parse_face, parse_rank
from taash.rummy.errors import BadHandError
from taash.rummy.rules import Rules, rules_from_json
from taash.rummy.solver import DRAWN, HAND, Solution, best_discard, solve

#: The fields of a hand check.
FIELDS = ("hand", "wild", "rules")


def _short(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def most_copies(rules: Rules) -> tuple[int, int]:
    """The most cards of one natural face, and the most printed jokers, any deal under these rules may hold."""
    return max(p for p, _ in rules.packs.values()), max(j for _, j in rules.packs.values())


def parse_hand(cards: object, rules: Rules) -> list[int]:
    """Faces of a hand of 13 or 14 cards, refusing more copies of a face than the packs hold."""
    if not isinstance(cards, list):
        raise BadHandError(f"hand must be a list of 13 or 14 cards, not {_short(cards)}")
    if len(cards) not in (HAND, DRAWN):
        raise BadHandError(f"hand must be 13 or 14 cards, not {len(cards)}")
    try:
        faces = [parse_face(card) for card in cards]
    except CardError as e:
        raise BadHandError(said_of(e)) from None
    packs, jokers = most_copies(rules)
    for face, count in Counter(faces).items():
        allowed = jokers if face == JOKER else packs
        if count > allowed:
            raise BadHandError(f"{face_name(face)} appears {count} times in the hand, more than the {allowed} the "
                               f"packs of these rules hold")
    return faces


def parse_wild(text: object) -> int:
    try:
        return parse_rank(text)
    except CardError as e:
        raise BadHandError(f"wild: {e}") from None


def solution_json(solution: Solution, discard: int | None) -> dict[str, Any]:
    """The protocol's answer for a solved hand, in short card names."""
    return {
        "valid": solution.valid,
        "points": solution.points,
        "discard": None if discard is None else face_name(discard),
        "melds": [{"kind": kind, "cards": [face_name(f) for f in cards]} for kind, cards in solution.melds],
        "free": [face_name(f) for f in solution.free],
        "unmatched": [face_name(f) for f in solution.unmatched],
    }


def check_json(doc: object) -> dict[str, Any]:
    """Answer one hand check (a decoded JSON object); raises :class:`~taash.rummy.errors.RummyError` with a
    one-line sentence for bad input."""
    if not isinstance(doc, Mapping):
        raise BadHandError(f'a hand check is an object such as {{"hand": [...], "wild": "5"}}, not {_short(doc)}')
    unknown = [str(k) for k in doc if k not in FIELDS]
    if unknown:
        raise BadHandError(f"unknown field {_short(unknown[0])} in a hand check (known: {', '.join(FIELDS)})")
    if "hand" not in doc or "wild" not in doc:
        raise BadHandError("a hand check needs a hand and a wild rank")
    rules = rules_from_json(doc.get("rules"))
    faces = parse_hand(doc["hand"], rules)
    wild = parse_wild(doc["wild"])
    if len(faces) == HAND:
        return solution_json(solve(faces, rules, wild), None)
    discard, solution = best_discard(faces, rules, wild)
    return solution_json(solution, discard)
