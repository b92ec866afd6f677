"""Cards: reading and writing names, the canonical order, card sets as masks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taash.cards import (
    FULL_PACK,
    RANKS,
    SUIT_MASK,
    SUITS,
    CardError,
    card,
    card_name,
    card_symbol,
    cards_of,
    mask_of,
    names_of,
    parse_card,
    parse_cards,
    parse_mask,
)
from taash.seep.values import VALUE, VALUE_MASK, mask_value_sum

ALL_NAMES = [r + s for s in "shdc" for r in "A23456789TJQK"]


def test_card_numbers_are_suit_times_13_plus_rank() -> None:
    assert [parse_card(n) for n in ("As", "Ks", "Ah", "Td", "Kc")] == [0, 12, 13, 35, 51]
    assert [card_name(c) for c in range(52)] == ALL_NAMES
    assert card("T", "d") == 35
    assert (RANKS, SUITS) == ("A23456789TJQK", "shdc")


@pytest.mark.parametrize(("text", "name"), [
    ("Ts", "Ts"), ("10s", "Ts"), ("10S", "Ts"), ("ts", "Ts"), ("tS", "Ts"), ("kd", "Kd"), ("KD", "Kd"),
    ("aH", "Ah"), ("9c", "9c"), ("10h", "Th"), ("jc", "Jc"), ("qs", "Qs"), (" 9c ", "9c"),
])
def test_cards_are_read_in_every_accepted_spelling(text: str, name: str) -> None:
    assert card_name(parse_card(text)) == name


def test_every_card_reads_back_from_its_name_and_from_lower_case() -> None:
    for c in range(52):
        assert parse_card(card_name(c)) == c
        assert parse_card(card_name(c).lower()) == c
        assert parse_card(card_name(c).upper()) == c
        if card_name(c)[0] == "T":
            assert parse_card("10" + card_name(c)[1]) == c


@pytest.mark.parametrize("bad", ["", "1s", "Tx", "10", "Kdd", "11h", "0s", "T", "s", "1 0s", "10ss", "Ks,", "♠A", "sK"])
def test_unknown_cards_are_refused_with_a_one_line_card_error(bad: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(bad)
    message = str(info.value)
    assert message and "\n" not in message
    assert repr(bad) in message, "the message names what was given"


@pytest.mark.parametrize("bad", [None, 5, 3.0, ["Ks"], b"Ks"])
def test_a_card_that_is_not_a_string_is_refused(bad: object) -> None:
    with pytest.raises(CardError) as info:
        parse_card(bad)  # type: ignore[arg-type]
    assert "\n" not in str(info.value)


def test_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, ValueError)


def test_lists_of_cards() -> None:
    assert parse_cards(["Ks", "10d", "ah"]) == [12, 35, 13]
    assert parse_cards([]) == []
    assert parse_mask(["Ks", "10d", "ah"]) == (1 << 12) | (1 << 35) | (1 << 13)
    with pytest.raises(CardError, match="Ks is named twice"):
        parse_cards(["Ks", "kS"])
    with pytest.raises(CardError, match="Td is named twice"):
        parse_mask(["10d", "Td"], "hand")
    with pytest.raises(CardError, match="hand"):
        parse_cards("Ks", "hand")
    with pytest.raises(CardError):
        parse_cards(["Ks", "Xx"])
    with pytest.raises(CardError):
        parse_cards({"Ks": 1})


def test_canonical_order_is_suit_then_rank() -> None:
    names = ["Kd", "2s", "Ah", "As", "Tc", "10h", "qs"]
    assert names_of(parse_mask(names)) == ["As", "2s", "Qs", "Ah", "Th", "Kd", "Tc"]
    assert cards_of(FULL_PACK) == list(range(52))
    assert names_of(FULL_PACK) == ALL_NAMES
    assert names_of(0) == [] and cards_of(0) == []


def test_capture_values() -> None:
    assert [VALUE[parse_card(n)] for n in ("As", "2h", "9h", "Td", "Jc", "Qs", "Kh")] == [1, 2, 9, 10, 11, 12, 13]
    assert all(VALUE[c] == VALUE[c % 13] for c in range(52)), "suit never matters"
    assert mask_value_sum(parse_mask(["As", "Ah", "Td", "Kc"])) == 25
    assert mask_value_sum(0) == 0
    assert mask_value_sum(FULL_PACK) == 4 * sum(range(1, 14))


def test_masks_by_value_and_by_suit() -> None:
    assert VALUE_MASK[0] == 0
    assert VALUE_MASK[9] == parse_mask(["9s", "9h", "9d", "9c"])
    for v in range(1, 14):
        assert [VALUE[c] for c in cards_of(VALUE_MASK[v])] == [v] * 4
    assert SUIT_MASK[0] == parse_mask([r + "s" for r in RANKS])
    assert sum(SUIT_MASK) == FULL_PACK == (1 << 52) - 1
    union = 0
    for v in range(1, 14):
        assert not union & VALUE_MASK[v]
        union |= VALUE_MASK[v]
    assert union == FULL_PACK


def test_card_symbols() -> None:
    assert card_symbol(parse_card("Ts")) == "T♠"
    assert card_symbol(parse_card("Kh")) == "K♥"
    assert card_symbol(parse_card("Kh"), ascii_only=True) == "Kh"


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(0, 51)))
def test_masks_and_lists_agree(cards: set[int]) -> None:
    m = mask_of(cards)
    assert m.bit_count() == len(cards)
    assert cards_of(m) == sorted(cards)
    assert mask_of(cards_of(m)) == m
    assert parse_mask(names_of(m)) == m
    assert parse_mask([n.lower() for n in names_of(m)]) == m
    assert mask_value_sum(m) == sum(VALUE[c] for c in cards)
    assert names_of(m) == [card_name(c) for c in sorted(cards)]
