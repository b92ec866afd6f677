"""The languages taash speaks: English (the source), Hindi and Punjabi (Gurmukhi), through gettext catalogues
kept with Babel.

Every sentence a player reads is one message of the catalogue, with named placeholders (``_("Your hand: {cards}.",
cards=...)``), never assembled from translated fragments, and counted sentences go through :func:`ngettext` so each
language gets its own plural forms. The catalogues are ``locale/<lang>/LC_MESSAGES/taash.po`` beside this module,
made from ``locale/taash.pot`` (``make i18n`` extracts the messages from the code and updates them); they are read
when first asked for. English needs no catalogue: its messages are the code's own.

A process speaks one language at a time (:func:`use`); the terminal game chooses it from ``--lang`` or from the
``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG`` environment, as gettext does.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from gettext import NullTranslations
from pathlib import Path
from typing import Any

LOCALE = Path(__file__).parent / "locale"
DOMAIN = "taash"
#: The languages, by code, each named in itself.
LANGUAGES: dict[str, str] = {"en": "English", "hi": "हिन्दी", "pa": "ਪੰਜਾਬੀ"}
DEFAULT = "en"
_current = DEFAULT
#: The language of the request being answered (a server speaks to each person in his own), over the process's.
_asked: ContextVar[str | None] = ContextVar("taash_language", default=None)


def language_from(environ: Mapping[str, str] = os.environ) -> str:
    """The first of our languages the environment asks for (``LANGUAGE`` may list several: ``pa:hi``), else
    English; ``C`` and ``POSIX`` mean English."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        for wanted in value.split(":"):
            code = wanted.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
        if value:
            return DEFAULT
    return DEFAULT


@cache
def translations(lang: str) -> NullTranslations:
    """The catalogue of ``lang`` (English: the messages as written)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang[:20]!r} (known: {', '.join(LANGUAGES)})")
    if lang == DEFAULT:
        return NullTranslations()
    # Babel only where a catalogue is read: English needs none (the offline engine in the browser has no Babel).
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    with (LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(fp=compiled, domain=DOMAIN)


def use(lang: str) -> None:
    """Speak ``lang`` from now on (``ValueError`` for a language we do not have)."""
    global _current
    translations(lang)
    _current = lang


def current() -> str:
    """The language spoken now: the request's (:func:`speaking`), else the process's (:func:`use`)."""
    return _asked.get() or _current


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside the block only, in this context (a request, and the threads and tasks it starts):
    the web server answers a learn page or the coach in the language its client asked for."""
    translations(lang)
    token = _asked.set(lang)
    try:
        yield
    finally:
        _asked.reset(token)


class Said(str):
    """A sentence said in the language spoken when it was made (it *is* that string), that remembers its message
    and values, so that it can be said again in another language (:meth:`in_`): a server writes its log lines,
    verdicts and reasons once, and each connection reads them in its own language. Its values may be sentences
    too (a play inside a log line), each said again in the same language. What is made from it (``+``,
    ``format``) is a plain string, said in one language only."""

    message: str
    plural: str | None
    n: int | None
    values: dict[str, Any]
    #: The language it was said in.
    lang: str
    #: The message's context, where one English word says two things (``"count"``: "nine" turns, not the card).
    context: str | None

    def __new__(cls, message: str, values: dict[str, Any], plural: str | None = None, n: int | None = None,
                lang: str | None = None, context: str | None = None) -> Said:
        lang = lang or current()
        said = super().__new__(cls, _render(lang, message, values, plural, n, context))
        said.message, said.values, said.plural, said.n, said.lang = message, values, plural, n, lang
        said.context = context
        return said

    def in_(self, lang: str) -> str:
        """The sentence in ``lang`` (a message its catalogue lacks stays English)."""
        return _render(lang, self.message, self.values, self.plural, self.n, self.context)

    def __reduce__(self) -> tuple[Any, ...]:
        return Said, (self.message, self.values, self.plural, self.n, self.lang, self.context)


def _render(lang: str, message: str, values: Mapping[str, Any], plural: str | None, n: int | None,
            context: str | None = None) -> str:
    catalogue = translations(lang)
    if context is not None:
        return catalogue.pgettext(context, message)
    if plural is not None:
        assert n is not None
        return catalogue.ngettext(message, plural, n).format(n=n, **_values_in(lang, values))
    said = catalogue.gettext(message)
    return said.format(**_values_in(lang, values)) if values else said


def _values_in(lang: str, values: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v.in_(lang) if isinstance(v, Said) else v for k, v in values.items()}


