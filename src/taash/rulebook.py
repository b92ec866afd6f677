"""Rules as data, for every game: a game's rules are one frozen dataclass with named presets, and a variant is a
preset plus parameters, given as a preset name, an object of parameters, or a ``.toml`` / ``.json`` file of them.
Each game's ``rules`` module states its parameters and presets; reading them is done here, once."""

from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

from taash.i18n import DEFAULT, _, current
from taash.i18n.reasons import os_reason, parse_reason


class _Rules(Protocol):
    """A game's rules: a dataclass."""

    __dataclass_fields__: ClassVar[dict[str, Any]]


R = TypeVar("R", bound=_Rules)


def rules_from_data(data: object, rules_type: type[R], presets: Mapping[str, R], default: str,
                    error: Callable[[str], Exception],
                    prepare: Callable[[dict[str, Any], R], None] | None = None) -> R:
    """Rules from ``None`` (the default preset), a preset name, or ``{"preset": NAME, PARAMETER: VALUE, ...}``.

    ``prepare`` turns JSON values of the game's own parameters into the dataclass's (lists into tuples, say), or
    refuses them by raising ``error``; the dataclass checks every value when it is made.
    """
    known = ", ".join(presets)
    if data is None:
        return presets[default]
    if isinstance(data, rules_type):
        return data
    if isinstance(data, str):
        if data not in presets:
            raise error(_("unknown rules preset {preset} (known: {known})", preset=repr(data), known=known))
        return presets[data]
    if not isinstance(data, Mapping):
        raise error(_("rules must be a preset name or an object of rule parameters"))
    params = dict(data)
    preset = params.pop("preset", default)
    if not isinstance(preset, str):
        raise error(_("rule preset must be a preset name (known: {known}), not {preset}", known=known,
                      preset=repr(preset)))
    base = rules_from_data(preset, rules_type, presets, default, error)
    fields = sorted(f.name for f in dataclasses.fields(rules_type) if f.name != "preset")
    unknown = sorted(str(k) for k in set(params) - set(fields))
    if unknown:
        raise error(_("unknown rule parameter {parameter} (known: {known})", parameter=repr(unknown[0]),
                      known=", ".join(fields)))
    if prepare is not None:
        prepare(params, base)
    try:
        return dataclasses.replace(base, **params)
    except TypeError as e:
        raise error(_bad_parameters(e)) from None


def _bad_parameters(error: TypeError) -> str:
    """The refusal of parameters the dataclass would not take: Python's reason in English, none in other
    languages (it is Python's English)."""
    if current() == DEFAULT:
        return _("bad rule parameters: {why}", why=str(error))
    return _("bad rule parameters")


def rules_document(spec: str, presets: Mapping[str, object], error: Callable[[str], Exception]) -> object:
    """What ``--rules SPEC`` names: the preset's name itself, or the parsed TOML or JSON of a rules file."""
    if spec in presets:
        return spec
    path = Path(spec)
    if not path.suffix:
        raise error(_("unknown rules preset {preset} (known: {known}), and no such file", preset=repr(spec),
                      known=", ".join(presets)))
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise error(_("cannot read rules file {path}: {why}", path=spec, why=os_reason(e))) from None
    except UnicodeDecodeError:
        raise error(_("cannot read rules file {path}: {why}", path=spec, why=_("not UTF-8 text"))) from None
    try:
        return tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as e:
        raise error(_("rules file {path} is not valid {format}: {why}", path=spec, format=path.suffix[1:].upper(),
                      why=parse_reason(e))) from None
