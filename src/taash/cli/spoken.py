"""The command line in the player's language: its refusals of its own options, and its help.

The commands players use take ``--lang`` (``taash play``, ``taash replay``, each game's ``play``): for them the
language is chosen before the command line is read (``--lang`` as written, else ``LANGUAGE`` or ``LANG``, as
:func:`taash.cli.common.speak` will). Typer's Click writes its refusals in English f-strings ("No such option:
--nope", "Option '--players' requires an argument."): each is said again from what it carries (the option, the
value's kind, the suggestions) as a catalogue sentence. An English reader reads Click's own sentence, byte for byte
as before, as the web server's English readers read pydantic's. The help is said in the language too: the
command's own text (made again in it: :data:`SAID_HELP`), each option's help (a catalogue message, marked ``N_``
where it is written), and Click's words around them (Usage, Options, ``[default: ...]``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

try:  # Typer vendors Click from 0.2x on; older releases depend on it
    from typer import _click as click
except ImportError:  # pragma: no cover
    import click  # type: ignore[no-redef,import-not-found,unused-ignore]

from taash.i18n import DEFAULT, LANGUAGES, N_, _, current, language_from

#: The catalogue's sentence for each kind of value a player may mistype (pydantic's error ``type``, which Typer's
#: refusal keeps as its cause): the same sentences the web server says of a request's fields.
KINDS = {
    "int_parsing": N_("{field}: must be a whole number"), "int_from_float": N_("{field}: must be a whole number"),
    "float_parsing": N_("{field}: must be a number"), "bool_parsing": N_("{field}: must be true or false"),
}
#: Click's own words in a command's help, in the catalogue.
HELP_WORDS = (N_("Usage: "), N_("Arguments"), N_("Options"), N_("Show this message and exit."), N_("required"),
              N_("default: {value}"))
#: Defaults that are words a player reads, not codes he types (``--name``'s "You"): said in the language spoken
#: (a level's or a preset's name stays as it is typed).
WORD_DEFAULTS = frozenset({N_("You")})
#: The help of each player's command (its function), made again in the language spoken.
SAID_HELP: dict[Callable[..., Any], Callable[[], str]] = {}
#: An option's help as Click writes it: the option's own words, then its notes in brackets.
_ROW = re.compile(r"(?P<help>.*?)(?:\s*\[(?P<notes>[^\[\]]*)\])?", re.S)
_NO_COMMAND = re.compile(r"No such command '(?P<name>.*)'\.(?: Did you mean (?P<like>.*)\?)?", re.S)
_EXTRA = re.compile(r"Got unexpected extra argument\(s\) \((?P<words>.*)\)", re.S)


def player_command(command: click.Command, args: Sequence[str]) -> click.Command | None:
    """The command ``args`` name under ``command`` (its first words that name subcommands), when it is one players
    use: one that takes ``--lang``; else None."""
    for word in args:
        found = None if word.startswith("-") else getattr(command, "commands", {}).get(word)
        if found is None:
            break
        command = found
    return command if any(p.name == "lang" for p in command.params) else None


def language_asked(args: Sequence[str]) -> str:
    """The language a player's command line asks for: ``--lang X`` (or ``--lang=X``) when X is one of ours, else
    the environment's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English."""
    for i, word in enumerate(args):
        if word == "--":
            break
        value = args[i + 1] if word == "--lang" and i + 1 < len(args) else word.removeprefix("--lang=")
        if (word == "--lang" or word.startswith("--lang=")) and value in LANGUAGES:
            return value
    return language_from()


def mistyped_command(e: click.ClickException) -> bool:
    """Whether Click refused a command it does not know (``taash rummy plya``): a player's mistake as often as an
    operator's, said in the language the command line asks for whichever group it was typed under."""
    return isinstance(e, click.exceptions.UsageError) and _NO_COMMAND.fullmatch(str(e.message)) is not None


