"""``taash rummy ...``: 13-card Rummy's rules, record replay and random simulations.

Thin: each command parses its input, calls the engine and prints; the formats are ``shared/rummy-protocol.md``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import IO, Annotated, Any

import typer
from rich.table import Table

from taash.cli.common import fail, out, progress_bar, read_input, user_errors
from taash.cli.rummy_hands import register as register_hand_commands
from taash.cli.rummy_play import play as rummy_play
from taash.rummy.match import FORMATS, get_format
from taash.rummy.record import replay_json
from taash.rummy.rules import PLAYER_COUNTS, PRESETS, Rules, load_rules
from taash.rummy.simulate import random_matches

app = typer.Typer(help="13-card Indian Rummy: hand checks, rules, record replay, random simulations, the solver's "
                  "benchmark.", no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  rich_markup_mode=None)
register_hand_commands(app)  # check and bench
app.command("play", short_help="Play a match of 13-card Rummy against bots in the terminal.")(rummy_play)


def get_rules(spec: str) -> Rules:
    with user_errors():
        return load_rules(spec)


def _parameters(rules: Rules) -> dict[str, Any]:
    """Every parameter of ``rules`` as JSON values."""
    data: dict[str, Any] = {}
    for name in rules.__dataclass_fields__:
        value = getattr(rules, name)
        data[name] = {str(k): list(v) for k, v in value.items()} if isinstance(value, dict) else value
    return data


@app.command("rules")
def rules_command(
    spec: Annotated[str | None, typer.Argument(help="A preset or a .toml/.json rules file to show in full.")] = None,
) -> None:
    """List the rules presets and what each changes, or print every parameter of one (JSON)."""
    if spec is not None:
        sys.stdout.write(json.dumps(_parameters(get_rules(spec)), indent=1) + "\n")
        return
    base = _parameters(PRESETS["octro"])
    table = Table(title="Rules presets (`taash rummy rules PRESET` prints every parameter)", title_justify="left")
    table.add_column("preset")
    table.add_column("what differs from octro")
    for name, rules in PRESETS.items():
        diffs = [f"{k}={json.dumps(v)}" for k, v in _parameters(rules).items() if k != "preset" and base[k] != v]
        table.add_row(name, "; ".join(diffs) or "the seed's game (the default)")
    out.print(table)
    out.print(f"Match formats (simulate --format): {', '.join(FORMATS)}")


@app.command("replay")
def replay_command(
    file: Annotated[Path | None, typer.Argument(help="A game record (JSON); '-' or nothing reads standard input.")]
    = None,
) -> None:
    """Check a game record against the rules and score it (the protocol's `replay` contract).

    Exit status 1 names the deal and turn (from 1) of the first illegal turn or dealer; 2 means the record itself
    is malformed (not JSON, an unknown card, a pack that is not the rules' pack, ...).
    """
    with user_errors():
        text = json.dumps(replay_json(json.loads(read_input(file, "record"))))
    sys.stdout.write(text + "\n")


@app.command()
def simulate(
    players: Annotated[int, typer.Option("--players", "-p", help="2 to 6 players.")] = 4,
    rules: Annotated[str, typer.Option("--rules", "-r", help="A preset name or a .toml/.json rules file.")]
    = "octro",
    fmt: Annotated[str, typer.Option("--format", "-f", help=f"The match format: {', '.join(FORMATS)}.")]
    = "points",
    matches: Annotated[int, typer.Option("--matches", "-m", help="Matches to play.", min=1)] = 10,
    seed: Annotated[int, typer.Option("--seed", "-s", help="All chance comes from this seed (match k deals from "
                                      "seed+k).")] = 0,
    record: Annotated[Path | None, typer.Option("--record", help="Write one game record per match here "
                                                "(JSON Lines).")] = None,
) -> None:
    """Play random legal matches and summarise them (who won, points, how deals ended)."""
    if players not in PLAYER_COUNTS:
        fail(f"--players must be 2 to 6, not {players}")
    chosen = get_rules(rules)
    with user_errors():
        match_format = get_format(fmt)
    sink: IO[str] | None = None
    if record is not None:
        with user_errors():
            sink = record.open("w", encoding="utf-8")
    wins = [0] * players
    totals = [0] * players
    deals = valid = drops = wrong = reshuffles = turns = 0
    try:
        with progress_bar("Simulating") as bar:
            task = bar.add_task("matches", total=matches)
            for sim in random_matches(chosen, players, match_format, matches, seed):
                match = sim.match
                if match.winner is not None:
                    wins[match.winner] += 1
                for s in range(players):
                    totals[s] += match.totals[s]
                for deal in match.past:
                    result = deal.result()
                    deals += 1
                    valid += result.declared
                    drops += len(result.dropped)
                    wrong += len(result.wrong)
                    turns += len(deal.turns)
                    reshuffles += sum(t.reshuffled for t in deal.turns)
                if sink is not None:
                    with user_errors():
                        sink.write(json.dumps(sim.record().to_json()) + "\n")
                bar.advance(task)
    finally:
        if sink is not None:
            sink.close()
    variant = chosen.preset if isinstance(chosen.to_json(), str) else f"{chosen.preset} (custom)"
    table = Table(title=f"{matches} random matches: {variant}, {players} players, {match_format.name}, seed {seed}",
                  title_justify="left")
    for column in ("seat", "matches won", "mean points per match"):
        table.add_column(column, justify="right")
    for s in range(players):
        table.add_row(str(s), str(wins[s]), f"{totals[s] / matches:.1f}")
    out.print(table)
    out.print(f"{deals} deals ({turns / max(deals, 1):.1f} turns each): {valid} won by a valid declaration, "
              f"{deals - valid} by the last player left; {drops} drops, {wrong} wrong declarations, "
              f"{reshuffles} reshuffles of the discard pile")
    if record is not None:
        out.print(f"Records written to {record}")


@app.command()
def arena(
    bots: Annotated[list[str], typer.Argument(help="Two or more bots: random, greedy, heuristic, or the levels "
                                              "easy, medium, hard.")],
    deals: Annotated[int, typer.Option("--deals", "-n", help="Duplicate pairs per pairing.", min=2)] = 200,
    players: Annotated[int, typer.Option("--players", "-p", help="2 to 6 players.")] = 2,
    rules: Annotated[str, typer.Option("--rules", "-r", help="A preset name or a .toml/.json rules file.")]
    = "octro",
    fmt: Annotated[str, typer.Option("--format", "-f", help=f"The match format: {', '.join(FORMATS)}.")]
    = "points",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Pair k of each pairing deals from seed+k.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (at most one per pair and per core).",
                                      min=1)] = 1,
    ray: Annotated[str | None, typer.Option("--ray", help="Play the pairs as Ray tasks instead: auto (the Ray of "
                                            "this machine, or a fresh local one) or a cluster's address such as "
                                            "10.0.0.5:6379. Needs pip install 'taash[ray]'.")] = None,
    out_dir: Annotated[Path | None, typer.Option("--out", help="Write results.json, results.csv, "
                                                  "pairs.csv (every duplicate pair) and results.png here.")] = None,
) -> None:
    """Duplicate-deal matches between every pair of bots: mean margin per game with its 95% interval.

    At 2 players each pair plays its seed twice, the seats exchanged; at n = 3 to 6, 2n times: each bot alone at
    every seat against a table of the other. A game's margin is A's mean return less B's (points format: the
    points the losers pay the winner; pool and deals formats: 1 for a match won, shared losses).
    """
    from taash.cli.arena import ArenaSetup, check_bots, run_arena
    from taash.rummy.game import RummyGame

    if players not in PLAYER_COUNTS:
        fail(f"--players must be 2 to 6, not {players}")
    chosen = get_rules(rules)
    with user_errors():
        match_format = get_format(fmt)
    check_bots(bots, "rummy")
    single = match_format.kind == "points"
    setup = ArenaSetup(RummyGame(chosen, players, match_format),
                       f"{players} players, {chosen.preset}, {match_format.name}",
                       (("drops A/B", "drops"), ("wrong A/B", "wrong declarations"),
                        ("declared A/B", "valid declarations")),
                       {"players": players, "rules": chosen.to_json(), "format": match_format.name},
                       "deal" if single else "match", "deals" if single else "matches")
    run_arena(setup, bots, deals, seed, jobs, out_dir, ray)
