"""The tables layer on every game: seats, moves checked by the engine, bots, and what each seat is told."""

from __future__ import annotations

import copy
import json
import random

import pytest

from taash.tables.adapter import Settings, TableError, adapter
from taash.tables.table import Table

GAMES = [("seep", 2, 0), ("seep", 4, 1), ("rummy", 2, "points"), ("rummy", 3, "pool101"), ("rummy", 6, "points")]


def started(game: str, players: int, length: int | str, seed: int = 7) -> Table:
    g = adapter(game)
    settings = g.settings(players, g.presets[0], length, "easy" if game == "seep" else "medium", True)
    table = Table("t", "CODE", settings, seed, "g0")
    table.apply({"type": "sit", "seat": 0, "name": "Anil"}, "g0")
    table.apply({"type": "bots"}, "g0")
    table.apply({"type": "start"}, "g0")
    return table


def with_hidden_dealt_again(table: Table, seat: int, rng: random.Random) -> Table:
    other = copy.copy(table)
    assert table.session is not None
    session = copy.copy(table.session)
    session.state = table.session.state.with_hidden_dealt_again(seat, rng)
    other.session = session
    other._public_cache = None
    return other


@pytest.mark.parametrize(("game", "players", "length"), GAMES)
def test_bots_play_a_whole_match_and_no_seat_is_told_a_hidden_card(game: str, players: int,
                                                                  length: int | str) -> None:
    table = started(game, players, length)
    rng = random.Random(1)
    moves = 0
    while table.status == "playing" and moves < 3000:
        if moves % 7 == 0:
            for seat in (*range(players), None):
                told = table.state_for(seat)
                json.dumps(told)  # what is sent is JSON
                # Everything a seat is told is the same whatever the cards it cannot see are.
                look = seat if seat is not None else (moves % players)
                again = with_hidden_dealt_again(table, look, rng)
                assert again.state_for(seat) == told, (game, moves, seat)
        before = table.version
        table.apply(table.bot_action(), None)
        assert table.version == before + 1
        moves += 1
    assert table.status == "finished"
    record = table.record()
    assert record is not None and record["scores"]
    replay = table.replay()
    assert replay is not None and replay["game"] == game and replay["deals"]


def test_seeps_captured_piles_are_shown_card_by_card_and_only_grow_within_a_deal() -> None:
    """Every captured card was seen face up: each team's pile is shown (the table's panel lists it), as many cards
    as it counts, none of them on the floor or in the other pile; within a deal a pile only grows."""
    table = started("seep", 4, 1)
    last: tuple[int, list[set[str]]] | None = None
    while table.status == "playing":
        d = table.state_for(None)["deal"]
        assert isinstance(d, dict)
        piles = [set(c["pile"]) for c in d["captured"]]
        assert [len(p) for p in piles] == [c["cards"] for c in d["captured"]]
        floor = set(d["loose"]) | {c for house in d["houses"] for c in house["cards"]}
        assert not piles[0] & piles[1] and not floor & (piles[0] | piles[1])
        if last is not None and last[0] == d["number"]:
            assert last[1][0] <= piles[0] and last[1][1] <= piles[1]
        last = (d["number"], piles)
        table.apply(table.bot_action(), None)
    assert last is not None and last[0] >= 1


def test_a_spectator_is_told_no_hand() -> None:
    table = started("rummy", 4, "points")
    told = table.state_for(None)
    assert told["deal"]["hand"] is None and told["deal"]["arrangement"] is None and told["deal"]["legal"] == []
    assert '"hands"' not in json.dumps(told)


@pytest.mark.parametrize(("message", "code"), [
    ({"type": "discard", "card": "Kd"}, "illegal"),   # a discard before taking
    ({"type": "take", "from": "the moon"}, "malformed"),
    ({"type": "discard", "card": "Zz"}, "malformed"),
    ({"type": "declare", "discard": "Kd", "melds": "all of them"}, "malformed"),
    ({"type": "bid", "value": 9}, "bad"),             # another game's move
])
def test_a_bad_rummy_move_is_refused_and_changes_nothing(message: dict[str, object], code: str) -> None:
    table = started("rummy", 2, "points")
    seat = table.to_move()
    assert seat is not None
    guest = "g0" if seat == 0 else None
    before = (table.version, json.dumps(table.state_for(seat)))
    with pytest.raises(TableError) as refused:
        table.check(message, guest)  # type: ignore[arg-type]
    assert refused.value.code == code
    assert (table.version, json.dumps(table.state_for(seat))) == before


