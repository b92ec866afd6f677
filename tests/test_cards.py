from __future__ import annotations

import pytest

from taash.cards import FULL_PACK, VALUE, CardError, card_name, cards_of, mask_of, names_of, parse_card, parse_cards


@pytest.mark.parametrize(("text", "name"), [("Ts", "Ts"), ("10s", "Ts"), ("kd", "Kd"), ("aH", "Ah"), (" 9c ", "9c")])
def test_cards_are_read_in_every_accepted_spelling(text: str, name: str) -> None:
    assert card_name(parse_card(text)) == name


@pytest.mark.parametrize("bad", ["", "1s", "Tx", "10", "Kdd", "11h"])
def test_unknown_cards_are_refused(bad: str) -> None:
    with pytest.raises(CardError):
        parse_card(bad)


def test_canonical_order_is_suit_then_rank() -> None:
    assert names_of(mask_of(parse_card(n) for n in ("Kd", "2s", "Ah", "As", "Tc"))) == ["As", "2s", "Ah", "Kd", "Tc"]
    assert cards_of(FULL_PACK) == list(range(52))
    assert [VALUE[parse_card(n)] for n in ("As", "9h", "Td", "Jc", "Qs", "Kh")] == [1, 9, 10, 11, 12, 13]


def test_a_card_named_twice_is_refused() -> None:
    with pytest.raises(CardError, match="twice"):
        parse_cards(["Ks", "kS"])
    with pytest.raises(CardError):
        parse_cards("Ks")
