"""What ``taash play`` and ``taash replay`` hand a game's own terminal screens: the options as given, and the two
entry points every game with a terminal game offers (:mod:`taash.cli.seep_play`, :mod:`taash.cli.rummy_play`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """The options of ``taash play``, each as given or defaulted; ``given`` names the parameters written on the
    command line (a game refuses those it does not take, and those a resumed match takes from its save)."""

    players: int
    rules: str
    fmt: str | None
    level: str
    baazis: int
    seed: int | None
    name: str
    resume: Path | None
    save: Path | None
    ascii_only: bool
    delay: float
    given: frozenset[str]
    #: The plain terminal game: one line per event, for screen readers (``taash play --plain``).
    plain: bool = False


@dataclass(frozen=True, slots=True)
class Screens:
    """A game's terminal game: ``play`` a match against bots, ``replay`` a record (the file, its JSON document,
    whether the cards are drawn in ASCII)."""

    play: Callable[[PlayOptions], None]
    replay: Callable[[Path, object, bool], None]