def test_not_your_turn_and_the_settings_each_game_refuses() -> None:
    table = started("rummy", 2, "points")
    if table.to_move() == 0:
        table.apply(table.bot_action(), "g0")
        table.apply(table.bot_action(), "g0")
    assert table.to_move() == 1
    with pytest.raises(TableError, match="not your turn"):
        table.check({"type": "take", "from": "stock"}, "g0")
    with pytest.raises(TableError, match="2 to 6"):
        adapter("rummy").settings(7, "octro", "points", "easy", True)
    with pytest.raises(TableError, match="format"):
        adapter("rummy").settings(4, "octro", 3, "easy", True)
    with pytest.raises(TableError, match="2 or 4"):
        adapter("seep").settings(3, "standard", 1, "easy", True)
    with pytest.raises(TableError, match="no tables"):
        adapter("chess")
    with pytest.raises(TableError, match="level"):
        Table("t", "C", Settings("rummy", 2, None, "points", "grandmaster"), 1)


def test_the_seat_to_move_is_shown_its_moves_and_the_solvers_arrangement() -> None:
    table = started("rummy", 2, "points", seed=3)
    while table.to_move() != 0:
        table.apply(table.bot_action(), None)
    deal = table.state_for(0)["deal"]
    assert {m["type"] for m in deal["legal"]} >= {"take", "drop"}
    arrangement = deal["arrangement"]
    cards = [c for g in arrangement["groups"] for c in g["cards"]]
    assert sorted(cards) == sorted(deal["hand"]) and isinstance(arrangement["points"], int)
    table.apply({"type": "take", "from": "stock"}, "g0")
    deal = table.state_for(0)["deal"]
    assert len(deal["hand"]) == 14 and {m["type"] for m in deal["legal"]} == {"discard"}
    assert deal["arrangement"]["discard"] in deal["hand"]
    table.apply({"type": "discard", "card": deal["arrangement"]["discard"]}, "g0")
    assert "Anil discards" in table.state_for(0)["log"][-1]


def test_the_arrangements_discard_is_never_the_card_just_taken_from_the_discard_pile() -> None:
    """Regression: the solver's discard was chosen among all 14 cards, and could be the card just taken from the
    discard pile, which rule R3 keeps in the hand (the browser's "arrange for me" then offered an illegal move)."""
    refused = 0
    for seed in range(12):
        table = started("rummy", 2, "points", seed=seed)
        for _ in range(6):
            while table.status == "playing" and table.to_move() != 0:
                table.apply(table.bot_action(), None)
            if table.status != "playing":
                break
            table.apply({"type": "take", "from": "discard"}, "g0")
            deal = table.state_for(0)["deal"]
            legal = {m["card"] for m in deal["legal"] if m["type"] == "discard"}
            assert table.session is not None
            engine = table.session.state.legal_actions()  # the engine's own list (with a declaration, if any)
            assert legal == {adapter("rummy").action_to(a).get("card") for a in engine} - {None}
            assert {m["type"] for m in deal["legal"]} == {"discard"}
            refused += len(legal) < len(set(deal["hand"]))
            assert deal["arrangement"]["discard"] in legal
            table.apply({"type": "discard", "card": deal["arrangement"]["discard"]}, "g0")
    assert refused  # some turns did forbid a card


def test_every_seat_is_shown_the_arrangement_of_its_own_hand_remembered_or_not() -> None:
    from taash.packs import parse_face
    from taash.rummy.rules import PRESETS
    from taash.tables.rummy import arrangement

    table = started("rummy", 6, "points", seed=11)
    for _ in range(20):
        for seat in range(6):
            deal = table.state_for(seat)["deal"]
            if deal["hand"] and deal["to_move"] != seat:
                wild = "A23456789TJQK".index(deal["wild"])
                fresh = arrangement([parse_face(c) for c in deal["hand"]], PRESETS["octro"], wild)
                assert deal["arrangement"] == fresh
        if table.status != "playing":
            break
        table.apply(table.bot_action(), None)


