"""The chat's word filter: the English and Hindi (romanised) word lists of the maintained ``anti-profanity``
package (https://github.com/MeeRazi/anti-profanity), compiled here into one pattern so that a message is read once,
whatever the lists' length (the package itself tries its words one regular expression at a time, some hundred
times slower). Each word found is starred out letter for letter; what is left reads as it was written."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

#: The package's languages the filter takes (its Bengali list is a handful of words: left out).
LANGUAGES = ("en", "hi")


def word_lists() -> list[str]:
    """Every word or phrase of the package's lists for :data:`LANGUAGES`."""
    from anti_profanity.data import EnglishProfanity, HindiProfanity

    return [*EnglishProfanity, *HindiProfanity]


def compile_words(words: Iterable[str]) -> re.Pattern[str]:
    """One pattern matching any of ``words`` as a whole word (not inside a longer one), in any case; longer
    phrases first, so that a phrase wins over a word inside it."""
    unique = sorted({w.strip().lower() for w in words if w.strip()}, key=lambda w: (-len(w), w))
    alternatives = "|".join(re.escape(w) for w in unique)
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


@cache
def default_pattern() -> re.Pattern[str]:
    return compile_words(word_lists())


def starred(match: re.Match[str]) -> str:
    return "".join("*" if ch.isalnum() else ch for ch in match.group(0))


def censor(text: str, pattern: re.Pattern[str] | None = None) -> str:
    """``text`` with every listed word starred out.

    >>> censor("Shit, well played")
    '****, well played'
    """
    return (pattern or default_pattern()).sub(starred, text)
