"""13-card Rummy for PettingZoo, version 0: ``from taash.env import rummy_v0; env = rummy_v0.env(players=6)``.

As PettingZoo names its environments, the version in the module's name changes whenever the observation, the
actions or the rewards change, so that results stay comparable (``docs/env.md`` describes version 0).
"""

from __future__ import annotations

from taash.env.rummy import env, raw_env

__all__ = ["env", "raw_env"]
