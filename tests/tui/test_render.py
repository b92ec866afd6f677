"""The terminal's lines of text: a captured pile in the singular and the plural."""

from __future__ import annotations

from rich.text import Text

from taash.cards import mask_of, parse_card
from taash.seep.rules import PRESETS
from taash.tui.seep.render import pile_line


def test_a_pile_of_one_card_of_one_point_is_said_in_the_singular() -> None:
    standard = PRESETS["standard"]
    one = mask_of([parse_card("Ah")])
    assert Text.from_markup(pile_line("Us", standard, one, 50, 1)).plain == "Us 1 card 1 pt, 1 sweep +50"
    two = mask_of([parse_card("Ah"), parse_card("2s")])
    assert Text.from_markup(pile_line("Them", standard, two, 100, 2)).plain == "Them 2 cards 3 pts, 2 sweeps +100"
    assert Text.from_markup(pile_line("Us", standard, 0, 0, 0)).plain == "Us 0 cards 0 pts"
