"""OpenSpiel's own ISMCTS bot against taash's expert at Seep, in duplicate: each deal is played twice with the
seats swapped, so both sides hold the same cards once. Prints each deal and the ISMCTS side's mean margin per
deal (its team's deal score minus the other's) with its standard error.

    PYTHONPATH=src .venv/bin/python benchmarks/openspiel_arena.py --deals 10 --simulations 100

OpenSpiel's ISMCTS (``open_spiel.python.algorithms.ismcts``) searches ``--simulations`` worlds per decision with
random play-outs, each world dealt from the seat's information state by the engine
(:meth:`taash.games.api.State.with_hidden_dealt_again`); taash's ``expert`` is its ISMCTS bot at the level's time
budget (``--expert`` names another taash bot).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from typing import Any


def play_deal(game: Any, seed: int, ismcts_team: int, bots: dict[str, Any], expert_spec: str) -> float:
    """One deal of ``seed``; returns the ISMCTS team's margin."""
    import pyspiel

    from taash.bots.base import make_bot

    state = game.new_initial_state()
    state.apply_action(seed)
    players = game.num_players()
    experts = {s: make_bot(expert_spec, seed * 10 + s, "seep") for s in range(players) if s % 2 != ismcts_team}
    bot = bots["ismcts"]
    bot.reset()
    while not state.is_terminal():
        seat = state.current_player()
        if seat % 2 == ismcts_team:
            action = bot.step(state)
        else:
            chosen = experts[seat].choose(state.state.view(seat))
            action = next(i for i, a in state.legal().items() if a == chosen)
        state.apply_action(action)
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    return float(state.returns()[ismcts_team])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10, help="deals, each played twice (default 10)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--simulations", type=int, default=100, help="ISMCTS worlds per decision (default 100)")
    parser.add_argument("--expert", default="expert", help="the taash bot (default: the expert level)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.deals < 1 or args.simulations < 1:
        parser.error("--deals and --simulations must be at least 1")
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        import taash.env.openspiel  # noqa: F401 (registers the games)
    except ImportError:
        parser.error("the openspiel extra is not installed: pip install 'taash[openspiel]'")
    game = pyspiel.load_game("python_taash_seep", {"players": args.players, "seeds": 1_000_000})
    worlds = random.Random(args.seed)

    def resample(state: Any, player: int) -> Any:
        other = state.clone()
        other.match.state = state.state.with_hidden_dealt_again(player, random.Random(worlds.randrange(2**62)))
        other.match.legal = None
        return other

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(args.seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=args.simulations,
                           random_state=np.random.RandomState(args.seed))
    bot.set_resampler(resample)
    margins: list[float] = []
    seeds = random.Random(args.seed)
    started = time.perf_counter()
    for d in range(args.deals):
        seed = seeds.randrange(1_000_000)
        pair = [play_deal(game, seed, team, {"ismcts": bot}, args.expert) for team in (0, 1)]
        margins += pair
        print(f"deal {d + 1} (seed {seed}): ISMCTS margin {pair[0]:+.0f} as team 0, {pair[1]:+.0f} as team 1",
              flush=True)
    mean = statistics.fmean(margins)
    error = statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else float("nan")
    print(f"OpenSpiel ISMCTS ({args.simulations} worlds a decision) against taash {args.expert}, "
          f"{args.players} players, {len(margins)} deals: mean margin {mean:+.1f} points a deal "
          f"(standard error {error:.1f}); {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
