"""What every ``taash`` command shares: the consoles, one-line errors and exit statuses, input, progress bars."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from taash.cards import CardError
from taash.games.registry import game_errors
from taash.i18n import LANGUAGES, N_, _, language_from, said_of, use
from taash.i18n.reasons import json_message, os_reason

#: Exit status for bad input: not JSON, an unknown or repeated card, an impossible position, an unknown preset.
BAD_INPUT = 2
#: Exit status for a well-formed record with an illegal bid, play or dealer.
ILLEGAL = 1

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)


#: An error line echoes at most this many characters of one word (a user's value, say) ...
WORD_MOST = 60
#: ... and at most this many in all: a 50 MB card string is not repeated back.
LINE_MOST = 600
#: A value quoted in a message ('...' or "..."), longer than WORD_MOST.
_QUOTED = re.compile(rf"(?<!\w)(['\"])([^'\"]{{{WORD_MOST + 1},}})\1(?!\w)")


def one_line(message: object) -> str:
    """``message`` on one line, with every long quoted value, long word and the line itself cut short (saying how
    long they were)."""
    line = " ".join(str(message).split())
    line = _QUOTED.sub(lambda m: f"{m[1]}{m[2][:WORD_MOST - 20]}…{m[1]} ({len(m[2]):,} characters)", line)
    line = " ".join(w if len(w) <= WORD_MOST else f"{w[:WORD_MOST - 20]}…({len(w):,} characters)"
                    for w in line.split(" "))
    if len(line) > LINE_MOST:
        line = f"{line[:LINE_MOST - 100]} …({len(line):,} characters)… {line[-80:]}"
    return line


#: ``--lang``'s help, the same in every command that takes it.
LANG_HELP = N_("The language: en (English), hi (Hindi) or pa (Punjabi in Gurmukhi); default: from LANGUAGE or "
               "LANG, else English.")


def speak(lang: str | None) -> None:
    """Speak ``--lang``, or the environment's language (one of ours, else English)."""
    chosen = language_from() if lang is None else lang
    if chosen not in LANGUAGES:
        fail(_("--lang must be one of {languages}, not {value}", languages=", ".join(LANGUAGES),
               value=repr(chosen[:20])))
    use(chosen)


def fail(message: object, code: int = BAD_INPUT) -> NoReturn:
    """One line on standard error, then exit with ``code``."""
    print(f"taash: {one_line(message)}", file=sys.stderr)
    raise typer.Exit(code)


@contextmanager
def user_errors(where: str = "") -> Iterator[None]:
    """Turn every error a user can cause into one line and an exit status (in the language spoken); ``where``
    prefixes the message."""

    def at(why: str) -> str:
        return _("{path}: {why}", path=where, why=why) if where else why

    try:
        yield
    except json.JSONDecodeError as e:
        place = (_("column {column}", column=e.colno) if where else
                 _("line {line}, column {column}", line=e.lineno, column=e.colno))
        why = json_message(e)
        fail(at(_("not valid JSON ({at})", at=place) if why is None else
                _("not valid JSON: {why} ({at})", why=why, at=place)))
    except UnicodeDecodeError:
        fail(at(_("input is not UTF-8 text")))
    except game_errors() as e:  # a game's sentence; a record that breaks the rules (1) or is malformed (2)
        fail(at(said_of(e)), ILLEGAL if getattr(e, "illegal", False) is True else BAD_INPUT)
    except CardError as e:
        fail(at(said_of(e)))
    except ValueError as e:  # what json refuses beyond syntax, e.g. a number of thousands of digits
        fail(at(_("bad input: {why}", why=str(e))))
    except RecursionError:
        fail(at(_("input nested too deeply")))
    except BrokenPipeError:
        raise  # the reader went away: run() ends quietly
    except OSError as e:  # named by its file, else by ``where`` (the file being written)
        fail(_("{path}: {why}", path=e.filename or where or "input", why=os_reason(e)))


def read_input(file: Path | None, what: str) -> str:
    """The text of ``file``, or of standard input when it is None or ``-``."""
    if file is None or str(file) == "-":
        if sys.stdin is None or sys.stdin.isatty():
            fail(f"no {what} given: name a file, or pipe it to standard input")
        data = sys.stdin.buffer.read()
    else:
        data = file.read_bytes()
    return data.decode("utf-8-sig")


def progress_bar(label: str, counts: bool = True) -> Progress:
    """A progress bar on standard error (done/total, or a percentage), shown only on a terminal, gone when done."""
    done: ProgressColumn = TextColumn("{task.completed:.0f}/{task.total:.0f}") if counts else TaskProgressColumn()
    return Progress(TextColumn(f"[bold]{label}"), BarColumn(), done, TimeElapsedColumn(), TimeRemainingColumn(),
                    console=err, transient=True, disable=not err.is_terminal)


def is_json(text: str) -> bool:
    """Whether ``text`` is one JSON document."""
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def answer_documents(file: Path | None, what: str, answer: Callable[[object], str]) -> None:
    """Read one JSON document, or JSON Lines of them, from ``file`` (or standard input) and print ``answer`` of
    each, one line per document, in order; a bad line is one error naming it."""
    with user_errors():
        text = read_input(file, what)
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        fail(f"no {what} given (a JSON object, or JSON Lines of them)")
    answers = []
    if len(lines) > 1 and is_json(lines[0][1]):  # JSON Lines (one object written over several lines is not)
        for n, line in lines:
            with user_errors(f"line {n}"):
                answers.append(answer(json.loads(line)))
    else:
        with user_errors():
            answers.append(answer(json.loads(text)))
    sys.stdout.write("\n".join(answers) + "\n")
