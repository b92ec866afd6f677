"""The protocol's JSON readers and writers: positions, plays and outcomes; impossible positions are refused."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from taash.cards import card_name, mask_of, names_of
from taash.seep.deal import Deal
from taash.seep.errors import BadPositionError, SeepError
from taash.seep.groups import splits_into
from taash.seep.notation import (
    check_loose_could_arise,
    legal_outcomes,
    most_loose_cards,
    play_from_json,
    play_to_json,
    position_from_json,
    splits_into_groups,
)
from taash.seep.plays import ADD, BREAK, CAPTURE, ESTABLISH, THROW
from taash.seep.rules import PRESETS, Rules
from taash.seep.values import VALUE
from tests.seep.helpers import card, house, mask

GOOD: dict[str, Any] = {
    "rules": "standard", "players": 4, "seat": 2, "hand": ["Kh", "5c", "Qd"], "loose": ["5s", "3h"],
    "houses": [{"value": 11, "cards": ["6d", "5h"], "cemented": False, "owners": [1]}], "bid": None,
}


def test_the_protocols_example_position_is_read() -> None:
    pos = position_from_json(GOOD)
    assert (pos.players, pos.seat, pos.bid) == (4, 2, 0)
    assert pos.hand == mask("Kh", "5c", "Qd") and pos.loose == mask("5s", "3h")
    assert pos.houses == {11: (mask("6d", "5h"), False, 0b10)}
    assert pos.to_json() == {**GOOD, "hand": ["Kh", "Qd", "5c"], "loose": ["5s", "3h"],
                             "houses": [house(11, ["6d", "5h"], [1])]}


def test_missing_keys_take_their_defaults() -> None:
    pos = position_from_json({"seat": 0, "hand": ["10s", "kd"]})
    assert (pos.rules.preset, pos.players, pos.loose, pos.houses, pos.bid) == ("standard", 4, 0, {}, 0)
    assert pos.hand == mask("Ts", "Kd")
    assert position_from_json({"seat": 1, "hand": ["Ks"], "rules": {"preset": "karan", "max_houses": 2}}).rules \
        .max_houses == 2


def with_(**changes: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if value is None and key != "bid":
            data.pop(key)
        else:
            data[key] = value
    return data


BAD = [
    ("not an object", ["seat", 0]),
    ("unknown key", with_(table=1)),
    ("no seat", with_(seat=None)),
    ("seat out of range", with_(seat=4)),
    ("seat of a 2-player game", with_(players=2, seat=3, houses=[])),
    ("seat a string", with_(seat="2")),
    ("three players", with_(players=3)),
    ("no hand", with_(hand=None)),
    ("empty hand", with_(hand=[])),
    ("thirteen cards in hand", with_(hand=[r + "c" for r in "A23456789TJQK"], houses=[], loose=[])),
    ("unknown card", with_(hand=["Kh", "Zz"])),
    ("hand not a list", with_(hand="Kh")),
    ("card twice in hand", with_(hand=["Kh", "kh"])),
    ("card in hand and loose", with_(hand=["Kh", "5s"])),
    ("card in hand and a house", with_(hand=["Kh", "6d"])),
    ("card loose and in a house", with_(loose=["5s", "6d"])),
    ("I1: a loose jack beside the jack house", with_(loose=["5s", "Jh"])),
    ("I2: the seat owns a house without a card of it", with_(houses=[house(11, ["6d", "5h"], [2])])),
    ("houses not a list", with_(houses={"value": 11})),
    ("two houses of one value", with_(houses=[house(11, ["6d", "5h"], [1]), house(11, ["9c", "2c"], [3])])),
    ("house value 8", with_(houses=[house(8, ["6d", "2h"], [1])])),
    ("house value 14", with_(houses=[house(14, ["Kd", "Ah"], [1])])),
    ("ordinary house not adding up", with_(houses=[house(11, ["6d", "4h"], [1])])),
    ("cemented house not splitting", with_(houses=[house(11, ["6d", "5h", "Tc"], [1], cemented=True)])),
    ("house of one card", with_(houses=[house(11, ["Jd"], [1], cemented=True)])),
    ("house without owners", with_(houses=[house(11, ["6d", "5h"], [])])),
    ("owners of one team", with_(houses=[house(11, ["6d", "5h", "Jc"], [1, 3], cemented=True)])),
    ("ordinary house with two owners", with_(houses=[house(11, ["6d", "5h"], [0, 1])])),
    ("owner seat out of range", with_(houses=[house(11, ["6d", "5h"], [4])])),
    ("cemented not a boolean", with_(houses=[{"value": 11, "cards": ["6d", "5h"], "cemented": "no", "owners": [1]}])),
    ("unknown key in a house", with_(houses=[{**house(11, ["6d", "5h"], [1]), "pukka": True}])),
    ("bid with houses on the floor", with_(bid=13)),
    ("bid of a value not held", with_(houses=[], bid=11)),
    ("bid of 8", with_(houses=[], bid=8)),
    ("bid a string", with_(houses=[], bid="13")),
    ("unknown rules", with_(rules="nosuch")),
]


@pytest.mark.parametrize(("what", "data"), BAD, ids=[b[0] for b in BAD])
def test_impossible_positions_are_refused_in_one_line(what: str, data: Any) -> None:
    with pytest.raises(SeepError) as info:
        position_from_json(data)
    assert str(info.value) and "\n" not in str(info.value)


def test_a_position_with_an_empty_owner_list_is_a_bad_position() -> None:
    with pytest.raises(BadPositionError, match="owner"):
        position_from_json(with_(houses=[house(11, ["6d", "5h"], [])]))


def test_plays_are_read_and_written_as_the_protocol_says() -> None:
    houses = {11: (mask("6d", "5h"), False, 0b10)}
    cases = [
        ({"card": "7c"}, (THROW, card("7c"), 0, 0, 0)),
        ({"card": "Jc", "capture": ["2s", "9s"]}, (CAPTURE, card("Jc"), 0, 0, mask("2s", "9s"))),
        ({"card": "Jc", "capture": []}, (CAPTURE, card("Jc"), 0, 0, 0)),
        ({"card": "5h", "house": 12, "loose": ["4c", "3d", "Qh"]},
         (ESTABLISH, card("5h"), 12, 0, mask("4c", "3d", "Qh"))),
        ({"card": "Jh", "house": 11, "loose": []}, (ADD, card("Jh"), 11, 0, 0)),
        ({"card": "2s", "house": 13, "break": 11, "loose": ["Kc"]}, (BREAK, card("2s"), 13, 11, mask("Kc"))),
    ]
    for data, play in cases:
        assert play_from_json(data, houses) == play
        written = play_to_json(play)
        assert play_from_json(written, houses) == play
        assert written["card"] == data["card"]
    assert play_from_json({"card": "10c", "capture": ["as"]}, {}) == (CAPTURE, card("Tc"), 0, 0, mask("As"))
    assert play_to_json((CAPTURE, card("Tc"), 0, 0, mask("Kd", "As"))) == {"card": "Tc", "capture": ["As", "Kd"]}


@pytest.mark.parametrize("bad", [
    "7c", ["7c"], {}, {"card": "Zz"}, {"card": "7c", "bogus": 1}, {"card": "7c", "capture": [], "house": 11},
    {"card": "7c", "loose": []}, {"card": "7c", "house": 8, "loose": []}, {"card": "7c", "house": "11"},
    {"card": "7c", "house": 11, "break": 14, "loose": []}, {"card": "7c", "house": 11, "loose": ["As", "As"]},
    {"card": "7c", "capture": "As"},
])
def test_malformed_plays_are_refused(bad: Any) -> None:
    with pytest.raises(BadPositionError) as info:
        play_from_json(bad, {})
    assert "\n" not in str(info.value)


def test_outcomes_are_written_canonically() -> None:
    pos = position_from_json({"seat": 0, "hand": ["jc"], "loose": ["6c", "5d", "3h", "2s"]})
    want = [
        {"play": {"card": "Jc", "capture": ["2s", "3h", "6c"]}, "kind": "capture", "loose": ["5d"], "houses": [],
         "captured": ["2s", "3h", "6c", "Jc"], "sweep": False},
        {"play": {"card": "Jc", "capture": ["5d", "6c"]}, "kind": "capture", "loose": ["2s", "3h"], "houses": [],
         "captured": ["5d", "6c", "Jc"], "sweep": False},
    ]
    assert sorted(map(json.dumps, legal_outcomes(pos))) == sorted(map(json.dumps, want))
    # Houses come sorted by value, owners sorted.
    pos = position_from_json({"seat": 0, "hand": ["2c"], "houses": [
        house(12, ["7h", "5d", "Qs"], [3, 2], cemented=True), house(9, ["6c", "3d"], [1])]})
    for o in legal_outcomes(pos):
        assert [h["value"] for h in o["houses"]] == sorted(h["value"] for h in o["houses"])
        for h in o["houses"]:
            assert h["owners"] == sorted(h["owners"])


# -- floors that cannot arise in play (issue 14, item 3: `legal` grew exponentially with the loose cards) ---------


def thrown_floors(rules_name: str, players: int, deals: int, seed: int) -> Iterator[tuple[Rules, int]]:
    """Every floor of random deals in which each player throws whenever he may: the biggest floors play makes."""
    rules = PRESETS[rules_name]
    rng = random.Random(seed)
    for i in range(deals):
        deal = Deal.shuffled(rules, players, i % players, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            yield rules, deal.loose
            legal = deal.legal_plays()
            throws = [p for p in legal if p[0] == THROW]
            deal.play(rng.choice(throws or legal))


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("rules_name", list(PRESETS))
def test_every_floor_of_a_game_could_arise(rules_name: str, players: int) -> None:
    most = 0
    for rules, loose in thrown_floors(rules_name, players, 150, seed=players):
        check_loose_could_arise(loose, rules)
        most = max(most, loose.bit_count())
    assert 10 <= most <= most_loose_cards(rules)


def test_the_biggest_floor_play_can_make_is_accepted_and_answered_quickly() -> None:
    # Four kings on the first floor, then a queen, a jack, ... an ace thrown: 16 loose cards.
    loose = ["Ks", "Kh", "Kd", "Kc", *[f"{r}s" for r in "QJT98765432A"]]
    start = time.perf_counter()
    outcomes = legal_outcomes(position_from_json({"seat": 0, "hand": [f"{r}h" for r in "A23456789TJQ"],
                                                  "loose": loose}))
    assert outcomes and time.perf_counter() - start < 2
    assert most_loose_cards(PRESETS["standard"]) == 16 and most_loose_cards(PRESETS["punjab_30_qasim"]) == 18


@pytest.mark.parametrize(("loose", "words"), [
    ([f"{r}{s}" for r in "A23456" for s in "shd"][:17], "at most 16 loose cards, not 17"),
    ([f"{r}{s}" for r in "A23456" for s in "shdc"], "at most 16 loose cards, not 24"),
    (["As", "Ah", "Ad", "Ac", *[f"{r}s" for r in "23456789TJQK"]], "cannot lie together in play"),
    (["3s", "3h", "6s", "6h", "9s"], "loose cards 3s 6s 9s 3h 6h cannot lie together in play"),
])
def test_a_floor_that_cannot_arise_in_play_is_refused(loose: list[str], words: str) -> None:
    with pytest.raises(BadPositionError, match=words):
        position_from_json({"seat": 0, "hand": ["Kc"], "loose": loose})


def test_qasims_restricted_cards_may_lie_beside_cards_of_their_value() -> None:
    # A restricted nine of spades is thrown whatever the floor holds (7.2), so a floor may hold it beside 3+6.
    floor = {"seat": 0, "hand": ["Kc"], "loose": ["3s", "3h", "6s", "6h", "9s"]}
    with pytest.raises(BadPositionError):
        position_from_json({**floor, "rules": "standard"})
    assert position_from_json({**floor, "rules": "punjab_30_qasim", "restricted": []}).loose.bit_count() == 5


def test_a_cemented_house_of_many_cards_is_checked_at_once() -> None:
    # Checking that a house's cards split into groups took a second for 20 cards and never ended for 28.
    for count, splits in ((20, False), (28, False), (36, True), (48, True)):
        cards = [card_name(c) for c in range(52) if VALUE[c] != 13][:count]
        data = {"seat": 0, "hand": ["Ks"], "houses": [house(13, cards, [1], cemented=True)]}
        start = time.perf_counter()
        if splits:
            assert len(legal_outcomes(position_from_json(data))) == 1
        else:
            with pytest.raises(BadPositionError, match="do not split into groups of 13"):
                position_from_json(data)
        assert time.perf_counter() - start < 1


def test_splitting_a_house_by_counts_agrees_with_splitting_it_card_by_card() -> None:
    rng = random.Random(14)
    splittable = 0
    for _ in range(4000):
        value = rng.randint(9, 13)
        pool = [c for c in range(52) if VALUE[c] <= value]
        cards = 0
        if rng.random() < 0.5:  # mostly whole groups, so that many split
            for _ in range(rng.randint(2, 4)):
                group, need = 0, value
                while need and (choices := [c for c in pool if VALUE[c] <= need and not (cards | group) >> c & 1]):
                    c = rng.choice(choices)
                    group, need = group | 1 << c, need - VALUE[c]
                cards |= group if not need else 0
        else:
            cards = mask_of(rng.sample(pool, rng.randint(2, 10)))
        if cards.bit_count() > 14:
            continue
        expected = splits_into(cards, value)
        assert splits_into_groups(cards, value) == expected, (names_of(cards), value)
        splittable += expected
    assert splittable > 1000
