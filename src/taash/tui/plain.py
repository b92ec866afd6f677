"""The plain terminal game: one line per event, no box drawing, no colour, no cursor movement, so that a screen
reader (or a braille display, or a log file) reads it as it comes. Any game of the tables layer is played here
through a :class:`~taash.tables.match.TableMatch`; each game gives only its words (:class:`PlainWords`): what a seat
sees, and the choices it has, each with the move it makes.

The person types a choice's number, or a command: ``l`` looks at the table again, ``h`` asks the hard bot for a
hint with its reason, ``u`` undoes his last move (and the bots' replies), ``?`` lists the commands and then the
game's whole help (its keys, scoring, levels, the rules in play, the coach, the deal explained, the language), ``q``
quits.
Anything else is answered with one line, and nothing changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from rich.text import Text

from taash.cards import RANKS, SUIT_SYMBOLS, SUITS
from taash.i18n import N_, _, ngettext
from taash.tables.adapter import TableError
from taash.tables.match import TableMatch

JSON = Any
#: The bot whose choice a hint gives, whatever the opponents' level.
HINT_LEVEL = "hard"
#: A card as a screen reader says it: one message per rank (so each language may order and inflect it), the suit
#: its own word.
RANK_OF = (N_("ace of {suit}"), N_("two of {suit}"), N_("three of {suit}"), N_("four of {suit}"),
           N_("five of {suit}"), N_("six of {suit}"), N_("seven of {suit}"), N_("eight of {suit}"),
           N_("nine of {suit}"), N_("ten of {suit}"), N_("jack of {suit}"), N_("queen of {suit}"),
           N_("king of {suit}"))
SUIT_WORDS = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"))
#: A rank alone ("every three is a joker").
RANK_WORDS = (N_("ace"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"), N_("eight"),
              N_("nine"), N_("ten"), N_("jack"), N_("queen"), N_("king"))
_CARD_TEXT = rf"(?:10|[{RANKS}])[{SUITS}{SUIT_SYMBOLS}]|JK|🃏"
#: Cards inside a sentence, one or several in a row: by protocol name (``Ts``, ``Kd``), by suit symbol (``10♠``,
#: ``K♦``), and the printed joker (``JK``).
_CARDS = re.compile(rf"(?<![\w♠♥♦♣])(?:{_CARD_TEXT})(?: (?:{_CARD_TEXT}))*(?![\w♠♥♦♣])")
#: The log's third-person verbs after "You" ("You bids" -> "You bid"), in the English of the log.
_YOU = re.compile(r"\bYou (bids|deals|takes|discards|drops|declares|wins|is out)\b")
_SECOND_PERSON = {"bids": "bid", "deals": "deal", "takes": "take", "discards": "discard", "drops": "drop",
                  "declares": "declare", "wins": "win", "is out": "are out"}


def help_text() -> str:
    return _("Type the number of a choice to make it. l: look at the table again. h: a hint (the hard bot's choice "
             "and why). u: undo your last move. ?: these commands. q: quit.")


def spoken_card(rank: int, suit: int) -> str:
    """``queen of hearts``: a card as a screen reader should say it, in the current language."""
    return _(RANK_OF[rank], suit=_(SUIT_WORDS[suit]))


def _spoken_one(text: str) -> str:
    if text in ("JK", "🃏"):
        return _("joker")
    rank = 9 if text[:-1] == "10" else RANKS.index(text[0])
    suit = SUITS.index(text[-1]) if text[-1] in SUITS else SUIT_SYMBOLS.index(text[-1])
    return spoken_card(rank, suit)


def spoken(text: str) -> str:
    """A sentence for the ear: every card named in words, cards in a row parted by commas, the printed joker as
    "joker", and "You" in the second person ("You: Capture 2♠ 9♠ with J♣" -> "You: Capture two of spades, nine of
    spades with jack of clubs"; "You bids 12" -> "You bid 12")."""
    said = _CARDS.sub(lambda m: ", ".join(_spoken_one(card) for card in m[0].split(" ")), text)
    return _YOU.sub(lambda m: f"You {_SECOND_PERSON[m[1]]}", said)


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing the person may do now, in words, and the move it makes (a table message)."""

    words: str
    message: Mapping[str, JSON]


class PlainWords(Protocol):
    """A game's words for the plain terminal game."""

    def situation(self, session: TableMatch, seat: int) -> list[str]:
        """What ``seat`` sees at the table now, a line per thing (hand, floor or pile, scores)."""

    def choices(self, session: TableMatch, seat: int) -> list[Choice]:
        """What ``seat``, whose turn it is, may do now."""

    def result(self, session: TableMatch) -> list[str]:
        """The match's end in words (who won, the score)."""


@runtime_checkable
class PlainHelp(Protocol):
    """A game's whole help for ``?`` (optional beside :class:`PlainWords`): the lines of its terminal help screen."""

    def help(self, session: TableMatch) -> list[str]:
        """The help's lines (Rich markup) for the match in ``session``: keys, scoring, levels, rules, and the rest."""


def plain_lines(markup: Sequence[str]) -> list[str]:
    """Lines of Rich markup as plain text, a line each, the empty ones left out (a screen reader reads each)."""
    lines = (Text.from_markup(line).plain.strip() for line in markup)
    return [line for line in lines if line]


class PlainGame:
    """A match of one person (seat ``human``) against bots at ``level``, read and written a line at a time."""

    def __init__(self, session: TableMatch, words: PlainWords, human: int = 0, level: str = "medium",
                 read: Callable[[str], str] = input, write: Callable[[str], None] = print):
        self.session, self.words, self.human, self.level = session, words, human, level
        self.read, self.write = read, write
        self.told = 0  # lines of the session's log already written

    def say(self, *lines: str) -> None:
        for line in lines:
            self.write(spoken(line))

    def news(self) -> None:
        """Write the log's lines not yet written (every event, in order, one line each)."""
        log = self.session.log
        fresh = log[self.told:] if self.told <= len(log) else log
        self.say(*fresh)
        self.told = len(log)

    def look(self) -> None:
        self.say(*self.words.situation(self.session, self.human))

    def run(self) -> str:
        """Play until the match ends or the person quits; returns ``"over"`` or ``"quit"``."""
        self.say(help_text())
        while True:
            self.news()
            seat = self.session.to_move()
            if seat is None:
                self.say(*self.words.result(self.session))
                return "over"
            if seat != self.human:
                self.bot_moves()
                continue
            if self.turn() == "quit":
                self.say(_("You left the match."))
                return "quit"

    def bot_moves(self) -> None:
        bot, view = self.session.bot_choice(self.level)
        try:
            message = self.session.game.action_to(bot.choose(view))
            self.session.move(None, message)
        except (TableError, ValueError):  # a bot's mistake: the engine's first legal move instead
            self.session.move(None, self.session.first_legal())

    def turn(self) -> str | None:
        """The person's turn: the table, his choices, then commands until he makes a move or quits."""
        self.look()
        choices = self.words.choices(self.session, self.human)
        self.offer(choices)
        while True:
            try:
                typed = self.read(_("Your choice: ")).strip().lower()
            except EOFError:
                return "quit"
            outcome = self.command(typed, choices)
            if outcome is not None:
                return outcome

    def offer(self, choices: Sequence[Choice]) -> None:
        self.say(ngettext("Your turn. {n} choice:", "Your turn. {n} choices:", len(choices)))
        self.say(*(f"{i}. {c.words}" for i, c in enumerate(choices, 1)))

    def command(self, typed: str, choices: Sequence[Choice]) -> str | None:
        """Do what the person typed: ``"moved"`` after a move, ``"quit"``, or None to ask again."""
        if typed == "q":
            return "quit"
        if typed == "?":
            self.say(help_text())
            if isinstance(self.words, PlainHelp):
                self.say(*plain_lines(self.words.help(self.session)))
        elif typed == "l":
            self.look()
            self.offer(choices)
        elif typed == "h":
            reason = self.session.hint(self.human, HINT_LEVEL)[1]
            self.say(_("Hint: {reason}", reason=reason))
        elif typed == "u":
            if not self.session.undo(self.human):
                self.say(_("Nothing to undo: you have not moved yet."))
                return None
            self.told = 0
            self.say(_("Undone. The match again from its start, up to your move:"))
            return "moved"
        elif typed.isdigit() and 1 <= int(typed) <= len(choices):
            return self.choose(choices[int(typed) - 1])
        else:
            self.say(_("Type a number from 1 to {n}, or ? for the commands.", n=len(choices)) if choices
                     else _("Type ? for the commands."))
        return None

    def choose(self, choice: Choice) -> str | None:
        try:
            self.session.move(self.human, choice.message)
        except TableError as e:
            self.say(_("Not possible: {reason}", reason=str(e)))
            return None
        return "moved"
