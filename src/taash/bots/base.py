"""What a bot is: a seeded object that picks a bid and plays from a seat's view, and can say why."""

from __future__ import annotations

import inspect
from typing import Any, Protocol

from taash.seep.plays import Play
from taash.seep.view import PlayerView


class Bot(Protocol):
    """A computer player. It never sees more than ``view``; all its chance comes from its seed."""

    name: str

    def choose_bid(self, view: PlayerView) -> int:
        """A legal bid (``view.legal_bids()``)."""

    def choose_play(self, view: PlayerView) -> Play:
        """A legal play (``view.legal_plays()``)."""

    def explain(self, view: PlayerView, play: Play) -> str:
        """One line on why this play (for hints)."""


#: Player-facing levels.
LEVELS = {"easy": "random", "medium": "greedy", "hard": "heuristic", "expert": "ismcts"}
#: Wall-clock seconds the expert level's search may take over one play (README, "Playing in the terminal").
EXPERT_SECONDS = 0.5
#: What a level's bot is given besides its seed: the expert's search keeps to a time budget per play (so it
#: is deterministic for its seed only when the budget does not cut it short).
LEVEL_SETTINGS: dict[str, dict[str, int | float | str]] = {"expert": {"seconds": EXPERT_SECONDS}}


def parse_bot_spec(spec: str) -> tuple[str, dict[str, int | float | str]]:
    """``"ismcts:iterations=100,seconds=0.5"`` -> ``("ismcts", {"iterations": 100, "seconds": 0.5})``.

    A bot is named alone or with settings after a colon; numbers are read as numbers.
    """
    name, _, rest = spec.partition(":")
    settings: dict[str, int | float | str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, text = item.partition("=")
        if not eq or not key.strip() or not text.strip():
            raise ValueError(f"bad bot setting {item!r} in {spec!r} (write name:key=value,key=value)")
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
            raise ValueError(f"bot {spec!r}: unknown setting {key!r} (settings: {known})")
    try:
        return kind(seed, **settings)
    except (TypeError, ValueError) as e:
        raise ValueError(f"bot {spec!r}: {e}") from None


def make_bot(spec: str, seed: int) -> Bot:
    """A bot by name (``random``, ``greedy``, ``heuristic``, ``ismcts``) or level (``easy`` .. ``expert``),
    optionally with settings: ``"ismcts:iterations=100,seconds=0.5"``."""
    from taash.bots.greedy import GreedyBot
    from taash.bots.heuristic import HeuristicBot
    from taash.bots.ismcts import IsmctsBot
    from taash.bots.random_bot import RandomBot

    kinds: dict[str, type[RandomBot] | type[GreedyBot] | type[HeuristicBot] | type[IsmctsBot]] = {
        "random": RandomBot, "greedy": GreedyBot, "heuristic": HeuristicBot, "ismcts": IsmctsBot}
    name, settings = parse_bot_spec(spec)
    kind = LEVELS.get(name, name)
    if kind not in kinds:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join([*kinds, *LEVELS])})")
    if settings and name in LEVELS:
        raise ValueError(f"a level ({name}) takes no settings; name the bot instead ({kind}:...)")
    if name in LEVELS:
        settings = dict(LEVEL_SETTINGS.get(name, {}))
    bot: Bot = construct(kinds[kind], spec, seed, settings)
    return bot
