"""Server tables deal fairly (``taash.fairness``): a whole match of each game verifies against its commitment, a
changed card, secret, commitment or first dealer is refused, and no state told before the end holds the secret."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from taash.fairness import Fairness, Reshuffles, commitment_of
from taash.i18n import Said, in_language, said_of
from taash.rummy.deal import Discard, Take
from taash.rummy.errors import RecordError
from taash.rummy.match import Match as RummyMatch
from taash.rummy.record import check_fairness as rummy_check
from taash.rummy.record import record_from_json as rummy_record
from taash.rummy.record import record_of, replay
from taash.rummy.rules import PRESETS as RUMMY_PRESETS
from taash.seep.match import Match as SeepMatch
from taash.seep.match import fair_deck
from taash.seep.rules import PRESETS as SEEP_PRESETS
from taash.tables.adapter import TableError, adapter
from taash.tables.fair import verify_record
from taash.tables.table import Table

SECRET = bytes(range(32))
TABLE = "abcdef0123456789"


def finished_table(game: str, players: int, length: int | str, secret: bytes = SECRET) -> tuple[Table, list[str]]:
    """A table of ``game`` played to its end by bots beside a person who gave his own seed, and every state
    each seat and a spectator were told on the way (as JSON)."""
    g = adapter(game)
    table = Table(TABLE, "CODE", g.settings(players, g.presets[0], length, "easy", True), 42, "g0", secret=secret)
    told: list[str] = []

    def tell() -> None:
        told.extend(json.dumps(table.state_for(seat)) for seat in (None, *range(players)))

    table.apply({"type": "sit", "seat": 0, "name": "Me", "seed": "my-own-seed"}, "g0")
    tell()
    table.apply({"type": "bots"}, "g0")
    table.apply({"type": "start"}, "g0")
    tell()
    while table.status != "finished":
        table.apply(table.bot_action(), None)
        if table.status != "finished":
            tell()
    return table, told


@pytest.fixture(scope="module", params=[("seep", 4, 1), ("rummy", 3, "pool101")], ids=["seep", "rummy"])
def played(request: pytest.FixtureRequest) -> tuple[Table, list[str]]:
    return finished_table(*request.param)


def test_a_whole_server_match_verifies_deal_by_deal(played: tuple[Table, list[str]]) -> None:
    table, _ = played
    record = table.record()
    assert record["fairness"]["commitment"] == commitment_of(SECRET)
    assert record["fairness"]["secret"] == SECRET.hex()
    assert record["fairness"]["seeds"] == {"0": "my-own-seed"}  # the person's seed; bots give none
    lines = verify_record(record)
    assert lines == table.verify()
    assert len(lines) == len(record["deals"]) >= 1
    assert all(line.startswith(f"Deal {i}: ") and "the one the secret deals" in line
               for i, line in enumerate(lines, 1))


def test_the_secret_is_in_no_state_told_before_the_end_and_the_commitment_in_every_one(
        played: tuple[Table, list[str]]) -> None:
    _, told = played
    assert len(told) > 20
    for text in told:
        assert SECRET.hex() not in text
        state = json.loads(text)
        assert state["fairness"]["commitment"] == commitment_of(SECRET)
        assert "secret" not in state["fairness"]
    assert json.loads(told[-1])["fairness"]["seeds"] == {"0": "my-own-seed"}


def deck_key(record: dict[str, Any]) -> str:
    return "deck" if "deck" in record["deals"][0] else "pack"


def test_a_changed_card_secret_commitment_or_first_dealer_is_refused(played: tuple[Table, list[str]]) -> None:
    table, _ = played
    record = table.record()
    key = deck_key(record)
    changed = []
    swapped = copy.deepcopy(record)  # two cards of the last deal swapped: the rules may still hold
    pack = swapped["deals"][-1][key]
    first = next(i for i in range(1, len(pack)) if pack[i] != pack[0])
    pack[0], pack[first] = pack[first], pack[0]
    changed.append(swapped)
    secret = copy.deepcopy(record)
    secret["fairness"]["secret"] = bytes(32).hex()
    changed.append(secret)
    both = copy.deepcopy(record)  # a new secret with its own commitment: the commitment published is another
    both["fairness"]["secret"] = bytes(32).hex()
    both["fairness"]["commitment"] = commitment_of(bytes(32))
    changed.append(both)
    commitment = copy.deepcopy(record)
    commitment["fairness"]["commitment"] = commitment_of(b"another" * 4 + b"1234")
    changed.append(commitment)
    seeds = copy.deepcopy(record)
    seeds["fairness"]["seeds"] = {"0": "another-seed"}
    changed.append(seeds)
    for bad in changed:
        with pytest.raises(TableError) as e:
            verify_record(bad)
        assert e.value.code == "unfair"
        assert "\n" not in str(e.value)


def test_an_unfair_record_is_refused_in_each_readers_language(played: tuple[Table, list[str]]) -> None:
    """The refusal reaches the server as a said sentence: ``/api/tables/{id}/verify`` says it in each reader's
    language (the deal's place and the reason in one sentence), English as it always was."""
    table, _ = played
    record = table.record()
    key = deck_key(record)
    swapped = copy.deepcopy(record)
    pack = swapped["deals"][0][key]
    first = next(i for i in range(1, len(pack)) if pack[i] != pack[0])
    pack[0], pack[first] = pack[first], pack[0]
    secret = copy.deepcopy(record)
    secret["fairness"]["secret"] = bytes(32).hex()
    for bad, english in ((swapped, f"deal 1: the {key} is not the one the secret deals (card 1 is {pack[0]}, the "
                                   f"secret deals {pack[first]})"),
                         (secret, "fairness: the secret does not match the commitment: its SHA-256 is another")):
        with pytest.raises(TableError) as e:
            verify_record(bad)
        said = said_of(e.value)
        assert isinstance(said, Said)
        assert str(e.value) == said.in_("en") == english
        for lang, script in (("hi", "[\u0900-\u097f]"), ("pa", "[\u0a00-\u0a7f]")):
            line = in_language(lang, said)
            assert re.search(script, line), line
            assert not re.search(r"\b(deal|the|is|not|one|secret|deals|card|does|match|commitment)\b", line), line


def test_a_record_with_no_fairness_block_is_not_a_fair_one() -> None:
    with pytest.raises(TableError, match="no fairness block"):
        verify_record({"format": "seep-record/1", "deals": []})
    with pytest.raises(TableError, match="JSON object"):
        verify_record([1, 2])


def test_a_table_without_a_secret_deals_from_its_seed_as_before() -> None:
    """A table stored before tables dealt fairly, and ``taash play --seed``: the seed alone deals."""
    g = adapter("seep")
    settings = g.settings(2, "standard", 0, "easy", True)
    old = Table(TABLE, "CODE", settings, 7, "g0")
    old.apply({"type": "sit", "seat": 0, "name": "Me"}, "g0")
    old.apply({"type": "bots"}, "g0")
    old.apply({"type": "start"}, "g0")
    assert old.session is not None
    assert old.session.state.match.deal.deck == SeepMatch(SEEP_PRESETS["standard"], 2, 7, 0).deal.deck
    assert old.state_for(0)["fairness"] is None
    with pytest.raises(TableError) as e:
        old.verify()
    assert e.value.code == "not_fair"


def test_the_verdict_waits_for_the_end_of_the_match() -> None:
    g = adapter("seep")
    table = Table(TABLE, "CODE", g.settings(2, "standard", 0, "easy", True), 7, "g0", secret=SECRET)
    table.apply({"type": "sit", "seat": 0, "name": "Me"}, "g0")
    table.apply({"type": "bots"}, "g0")
    table.apply({"type": "start"}, "g0")
    with pytest.raises(TableError) as e:
        table.verify()
    assert e.value.code == "not_finished"


def test_a_bad_seed_is_refused_and_changes_nothing() -> None:
    g = adapter("seep")
    table = Table(TABLE, "CODE", g.settings(2, "standard", 0, "easy", True), 7, "g0", secret=SECRET)
    with pytest.raises(TableError, match="a seed is"):
        table.check({"type": "sit", "seat": 0, "name": "Me", "seed": "a|b"}, "g0")
    assert table.seats[0].empty and table.version == 0


def test_a_seep_redeal_is_drawn_again_from_the_secret() -> None:
    fair = Fairness("seep", TABLE, SECRET)
    rules = SEEP_PRESETS["standard"]
    deal = next(d for d in range(1, 2000) if fair_deck(rules, 4, fair, d)[1])
    deck, redeals = fair_deck(rules, 4, fair, deal)
    again = list(range(52))
    fair.shuffle(again, deal, "pack", len(redeals))
    assert deck == again
    first = list(range(52))
    fair.shuffle(first, deal, "pack", 0)
    assert first != deck


def test_a_rummy_stock_made_again_from_the_discard_pile_is_shuffled_by_the_secret_and_replays() -> None:
    fair = Fairness("rummy", TABLE, SECRET, ((1, "seed"),))
    match = RummyMatch(RUMMY_PRESETS["octro"], 2, "points", seed=5, fairness=fair)
    deal = match.deal
    assert isinstance(deal.rng, Reshuffles)
    pile_before: list[int] = []
    while not any(t.reshuffled for t in deal.turns):
        if not deal.stock:
            pile_before = [face for face, _ in deal.pile[:-1]]
        match.act(Take("stock"))
        match.act(Discard(deal.turns[-1].drawn))  # type: ignore[arg-type]
    expected = list(pile_before)
    fair.shuffle(expected, 1, "reshuffle", 0)
    assert deal.turns[-1].drawn == expected[-1]  # the new stock's top card, the last of the list
    assert deal.stock == expected[:-1]
    clone = deal.clone()
    assert isinstance(clone.rng, Reshuffles) and clone.rng is not deal.rng and clone.rng.done == 1
    data = record_of(match, ["A", "B"]).to_json()
    assert data["fairness"]["secret"] == SECRET.hex()
    record = rummy_record(data)
    assert record.fairness == fair
    replay(record)  # its discards are the cards the secret's reshuffle gave
    assert rummy_check(record) == [f"Deal 1: seat {deal.dealer} deals; the pack of 108 cards is the one the secret "
                                   "deals"]
    record.fairness = None  # replayed with the seed's reshuffle instead, the card discarded after it is not held
    with pytest.raises(RecordError, match="deal 1, turn"):
        replay(record)