def test_the_arrangements_remembered_are_the_latest_used_when_they_are_too_many(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Full, the memory forgets the hand least recently asked for, never one just asked for again (every seat's
    hand is asked for at each version of its table: forgetting them all at once is a burst of work under load)."""
    import random

    from taash.rummy.rules import PRESETS
    from taash.tables import rummy

    monkeypatch.setattr(rummy, "_ARRANGEMENTS", {})
    monkeypatch.setattr(rummy, "ARRANGEMENTS_KEPT", 4)
    found: list[tuple[int, ...]] = []
    monkeypatch.setattr(rummy, "arrangement", lambda hand, *_: found.append(hand) or {"hand": list(hand)})
    rng = random.Random(3)
    hands = [tuple(sorted(rng.sample(range(52), 13))) for _ in range(6)]
    rules = PRESETS["octro"]
    for hand in hands[:4]:
        rummy.arrangement_of(hand, rules, 0, None)
    assert rummy.arrangement_of(hands[0], rules, 0, None) == {"hand": list(hands[0])}  # remembered: not found again
    rummy.arrangement_of(hands[4], rules, 0, None)  # full: hands[1], the least recently used, goes
    rummy.arrangement_of(hands[0], rules, 0, None)
    rummy.arrangement_of(hands[2], rules, 0, None)
    rummy.arrangement_of(hands[1], rules, 0, None)
    assert found == [*hands[:5], hands[1]]
    assert len(rummy._ARRANGEMENTS) == 4


def test_a_finished_deal_shows_the_declarers_groups_and_every_hand_still_in_never_a_dropped_one() -> None:
    from taash.tables.rummy import judge_groups

    shown_once = False
    for seed in range(30):
        table = started("rummy", 4, "points", seed=seed)
        while table.status == "playing":
            table.apply(table.bot_action(), None)
        last = table.state_for(None)["score"]["last"]
        if not last["declared"]:
            assert last["shown"] == []
            continue
        shown = {x["seat"]: x for x in last["shown"]}
        winner = shown.pop(last["winner"])
        melds = [g["cards"] for g in winner["groups"]]
        assert judge_groups("octro", table.state_for(None)["deal"]["wild"], melds)["valid"]
        assert set(shown) == {s for s in range(4) if s != last["winner"] and s not in last["dropped"]}
        for seat, x in shown.items():
            assert x["points"] == last["points"][seat]
        shown_once = True
        break
    assert shown_once


def test_a_rummy_timeout_is_the_servers_move_logged_recorded_and_the_third_in_a_row_drops_the_seat() -> None:
    """Section 2, Time: the stock's card is taken and discarded for a seat out of time (his hand unchanged); his
    own move in between starts the count again; the third in a row drops him (middle drop). Only the server
    makes it; the table's actions, the record and the replay all play it again the same way."""
    from taash.packs import face_name, face_symbol
    from taash.rummy.record import record_from_json, replay

    table = started("rummy", 2, "points", seed=3)
    assert table.session is not None
    match = table.session.state.match  # type: ignore[attr-defined]

    def time_out() -> str:
        while table.to_move() != 0:
            table.apply(table.bot_action(), None)
        with pytest.raises(TableError) as refused:
            table.check({"type": "timeout"}, "g0")  # a player cannot claim one
        assert refused.value.code == "forbidden" and "never a player's" in str(refused.value)
        hand = sorted(table.state_for(0)["deal"]["hand"])
        stock_card = face_name(match.deal.stock[-1])
        said = table.apply({"type": "timeout"}, None)
        deal = table.state_for(0)["deal"]
        if deal["hand"]:  # still in
            assert sorted(deal["hand"]) == hand and deal["pile"][-1]["card"] == stock_card
            assert said == f"Anil ran out of time: {face_symbol(match.deal.pile[-1][0])} is taken from the stock " \
                           "and discarded for him"
        return said

    time_out()
    time_out()
    assert table.state_for(0)["deal"]["timeouts"][0] == 2
    while table.to_move() != 0:
        table.apply(table.bot_action(), None)
    table.apply({"type": "take", "from": "stock"}, "g0")  # he plays himself: the run is over
    table.apply({"type": "discard", "card": table.state_for(0)["deal"]["arrangement"]["discard"]}, "g0")
    assert table.state_for(0)["deal"]["timeouts"][0] == 0
    time_out()
    time_out()
    said = time_out()
    assert said.endswith(", and he is dropped after three turns out of time (middle drop: 40 points)"), said
    assert table.status == "finished" and match.results[0].points.points[0] == 40
    assert "dropped after three turns out of time" in " ".join(table.log)
    record = table.record()
    assert record is not None
    turns = [t for t in record["deals"][0]["turns"] if t.get("timeout")]
    assert len(turns) == 5 and all(t["seat"] == 0 and t["take"] == "stock" for t in turns)
    assert tuple(replay(record_from_json(json.loads(json.dumps(record)))).tally.totals) == match.totals
    steps = table.replay()["deals"][0]["steps"]  # type: ignore[index]
    assert sum("ran out of time" in s["said"] for s in steps) == 5


def test_seep_has_no_timeout_move() -> None:
    table = started("seep", 2, 0)
    assert table.timeout_action() is None
    with pytest.raises(TableError) as refused:
        table.check({"type": "timeout"}, None)
    assert refused.value.code == "illegal"


def test_each_rummy_seat_is_told_its_whole_view_but_only_the_last_turns() -> None:
    """The states are built from views that see only the last turns (a long deal costs no more to tell); what
    each seat is told is its whole view's, the turns cut to the last ones shown and counted in full."""
    from taash.rummy.deal import Declare, Discard, Phase, discardable
    from taash.rummy.view import view_of, view_to_json
    from taash.tables.rummy import TURNS_SHOWN

    table = started("rummy", 6, "pool101", seed=5)
    game = adapter("rummy")
    rng = random.Random(2)
    long_deal = 0
    for _ in range(400):
        assert table.session is not None
        deal = table.session.state.match.deal  # type: ignore[attr-defined]
        long_deal = max(long_deal, len(deal.turns))
        for seat in (*range(6), None):
            told = table.state_for(seat)["deal"]
            whole = view_to_json(view_of(deal, seat if seat is not None else deal.seats[0]))
            assert told["turns"] == whole["turns"][-TURNS_SHOWN:] and told["turns_made"] == len(whole["turns"])
            for key in set(whole) - {"hand", "seat", "turns"}:
                assert told[key] == whole[key], key
            own = seat is not None and seat in deal.hands
            assert told["hand"] == (whole["hand"] if own else None)
            if own and told["to_move"] == seat:
                view = view_of(deal, seat)
                legal = ([Discard(f) for f in discardable(view.hand, view.taken_from_pile, view.rules)]
                         if view.phase is Phase.DISCARD else
                         [a for a in view.legal_actions() if not isinstance(a, Declare)])
                assert told["legal"] == [game.action_to(a) for a in legal]
        if table.status != "playing":
            break
        seat = table.to_move()
        legal = table.state_for(seat)["deal"]["legal"]
        moves = [m for m in legal if m["type"] != "drop"]
        table.apply(rng.choice(moves) if moves and rng.random() < 0.9 else table.bot_action(), None)
    assert long_deal > TURNS_SHOWN


def test_arrange_for_me_shows_sets_and_pure_runs_before_the_hand_could_declare() -> None:
    """Issue 27, 3: before a pure run (or the long run) was there, "Arrange for me" showed the jokers alone and
    the other cards in one invalid group, hiding the set 3s 3d 3c and the pure run 5d 6d 7d."""
    from taash.packs import parse_face
    from taash.rummy.rules import PRESETS
    from taash.tables.rummy import arrangement

    def groups(text: str, wild: int) -> list[tuple[str | None, list[str]]]:
        out = arrangement([parse_face(c) for c in text.split()], PRESETS["octro"], wild)
        assert not out["valid"]
        return [(g["kind"], sorted(g["cards"])) for g in out["groups"]]

    with_set = groups("3s 3d 3c 9h Jh 2s 5c 8d Kc Qs 6h Ad JK", 6)
    assert ("set", ["3c", "3d", "3s"]) in with_set and ("impure", ["9h", "JK", "Jh"]) in with_set
    assert with_set[-1] == (None, sorted(["2s", "5c", "8d", "Kc", "Qs", "6h", "Ad"]))  # the loose cards last
    with_runs = groups("5d 6d 7d 9h Jh 2s 4c 8s Kc Qs Th Ac 9c", 2)
    assert with_runs[:3] == [("pure", ["9h", "Jh", "Th"]), ("pure", ["5d", "6d", "7d"]), ("draw", ["Ac", "Kc"])]
    for laid in (with_set, with_runs):
        assert all(len(cards) < 8 for kind, cards in laid if kind is None)


def test_arrange_for_me_lays_off_a_loose_card_not_a_king_of_the_set() -> None:
    from taash.packs import parse_face
    from taash.rummy.rules import PRESETS
    from taash.tables.rummy import arrangement

    hand = "Ks Kd Kc 5d 6d 2s 3h 9c 4h 8s 7c Ah 2d 7h"
    out = arrangement([parse_face(c) for c in hand.split()], PRESETS["octro"], 9)
    assert out["discard"] == "9c" and {"kind": "set", "cards": ["Ks", "Kd", "Kc"]} in out["groups"]
