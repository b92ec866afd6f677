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
from collections.abc import Mapping
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
    return _current


def _(message: str, /, **values: Any) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled with ``values``."""
    said = translations(_current).gettext(message)
    return said.format(**values) if values else said


def ngettext(singular: str, plural: str, n: int, /, **values: Any) -> str:
    """The sentence for ``n`` things in the current language (``n`` is also the placeholder ``{n}``)."""
    said = translations(_current).ngettext(singular, plural, n)
    return said.format(n=n, **values)


def N_(message: str) -> str:
    """Marks a message for the catalogue where it is written, to be translated where it is used."""
    return message
