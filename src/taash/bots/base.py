"""What a bot is, for any game: a seeded object that picks an action from one seat's view, and can say why.

Each game's plugin (:mod:`taash.games.registry`) names where its bots are: a mapping of bot names to classes (the
built-in games' ``BOTS``), and the player-facing levels it offers with the bot each seats
(:func:`taash.games.registry.levels`).
"""

from __future__ import annotations

import inspect
import math
from typing import Any, Protocol

from taash.games.api import Action
from taash.games.registry import default_game, levels, plugin, plugins

#: Wall-clock seconds the expert level's search may take over one play (README, "Playing in the terminal").
EXPERT_SECONDS = 0.5
#: What a level's bot is given besides its seed: the expert's search keeps to a time budget per play (so it
#: is deterministic for its seed only when the budget does not cut it short).
LEVEL_SETTINGS: dict[str, dict[str, int | float | str]] = {"expert": {"seconds": EXPERT_SECONDS}}


class Bot(Protocol):
    """A computer player. It never sees more than ``view``; all its chance comes from its seed."""

    name: str

    def choose(self, view: Any) -> Action:
        """A legal action of the seat of ``view`` (the game's own :class:`~taash.games.api.View`: one of
        ``view.legal_actions()``)."""

    def explain(self, view: Any, action: Action) -> str:
        """One line on why this action (for hints)."""


def check_whole(value: object, name: str, low: int, high: int) -> None:
    """Refuse a bot setting that is not a whole number from ``low`` to ``high``, in one sentence."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, not {value!r}")


def check_number(value: object, name: str, low: float, high: float, *, above_low: bool = False) -> None:
    """Refuse a bot setting that is not a finite number in bounds, in one sentence."""
    if (isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value)
            or not low <= value <= high or (above_low and value == low)):
        bounds = f"above {low:g} and at most {high:g}" if above_low else f"from {low:g} to {high:g}"
        raise ValueError(f"{name} must be a number {bounds}, not {value!r}")


def parse_bot_spec(spec: str) -> tuple[str, dict[str, int | float | str]]:
    """``"ismcts:iterations=100,seconds=0.5"`` -> ``("ismcts", {"iterations": 100, "seconds": 0.5})``.

    A bot is named alone or with settings after a colon; numbers are read as numbers.
    """
    name, _, rest = spec.partition(":")
    settings: dict[str, int | float | str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, text = item.partition("=")
        if not eq or not key.strip() or not text.strip():
            raise ValueError(f"bad bot setting {item[:40]!r} in {spec[:60]!r} (write name:key=value,key=value)")
        value: int | float | str = text.strip()
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                continue
        settings[key.strip()] = value
    return name.strip(), settings


def construct(kind: type[Any], spec: str, seed: int, settings: dict[str, int | float | str]) -> Any:
    """``kind(seed, **settings)``, refusing settings its constructor does not take with a clear message."""
    accepted = [p for p in inspect.signature(kind.__init__).parameters if p not in ("self", "seed")]
    for key in settings:
        if key not in accepted:
            known = ", ".join(accepted) or "none"
            raise ValueError(f"bot {spec[:60]!r}: unknown setting {key[:40]!r} (settings: {known})")
    try:
        return kind(seed, **settings)
    except (TypeError, ValueError) as e:
        raise ValueError(f"bot {spec[:60]!r}: {e}") from None


def bot_kinds(game: str) -> dict[str, type[Any]]:
    """The bots of a game by name (``ValueError`` for a game without bots)."""
    try:
        found = plugin(game)
    except ValueError:
        found = None
    if found is None or found.bots is None:
        with_bots = ", ".join(p.name for p in plugins() if p.bots is not None)
        raise ValueError(f"no bots for the game {str(game)[:40]!r} (games with bots: {with_bots})")
    kinds: dict[str, type[Any]] = found.part("bots")
    return kinds


def make_bot(spec: str, seed: int, game: str | None = None) -> Bot:
    """A bot of ``game`` by name (``random``, ``greedy``, ``heuristic``, ``ismcts``) or by one of the game's levels
    (``easy`` .. ``expert``), optionally with settings: ``"ismcts:iterations=100,seconds=0.5"``."""
    game = default_game() if game is None else game
    kinds = bot_kinds(game)
    offered = levels(game)
    name, settings = parse_bot_spec(spec)
    level = name in offered and not (settings and name in kinds)  # a bot named as its level takes settings
    kind = offered[name] if level else name
    if kind not in kinds:
        raise ValueError(f"unknown bot {name[:40]!r} (known: {', '.join(dict.fromkeys([*kinds, *offered]))})")
    if settings and level:
        raise ValueError(f"a level ({name}) takes no settings; name the bot instead ({kind}:...)")
    if level:
        settings = dict(LEVEL_SETTINGS.get(name, {}))
    bot: Bot = construct(kinds[kind], spec, seed, settings)
    return bot
