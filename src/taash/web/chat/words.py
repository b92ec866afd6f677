"""The chat's word filter: the English and Hindi (romanised) word lists of the maintained ``anti-profanity``
package (https://github.com/MeeRazi/anti-profanity), and Hindi in its own script (Devanagari) from the Hindi list of
the maintained npm package ``allprofanity`` (https://github.com/ayush-jadaun/AllProfanity; ``make venv`` installs
it into node_modules/ as package-lock.json pins it: no PyPI package carries Devanagari words that are not machine
translations of English ones). They are read here word by word: a message's words are looked up in a
set, alone and in runs as long as a listed phrase goes on, and the few listed words written with signs (``sh!t``)
in one small pattern. The package itself tries its six hundred words one regular expression at a time, some
hundreds of times slower (0.26 ms against 144 ms for a line of 200 characters, on a loaded machine). Each word
found is starred out letter for letter; what is left reads as it was written."""

from __future__ import annotations

import json
import logging
import os
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

#: The package's languages the filter takes (its Bengali list is a handful of words: left out).
LANGUAGES = ("en", "hi")
#: A word: letters and digits, and the vowel signs, nasal marks and virama that Devanagari writes within a word
#: (Python's ``\w`` leaves those out, which would cut ``चूतिया`` at each sign); the dandas (।, ॥) end it.
_WORD = re.compile(r"[\w\u0900-\u0963\u0966-\u097f\u200c\u200d]+")
#: The Hindi list of the npm package ``allprofanity`` (Devanagari and romanised words in one JavaScript array).
DEVANAGARI_LIST = Path(os.environ.get("TAASH_ALLPROFANITY_DIR")
                       or Path(__file__).parents[4] / "node_modules" / "allprofanity") / "dist/languages/hindi-words.js"
_DEVANAGARI = re.compile(r"[\u0900-\u097f]")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_log = logging.getLogger(__name__)


def word_lists() -> list[str]:
    """Every word or phrase of the package's lists for :data:`LANGUAGES`, and the Devanagari ones of
    :data:`DEVANAGARI_LIST` (none, with a warning, where npm did not install it)."""
    from anti_profanity.data import EnglishProfanity, HindiProfanity

    return [*EnglishProfanity, *HindiProfanity, *devanagari_words()]


def devanagari_words(source: Path = DEVANAGARI_LIST) -> list[str]:
    """The words and phrases in Devanagari of ``allprofanity``'s Hindi list (its romanised ones are left to
    ``anti-profanity``'s list), read from the array's string literals."""
    try:
        text = source.read_text(encoding="utf-8")
    except OSError:
        _log.warning("the chat's Devanagari word list is missing (%s): run `make venv` (needs npm)", source)
        return []
    array = text[text.index("["):text.rindex("]")]
    return [word for word in (json.loads(s) for s in _STRING.findall(array)) if _DEVANAGARI.search(word)]


def _key(text: str) -> str:
    """How words are compared: lower case, and the same letters however they were composed (क़ is क and ़)."""
    return unicodedata.normalize("NFC", text.lower())


@dataclass(frozen=True, slots=True)
class Words:
    """Listed words and phrases of letters alone (lower case, words one space apart), the beginnings of the
    phrases of several words (to stop looking as soon as no phrase goes on so), and a pattern for those written
    with other signs (None: there are none)."""

    phrases: frozenset[str]
    beginnings: frozenset[str]
    signs: re.Pattern[str] | None


def compile_words(words: Iterable[str]) -> Words:
    plain: set[str] = set()
    signed: set[str] = set()
    for word in words:
        cleaned = " ".join(_key(word).split())
        if not cleaned:
            continue
        (plain if all(_WORD.fullmatch(part) for part in cleaned.split()) else signed).add(cleaned)
    signs = None
    if signed:
        ordered = sorted(signed, key=lambda w: (-len(w), w))
        signs = re.compile(rf"(?<!\w)(?:{'|'.join(re.escape(w) for w in ordered)})(?!\w)", re.IGNORECASE)
    beginnings = {" ".join(p.split()[:n]) for p in plain for n in range(1, len(p.split()))}
    return Words(frozenset(plain), frozenset(beginnings), signs)


@cache
def default_words() -> Words:
    return compile_words(word_lists())


def _lettered(ch: str) -> bool:
    """A letter or digit, or a sign written on one (a Devanagari vowel sign, virama or nasal mark)."""
    return ch.isalnum() or unicodedata.category(ch).startswith("M")


def _stars(text: str) -> str:
    """Letters and digits starred, signs kept (``**!*``); a word of signs alone (an emoji) starred whole."""
    if not any(_lettered(ch) for ch in text):
        return "*" * len(text)
    return "".join("*" if _lettered(ch) else ch for ch in text)


def censor(text: str, words: Words | None = None) -> str:
    """``text`` with every listed word or phrase starred out (a phrase's words may be apart by any signs).

    >>> censor("Shit, well played")
    '****, well played'
    """
    words = words or default_words()
    found = [(m.start(), m.end(), _key(m.group())) for m in _WORD.finditer(text)]
    spans: list[tuple[int, int]] = []
    for i, (start, _, first) in enumerate(found):
        phrase, n, end = first, 1, None
        while True:  # the longest phrase from here wins: go on while a listed one begins so
            if phrase in words.phrases:
                end = found[i + n - 1][1]
            if phrase not in words.beginnings or i + n >= len(found):
                break
            phrase = f"{phrase} {found[i + n][2]}"
            n += 1
        if end is not None:
            spans.append((start, end))
    if words.signs is not None:
        spans.extend(m.span() for m in words.signs.finditer(text))
    if not spans:
        return text
    out = list(text)
    for start, end in spans:
        out[start:end] = _stars(text[start:end])
    return "".join(out)
