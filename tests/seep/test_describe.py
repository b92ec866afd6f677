from __future__ import annotations

from taash.seep.describe import describe_play
from taash.seep.plays import ADD, BREAK, CAPTURE, ESTABLISH, THROW
from tests.seep.helpers import card, mask

HOUSES = {11: (mask("5c", "6d"), False, 0b10)}


def test_plays_in_plain_words() -> None:
    assert describe_play((THROW, card("7c"), 0, 0, 0), {}) == "Throw 7♣"
    assert describe_play((CAPTURE, card("Jc"), 0, 0, mask("2s", "9s")), HOUSES, ascii_only=True) == \
        "Capture the jack house and 2s 9s with Jc"
    assert describe_play((ESTABLISH, card("5h"), 12, 0, mask("4c", "3d")), {}) == \
        "Build a queen house from 5♥ with 3♦ 4♣"
    assert describe_play((ADD, card("Jh"), 11, 0, 0), HOUSES) == "Put J♥ on the jack house"
    assert describe_play((BREAK, card("2s"), 13, 11, 0), HOUSES) == "Break the jack house with 2♠ into a new king house"
