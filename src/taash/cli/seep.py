"""``taash seep ...``: the engine's contracts (legal, replay), simulations, the benchmark, rules and the arena.

Thin: each command parses its input, calls the engine and prints; the formats are ``shared/seep-protocol.md``.
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import IO, Annotated, Any

import typer
from rich.table import Table

from taash.cli.common import answer_documents, fail, out, progress_bar, read_input, user_errors
from taash.cli.seep_bench import run_bench
from taash.cli.seep_sheets import Summary, score_sheet
from taash.i18n import _
from taash.seep.notation import legal_outcomes, position_from_json
from taash.seep.record import record_from_json, replay, replay_to_json
from taash.seep.rules import PRESETS, Rules, load_rules
from taash.seep.simulate import random_matches

app = typer.Typer(help="Seep: legal plays, records, simulations, benchmark, rules, bots.", no_args_is_help=True,
                  add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)

RulesOption = Annotated[str, typer.Option("--rules", "-r", help="A preset name or a .toml/.json rules file.")]
PlayersOption = Annotated[int, typer.Option("--players", "-p", help="2 or 4 players.")]


def get_rules(spec: str) -> Rules:
    with user_errors():
        return load_rules(spec)


def check_players(players: int) -> None:
    if players not in (2, 4):
        fail(_("--players must be 2 or 4, not {value}", value=players))


def answer_legal(document: object) -> str:
    """The protocol's answer to one position: a JSON array of its legal plays with their outcomes."""
    return json.dumps(legal_outcomes(position_from_json(document)))


@app.command()
def legal(
    file: Annotated[Path | None, typer.Argument(
        help="A position (JSON), or JSON Lines of positions; '-' or nothing reads standard input.")] = None,
) -> None:
    """Every legal play of a position, with its outcome (the protocol's `legal` contract).

    One position in, one JSON array out. JSON Lines in (one position per line), one array per line out, in order.
    """
    answer_documents(file, "position", answer_legal)


@app.command("replay")
def replay_command(
    file: Annotated[Path | None, typer.Argument(help="A game record (JSON); '-' or nothing reads standard input.")]
    = None,
) -> None:
    """Check a game record against the rules and score it (the protocol's `replay` contract).

    Exit status 1 names the deal and play (counted from 1; the bid play is play 1) of the first illegal bid,
    play or dealer; 2 means the record itself is malformed (not JSON, a bad card, a deck that is not 52 distinct
    cards, ...).
    """
    with user_errors():
        record = record_from_json(json.loads(read_input(file, "record")))
        text = json.dumps(replay_to_json(replay(record)))
    sys.stdout.write(text + "\n")


@app.command()
def simulate(
    players: PlayersOption = 4,
    rules: RulesOption = "standard",
    deals: Annotated[int, typer.Option("--deals", "-n", help="Deals to play in all (the last match may be cut "
                                       "short).", min=1)] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="All chance comes from this seed (match k uses "
                                      "seed+k for its cards).")] = 0,
    baazis: Annotated[int, typer.Option("--baazis", "-b", help="Baazis that win a match (0: a single deal).",
                                        min=0)] = 1,
    matches: Annotated[int, typer.Option("--matches", "-m", help="Stop after this many matches (0: no limit).",
                                         min=0)] = 0,
    record: Annotated[Path | None, typer.Option("--record", help="Write one game record per match here "
                                                "(JSON Lines).")] = None,
    sheet: Annotated[bool, typer.Option("--sheet", help="Print each match's score sheet.")] = False,
) -> None:
    """Play random legal matches (every bid and play drawn uniformly from the legal ones) and summarise them."""
    check_players(players)
    chosen = get_rules(rules)
    sink: IO[str] | None = None
    if record is not None:
        with user_errors(str(record)):
            sink = record.open("w", encoding="utf-8")
    summary = Summary(players)
    finished = []
    try:
        with progress_bar("Simulating") as bar:
            task = bar.add_task("deals", total=deals)
            for sim in random_matches(chosen, players, deals, seed, baazis, on_deal=lambda: bar.advance(task),
                                      matches=matches):
                summary.add(sim.match)
                if sink is not None:
                    with user_errors(str(record)):
                        sink.write(json.dumps(sim.record().to_json()) + "\n")
                if sheet:
                    finished.append(sim.match)
        if sink is not None:
            with user_errors(str(record)):
                sink.close()  # writes what is left: a full disk may show only here
    finally:
        if sink is not None and not sink.closed:
            with contextlib.suppress(OSError):  # already reported
                sink.close()
    first = "first to 1 baazi" if baazis == 1 else f"first to {baazis} baazis" if baazis else "a single deal"
    variant = chosen.preset if isinstance(chosen.to_json(), str) else f"{chosen.preset} (custom)"
    for k, match in enumerate(finished, 1):
        out.print(f"[bold]Match {k}[/]: {variant}, {players} players, {first}, seed {match.seed}")
        out.print(score_sheet(match))
        out.print()
    out.print(f"[bold]Summary[/]: {summary.caption()}; {variant}, {players} players, seed {seed}")
    out.print(summary.table())
    if record is not None:
        out.print(f"Records written to {record}")


