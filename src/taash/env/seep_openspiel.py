"""Seep in OpenSpiel (``python_taash_seep``), registered when :mod:`taash.env.openspiel` is imported."""

from __future__ import annotations

from typing import Any

import pyspiel

from taash.env.openspiel import SEEDS, TaashGame, game_type
from taash.env.seep import SeepEncoding
from taash.games.registry import make_game

#: Decisions in a Seep deal: the bid and 48 plays.
SEEP_MOVES = 49
SEEP_TYPE = game_type("python_taash_seep", "Seep (taash)", range(2, 5),
                      {"players": 4, "rules": "standard", "seeds": SEEDS})


class SeepGame(TaashGame):
    """Seep in OpenSpiel: ``players`` 2 or 4, ``rules`` a preset name, ``seeds`` as :class:`TaashGame`; a match
    is a single deal."""

    def __init__(self, params: dict[str, Any] | None = None):
        settings = {**SEEP_TYPE.parameter_specification, **(params or {})}
        game = make_game("seep", players=settings["players"], rules=settings["rules"])
        super().__init__(SEEP_TYPE, settings, SeepEncoding(game), settings["seeds"], SEEP_MOVES)  # type: ignore[arg-type]


pyspiel.register_game(SEEP_TYPE, SeepGame)
