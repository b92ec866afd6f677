"""Research adapters: the games as PettingZoo AEC environments (:mod:`taash.env.seep_v0`,
:mod:`taash.env.rummy_v0`) and a Gymnasium single-agent environment that seats taash bots at the other seats
(:mod:`taash.env.single_agent`); both games registered with OpenSpiel (:mod:`taash.env.openspiel`); and Seep
batched for training at speed, N games stepped inside the compiled core (:mod:`taash.env.seep_batch`).

They need the optional extras: ``pip install 'taash[env]'`` (PettingZoo, Gymnasium, NumPy), and
``'taash[openspiel]'`` for OpenSpiel; nothing else in the package imports them. ``docs/env.md`` documents the
observations, the actions and the rewards.
"""
