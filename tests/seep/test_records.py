"""Game records: writing a match down, replaying it, and refusing records that are malformed or break the rules.

Every refusal is a :class:`RecordError` naming the deal (and play) index where it went wrong, with ``illegal`` telling
a broken rule (illegal play or bid, wrong dealer) from a malformed record.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from taash.cards import card_name, cards_of
from taash.seep.deal import Deal
from taash.seep.errors import RecordError, SeepError
from taash.seep.match import Match
from taash.seep.notation import play_from_json, play_to_json
from taash.seep.record import DealRecord, record_from_json, record_of, replay, replay_to_json
from taash.seep.rules import PRESETS

JSON = dict[str, Any]


@pytest.fixture(scope="module")
def record4(conformance_dir: Path) -> JSON:
    return json.loads((conformance_dir / "standard-4p.record.json").read_text())


@pytest.fixture(scope="module")
def record2() -> JSON:
    """A finished 2-player match of three or more deals (random plays), as JSON."""
    for seed in range(100):
        data = simulate(PRESETS["standard"], 2, seed, baazis_to_win=2)
        if len(data["deals"]) >= 3:
            return data
    raise AssertionError("no long enough 2-player match")


def simulate(rules: Any, players: int, seed: int, baazis_to_win: int = 1, stop_after: int | None = None) -> JSON:
    """A random match written down; with ``stop_after``, cut short after that many plays of its last deal."""
    rng = random.Random(seed)
    match = Match(rules, players, seed, baazis_to_win)
    past: list[DealRecord] = []
    while True:
        match.make_bid(rng.choice(match.legal_bids()))
        while not match.deal.over:
            if stop_after is not None and len(match.deal.plays) == stop_after and len(past) >= 1:
                return record_of(match, past=past).to_json()
            match.play(rng.choice(match.legal_plays()))
        if match.over:
            return record_of(match, past=past).to_json()
        past.append(record_of(match).deals[-1])
        match.next_deal()


def refused(data: Any, deal_index: int | None, play_index: int | None = None, illegal: bool = False) -> RecordError:
    """Replaying ``data`` is refused at the record's ``deals[deal_index]["plays"][play_index]`` (list indexes, from
    0): the error names that deal and play counting from 1, in its attributes and its message alike."""
    with pytest.raises(RecordError) as info:
        replay(record_from_json(data))
    e = info.value
    deal = None if deal_index is None else deal_index + 1
    play = None if play_index is None else play_index + 1
    assert (e.deal, e.play, e.illegal) == (deal, play, illegal), str(e)
    message = str(e)
    assert "\n" not in message
    if deal is not None:  # counted from 1, as the screens, the rules and Rummy's errors count them
        assert message.startswith(f"deal {deal}" + (f", play {play}: " if play is not None else ": ")), message
    return e


def deal_at(data: JSON, i: int, j: int) -> Deal:
    """Deal ``i`` of a record replayed up to (not including) its play ``j``."""
    d = data["deals"][i]
    rules = PRESETS[data.get("rules", "standard")]
    deal = Deal(rules, data.get("players", 4), d["dealer"], [_card(n) for n in d["deck"]])
    deal.make_bid(d["bid"])
    for raw in d["plays"][:j]:
        deal.play(play_from_json(raw, deal.houses))
    return deal


def _card(name: str) -> int:
    from taash.cards import parse_card

    return parse_card(name)


# -- what replay accepts -------------------------------------------------------------------------------------------


def test_a_whole_record_replays_and_scores(record4: JSON) -> None:
    results = replay(record_from_json(record4))
    assert len(results) == len(record4["deals"])
    out = replay_to_json(results)
    assert out["baazis"] == [sum(d["baazi"] == t for d in out["deals"]) for t in (0, 1)]
    for d in out["deals"]:
        assert d["score"] == [d["card_points"][t] + d["sweep_points"][t] for t in (0, 1)]


def test_an_unfinished_last_deal_is_accepted_and_not_scored(record4: JSON) -> None:
    data = copy.deepcopy(record4)
    data["deals"][-1]["plays"] = data["deals"][-1]["plays"][:20]
    assert len(replay(record_from_json(data))) == len(record4["deals"]) - 1
    data["deals"][-1]["plays"] = []
    assert len(replay(record_from_json(data))) == len(record4["deals"]) - 1
    data["deals"][-1]["bid"] = None  # dealt, bid not yet made
    assert len(replay(record_from_json(data))) == len(record4["deals"]) - 1


def test_an_unfinished_deal_followed_by_another_is_refused(record4: JSON) -> None:
    data = copy.deepcopy(record4)
    data["deals"][2]["plays"] = data["deals"][2]["plays"][:47]
    e = refused(data, 2)
    assert "unfinished" in str(e)
    data = copy.deepcopy(record4)
    data["deals"][0]["plays"] = []
    data["deals"][0]["bid"] = None
    refused(data, 0)


def test_a_match_in_progress_writes_a_record_that_replays() -> None:
    data = simulate(PRESETS["standard"], 4, seed=11, baazis_to_win=3, stop_after=30)
    assert len(data["deals"][-1]["plays"]) == 30
    text = json.dumps(data)
    results = replay(record_from_json(json.loads(text)))
    assert len(results) == len(data["deals"]) - 1


def test_a_record_keeps_names_rules_and_players(record2: JSON) -> None:
    match = Match(PRESETS["karan"], 2, seed=3)
    data = record_of(match, names=["Asha", "Ravi"]).to_json()
    assert data["format"] == "seep-record/1"
    assert (data["rules"], data["players"], data["names"]) == ("karan", 2, ["Asha", "Ravi"])
    assert data["deals"] == [{"dealer": match.deal.dealer, "deck": [card_name(c) for c in match.deal.deck],
                              "bid": None, "plays": []}]
    assert replay(record_from_json(data)) == []
    custom = {"preset": "standard", "max_houses": 3}
    from taash.seep.rules import rules_from_json

    data = record_of(Match(rules_from_json(custom), 4, seed=3)).to_json()
    assert data["rules"] == custom
    assert record_from_json(data).rules == rules_from_json(custom)
    assert len(replay(record_from_json(record2))) == len(record2["deals"])


def test_a_record_read_from_json_can_be_written_again(record4: JSON) -> None:
    """Reading a record and writing it back gives the same JSON (GameRecord.to_json on what record_from_json made)."""
    record = record_from_json(copy.deepcopy(record4))
    assert record.to_json() == record4


# -- what replay refuses as breaking the rules ---------------------------------------------------------------------


def test_a_wrong_dealer_is_illegal_and_named(record4: JSON, record2: JSON) -> None:
    for data, players in ((record4, 4), (record2, 2)):
        for i in range(1, len(data["deals"])):
            bad = copy.deepcopy(data)
            bad["deals"][i]["dealer"] = (bad["deals"][i]["dealer"] + 1) % players
            e = refused(bad, i, illegal=True)
            assert "deals" in str(e)


def test_the_first_dealer_may_be_anyone(record4: JSON) -> None:
    data = {**copy.deepcopy(record4), "deals": copy.deepcopy(record4["deals"][:1])}
    data["deals"][0]["plays"] = []
    for dealer in range(4):
        data["deals"][0]["dealer"] = dealer
        assert replay(record_from_json(data)) == []


@pytest.mark.parametrize(("i", "j"), [(0, 0), (0, 1), (1, 17), (3, 47), (5, 30)])
def test_an_illegal_play_is_named_by_deal_and_play(record4: JSON, i: int, j: int) -> None:
    deal = deal_at(record4, i, j)
    legal = set(deal.legal_plays())
    hand = deal.hands[deal.to_move]
    # A card not in the hand (another seat's when there is one), then plays of this hand that are not legal.
    others = [c for c in range(52) if not hand >> c & 1]
    other = next((c for c in others if any(h >> c & 1 for h in deal.hands)), others[0])
    candidates = [{"card": card_name(other)}]
    candidates += [{"card": card_name(c)} for c in cards_of(hand) if (1, c, 0, 0, 0) not in legal]
    candidates += [{"card": card_name(c), "capture": []} for c in cards_of(hand) if (0, c, 0, 0, 0) not in legal]
    for bad_play in candidates[:3]:
        data = copy.deepcopy(record4)
        data["deals"][i]["plays"][j] = bad_play
        e = refused(data, i, j, illegal=True)
        assert "illegal" in str(e)


def test_a_bid_the_bidder_cannot_make_is_illegal(record4: JSON) -> None:
    d = record4["deals"][0]
    held = {_card(n) % 13 + 1 for n in d["deck"][:4]}
    for bid in [v for v in range(9, 14) if v not in held] + [8, 1, 14]:
        data = copy.deepcopy(record4)
        data["deals"][0]["bid"] = bid
        e = refused(data, 0, illegal=True)
        assert "bid" in str(e)


def test_plays_past_the_end_of_a_deal_are_refused(record4: JSON) -> None:
    data = copy.deepcopy(record4)
    data["deals"][1]["plays"].append({"card": "As"})
    refused(data, 1, 48)


# -- what replay refuses as malformed ------------------------------------------------------------------------------

Change = Callable[[JSON], Any]


def _set(path: list[Any], value: Any) -> Change:
    def change(data: JSON) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


MALFORMED: list[tuple[str, Change, int | None, int | None]] = [
    ("deck of 51 cards", lambda d: d["deals"][1]["deck"].pop(), 1, None),
    ("deck of 53 cards", lambda d: d["deals"][1]["deck"].append("As"), 1, None),
    ("card named twice", lambda d: d["deals"][2]["deck"].__setitem__(5, d["deals"][2]["deck"][6]), 2, None),
    ("unknown card", _set(["deals", 0, "deck", 9], "Xx"), 0, None),
    ("deck not a list", _set(["deals", 3, "deck"], "As 2s"), 3, None),
    ("deck missing", lambda d: d["deals"][4].pop("deck"), 4, None),
    ("dealer out of range", _set(["deals", 0, "dealer"], 4), 0, None),
    ("dealer not a number", _set(["deals", 0, "dealer"], "0"), 0, None),
    ("dealer true", _set(["deals", 0, "dealer"], True), 0, None),
    ("dealer missing", lambda d: d["deals"][1].pop("dealer"), 1, None),
    ("bid a string", _set(["deals", 2, "bid"], "11"), 2, None),
    ("plays without a bid", _set(["deals", 1, "bid"], None), 1, None),
    ("plays not a list", _set(["deals", 1, "plays"], {"card": "As"}), 1, None),
    ("play not an object", _set(["deals", 1, "plays", 3], "Ks"), 1, 3),
    ("play with an unknown key", _set(["deals", 1, "plays", 4], {"card": "Ks", "bogus": 1}), 1, 4),
    ("play with an unknown card", _set(["deals", 1, "plays", 5], {"card": "Zz"}), 1, 5),
    ("play without a card", _set(["deals", 1, "plays", 6], {"capture": []}), 1, 6),
    ("play into a house of 14", _set(["deals", 1, "plays", 7], {"card": "As", "house": 14, "loose": []}), 1, 7),
    ("capture with house", _set(["deals", 1, "plays", 8], {"card": "As", "capture": [], "house": 9}), 1, 8),
    ("deal not an object", _set(["deals", 2], ["deck"]), 2, None),
    ("deals not a list", _set(["deals"], {"0": {}}), None, None),
    ("deals missing", lambda d: d.pop("deals"), None, None),
    ("three players", _set(["players"], 3), None, None),
    ("players a string", _set(["players"], "4"), None, None),
    ("unknown format", _set(["format"], "seep-record/2"), None, None),
    ("unknown rules", _set(["rules"], "nosuch"), None, None),
    ("bad rule parameter", _set(["rules"], {"max_houses": 1}), None, None),
    ("names of the wrong length", _set(["names"], ["N", "W", "S"]), None, None),
    ("names not strings", _set(["names"], [1, 2, 3, 4]), None, None),
]


@pytest.mark.parametrize(("what", "change", "deal", "play"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_records_are_refused_and_named(record4: JSON, what: str, change: Change, deal: int | None,
                                                 play: int | None) -> None:
    data = copy.deepcopy(record4)
    change(data)
    refused(data, deal, play, illegal=False)


@pytest.mark.parametrize("data", [None, [], "record", 3, {"format": "seep-record/1"}])
def test_records_that_are_not_objects_with_deals_are_refused(data: Any) -> None:
    with pytest.raises(RecordError) as info:
        replay(record_from_json(data))
    assert "\n" not in str(info.value)


def test_a_deck_that_would_have_been_redealt_is_refused(record4: JSON) -> None:
    data = copy.deepcopy(record4)
    deck = data["deals"][0]["deck"]
    low = [n for n in deck if _card(n) % 13 + 1 <= 8][:4]
    data["deals"][0]["deck"] = low + [n for n in deck if n not in low]
    data["deals"][0]["plays"] = []
    e = refused(data, 0)
    assert "redone" in str(e)
    punjab = {**copy.deepcopy(record4), "rules": "punjab_30", "deals": [copy.deepcopy(record4["deals"][0])]}
    deck = punjab["deals"][0]["deck"]
    deck.remove("Td")
    deck.insert(5, "Td")
    if not any(_card(n) % 13 + 1 >= 9 for n in deck[:4]):
        pytest.skip("the changed deck has no bid")
    punjab["deals"][0]["plays"] = []
    e = refused(punjab, 0)
    assert "Td" in str(e)


def test_record_errors_are_seep_errors() -> None:
    assert issubclass(RecordError, SeepError) and issubclass(RecordError, ValueError)
    e = RecordError("bad", 4, 8, illegal=True)
    assert (str(e), e.deal, e.play, e.illegal) == ("deal 4, play 8: bad", 4, 8, True)
    assert str(RecordError("bad", 3)) == "deal 3: bad"


def test_record_errors_count_deals_and_plays_from_1_as_rummys_count_deals_and_turns() -> None:
    """The first deal's first play is deal 1, play 1 in the attributes as in the words (they counted from 0)."""
    data = simulate(PRESETS["standard"], 4, seed=3, baazis_to_win=1)
    data["deals"][0]["plays"][0] = {"card": "Zz"}
    with pytest.raises(RecordError) as info:
        replay(record_from_json(data))
    assert (info.value.deal, info.value.play) == (1, 1)
    assert str(info.value).startswith("deal 1, play 1: ")
    assert str(RecordError("bad")) == "bad"


def test_plays_are_written_as_the_protocol_says(record4: JSON) -> None:
    deal = deal_at(record4, 0, 0)
    for p in deal.legal_plays():
        written = play_to_json(p)
        assert play_from_json(json.loads(json.dumps(written)), deal.houses) == p