def in_language(lang: str, value: Any) -> Any:
    """``value`` (a JSON value: a state, a message) with every :class:`Said` in it said in ``lang``; what holds
    none is returned as it is, so what every language shares is never copied."""
    if isinstance(value, Said):
        return value.in_(lang)
    if isinstance(value, dict):
        said = {k: in_language(lang, v) for k, v in value.items()}
        return said if any(said[k] is not v for k, v in value.items()) else value
    if isinstance(value, list):
        told = [in_language(lang, v) for v in value]
        return told if any(a is not b for a, b in zip(told, value, strict=True)) else value
    return value


def _(message: str, /, **values: Any) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled with ``values`` (a :class:`Said`, which
    can be said again in another language)."""
    return Said(message, values)


def ngettext(singular: str, plural: str, n: int, /, **values: Any) -> str:
    """The sentence for ``n`` things in the current language (``n`` is also the placeholder ``{n}``; a
    :class:`Said`)."""
    return Said(singular, values, plural, n)


def pgettext(context: str, message: str, /) -> str:
    """A word (no placeholders) in the current language, in ``context`` where English uses one word for two
    things: ``pgettext("count", "nine")`` is not the card (a :class:`Said`)."""
    return Said(message, {}, context=context)


def number_word(n: int) -> str:
    """``n`` in a word ("three" turns), in the language spoken; from eleven on, in figures."""
    words = (pgettext("count", "no"), pgettext("count", "one"), pgettext("count", "two"), pgettext("count", "three"),
             pgettext("count", "four"), pgettext("count", "five"), pgettext("count", "six"),
             pgettext("count", "seven"), pgettext("count", "eight"), pgettext("count", "nine"),
             pgettext("count", "ten"))
    return words[n] if 0 <= n < len(words) else str(n)


def N_(message: str) -> str:
    """Marks a message for the catalogue where it is written, to be translated where it is used."""
    return message


def say_in(lang: str, message: str, /, **values: Any) -> str:
    """``message`` in ``lang`` whatever the process speaks (a server answering each person in his own), its
    ``{placeholders}`` filled with ``values``; a message the catalogue lacks stays English. A :class:`Said` is said
    again in ``lang``, its own values kept."""
    if isinstance(message, Said):
        return message.in_(lang)
    said = translations(lang).gettext(message)
    return said.format(**values) if values else said


def said_of(error: BaseException) -> str:
    """What an error says (its first argument: a message of the catalogue, or a :class:`Said`), to be said in
    each reader's language by :func:`say_in`."""
    first = error.args[0] if error.args else ""
    if isinstance(first, Said):
        return first
    return Said(first if isinstance(first, str) else str(error), {})


def best_language(accept_language: str | None) -> str:
    """The first of our languages an HTTP ``Accept-Language`` header (or a plain code: ``hi``, ``pa-IN``) asks for,
    by its weights; English when it names none of ours.

    >>> best_language("fr-FR,pa;q=0.8,hi;q=0.9")
    'hi'
    >>> best_language(None)
    'en'
    """
    ranked: list[tuple[float, int, str]] = []
    for i, item in enumerate((accept_language or "")[:500].split(",")):
        code, _sep, params = item.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        base = code.strip().split("-")[0].split("_")[0].lower()
        if base in LANGUAGES and weight > 0:
            ranked.append((-weight, i, base))
    return min(ranked)[2] if ranked else DEFAULT


@cache
def client_catalogue(lang: str) -> dict[str, Any]:
    """What the browser needs to speak ``lang`` (GET /api/i18n/{lang}): its code, every language we have, the .po's
    plural rule, and its messages (a string, or a list of plural forms under the singular); made from the same .po
    files as the server's, so there is no second copy to keep. Untranslated messages are left out (English stays)."""
    messages: dict[str, str | list[str]] = {}
    plural = "(n != 1)"
    if lang != DEFAULT:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang[:20]!r} (known: {', '.join(LANGUAGES)})")
        from babel.messages.pofile import read_po  # Babel only where a catalogue is read (see translations)

        with (LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
            catalog = read_po(f, locale=lang, domain=DOMAIN)
        plural = catalog.plural_expr
        for message in catalog:
            if not message.id or message.fuzzy or message.context:  # the browser's words need no context
                continue
            if isinstance(message.id, str):
                if message.string:
                    messages[message.id] = str(message.string)
            elif isinstance(message.string, (tuple, list)):
                forms = [str(s) for s in message.string]
                if all(forms):
                    messages[message.id[0]] = forms
    return {"lang": lang, "languages": LANGUAGES, "plural": plural, "messages": messages}