def hint_of(e: click.ClickException) -> str:
    """The option or argument a refusal is about, as the player wrote it (``--players``), or ``""``."""
    param = getattr(e, "param", None)
    if param is None:
        return str(getattr(e, "option_name", "") or "")
    opts = [o for o in getattr(param, "opts", ()) if o.startswith("--")]
    return opts[0] if opts else str(param.name or "")


def refusal(e: click.ClickException) -> str:
    """What Click refused, in the language spoken: a catalogue sentence, or Click's own where English is spoken
    (or the refusal is one it has no sentence for)."""
    if current() == DEFAULT:
        return e.format_message()
    return said(e) or e.format_message()


def said(e: click.ClickException) -> str | None:
    """A refusal of Click's as a catalogue sentence (None: one it has none for)."""
    field, message = hint_of(e), str(getattr(e, "message", ""))
    if isinstance(e, click.exceptions.NoSuchOption):
        if e.possibilities:
            return _("there is no option {option}; did you mean {options}?", option=e.option_name,
                     options=", ".join(sorted(e.possibilities)))
        return _("there is no option {option}", option=e.option_name)
    if isinstance(e, click.exceptions.BadOptionUsage):
        if message.endswith("does not take a value."):
            return _("{option} takes no value", option=field)
        if " requires " in message:
            return _("{option} needs a value", option=field)
        return None
    if isinstance(e, click.exceptions.MissingParameter):
        return _("{field}: this is required", field=field)
    if isinstance(e, click.exceptions.BadParameter):
        # pydantic's errors, where Typer's conversion of the value refused it
        errors: list[dict[str, Any]] = getattr(e.__cause__, "errors", list)()
        kind = str(errors[0].get("type", "")) if errors else ""
        return _(KINDS.get(kind, N_("{field}: this value is not valid")), field=field)
    return usage(message)


def usage(message: str) -> str | None:
    """A usage error Click names in words only (an unknown command, words left over)."""
    if found := _NO_COMMAND.fullmatch(message):
        if found["like"]:
            return _("there is no command {name}; did you mean {names}?", name=found["name"], names=found["like"])
        return _("there is no command {name}", name=found["name"])
    if found := _EXTRA.fullmatch(message):
        return _("more words than the command takes: {words}", words=found["words"])
    if message == "Missing command.":
        return _("a command is missing (--help lists them)")
    return None


def said_note(note: str) -> str:
    """One of Click's notes after an option's help (``required``, ``default: 4``) in the language spoken."""
    if note.startswith("default: "):
        value = note.removeprefix("default: ")
        return _("default: {value}", value=_(value) if value in WORD_DEFAULTS else value)
    return _(note) if note == "required" else note


def said_row(text: str) -> str:
    """An option's help with its notes, in the language spoken (its words are a catalogue message)."""
    found = _ROW.fullmatch(text)
    if found is None or not text:
        return text
    words = _(found["help"]) if found["help"] else ""
    if not found["notes"]:
        return words
    notes = "; ".join(said_note(n.strip()) for n in found["notes"].split(";"))
    return f"{words}  [{notes}]" if words else f"[{notes}]"


class SaidFormatter(click.HelpFormatter):
    """Click's help formatter, saying its own words and each option's help in the language spoken."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, _("Usage: ") if prefix is None else prefix)

    @contextmanager
    def section(self, name: str) -> Iterator[None]:
        with super().section(_(name)):
            yield

    def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        super().write_dl([(term, said_row(text)) for term, text in rows], col_max, col_spacing)


class SaidContext(click.Context):
    """A command's context whose help is said in the language spoken."""

    formatter_class = SaidFormatter


def speak_help(command: click.Command) -> None:
    """Say ``command``'s help in the language spoken: its text made again in it, Click's words and the options'."""
    command.context_class = SaidContext
    function = getattr(command.callback, "__wrapped__", command.callback)
    made = SAID_HELP.get(function) if function is not None else None
    if made is not None:
        command.help = made()
