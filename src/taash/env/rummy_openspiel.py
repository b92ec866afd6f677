"""13-card Rummy in OpenSpiel (``python_taash_rummy``), registered when :mod:`taash.env.openspiel` is
imported."""

from __future__ import annotations

from typing import Any

import pyspiel

from taash.env.openspiel import SEEDS, TaashGame, game_type
from taash.env.rummy import RummyEncoding
from taash.games.registry import make_game

#: Decisions after which a Rummy match stops (its returns all 0) unless set otherwise.
RUMMY_MOST_MOVES = 2_000
RUMMY_TYPE = game_type("python_taash_rummy", "13-card Indian Rummy (taash)", range(2, 7),
                       {"players": 2, "rules": "octro", "format": "points", "seeds": SEEDS,
                        "max_moves": RUMMY_MOST_MOVES})


class RummyGame(TaashGame):
    """13-card Rummy in OpenSpiel: ``players`` 2 to 6, ``rules`` a preset name, ``format`` a match format,
    ``seeds`` and ``max_moves`` as :class:`TaashGame`."""

    def __init__(self, params: dict[str, Any] | None = None):
        settings = {**RUMMY_TYPE.parameter_specification, **(params or {})}
        game = make_game("rummy", players=settings["players"], rules=settings["rules"], format=settings["format"])
        moves = settings["max_moves"]
        if isinstance(moves, bool) or not isinstance(moves, int) or moves < 1:
            raise ValueError(f"max_moves must be a whole number of at least 1, not {moves!r}")
        super().__init__(RUMMY_TYPE, settings, RummyEncoding(game), settings["seeds"], moves)  # type: ignore[arg-type]


pyspiel.register_game(RUMMY_TYPE, RummyGame)
