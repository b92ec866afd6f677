"""Learning a game: its rules explained from the rules data, and a first deal as a lesson of scripted positions
in which the engine checks each step and explains a wrong one.

A lesson is a few steps; each is a position (a fixed pack, or a deal put together from its parts), what it
teaches, and moves to try. A move sent for a step is read and checked by the game's engine: a move the engine
refuses is answered with the engine's own reason, a legal move that is not the one taught with the lesson's
note, and the taught one with what it did. Nothing is kept between steps: each step's position is built again
from its script, so a step is a pure function of its number and the move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from taash.games.registry import plugin, plugins
from taash.i18n import _
from taash.tables.adapter import TableError

JSON = Any


@dataclass(frozen=True, slots=True)
class Verdict:
    """The engine's answer to a move tried at a step: ``right`` (the move taught), ``legal`` (allowed, but not what
    the step teaches) or ``refused`` (the rules forbid it), and its one line in a player's words."""

    verdict: Literal["right", "legal", "refused"]
    said: str

    def to_json(self) -> dict[str, JSON]:
        return {"verdict": self.verdict, "ok": self.verdict == "right", "said": self.said}


class Lesson(Protocol):
    """A game's lesson and its rules in words."""

    game: str
    #: How many steps the lesson has.
    size: int

    def step(self, index: int) -> dict[str, JSON]:
        """Step ``index`` as the learn page draws it: ``title``, ``teach``, ``position`` (the game's), ``options``
        (``[{"label": ..., "action": MOVE}]``: moves to try, the protocol's messages)."""

    def check(self, index: int, action: Mapping[str, JSON]) -> Verdict:
        """The engine's verdict on ``action`` at step ``index`` (``TableError`` code ``malformed`` for a message
        that names no move)."""

    def rules_explained(self, preset: str) -> list[str]:
        """The rules of ``preset`` in plain words, from the rules data."""

    def presets(self) -> Sequence[str]:
        """The game's presets, the default first."""

    def about(self) -> list[str]:
        """What the game is and how a deal goes, in plain words (a few paragraphs, in the reader's language)."""


class GameLesson:
    """What every game's lesson does alike, from its data: the presets, the paragraphs about the game, the rules of
    a preset in words. A game's lesson sets :attr:`rule_presets`, :attr:`about_words` and :attr:`scoring` (its
    help's scoring lines, as a ``staticmethod``) and writes its own ``step`` and ``check``."""

    game: str
    size: int
    #: The game's rules presets by name, the default first.
    rule_presets: Mapping[str, Any]
    #: What the game is and how a deal goes (the catalogue's messages, translated as they are read).
    about_words: Sequence[str]
    #: The lines that say how a deal scores under some rules (the terminal help's).
    scoring: Callable[[Any], list[str]]

    def presets(self) -> Sequence[str]:
        return tuple(self.rule_presets)

    def about(self) -> list[str]:
        return [_(paragraph) for paragraph in self.about_words]

    def rules_explained(self, preset: str) -> list[str]:
        return [line.strip() for line in self.scoring(self.rule_presets[preset])]


def lesson(game: str) -> Lesson:
    """The lesson of ``game`` (``TableError`` code ``not_found`` for a game without one)."""
    taught = [p.name for p in plugins() if p.lessons is not None]
    if game not in taught:
        raise TableError(_("no lesson for the game {game} (games: {games})", game=repr(str(game)[:40]),
                           games=", ".join(taught)), "not_found")
    found: Lesson = plugin(game).part("lessons")
    return found


def step_index(taught: Lesson, index: object) -> int:
    """``index`` checked as a step of ``taught`` (``TableError`` code ``bad`` otherwise)."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < taught.size:
        raise TableError(_("step must be a whole number from 0 to {last}", last=taught.size - 1))
    return index


def learn_page(taught: Lesson) -> dict[str, JSON]:
    """Everything the learn page of a game shows: each preset's rules in words and every step of the lesson."""
    return {"game": taught.game, "title": plugin(taught.game).title, "about": taught.about(),
            "presets": [{"name": p, "rules": taught.rules_explained(p)} for p in taught.presets()],
            "steps": [taught.step(i) for i in range(taught.size)]}


def verdict_for(refusal: str | None, right: bool, well_done: str, note: str, outcome: str) -> Verdict:
    """The verdict on a move: refused with the engine's ``refusal``, else right or merely legal, with what the
    move did (``outcome``) and the step's words."""
    if refusal is not None:
        return Verdict("refused", refusal)
    if right:
        return Verdict("right", _("{outcome}. {words}", outcome=outcome, words=well_done))
    return Verdict("legal", _("{outcome}: legal, but not what this step teaches. {words}", outcome=outcome,
                              words=note))
