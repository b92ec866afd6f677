"""Seat names as records keep them and as players read them. A bot's name is stored as every record has always
stored it, ``"Asha (bot)"`` in English; it is marked "(bot)" in the reader's own language where it is shown (the
web table's seats and log for each connection, a terminal replay), so records and the messages an English reader
gets keep their bytes."""

from __future__ import annotations

from taash.i18n import DEFAULT, N_, Said, current

#: The names of the bots a web table seats, in order (each once at a table).
BOT_NAMES = ("Asha", "Dev", "Vikram", "Meera", "Kabir", "Tara")
#: How a stored name says that a bot holds the seat.
BOT_SUFFIX = " (bot)"
#: The mark as a reader sees it, a catalogue message: its English is :data:`BOT_SUFFIX` after the name.
BOT_MARK = N_("{name} (bot)")


def marked(stored: str) -> str:
    """A stored seat name, a bot's (ending in " (bot)", an old record's too) made a said sentence whose English is
    the stored name itself, byte for byte, and which each reader reads marked in his own language
    (:func:`taash.i18n.in_language`); another name is returned as it is."""
    if isinstance(stored, Said) or not stored.endswith(BOT_SUFFIX):
        return stored
    return Said(BOT_MARK, {"name": stored.removesuffix(BOT_SUFFIX)}, lang=DEFAULT)


def bot_name(name: str) -> str:
    """The seat name of a bot called ``name``, as records store it ("Asha (bot)") and each reader reads it."""
    return marked(f"{name}{BOT_SUFFIX}")


def shown_name(stored: str) -> str:
    """A stored seat name in the language spoken: a bot's marked in it ("Asha (बॉट)")."""
    name = marked(stored)
    return name.in_(current()) if isinstance(name, Said) else name


def bare_name(stored: str) -> str:
    """A stored seat name without its bot mark (the terminal's seats, where every other seat is a bot)."""
    return stored.removesuffix(BOT_SUFFIX)
