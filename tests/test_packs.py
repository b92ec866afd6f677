"""Faces and identities of several packs with printed jokers (``taash.packs``)."""

from __future__ import annotations

import pytest

from taash.cards import CardError
from taash.packs import FACES, JOKER, Pack, copy_of, face_name, face_of, face_symbol, parse_face, parse_rank


def test_parse_face_accepts_the_protocol_spellings() -> None:
    assert parse_face("Ts") == parse_face("10s") == parse_face("T♠") == 9
    assert parse_face("kd") == 2 * 13 + 12
    assert parse_face("JK") == parse_face(" jk ") == JOKER
    assert parse_face("Ac") == 3 * 13


@pytest.mark.parametrize("bad", ["Xs", "1s", "", "Tz", "10", "JKs", 5, None, ["As"]])
def test_parse_face_refuses_in_one_line(bad: object) -> None:
    with pytest.raises(CardError) as info:
        parse_face(bad)
    assert "\n" not in str(info.value)


def test_long_input_is_echoed_cut_short() -> None:
    with pytest.raises(CardError) as info:
        parse_face("x" * 10_000)
    assert len(str(info.value)) < 200


def test_names() -> None:
    assert [face_name(f) for f in (0, 9, 25, 51, JOKER)] == ["As", "Ts", "Kh", "Kc", "JK"]
    assert face_symbol(9) == "T♠" and face_symbol(9, ascii_only=True) == "Ts" and face_symbol(JOKER) == "JK"
    assert all(parse_face(face_name(f)) == f for f in range(FACES))


def test_parse_rank() -> None:
    assert [parse_rank(t) for t in ("A", "a", "5", "T", "10", "K")] == [0, 0, 4, 9, 9, 12]
    for bad in ("11", "X", "", 5, "AA"):
        with pytest.raises(CardError):
            parse_rank(bad)


def test_pack_sizes_copies_and_identities() -> None:
    two = Pack(packs=2, jokers=4)
    assert len(two) == len(two.cards()) == 108 == len(set(two.cards()))
    assert two.copies(JOKER) == 4 and two.copies(0) == 2
    assert len(Pack(3, 6).cards()) == 162
    assert sorted(face_of(c) for c in two.cards()) == sorted([*range(52), *range(52), *[JOKER] * 4])
    assert all(two.cards().count(c) == 1 for c in two.cards()[:5])
    ids = two.identities([5, 5, JOKER])
    assert [face_of(c) for c in ids] == [5, 5, JOKER] and [copy_of(c) for c in ids] == [0, 1, 0]
    with pytest.raises(CardError):
        two.identities([5, 5, 5])
    with pytest.raises(CardError):
        Pack(2, 0).identities([JOKER])


@pytest.mark.parametrize(("packs", "jokers"), [(0, 0), (9, 0), (1, -1), (1, 17)])
def test_pack_refuses_impossible_sizes(packs: int, jokers: int) -> None:
    with pytest.raises(ValueError):
        Pack(packs, jokers)
