"""Card points under a set of rules, and a finished deal's score (section 5 of ``shared/seep-rules.md``): a pile's
points are read in four look-ups, one per suit row, from tables worked out once per rules value."""

from __future__ import annotations

from dataclasses import dataclass

from taash.cards import mask_of, parse_card
from taash.seep.rules import Rules
from taash.seep.values import suit_rows


@dataclass(frozen=True, slots=True)
class DealScore:
    """What each team (index 0 or 1) scored in a finished deal."""

    card_points: tuple[int, int]
    sweep_points: tuple[int, int]
    cards_taken: tuple[int, int]

    @property
    def score(self) -> tuple[int, int]:
        """Each team's deal score: card points plus sweep points."""
        return (self.card_points[0] + self.sweep_points[0], self.card_points[1] + self.sweep_points[1])


class _RulesTables:
    """What a deal needs of its rules, worked out once per rules value."""

    __slots__ = ("point_rows", "restricted", "rules")

    def __init__(self, rules: Rules):
        self.rules = rules
        points = rules.card_point_table()
        # Points of each 13-bit suit row of a card mask: a pile scores in four look-ups.
        self.point_rows = tuple(
            tuple(sum(points[13 * s + r] for r in range(13) if row >> r & 1) for row in range(1 << 13))
            for s in range(4)
        )
        self.restricted = mask_of(parse_card(c) for c in rules.restricted_cards)

_tables_by_rules: dict[int, _RulesTables] = {}


def _rules_tables(rules: Rules) -> _RulesTables:
    found = _tables_by_rules.get(id(rules))
    if found is None or found.rules is not rules:
        found = _tables_by_rules[id(rules)] = _RulesTables(rules)
    return found


def point_rows(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """For each suit, the card points of each 13-bit row of that suit's cards (index: the row's mask), so that
    the points of a card mask are ``sum(points[row] for points, row in zip(rows, suit_rows(m)))``."""
    return _rules_tables(rules).point_rows


def card_points(rules: Rules, cards: int) -> int:
    """The card points of some cards under ``rules`` (no majority, no Satthi)."""
    return _points(_rules_tables(rules).point_rows, cards)


def _points(point_rows: tuple[tuple[int, ...], ...], cards: int) -> int:
    """The card points of ``cards`` from the points of each suit's rows (:func:`point_rows`)."""
    return sum(points[row] for points, row in zip(point_rows, suit_rows(cards), strict=True))