@app.command()
def bench(
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object.")] = False,
    repeats: Annotated[int, typer.Option(help="Timed repeats (the median is reported).", min=1)] = 11,
    deals: Annotated[int, typer.Option("--deals", "-n", help="Random deals per repeat.", min=1)] = 300,
    warmup: Annotated[int, typer.Option(help="Random deals played first (the first --deals of them timed alone, "
                                             "every cache empty).", min=0)] = 5000,
) -> None:
    """Random full 4-player deals per second and legal-play generations per second, on one core."""
    with progress_bar("Benchmarking", counts=False) as bar:
        task = bar.add_task("bench", total=1)
        result = run_bench(repeats=repeats, deals=deals, warmup=warmup,
                           progress=lambda done: bar.update(task, completed=done))
    if as_json:
        data: dict[str, Any] = {"deals_per_sec": result.deals_per_sec, "legal_per_sec": result.legal_per_sec}
        data.update(result.to_json())
        sys.stdout.write(json.dumps(data) + "\n")
        return
    table = Table(title=f"Seep engine, one core, {result.core} core", title_justify="left")
    table.add_column("measure")
    table.add_column("median", justify="right")
    table.add_row("random full 4-player deals / s", f"{result.deals_per_sec:,.0f}")
    table.add_row("legal-play generations / s", f"{result.legal_per_sec:,.0f}")
    if result.legal_calls_per_sec != result.legal_per_sec:
        table.add_row("  the same through the Python API (lists of plays) / s", f"{result.legal_calls_per_sec:,.0f}")
    table.add_row("mean legal plays per position", f"{result.mean_legal_plays}")
    table.add_row(f"the first {result.deals_per_repeat} deals, caches empty / s", f"{result.cold_deals_per_sec:,.0f}")
    out.print(table)
    out.print(f"{result.repeats} repeats of {result.deals_per_repeat} deals after {warmup} (the first "
              f"{result.deals_per_repeat} of them timed alone); {result.positions} positions; "
              f"Python {result.python} ({result.interpreter})")


def _json_value(value: Any) -> Any:
    return dict(value) if isinstance(value, dict) else list(value) if isinstance(value, tuple) else value


def _parameters(rules: Rules, unlike: Rules | None = None) -> dict[str, Any]:
    """The parameters of ``rules`` as JSON values: all of them, or those that differ from ``unlike``."""
    return {name: _json_value(getattr(rules, name)) for name in rules.__dataclass_fields__
            if unlike is None or getattr(rules, name) != getattr(unlike, name)}


@app.command("rules")
def rules_command(
    preset: Annotated[str | None, typer.Argument(help="A preset or rules file to show in full.")] = None,
) -> None:
    """List the rules presets and what each changes, or print every parameter of one (JSON)."""
    if preset is not None:
        sys.stdout.write(json.dumps(_parameters(get_rules(preset)), indent=1) + "\n")
        return
    base = PRESETS["standard"]
    table = Table(title="Rules presets (`taash seep rules PRESET` prints every parameter)", title_justify="left")
    table.add_column("preset")
    table.add_column("what differs from standard")
    for name, r in PRESETS.items():
        diffs = []
        for key, value in _parameters(r, base).items():
            if key == "card_points":
                changed = " ".join(f"{k}={v}" for k, v in value.items() if base.card_points.get(k) != v)
                dropped = any(k not in value for k in base.card_points)
                diffs.append(f"points {changed}" + (" (no others)" if dropped else ""))
            elif key != "preset":
                diffs.append(f"{key}={value}")
        table.add_row(name, "; ".join(diffs) or "the 100-point game")
    out.print(table)


