"""Why a file could not be read or parsed, in the language spoken: the reasons Python's JSON and TOML parsers and
the system give in English, as catalogue sentences with their line and column.

A reason the catalogue has is said in the player's language; an English reader reads exactly what Python wrote. A
reason the catalogue lacks is left out in other languages (the position alone says where), never quoted in English.
"""

from __future__ import annotations

import json
import re
import tomllib

from taash.i18n import DEFAULT, N_, _, current

#: The system's reasons a file cannot be read or written that a player may meet (``strerror``'s English, as
#: every C library words them), in the catalogue.
OS_REASONS = {r: r for r in (N_("No such file or directory"), N_("Is a directory"), N_("Not a directory"),
                             N_("Permission denied"), N_("File name too long"), N_("No space left on device"))}
#: ``json.JSONDecodeError.msg``'s common values (the C scanner's and the Python one's are the same words).
JSON_REASONS = {r: r for r in (
    N_("Expecting value"), N_("Expecting ',' delimiter"), N_("Expecting ':' delimiter"),
    N_("Expecting property name enclosed in double quotes"), N_("Unterminated string starting at"),
    N_("Invalid control character at"), N_("Invalid \\escape"), N_("Invalid \\uXXXX escape"), N_("Extra data"),
    N_("Illegal trailing comma before end of object"), N_("Illegal trailing comma before end of array"))}
#: ``tomllib.TOMLDecodeError``'s common reasons (the words before its position).
TOML_REASONS = {r: r for r in (
    N_("Invalid value"), N_("Invalid statement"), N_("Expected '=' after a key in a key/value pair"),
    N_("Invalid initial character for a key part"), N_("Expected newline or end of document after a statement"),
    N_("Unclosed array"), N_("Unclosed inline table"), N_("Unterminated string"), N_("Illegal character"),
    N_("Cannot overwrite a value"), N_("Invalid date or datetime"), N_("Invalid hex value"),
    N_("Unescaped '\\' in a string"), N_("Expected ']' at the end of a table declaration"),
    N_("Expected ']]' at the end of an array declaration"), N_("Invalid inline table value"))}
#: How tomllib (Python 3.11 to 3.13) ends its message: the position, or the end of the document.
_TOML_AT = re.compile(r"^(?P<msg>.*) \((?:at line (?P<line>\d+), column (?P<column>\d+)|at end of document)\)$",
                      re.DOTALL)


def os_reason(error: OSError) -> str:
    """Why ``error``'s file could not be used, in the language spoken where the catalogue has the reason."""
    reason = error.strerror or str(error)
    return _(OS_REASONS[reason]) if reason in OS_REASONS else reason


def reason_of(message: str, known: dict[str, str]) -> str | None:
    """A parser's ``message`` in the language spoken; an unknown one as it is in English, else None."""
    if message in known:
        return _(known[message])
    return message if current() == DEFAULT else None


def json_message(error: json.JSONDecodeError) -> str | None:
    """The JSON parser's reason alone (without its position), or None where it cannot be said in the language."""
    return reason_of(error.msg, JSON_REASONS)


def parse_reason(error: json.JSONDecodeError | tomllib.TOMLDecodeError) -> str:
    """Why a JSON or TOML text is not valid, with where: in English exactly ``str(error)``."""
    if isinstance(error, json.JSONDecodeError):
        why = json_message(error)
        if why is None:
            return _("line {line}, column {column}", line=error.lineno, column=error.colno)
        return _("{why}: line {line} column {column} (char {char})", why=why, line=error.lineno,
                 column=error.colno, char=error.pos)
    return _toml_reason(str(error))


def _toml_reason(text: str) -> str:
    """tomllib's ``Reason (at line L, column C)`` or ``Reason (at end of document)`` in the language spoken."""
    found = _TOML_AT.match(text)
    if found is None:
        return text if current() == DEFAULT else _("not valid TOML")
    why = reason_of(found["msg"], TOML_REASONS)
    if found["line"] is None:
        if why is None:
            return _("at the end of the document")
        return _("{why} (at end of document)", why=why)
    line, column = int(found["line"]), int(found["column"])
    if why is None:
        return _("line {line}, column {column}", line=line, column=column)
    return _("{why} (at line {line}, column {column})", why=why, line=line, column=column)
