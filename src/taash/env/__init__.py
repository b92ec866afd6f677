"""Research adapters: the games as PettingZoo AEC environments (:mod:`taash.env.seep_v0`,
:mod:`taash.env.rummy_v0`) and a Gymnasium single-agent environment that seats taash bots at the other seats
(:mod:`taash.env.single_agent`).

They need the optional extra: ``pip install 'taash[env]'`` (PettingZoo, Gymnasium, NumPy); nothing else in the
package imports them. ``docs/env.md`` documents the observations, the actions and the rewards.
"""
