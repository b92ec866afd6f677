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


def _(message: str, /, **values: Any) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled with ``values``."""
    said = translations(current()).gettext(message)
    return said.format(**values) if values else said


def ngettext(singular: str, plural: str, n: int, /, **values: Any) -> str:
    """The sentence for ``n`` things in the current language (``n`` is also the placeholder ``{n}``)."""
    said = translations(current()).ngettext(singular, plural, n)
    return said.format(n=n, **values)


def N_(message: str) -> str:
    """Marks a message for the catalogue where it is written, to be translated where it is used."""
    return message


def say_in(lang: str, message: str, /, **values: Any) -> str:
    """``message`` in ``lang`` whatever the process speaks (a server answering each person in his own), its
    ``{placeholders}`` filled with ``values``; a message the catalogue lacks stays English."""
    said = translations(lang).gettext(message)
    return said.format(**values) if values else said


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
            if not message.id or message.fuzzy:
                continue
            if isinstance(message.id, str):
                if message.string:
                    messages[message.id] = str(message.string)
            elif isinstance(message.string, (tuple, list)):
                forms = [str(s) for s in message.string]
                if all(forms):
                    messages[message.id[0]] = forms
    return {"lang": lang, "languages": LANGUAGES, "plural": plural, "messages": messages}