@app.command()
def arena(
    bots: Annotated[list[str], typer.Argument(help="Two or more bots: random, greedy, heuristic, ismcts, learned, "
                                              "the levels easy, medium, hard, learned, expert, or cheat (a search "
                                              "that sees every card, for measurement only); settings after a "
                                              "colon, such as "
                                              "ismcts:iterations=100,seconds=0.5.")],
    deals: Annotated[int, typer.Option("--deals", "-n", help="Duplicate pairs per pairing.", min=2)] = 200,
    players: PlayersOption = 4,
    rules: RulesOption = "standard",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Pair k of each pairing deals from seed+k.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (at most one per pair and per core).",
                                      min=1)] = 1,
    ray: Annotated[str | None, typer.Option("--ray", help="Play the pairs as Ray tasks instead: auto (the Ray of "
                                            "this machine, or a fresh local one) or a cluster's address such as "
                                            "10.0.0.5:6379. Needs pip install 'taash[ray]'.")] = None,
    out_dir: Annotated[Path | None, typer.Option("--out", help="Write results.json, results.csv, "
                                                  "pairs.csv (every duplicate pair) and results.png here.")] = None,
) -> None:
    """Duplicate-deal matches between every pair of bots: mean margin per deal with its 95% interval."""
    from taash.cli.arena import ArenaSetup, check_bots, run_arena
    from taash.seep.game import SeepGame

    check_players(players)
    check_bots(bots, "seep")
    chosen = get_rules(rules)
    setup = ArenaSetup(SeepGame(chosen, players), f"{players} players, {chosen.preset}", (("baazis A/B", "baazis"),),
                       {"players": players, "rules": chosen.to_json()})
    run_arena(setup, bots, deals, seed, jobs, out_dir, ray)


@app.command()
def train(
    out_dir: Annotated[Path, typer.Option("--out", help="Write data.npz, learned_weights.npz, curve.png and "
                                          "curve.json here.")],
    deals: Annotated[int, typer.Option("--deals", "-n", help="Deals to record; 0 trains on --data alone.",
                                       min=0)] = 200,
    teacher: Annotated[str, typer.Option("--teacher", help="oracle: the heuristic plays and every candidate is "
                                         "played out on the true deal (fast); search: the expert search's "
                                         "values at one team's seats (slow).")] = "oracle",
    iterations: Annotated[int | None, typer.Option("--iterations", help="Play-outs per candidate (oracle, "
                                                   "default 1) or the search's guessed deals per decision "
                                                   "(search, default 100).", min=1, max=100_000)] = None,
    workers: Annotated[int, typer.Option("--workers", "-j", help="Processes recording deals.", min=1, max=512)] = 1,
    ray: Annotated[str | None, typer.Option("--ray", help="Record the deals as Ray tasks instead: auto (the Ray of "
                                            "this machine, or a fresh local one) or a cluster's address such as "
                                            "10.0.0.5:6379 (the same seed gives the same data). Needs pip install "
                                            "'taash[ray]'.")] = None,
    epochs: Annotated[int, typer.Option("--epochs", help="Passes over the data.", min=1, max=10_000)] = 30,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Deal k is dealt from seed+k; the network's start "
                                      "and order from seed.")] = 0,
    data: Annotated[list[Path] | None, typer.Option("--data", help="Earlier data.npz files to train on too "
                                                    "(repeat the option).")] = None,
    hidden: Annotated[int, typer.Option("--hidden", help="Width of the network's layers.", min=4, max=4096)] = 128,
    device: Annotated[str, typer.Option("--device", help="PyTorch's device: cpu, or cuda where there is one.")]
        = "cpu",
) -> None:
    """Train the learned bot (4 players, standard rules) on a teacher's values of the heuristic's best plays;
    needs pip install 'taash[learn]'."""
    from taash.cli.seep_train import run_training

    if teacher not in ("oracle", "search"):
        fail(f"--teacher must be oracle or search, not {teacher[:40]!r}")
    plays = iterations or (1 if teacher == "oracle" else 100)
    run_training(deals, teacher, plays, workers, epochs, seed, out_dir, data or [], hidden, device, ray)
