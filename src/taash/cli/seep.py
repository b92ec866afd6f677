"""``taash seep ...``: the engine's contracts (legal, replay), simulations, the benchmark, rules and the arena.

Thin: each command parses its input, calls the engine and prints; the formats are ``shared/seep-protocol.md``.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import IO, Annotated, Any

import typer
from rich.table import Table

from taash.benchmarks.seep import run_bench
from taash.cli.common import answer_documents, fail, out, progress_bar, read_input, user_errors
from taash.cli.sheets import Summary, score_sheet
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
        fail(f"--players must be 2 or 4, not {players}")


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
    table = Table(title="Seep engine, one core, pure Python", title_justify="left")
    table.add_column("measure")
    table.add_column("median", justify="right")
    table.add_row("random full 4-player deals / s", f"{result.deals_per_sec:,.0f}")
    table.add_row("legal-play generations / s", f"{result.legal_per_sec:,.0f}")
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


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def worker_count(jobs: int, pairs: int) -> int:
    """``--jobs``, capped by the work (pairs a pairing) and the cores; a capped count is said on standard error."""
    available = cores()
    workers = min(jobs, pairs, available)
    if workers < jobs:
        limit = f"the {pairs} pairs of a pairing" if pairs < available else f"the {available} cores"
        print(f"taash: --jobs {jobs} is more than {limit}: {workers} worker process{'es' if workers > 1 else ''}",
              file=sys.stderr)
    return workers


def _pair_job(args: tuple[str, str, Rules, int, int]) -> Any:
    from taash.arena.duplicate import play_pair
    from taash.seep.game import SeepGame

    a, b, rules, players, seed = args
    return play_pair(a, b, SeepGame(rules, players), seed)


def _flat(summary: dict[str, Any]) -> dict[str, Any]:
    """A pairing's summary with the game's tallies as columns of their own (``a_baazis``, ``b_baazis``)."""
    tallies = summary.pop("tallies")
    for name, (a, b) in tallies.items():
        summary[f"a_{name}"], summary[f"b_{name}"] = a, b
    return summary


@app.command()
def arena(
    bots: Annotated[list[str], typer.Argument(help="Two or more bots: random, greedy, heuristic, ismcts, the levels "
                                              "easy, medium, hard, expert, or cheat (a search that sees every card, "
                                              "for measurement only); settings after a colon, such as "
                                              "ismcts:iterations=100,seconds=0.5.")],
    deals: Annotated[int, typer.Option("--deals", "-n", help="Duplicate pairs per pairing.", min=2)] = 200,
    players: PlayersOption = 4,
    rules: RulesOption = "standard",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Pair k of each pairing deals from seed+k.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (at most one per pair and per core).",
                                      min=1)] = 1,
    out_dir: Annotated[Path | None, typer.Option("--out", help="Write results.json, results.csv, "
                                                  "pairs.csv (every duplicate pair) and results.png here.")] = None,
) -> None:
    """Duplicate-deal matches between every pair of bots: mean margin per deal with its 95% interval."""
    import csv
    from concurrent.futures import ProcessPoolExecutor
    from dataclasses import asdict
    from itertools import combinations

    from taash.arena.chart import draw
    from taash.arena.duplicate import make_arena_bot, ratings, summarise

    check_players(players)
    if len(bots) < 2:
        fail("name at least two bots")
    for name in bots:
        try:
            make_arena_bot(name, 0)
        except ValueError as e:
            fail(str(e))
    chosen = get_rules(rules)
    pairings = list(combinations(bots, 2))
    if len(set(bots)) != len(bots):
        fail("name each bot once")
    workers = worker_count(jobs, deals)
    summaries = []
    played = []
    with progress_bar("Arena") as bar, contextlib.ExitStack() as stack:
        pool = stack.enter_context(ProcessPoolExecutor(workers)) if workers > 1 else None
        task = bar.add_task("pairs", total=len(pairings) * deals)
        for a, b in pairings:
            work = [(a, b, chosen, players, seed + k) for k in range(deals)]
            results = []
            if pool is None:
                for item in work:
                    results.append(_pair_job(item))
                    bar.advance(task)
            else:
                for r in pool.map(_pair_job, work, chunksize=max(1, min(16, deals // (4 * workers)))):
                    results.append(r)
                    bar.advance(task)
            summaries.append(summarise(a, b, results))
            played.append((a, b, results))
    rated = ratings(played)
    table = Table(title=f"Duplicate deals ({players} players, {chosen.preset}, {deals} pairs each)",
                  title_justify="left")
    for col in ("A", "B", "margin/deal A-B", "95% CI", "deals won A/B", "baazis A/B", "ms A p50/p95",
                "ms B p50/p95"):
        table.add_column(col, justify="right")
    for s in summaries:
        table.add_row(s.bot_a, s.bot_b, f"{s.mean_margin:+.1f}", f"±{s.ci95:.1f}",
                      f"{s.a_deals_won}/{s.b_deals_won}", "{}/{}".format(*s.tallies.get("baazis", (0, 0))),
                      f"{s.a_ms_median:.2f}/{s.a_ms_p95:.2f}", f"{s.b_ms_median:.2f}/{s.b_ms_p95:.2f}")
    out.print(table)
    rating_table = Table(title="Ratings (OpenSkill, every game)", title_justify="left")
    for col in ("bot", "mu", "sigma"):
        rating_table.add_column(col, justify="right")
    for name, (mu, sigma) in sorted(rated.items(), key=lambda kv: -kv[1][0]):
        rating_table.add_row(name, f"{mu:.1f}", f"{sigma:.2f}")
    out.print(rating_table)
    if out_dir is not None:
        with user_errors(str(out_dir)):
            out_dir.mkdir(parents=True, exist_ok=True)
            data = {"pairings": [_flat(asdict(s)) for s in summaries],
                    "ratings": {n: {"mu": mu, "sigma": sg} for n, (mu, sg) in rated.items()},
                    "players": players, "rules": chosen.to_json(), "pairs": deals, "seed": seed}
            (out_dir / "results.json").write_text(json.dumps(data, indent=1) + "\n")
            draw(summaries, rated, out_dir / "results.png",
                 f"Duplicate deals: {players} players, {chosen.preset}, {deals} pairs per pairing")
            with (out_dir / "results.csv").open("w", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=list(_flat(asdict(summaries[0]))))
                writer.writeheader()
                writer.writerows(_flat(asdict(s)) for s in summaries)
            with (out_dir / "pairs.csv").open("w", newline="") as f:
                rows = csv.writer(f)
                rows.writerow(["bot_a", "bot_b", "seed", "margin", "a_margin_game1", "a_margin_game2",
                               "a_deals_won", "b_deals_won", "a_baazis", "b_baazis"])
                for a, b, results in played:
                    for r in results:
                        rows.writerow([a, b, r.seed, r.margin, *r.a_game_margins, r.a_deals_won, r.b_deals_won,
                                       *r.tallies.get("baazis", (0, 0))])
        out.print(f"Results written to {out_dir}/results.json, results.csv, pairs.csv and results.png")
