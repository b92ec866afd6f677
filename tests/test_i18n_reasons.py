"""Why a file could not be parsed or read, in the player's language (:mod:`taash.i18n.reasons`): the common reasons
of Python's JSON and TOML parsers and of the system are catalogue sentences with their line and column; English
reads exactly what Python wrote; a reason the catalogue lacks is left out in Hindi and Punjabi, never quoted."""

from __future__ import annotations

import json
import re
import tomllib

import pytest

from taash.i18n import speaking
from taash.i18n.reasons import JSON_REASONS, TOML_REASONS, json_message, os_reason, parse_reason

SCRIPT = {"hi": re.compile("[\u0900-\u097f]"), "pa": re.compile("[\u0a00-\u0a7f]")}
ENGLISH = re.compile(r"\b(Expecting|Invalid|Unterminated|Extra|data|value|delimiter|line|column|char|Unclosed|"
                     r"Expected|statement|array|document|No such|Permission|directory)\b")

#: Texts that are not JSON, each met by a different reason of the parser.
BAD_JSON = ['{"a": }', '{"a" 1}', '[1 2]', "{'a': 1}", '"abc', '"a\tb"', '"\\q"', '"\\u12"', "[1] x"]
#: Texts that are not TOML, each met by a different reason of the parser.
BAD_TOML = ["a = ", "a = 1 2", "= 1", "a = [1", "a = {b = 1", 'a = "x', "[t", "a = 1\na = 2"]


def json_error(text: str) -> json.JSONDecodeError:
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    return caught.value


def toml_error(text: str) -> tomllib.TOMLDecodeError:
    with pytest.raises(tomllib.TOMLDecodeError) as caught:
        tomllib.loads(text)
    return caught.value


@pytest.mark.parametrize("text", BAD_JSON)
def test_a_json_reason_is_what_python_wrote_in_english(text: str) -> None:
    error = json_error(text)
    assert error.msg in JSON_REASONS  # each of these reasons is in the catalogue
    with speaking("en"):
        assert parse_reason(error) == str(error)
        assert json_message(error) == error.msg


@pytest.mark.parametrize("text", BAD_TOML)
def test_a_toml_reason_is_what_python_wrote_in_english(text: str) -> None:
    error = toml_error(text)
    assert str(error).split(" (at ")[0] in TOML_REASONS
    with speaking("en"):
        assert parse_reason(error) == str(error)


@pytest.mark.parametrize("lang", ["hi", "pa"])
@pytest.mark.parametrize("error", [*map(json_error, BAD_JSON), *map(toml_error, BAD_TOML)], ids=repr)
def test_a_parsers_reason_is_said_in_hindi_and_punjabi_with_where(lang: str, error: ValueError) -> None:
    with speaking(lang):
        said = parse_reason(error)  # type: ignore[arg-type]
    assert SCRIPT[lang].search(said) and not ENGLISH.search(said), said
    at = re.search(r"line (\d+), column (\d+)", str(error))  # TOML's, or None at the end of the document
    line, column = (error.lineno, error.colno) if isinstance(error, json.JSONDecodeError) else \
        at.groups() if at else ("", "")
    assert str(line) in said and str(column) in said


@pytest.mark.parametrize("lang", ["hi", "pa"])
def test_an_unknown_reason_is_left_out_not_quoted(lang: str) -> None:
    strange = json.JSONDecodeError("Something Python may say one day", '{"a": 1}', 3)
    toml = tomllib.TOMLDecodeError("Something new (at line 2, column 5)")
    with speaking(lang):
        json_said, toml_said, alone = parse_reason(strange), parse_reason(toml), json_message(strange)
    assert alone is None
    for said in (json_said, toml_said):
        assert "Something" not in said and SCRIPT[lang].search(said), said
    assert "2" in toml_said and "5" in toml_said and "4" in json_said  # the position stays: column 4 of line 1
    with speaking("en"):
        assert parse_reason(strange) == str(strange) and parse_reason(toml) == str(toml)


@pytest.mark.parametrize("errno_reason", ["No such file or directory", "Permission denied", "Is a directory"])
def test_the_systems_common_reasons_are_said_in_hindi(errno_reason: str) -> None:
    error = OSError(2, errno_reason)
    with speaking("hi"):
        said = os_reason(error)
    assert SCRIPT["hi"].search(said) and not ENGLISH.search(said), said
    with speaking("en"):
        assert os_reason(error) == errno_reason
