"""The server's CPU per move at a game's tables, in one process, with no network: a Hub on a fresh SQLite file,
every seat connected, each round one move at each of ``--tables`` tables at once (so that the writes share
commits, as under load), each move drawn at random among the legal takes and discards (Rummy) or plays (Seep)
that the seat's last message offered, as ``taash web loadtest`` does.

    PYTHONPATH=src .venv/bin/python benchmarks/hub_moves.py --game rummy [--tables 40] [--rounds 80]
        [--repeats 5] [--spectators] [--same-deals] [--profile FILE]

Prints the CPU time (the whole process: the event loop and the database's writer thread) per move of each
repeat and their median; what the connections are sent is parsed only outside the timed part. ``--profile``
writes a cProfile of the event loop's side (``python -m pstats FILE``) and prints its top entries.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from taash.tables.adapter import adapter
from taash.tables.table import Table
from taash.web.db import make_engine, migrate
from taash.web.hub import Connection, Hub, Live
from taash.web.store import Store

#: Each game's table, as the load test asks for it.
GAMES: dict[str, tuple[int, Any, Any]] = {"rummy": (6, None, "pool201"), "seep": (4, None, 20)}


async def seat_tables(hub: Hub, game: str, tables: int, spectators: bool, repeat: int,
                      seed: int) -> list[tuple[Live, list[Connection]]]:
    """New tables, each seat taken by a person with a connection open (and a spectator's, if asked)."""
    seats, rules, length = GAMES[game]
    out = []
    for t in range(tables):
        settings = adapter(game).settings(seats, rules, length, "medium", False)
        owner = f"g{repeat}-{t}-0"
        live = await hub.create(settings, owner)
        live.table = Table(live.table.id, live.table.code, settings, seed + t, owner)  # the same deals each run
        for s in range(seats):
            await hub.act(live, {"type": "sit", "seat": s, "name": f"P{s}"}, f"g{repeat}-{t}-{s}")
        conns = [hub.join(live, f"g{repeat}-{t}-{s}", None) for s in range(seats)]
        if spectators:
            conns.append(hub.join(live, None, None))
        await hub.act(live, {"type": "start"}, owner)
        out.append((live, conns))
    return out


def last_messages(conns: list[Connection]) -> dict[int, dict[str, Any]]:
    """Each seat's last message (parsed), the queues emptied."""
    last: dict[int, dict[str, Any]] = {}
    for conn in conns:
        text = None
        while not conn.queue.empty():
            text = conn.queue.get_nowait()
        if text is not None and conn.seat is not None:
            message = json.loads(text)
            if "state" in message:
                last[conn.seat] = message
    return last


def choose(rng: random.Random, message: dict[str, Any]) -> dict[str, Any] | None:
    deal = message["state"].get("deal")
    if not deal:
        return None
    if deal.get("bids"):
        return {"type": "bid", "value": rng.choice(deal["bids"])}
    legal = deal.get("legal") or []
    if not legal:
        return None
    if "play" in legal[0]:
        return {"type": "play", "play": rng.choice(legal)["play"]}
    moves = [m for m in legal if m["type"] in ("take", "discard")]
    return dict(rng.choice(moves or legal))


async def run(game: str, tables: int, rounds: int, repeats: int, spectators: bool, seed: int, same_deals: bool,
              profile: cProfile.Profile | None) -> list[float]:
    with tempfile.TemporaryDirectory(prefix="taash-hub-moves-") as tmp:
        engine = make_engine(f"sqlite:///{Path(tmp) / 'bench.db'}")
        migrate(engine)
        store = Store(engine)
        hub = Hub(store, bot_delay=3600, away_seconds=3600, turn_seconds=3600)
        per_move: list[float] = []
        made = 0
        for repeat in range(repeats + 1):  # the first, untimed: warm-up
            # Each repeat its own deals, or (same_deals) the warm-up's again: then the hands' arrangements are
            # remembered from the warm-up, and what is timed is everything but the Rummy hand solver.
            seated = await seat_tables(hub, game, tables, spectators, repeat,
                                       1000 * (0 if same_deals else repeat) + seed)
            rng = random.Random(seed if same_deals else seed + repeat)
            last = [last_messages(conns) for _, conns in seated]
            spent = 0.0
            moves = 0
            for _ in range(rounds):
                todo = []
                for t, ((live, _), seen) in enumerate(zip(seated, last, strict=True)):
                    seat = live.table.to_move()
                    if seat is None or seat not in seen:
                        continue
                    action = choose(rng, seen[seat])
                    if action is not None:
                        todo.append((live, action, f"g{repeat}-{t}-{seat}"))
                if not todo:
                    break
                start = time.process_time()
                if profile is not None and repeat:
                    profile.enable()
                await asyncio.gather(*(hub.act(live, action, guest, f"m{made + i}", live.table.version)
                                       for i, (live, action, guest) in enumerate(todo)))
                if profile is not None:
                    profile.disable()
                spent += time.process_time() - start
                moves += len(todo)
                made += len(todo)
                last = [{**seen, **last_messages(conns)} for (_, conns), seen in zip(seated, last, strict=True)]
            if repeat:
                per_move.append(spent / moves * 1000)
                print(f"repeat {repeat}: {moves} moves, {per_move[-1]:.3f} ms of CPU a move", flush=True)
            for live, conns in seated:
                for conn in conns:
                    hub.leave(live, conn)
        await hub.close()
        store.close()
        engine.dispose()
        return per_move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="rummy")
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=80,
                        help="moves per table in each repeat (a 30 s load test makes about 80)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--spectators", action="store_true", help="a spectator at each table too")
    parser.add_argument("--same-deals", action="store_true",
                        help="every repeat plays the warm-up's deals and moves again (the solver's answers remembered)")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the timed moves here")
    args = parser.parse_args()
    profile = cProfile.Profile() if args.profile else None
    per_move = asyncio.run(run(args.game, args.tables, args.rounds, args.repeats, args.spectators, args.seed,
                               args.same_deals, profile))
    print(f"median: {statistics.median(per_move):.3f} ms of CPU a move ({args.game}, {args.tables} tables, "
          f"{'with' if args.spectators else 'no'} spectators{', the same deals' if args.same_deals else ''})")
    if profile is not None:
        profile.dump_stats(args.profile)
        pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
