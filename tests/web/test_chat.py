"""The chat in-process: what a message may say, the rate on a fake clock, the word filter, the one predicate every
line passes through, the channels of a table (players, watchers; nothing for a private table's watchers), the bots'
answers to emotes, and the lines, settings and reports kept in the database (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from taash.tables.adapter import Settings
from taash.web.chat import PLAYERS, WATCHERS, BotAnswers, Chat, ChatError, Said, Speaker, answer_chat, send_history
from taash.web.chat.phrases import EMOTES, PHRASES, catalogue
from taash.web.chat.reports import reports
from taash.web.chat.room import MAX_TEXT, RateLimit, read_said
from taash.web.chat.words import DEVANAGARI_LIST, censor, compile_words, devanagari_words
from taash.web.db import make_engine, migrate
from taash.web.hub import Connection, FakeClock, Hub, Live
from taash.web.store import Store
from tests.web.server import POSTGRES, migrated_sqlite
from tests.web.test_hub import drain

DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
    not POSTGRES, reason="TAASH_TEST_POSTGRES_URL is not set (the CI script sets it)"))]


# -- what a message may say --------------------------------------------------------------------------------------


def test_a_message_says_one_text_phrase_or_emote_and_a_text_is_at_most_200_characters() -> None:
    assert read_said({"type": "chat", "text": "  well   played\n"}) == Said("text", "well played")
    assert read_said({"type": "chat", "phrase": "good_game"}) == Said("phrase", "good_game")
    assert read_said({"type": "chat", "emote": "clap"}) == Said("emote", "clap")
    assert read_said({"text": "x" * MAX_TEXT}).body == "x" * MAX_TEXT
    for bad, code in [({"text": "x" * (MAX_TEXT + 1)}, "chat_too_long"), ({"text": " \t\n"}, "chat_empty"),
                      ({"text": 5}, "malformed"), ({"phrase": "insult"}, "malformed"), ({"emote": "<b>"}, "malformed"),
                      ({"text": "hi", "emote": "clap"}, "malformed"), ({}, "malformed")]:
        with pytest.raises(ChatError) as refused:
            read_said(bad)
        assert refused.value.code == code and "\n" not in str(refused.value)
    assert read_said({"text": "a\x00b\u2028c"}).body == "a b c"  # control characters never reach a listener


def test_five_lines_in_ten_seconds_and_a_refused_one_counts_nothing() -> None:
    now = [0.0]
    limit = RateLimit(lambda: now[0])
    for second in range(5):
        now[0] = float(second)
        limit.spend("asha")
    with pytest.raises(ChatError, match="at most 5 chat messages in 10 seconds") as refused:
        limit.spend("asha")
    assert refused.value.code == "chat_rate"
    limit.spend("bela")  # another person is counted apart
    now[0] = 9.9
    with pytest.raises(ChatError):
        limit.spend("asha")
    now[0] = 10.0  # the first line (at 0 s) is 10 s old: one more may go, then the window is full again
    limit.spend("asha")
    with pytest.raises(ChatError):
        limit.spend("asha")


def test_the_word_filter_stars_english_and_hindi_words_from_the_library_and_leaves_the_rest() -> None:
    assert censor("Shit, well played") == "****, well played"
    assert censor("kya gandu hai") == "kya ***** hai"  # from the library's Hindi list
    clean = "Scunthorpe class assistant <img src=x onerror=alert(1)>"
    assert censor(clean) == clean  # a word inside another is not one; markup is the browser's to escape
    assert censor("a bad-word, badly", compile_words(["bad word", "bad"])) == "a ***-****, badly"
    assert censor("oh sh!t 🖕", compile_words(["sh!t", "🖕"])) == "oh **!* *"  # words written with signs too


@pytest.mark.skipif(not DEVANAGARI_LIST.exists(), reason="node_modules/allprofanity is missing (make venv needs npm)")
def test_the_word_filter_stars_hindi_written_in_devanagari_from_the_npm_package() -> None:
    assert "चूतिया" in devanagari_words() and len(devanagari_words()) > 100
    # every sign of the word starred (its vowel signs too), the words around it and the danda kept
    assert censor("अरे चूतिया है तू। अच्छा खेला") == "अरे ****** है तू। अच्छा खेला"
    assert censor("तेरी माँ की बात") == "**** *** ** बात"  # a listed phrase of three words, the longest wins
    composed, decomposed = "भड़वा", "भड\u093cवा"  # ड़ as one letter or as ड and its nukta: the same word
    assert censor(composed) == "*" * len(composed) and censor(decomposed) == "*" * len(decomposed)
    assert censor("खेलचूतियाखेल") == "खेलचूतियाखेल"  # inside another word it is not one


def test_only_the_devanagari_words_of_the_package_list_are_read_and_a_missing_list_leaves_the_others(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    source = tmp_path / "hindi-words.js"
    source.write_text('// a comment [with brackets]\nconst hindiBadWords = [\n  "gandu", // roman\n  "शब्द एक",'
                      ' "say \\"हाँ\\"",\n];\nexport default hindiBadWords;\n', encoding="utf-8")
    assert devanagari_words(source) == ["शब्द एक", 'say "हाँ"']
    assert devanagari_words(tmp_path / "missing.js") == []
    assert "make venv" in caplog.text


def test_every_phrase_and_emote_has_its_words_in_every_language() -> None:
    english = catalogue("en")
    assert [p["id"] for p in english["phrases"]] == list(PHRASES)
    assert [e["id"] for e in english["emotes"]] == list(EMOTES)
    for lang in ("hi", "pa"):
        other = catalogue(lang)
        for kind in ("phrases", "emotes"):
            for mine, theirs in zip(english[kind], other[kind], strict=True):
                assert mine["id"] == theirs["id"] and theirs["words"] and theirs["words"] != mine["words"], theirs
    assert catalogue("xx") == english


def test_one_predicate_says_who_hears_whom_and_a_block_list_plugs_into_it() -> None:
    chat = Chat(None, FakeClock())  # type: ignore[arg-type]
    assert chat.may_hear("a", "b") and chat.may_hear(None, "b") and chat.may_hear("a", None)
    chat.blocked = lambda listener, speaker: (listener, speaker) == ("a", "b")
    assert not chat.may_hear("a", "b") and chat.may_hear("b", "a") and chat.may_hear("b", "b")


# -- a table's channels, in-process ------------------------------------------------------------------------------


class Scene:
    """A hub, its chat and a two-seat table on a fake clock, with connections that record what they are sent."""

    def __init__(self, store: Store, public: bool = True, bot: bool = False):
        self.clock = FakeClock()
        self.hub = Hub(store, bot_delay=0, clock=self.clock)
        self.chat = Chat(store, self.clock)
        self.bots = BotAnswers(self.clock.monotonic)
        self.public, self.bot = public, bot
        self.names = {"w1": "Watcher", "w2": "Other watcher"}

    async def table(self) -> Live:
        live = await self.hub.create(Settings(players=2, length=0, public=self.public), "g0")
        await self.hub.act(live, {"type": "sit", "seat": 0, "name": "Anil"}, "g0")
        if self.bot:
            await self.hub.act(live, {"type": "bots"}, "g0")
        else:
            await self.hub.act(live, {"type": "sit", "seat": 1, "name": "Bela"}, "g1")
        await self.hub.act(live, {"type": "start"}, "g0")
        return live

    def join(self, live: Live, guest: str | None) -> Connection:
        conn = self.hub.join(live, guest, None)
        drain(conn)
        return conn

    async def say(self, live: Live, conn: Connection, **message: Any) -> None:
        await answer_chat(self.chat, self.bots, live, conn, {"type": "chat", **message}, self.names.get)


def chats(conn: Connection) -> list[dict[str, Any]]:
    return [m for m in drain(conn) if m["type"] in ("chat", "chat_history", "chat_filter")]


def test_players_and_watchers_talk_apart_and_nothing_else_changes(database: str) -> None:
    async def run() -> None:
        engine = make_engine(database)  # migrated already (the ``database`` fixture)
        store = Store(engine)
        scene = Scene(store)
        live = await scene.table()
        anil, bela, w1, w2 = (scene.join(live, g) for g in ("g0", "g1", "w1", "w2"))
        version = live.table.version
        before = {c.guest: scene.hub.message_for(live, c.seat, "snapshot", c.guest) for c in (anil, w1)}
        await scene.say(live, anil, text="<img src=x onerror=alert(1)>")
        heard = chats(bela)
        assert [(m["name"], m["seat"], m["channel"], m["text"]) for m in heard] == [
            ("Anil", 0, PLAYERS, "<img src=x onerror=alert(1)>")]  # as typed: the page shows it as text
        assert chats(anil) == heard and chats(w1) == [] and chats(w2) == []
        await scene.say(live, w1, emote="wow")
        assert chats(anil) == [] and chats(bela) == []
        assert [(m["name"], m["seat"], m["channel"], m["emote"]) for m in chats(w2)] == [
            ("Watcher", None, WATCHERS, "wow")]
        # Chat is no move: the table's version, and what every seat may see, are as they were.
        assert live.table.version == version
        assert {c.guest: scene.hub.message_for(live, c.seat, "snapshot", c.guest) for c in (anil, w1)} == before
        assert all("state" not in m for m in drain(bela))
        store.close()

    asyncio.run(run())


def test_a_private_table_s_watchers_hear_nothing_and_cannot_speak(tmp_path: Path) -> None:
    async def run() -> None:
        engine = make_engine(migrated_sqlite(tmp_path, "p.db"))
        store = Store(engine)
        scene = Scene(store, public=False)
        live = await scene.table()
        anil, owner_watching = scene.join(live, "g0"), Connection("w1", None)
        live.connections.add(owner_watching)  # as if let in before the start (its socket is closed then)
        await scene.say(live, anil, phrase="good_luck")
        assert chats(owner_watching) == []
        with pytest.raises(ChatError, match="its watchers cannot chat"):
            await scene.say(live, owner_watching, text="hello")
        await send_history(scene.chat, live, owner_watching)
        assert drain(owner_watching) == []
        store.close()

    asyncio.run(run())


def test_a_line_reaches_nobody_who_blocked_its_speaker(tmp_path: Path) -> None:
    async def run() -> None:
        engine = make_engine(migrated_sqlite(tmp_path, "b.db"))
        store = Store(engine)
        scene = Scene(store)
        scene.chat.blocked = lambda listener, speaker: (listener, speaker) == ("g1", "g0")
        live = await scene.table()
        anil, bela = scene.join(live, "g0"), scene.join(live, "g1")
        await scene.say(live, anil, text="hello")
        await scene.say(live, bela, text="hi")
        assert [m["text"] for m in chats(anil)] == ["hello", "hi"]
        assert [m["text"] for m in chats(bela)] == ["hi"]
        late = scene.join(live, "g1")  # and not in the lines sent to whoever joins
        await send_history(scene.chat, live, late)
        assert [m["text"] for m in chats(late)[0]["lines"]] == ["hi"]
        store.close()

    asyncio.run(run())


def test_bots_answer_emotes_sparingly_and_never_chat_otherwise(tmp_path: Path) -> None:
    async def run() -> list[tuple[float, str]]:
        engine = make_engine(migrated_sqlite(tmp_path, "bots.db"))
        store = Store(engine)
        scene = Scene(store, bot=True)
        scene.chat.limits.count = 1000
        # The table's id is random, and so would be its bots' dice: about one table in a thousand answers at each of
        # its ten chances. A seed of our own makes the run the same every time.
        scene.bots.seeded = lambda key: random.Random("a table of the test")
        live = await scene.table()
        anil = scene.join(live, "g0")
        answers: list[tuple[float, str]] = []
        for second in range(0, 200, 2):
            await scene.say(live, anil, text="hello there")
            await scene.say(live, anil, phrase="well_played")
            await scene.say(live, anil, emote="clap")
            for m in chats(anil):
                if m.get("bot"):
                    assert m["seat"] == 1 and m["from"] is None and set(m) >= {"emote"} and "text" not in m
                    answers.append((second, m["emote"]))
            scene.clock.advance(2)
        store.close()
        return answers

    answers = asyncio.run(run())
    assert answers and all(emote == "namaste" for _, emote in answers)  # the answer to a clap
    gaps = [b - a for (a, _), (b, _) in itertools.pairwise(answers)]
    assert min(gaps) >= 20 and max(gaps) > 20  # never within 20 s, and not at every chance: sparingly


def test_the_bots_answers_are_the_same_for_the_same_table() -> None:
    bots = [BotAnswers(lambda: 0.0) for _ in range(2)]

    seats = [SimpleNamespace(bot=False, name="A"), SimpleNamespace(bot=True, name="Bot")]
    live: Any = SimpleNamespace(table=SimpleNamespace(id="t", seats=seats))
    from taash.web.chat.room import ChatLine

    def answers(b: BotAnswers) -> list[object]:
        out = []
        for i in range(50):
            b.clock = lambda i=i: i * 30.0  # type: ignore[misc]
            line = ChatLine(str(i), "table:t", PLAYERS, Speaker("g0", "A", 0), Said("emote", "smile"), 0.0)
            out.append(b.answer(live, line))
        return out

    first, second = answers(bots[0]), answers(bots[1])
    assert first == second and any(a is None for a in first) and any(a is not None for a in first)


# -- kept in the database ----------------------------------------------------------------------------------------


def test_lines_settings_and_reports_are_kept_and_read_back_after_a_restart(database: str) -> None:
    engine = make_engine(database)  # migrated already (the ``database`` fixture)

    async def before() -> tuple[str, str]:
        store = Store(engine)
        clock = FakeClock()
        chat = Chat(store, clock)
        await chat.set_filter("table:abc", False)
        first = await chat.say("table:abc", PLAYERS, Speaker("g0", "Anil", 0), Said("text", "shit happens"))
        clock.advance(1)
        second = await chat.say("table:abc", WATCHERS, Speaker("w1", "Wu", None), Said("emote", "clap"))
        clock.advance(1)
        assert await chat.report(first, "g1") and not await chat.report(first, "g1")
        clock.advance(1)
        assert await chat.report(second, "w2")
        return first.id, second.id

    first, second = asyncio.run(before())
    store = Store(engine)

    async def after() -> None:
        chat = Chat(store, FakeClock())
        room = await chat.room("table:abc")
        assert not room.filter_on
        assert [(line.id, line.said.body) for line in room.recent] == [(first, "shit happens"), (second, "clap")]
        assert [line.id for line in chat.lines("table:abc", PLAYERS)] == [first]
        on = await chat.say("table:xyz", PLAYERS, Speaker("g0", "Anil", 0), Said("text", "shit"))
        assert on.said.body == "****"  # another room: its filter is on

    asyncio.run(after())
    found = reports(engine)
    assert [(r.line, r.table, r.speaker_name, r.text, r.reporter) for r in found] == [
        (second, "abc", "Wu", "[emote] 👏 claps", "w2"), (first, "abc", "Anil", "shit happens", "g1")]
    assert json.dumps([r.as_dict() for r in found])
    store.close()


def test_the_chat_migration_goes_up_and_down(database: str) -> None:
    from sqlalchemy import inspect

    from tests.web.test_migrations import downgrade

    chat_tables = {"chat_lines", "chat_rooms", "chat_reports"}
    engine = make_engine(database)
    migrate(engine)
    assert chat_tables <= set(inspect(engine).get_table_names())
    engine.dispose()
    downgrade(database, "0015_social")
    engine = make_engine(database)
    assert not chat_tables & set(inspect(engine).get_table_names())
    migrate(engine)
    assert chat_tables <= set(inspect(engine).get_table_names())
    engine.dispose()


def test_taash_admin_reports_lists_them_newest_first_and_a_bad_database_is_one_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from taash.cli.main import app

    url = migrated_sqlite(tmp_path, "r.db")
    engine = make_engine(url)
    runner = CliRunner()
    empty = runner.invoke(app, ["admin", "reports", "--database-url", url])
    assert empty.exit_code == 0 and "nobody has reported a chat line" in empty.output

    async def said() -> None:
        store = Store(engine)
        clock = FakeClock()
        chat = Chat(store, clock)
        for text in ("[bold]first[/bold]", "second"):
            line = await chat.say("table:0123456789abcdef", PLAYERS, Speaker("g0", "Anil", 0), Said("text", text))
            await chat.report(line, "g1")
            clock.advance(60)

    asyncio.run(said())
    shown = runner.invoke(app, ["admin", "reports", "--database-url", url], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    out = shown.output
    assert "0123456789abcdef" in out and "Anil" in out and "[bold]first[/bold]" in out  # never read as markup
    assert out.index("second") < out.index("[bold]first")  # newest first
    missing = runner.invoke(app, ["admin", "reports", "--database-url", f"sqlite:///{tmp_path / 'none.db'}"])
    assert missing.exit_code == 2 and "there is no database at" in missing.output
    assert "Traceback" not in missing.output


def test_a_line_the_database_refuses_is_told_to_nobody(tmp_path: Path) -> None:
    from sqlalchemy.exc import OperationalError

    async def run() -> None:
        engine = make_engine(migrated_sqlite(tmp_path, "f.db"))
        store = Store(engine)
        scene = Scene(store)
        live = await scene.table()
        anil, bela = scene.join(live, "g0"), scene.join(live, "g1")
        real_write = store.write

        async def failing(work: Any) -> None:
            raise OperationalError("INSERT", {}, Exception("disk full"))

        store.write = failing  # type: ignore[method-assign]
        with pytest.raises(OperationalError):
            await scene.say(live, anil, text="lost")
        store.write = real_write  # type: ignore[method-assign]
        assert chats(anil) == [] and chats(bela) == []
        assert [line.said.body for line in (await scene.chat.room("table:" + live.table.id)).recent] == []
        store.close()

    asyncio.run(run())
