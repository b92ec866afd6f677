"""``taash play --plain``: a match against bots in the plain terminal game (:mod:`taash.tui.plain`), for any game
with plain words (its plugin's ``plain``: :class:`~taash.tui.plain.PlainWords`), one line per event."""

from __future__ import annotations

import secrets

from taash.cli.common import fail
from taash.cli.play_options import PlayOptions
from taash.games.registry import levels, plugin
from taash.rulebook import rules_document
from taash.tables.adapter import TableError, adapter
from taash.tables.match import TableMatch
from taash.tui.plain import PlainGame, PlainWords

#: The bots' names, seat 1 on (the person is seat 0).
BOT_NAMES = ("Asha", "Dev", "Vikram", "Meera", "Kabir")


def plain_words(game: str) -> PlainWords:
    words: PlainWords = plugin(game).part("plain")
    return words


def new_session(game: str, o: PlayOptions) -> TableMatch:
    """A new match of ``game`` with the options given, each checked by the game's table adapter."""
    table_game = adapter(game)
    if o.resume is not None or o.save is not None:
        fail("--plain plays a new match and saves nothing: leave out --resume and --save")
    if o.level not in levels(game):
        fail(f"--level must be one of {', '.join(levels(game))} at {table_game.title}, not {o.level[:40]!r}")
    if not o.name.strip() or len(o.name) > 40:
        fail("--name must be 1 to 40 characters")
    if table_game.formats:
        if "baazis" in o.given:
            fail(f"--baazis is not {table_game.title}'s: its match's length is its --format")
        length: int | str = o.fmt or table_game.formats[0]
    else:
        if o.fmt is not None:
            fail(f"--format is not {table_game.title}'s: its match's length is its --baazis")
        length = o.baazis
    rules = o.rules if "rules" in o.given or o.rules in table_game.presets else table_game.presets[0]
    try:
        document = rules_document(rules, {p: p for p in table_game.presets}, TableError)
        settings = table_game.settings(o.players, document, length, o.level, False)
    except TableError as e:
        fail(f"--plain: {e}")
    names = [o.name.strip(), *BOT_NAMES[:o.players - 1]]
    seed = o.seed if o.seed is not None else secrets.randbits(62)
    return TableMatch(table_game, settings, seed, names)


def play_plain(game: str, o: PlayOptions) -> None:
    """Play the match a line at a time on standard input and output."""
    session = new_session(game, o)
    PlainGame(session, plain_words(game), human=0, level=o.level).run()
