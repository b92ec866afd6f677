"""The sentences a table writes (its log, what each action said, why a card is blocked, the plays offered, the
deal explained, the verdicts), said to each connection in its own language: whole matches of both games played
through the hub with a Hindi seat and spectator beside English ones. The English connections are told exactly
what they were told before (the golden transcripts pin their bytes); the Hindi ones the same sentences, each one
translated."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from taash.i18n import Said, in_language, say_in
from taash.tables.adapter import Settings, TableError
from taash.web.hub import Connection, Hub
from tests.web.test_hub import HeldStore, drain

DEVANAGARI = re.compile(r"[\u0900-\u097f]")
#: The keys under which a table's messages carry sentences (``blocked`` maps cards to them, ``legal`` holds
#: plays with their ``text``).
SENTENCES = ("said", "log", "missed", "explained", "blocked", "forced", "text")


def sentences(value: Any, key: str | None = None) -> Iterator[tuple[str, str]]:
    """Every sentence of a message, with the key it came under, in order."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "blocked" and isinstance(v, dict):
                yield from (("blocked", s) for s in v.values())
            else:
                yield from sentences(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from sentences(v, key)
    elif isinstance(value, str) and key in SENTENCES:
        yield key, value


async def whole_match(settings: Settings) -> dict[str, list[dict[str, Any]]]:
    """A match of two people whose moves a bot chooses, watched by a seat and a spectator in Hindi and in
    English: every message each connection was sent."""
    hub = Hub(HeldStore(), bot_delay=0)  # type: ignore[arg-type]
    live = await hub.create(settings, "g0")
    watchers: dict[str, Connection] = {"hi spectator": hub.join(live, None, None, "hi"),
                                       "en spectator": hub.join(live, None, None)}
    await hub.act(live, {"type": "sit", "seat": 0, "name": "Anil"}, "g0")
    await hub.act(live, {"type": "sit", "seat": 1, "name": "Bela"}, "g1")
    watchers["hi seat"] = hub.join(live, "g0", None, "hi")
    watchers["en seat"] = hub.join(live, "g1", None, "en")
    await hub.act(live, {"type": "start"}, "g0")
    moves = 0
    while (seat := live.table.to_move()) is not None:
        await hub.act(live, live.table.bot_action("easy"), f"g{seat}")
        moves += 1
        assert moves < 2000
    assert live.table.status == "finished"
    late = hub.join(live, None, live.table.version - 3, "hi")  # a resume: the actions it missed, in Hindi
    watchers["hi late"] = late
    return {label: drain(conn) for label, conn in watchers.items()}


@pytest.mark.parametrize("settings", [Settings("seep", players=2, length=0),
                                      Settings("rummy", players=2, length="points")], ids=["seep", "rummy"])
def test_a_whole_match_is_told_to_hindi_connections_in_hindi(settings: Settings) -> None:
    told = asyncio.run(whole_match(settings))
    said = {label: list(sentences(messages)) for label, messages in told.items()}
    for label in ("hi spectator", "hi seat", "hi late"):
        untranslated = [s for _key, s in said[label] if not DEVANAGARI.search(s)]
        assert not untranslated, (label, untranslated[:5])
    for label in ("en spectator", "en seat"):
        assert said[label] and not any(DEVANAGARI.search(s) for _key, s in said[label]), label
    # The spectators were told the same sentences, each translated: none left as it was in English.
    hindi, english = said["hi spectator"], said["en spectator"]
    assert [k for k, _s in hindi] == [k for k, _s in english]
    assert all(h != e for (_k, h), (_k2, e) in zip(hindi, english, strict=True))
    kinds = {k for k, _s in said["hi seat"]}
    # Seep's plays offered in words too (Rummy's blocked card: the next test).
    assert {"said", "log", "explained", *(["text"] if settings.game == "seep" else [])} <= kinds, kinds
    assert any(m["type"] == "resume" and m["missed"] for m in told["hi late"])
    # The rest of each message is the English one's: only the words differ.
    first_hi, first_en = told["hi spectator"][-1], told["en spectator"][-1]
    assert first_hi["version"] == first_en["version"]
    assert first_hi["state"]["score"].keys() == first_en["state"]["score"].keys()


def test_a_blocked_card_and_a_forced_move_are_said_in_the_seats_language() -> None:
    """Rummy's card just taken from the pile (R3) is blocked with its reason; a Seep seat's forced bid."""
    async def scenario() -> list[dict[str, Any]]:
        hub = Hub(HeldStore(), bot_delay=0)  # type: ignore[arg-type]
        live = await hub.create(Settings("rummy", players=2, length="points"), "g0")
        await hub.act(live, {"type": "sit", "seat": 0, "name": "Anil"}, "g0")
        await hub.act(live, {"type": "sit", "seat": 1, "name": "Bela"}, "g1")
        await hub.act(live, {"type": "start"}, "g0")
        seat = live.table.to_move()
        assert seat is not None
        conn = hub.join(live, f"g{seat}", None, "pa")
        await hub.act(live, {"type": "take", "from": "discard"}, f"g{seat}")
        return drain(conn)

    # The card taken is blocked unless the hand holds its twin (two decks): deal again until one is.
    blocked = next(b for _ in range(40) if (b := asyncio.run(scenario())[-1]["state"]["deal"]["blocked"]))
    (reason,) = blocked.values()
    assert "R3" in reason and re.search(r"[\u0a00-\u0a7f]", reason), reason  # Gurmukhi


def test_a_sentence_is_said_again_in_any_language_with_its_values() -> None:
    from taash.i18n import _, ngettext

    line = _("{name}: {play}", name="Anil", play=_("Throw {card}", card="7♠"))
    assert line == "Anil: Throw 7♠" and isinstance(line, Said)
    assert line.in_("hi") == "Anil: 7♠ फेंकें"
    counted = ngettext("{play}: +{n} point", "{play}: +{n} points", 3, play=line)
    assert counted.in_("pa") == "Anil: 7♠ ਸੁੱਟੋ: +3 ਅੰਕ"
    state = {"log": [line], "deal": {"hand": ["7s"]}}
    assert in_language("hi", state) == {"log": ["Anil: 7♠ फेंकें"], "deal": {"hand": ["7s"]}}
    assert in_language("hi", state)["deal"] is state["deal"]  # what holds no sentence is shared, not copied
    assert json.dumps(state) == '{"log": ["Anil: Throw 7\\u2660"], "deal": {"hand": ["7s"]}}'


def test_a_refusal_with_values_is_said_in_the_language_asked() -> None:
    """A table's refusal with a value in it (a bid not allowed) keeps its message and values, so a socket
    answers it in its reader's language (:func:`say_in`), not as English."""
    from taash.i18n import said_of
    from taash.tables.adapter import adapter
    from taash.tables.match import TableMatch

    game = adapter("seep")
    session = TableMatch(game, game.settings(2, "standard", 0, "medium", True), 5, ["Anil", "Bela"])
    with pytest.raises(TableError) as refused:
        session.move(None, {"type": "bid", "value": 4})
    english = str(refused.value)
    assert english.startswith("you cannot bid 4 (you may bid [")
    hindi = say_in("hi", said_of(refused.value))
    assert DEVANAGARI.search(hindi) and "4" in hindi and hindi != english


def test_refusals_with_numbers_keep_them_in_the_language_asked() -> None:
    """A chat line too long, too many lines, a full tournament: each refusal's number inside its translation."""
    from taash.i18n import _, said_of
    from taash.web.chat.room import MAX_TEXT, ChatError, RateLimit, read_said

    with pytest.raises(ChatError) as long:
        read_said({"text": "x" * (MAX_TEXT + 1)})
    assert str(long.value) == f"a chat message may be at most {MAX_TEXT} characters"
    hindi = say_in("hi", said_of(long.value))
    assert DEVANAGARI.search(hindi) and str(MAX_TEXT) in hindi
    rate = RateLimit(lambda: 0.0, count=1, seconds=2.5)
    rate.spend("g0")
    with pytest.raises(ChatError) as busy:
        rate.spend("g0")
    assert str(busy.value) == "at most 1 chat messages in 2.5 seconds: wait a little"
    assert re.search(r"[\u0a00-\u0a7f]", punjabi := say_in("pa", said_of(busy.value))) and "2.5" in punjabi
    full = _("the tournament is full ({n} entrants)", n=8)
    assert full == "the tournament is full (8 entrants)" and "8" in full.in_("hi") and DEVANAGARI.search(full.in_("hi"))


def test_the_games_labels_and_a_tables_whole_log_in_the_language_asked(tmp_path: Any) -> None:
    from fastapi.testclient import TestClient

    from taash.web.app import ServerConfig, create_app

    app = create_app(ServerConfig(database_url=f"sqlite:///{tmp_path / 'taash.db'}", bot_delay=0))
    with TestClient(app) as client:
        english = {g["name"]: g for g in client.get("/api/games").json()}
        assert [4, "4 (two teams)"] in english["seep"]["players"]
        assert english["seep"]["level_words"]["easy"] == "plays at random"
        for asked in ({"headers": {"Accept-Language": "hi-IN,hi;q=0.9"}}, {"params": {"lang": "hi"}}):
            hindi = {g["name"]: g for g in client.get("/api/games", **asked).json()}
            assert [4, say_in("hi", "4 (two teams)")] in hindi["seep"]["players"]
            assert all(DEVANAGARI.search(words) for g in hindi.values() for words in g["level_words"].values())
            assert hindi["seep"]["rules"] == english["seep"]["rules"]  # names the code reads stay as they are
        assert client.post("/api/guest", json={"name": "Asha"}).status_code == 200
        made = client.post("/api/tables", json={"players": 2, "baazis": 0, "level": "easy", "seat": 0}).json()
        for step in ("bots", "start"):
            assert client.post(f"/api/tables/{made['id']}/{step}").status_code == 200
        log = client.get(f"/api/tables/{made['id']}/log").json()["log"]
        hindi_log = client.get(f"/api/tables/{made['id']}/log", headers={"Accept-Language": "hi"}).json()["log"]
        # A pack the rules deal again comes first ("Dealt again: the bidder's first four cards hold no card above 8")
        assert any(line.startswith("Deal 1: ") for line in log) and len(hindi_log) >= len(log)  # bots move on
        assert not any("cards hold" in line for line in hindi_log), hindi_log  # the redeal's reason too
        assert all(DEVANAGARI.search(line) for line in hindi_log), hindi_log
