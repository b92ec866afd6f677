"""The message catalogues: the template holds every message of the code (``make i18n`` was run), every language
has every message translated (each plural form, the same placeholders, nothing fuzzy), the language comes from
``--lang`` or the environment, and whole matches of the plain terminal game are played in Hindi and Punjabi."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from taash import i18n
from taash.i18n import LANGUAGES, LOCALE, _, language_from, ngettext, use
from taash.seep.rules import PRESETS
from taash.tables.adapter import adapter
from taash.tables.match import TableMatch
from taash.tui.plain import PlainGame
from taash.tui.rummy.plain import WORDS as RUMMY_WORDS
from taash.tui.seep.help import help_lines
from taash.tui.seep.plain import WORDS as SEEP_WORDS

ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDER = re.compile(r"\{(\w*)\}")
TRANSLATED = [lang for lang in LANGUAGES if lang != i18n.DEFAULT]
SCRIPTS = {"hi": re.compile(r"[\u0900-\u097f]"), "pa": re.compile(r"[\u0a00-\u0a7f]")}


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    use("en")


def catalog(lang: str) -> Catalog:
    path = LOCALE / lang / "LC_MESSAGES" / "taash.po" if lang != "pot" else LOCALE / "taash.pot"
    with path.open("rb") as f:
        return read_po(f, locale=None if lang == "pot" else lang)


def ids(cat: Catalog) -> set[str | tuple[str, ...]]:
    return {m.id if isinstance(m.id, str) else tuple(m.id) for m in cat if m.id}


def test_the_template_holds_every_message_of_the_code() -> None:
    """The Python code's, the browser's scripts' and its pages' (babel.cfg says where each is found)."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    found: set[str | tuple[str, ...]] = set()
    for _filename, _lineno, message, _comments, _context in extract_from_dir(ROOT / "src" / "taash", method_map,
                                                                              options_map):
        found.add(message if isinstance(message, str) else tuple(message))
    template = ids(catalog("pot"))
    assert found == template, ("run `make i18n`: the code and taash.pot differ",
                               sorted(map(str, found - template))[:5], sorted(map(str, template - found))[:5])


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(lang: str) -> None:
    cat = catalog(lang)
    assert ids(cat) == ids(catalog("pot")), f"run `make i18n`: the {lang} catalogue is not up to date"
    for message in cat:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        assert len(strings) == (1 if isinstance(message.id, str) else cat.num_plurals), message.id
        wanted = set(PLACEHOLDER.findall(message.id if isinstance(message.id, str) else message.id[-1]))
        for said in strings:
            assert said, f"{lang}: no translation of {message.id!r}"
            assert set(PLACEHOLDER.findall(said)) == wanted, (lang, message.id, said)


def test_the_language_comes_from_the_environment_as_gettext_reads_it() -> None:
    assert language_from({"LANG": "hi_IN.UTF-8"}) == "hi"
    assert language_from({"LANGUAGE": "fr:pa", "LANG": "hi_IN.UTF-8"}) == "pa"
    assert language_from({"LC_ALL": "C", "LANG": "hi_IN.UTF-8"}) == "en"
    assert language_from({"LANG": "de_DE.UTF-8"}) == "en"
    assert language_from({}) == "en"
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        use("xx")


def test_messages_and_plural_forms_in_each_language() -> None:
    use("hi")
    assert _("Your hand: {cards}.", cards="x") == "आपका हाथ: x।"
    assert ngettext("{name}: {n} card.", "{name}: {n} cards.", 1, name="Asha") == "Asha: 1 पत्ता।"
    assert ngettext("{name}: {n} card.", "{name}: {n} cards.", 5, name="Asha") == "Asha: 5 पत्ते।"
    use("pa")
    assert _("queen of {suit}", suit=_("hearts")) == "ਪਾਨ ਦੀ ਬੇਗੀ"
    use("en")
    assert ngettext("{name}: {n} card.", "{name}: {n} cards.", 5, name="Asha") == "Asha: 5 cards."


@pytest.mark.parametrize(("lang", "game"), list(itertools.product(TRANSLATED, ["seep", "rummy"])))
def test_a_whole_match_of_the_plain_game_in_each_language(lang: str, game: str) -> None:
    use(lang)
    table_game = adapter(game)
    settings = table_game.settings(2, table_game.presets[0], table_game.formats[0] if table_game.formats else 0,
                                   "medium", False)
    session = TableMatch(table_game, settings, 3, ["You", "Asha"])
    out: list[str] = []
    answers = itertools.repeat("1")
    words = SEEP_WORDS if game == "seep" else RUMMY_WORDS
    assert PlainGame(session, words, read=lambda _prompt: next(answers), write=out.append).run() == "over"
    ours = [line for line in out if not line.startswith(("Deal", "Asha", "You", "The match", "Dealt"))]
    assert ours and all(SCRIPTS[lang].search(line) for line in ours[:20]), ours[:20]
    assert SCRIPTS[lang].search(out[-1])  # the match's result, in the language


def test_the_terminal_help_in_hindi() -> None:
    use("hi")
    text = "\n".join(help_lines(PRESETS["standard"]))
    assert "कुंजियाँ" in text and "बाज़ी" in text and "बॉट के स्तर" in text


def test_the_command_takes_lang_and_refuses_another_in_one_line() -> None:
    proc = subprocess.run([sys.executable, "-m", "taash.cli", "play", "--plain", "--lang", "pa", "--players", "2"],
                          input="q\n", capture_output=True, text=True, timeout=60, env={"PYTHONIOENCODING": "utf-8",
                                                                                         "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    assert "ਤੁਸੀਂ ਮੈਚ ਛੱਡ ਦਿੱਤਾ।" in proc.stdout
    bad = subprocess.run([sys.executable, "-m", "taash.cli", "play", "--plain", "--lang", "fr"], input="",
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.strip() == "taash: --lang must be one of en, hi, pa, not 'fr'"
