"""``taash seep ...``: the engine's contracts (legal, replay), simulations and the benchmark."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from taash.cards import CardError
from taash.seep.errors import RecordError, SeepError
from taash.seep.match import DealResult
from taash.seep.notation import legal_outcomes, position_from_json
from taash.seep.record import record_from_json, replay, replay_to_json
from taash.seep.rules import PRESETS, Rules, load_rules

app = typer.Typer(help="Seep: legal plays, records, simulations, benchmark.", no_args_is_help=True,
                  pretty_exceptions_enable=False)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

BAD_INPUT = 2
ILLEGAL = 1


def fail(message: str, code: int = BAD_INPUT) -> NoReturn:
    """One line on standard error, then exit."""
    first = " ".join(str(message).split())
    print(f"taash: {first}", file=sys.stderr)
    raise typer.Exit(code)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn every error a user can cause into one line and an exit status."""
    try:
        yield
    except RecordError as e:
        fail(str(e), ILLEGAL if e.illegal else BAD_INPUT)
    except (SeepError, CardError) as e:
        fail(str(e))
    except json.JSONDecodeError as e:
        fail(f"not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})")
    except OSError as e:
        fail(f"{getattr(e, 'filename', '') or 'input'}: {e.strerror or e}")
    except UnicodeDecodeError:
        fail("input is not UTF-8 text")


def read_input(file: Path | None) -> str:
    if file is None or str(file) == "-":
        return sys.stdin.read()
    return file.read_text(encoding="utf-8")


def get_rules(spec: str) -> Rules:
    with user_errors():
        return load_rules(spec)


RulesOption = Annotated[str, typer.Option("--rules", "-r", help="A preset name or a .toml/.json rules file.")]


@app.command()
def legal(
    file: Annotated[Path | None, typer.Argument(help="Position JSON, or JSON Lines of positions (default: stdin).")]
    = None,
) -> None:
    """Every legal play of a position, with its outcome (protocol `legal` contract).

    One position in, one JSON array out. JSON Lines in (one position per line), one array per line out.
    """
    with user_errors():
        text = read_input(file)
        stripped = text.strip()
        if not stripped:
            fail("no position given (a JSON object, or JSON Lines of them)")
        lines = [line for line in stripped.splitlines() if line.strip()]
        try:
            single = [json.loads(stripped)]
            many = False
        except json.JSONDecodeError:
            if len(lines) < 2:
                raise
            many = True
        if many:
            answers = []
            for n, line in enumerate(lines, 1):
                try:
                    position = position_from_json(json.loads(line))
                except json.JSONDecodeError as e:
                    fail(f"line {n}: not valid JSON: {e.msg} (column {e.colno})")
                except (SeepError, CardError) as e:
                    fail(f"line {n}: {e}")
                answers.append(json.dumps(legal_outcomes(position)))
            sys.stdout.write("\n".join(answers) + "\n")
        else:
            sys.stdout.write(json.dumps(legal_outcomes(position_from_json(single[0]))) + "\n")


@app.command("replay")
def replay_command(
    file: Annotated[Path | None, typer.Argument(help="A game record (default: stdin).")] = None,
) -> None:
    """Check a game record against the rules and score it (protocol `replay` contract).

    Exit status 1 names the deal and play index of the first illegal bid, play or dealer; 2 means the record
    itself is malformed.
    """
    with user_errors():
        record = record_from_json(json.loads(read_input(file)))
        sys.stdout.write(json.dumps(replay_to_json(replay(record))) + "\n")


def progress_bar(total: float, label: str) -> Progress:
    return Progress(
        TextColumn(f"[bold]{label}"), BarColumn(), TextColumn("{task.completed:.0f}/{task.total:.0f}"),
        TimeElapsedColumn(), TimeRemainingColumn(), console=err, transient=True, disable=not err.is_terminal,
    )


TEAM_SHORT = {4: ("NS", "EW"), 2: ("P1", "P2")}
SEAT_NAMES = {4: ("North", "West", "South", "East"), 2: ("Player 1", "Player 2")}
SEAT_SHORT = {4: ("N", "W", "S", "E"), 2: ("P1", "P2")}


def score_sheet(results: list[DealResult], players: int, title: str) -> Table:
    """A match's score sheet: one row a deal (fits an 80-column terminal)."""
    teams = TEAM_SHORT[players]
    table = Table(title=title, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Dealer")
    for name in teams:
        table.add_column(f"{name} cards", justify="right")
        table.add_column("sweeps", justify="right")
        table.add_column(f"{name} score", justify="right")
    table.add_column("Lead", justify="right")
    table.add_column("Baazi")
    for i, r in enumerate(results, 1):
        cells = [str(i), SEAT_SHORT[players][r.dealer]]
        for t in (0, 1):
            cells += [str(r.score.card_points[t]), str(r.score.sweep_points[t]), f"[bold]{r.score.score[t]}"]
        lead = "-" if r.difference == 0 else f"{teams[0 if r.difference > 0 else 1]} +{abs(r.difference)}"
        baazi = ""
        if r.baazi is not None:
            baazi = f"[green]{teams[r.baazi]}" + (" (min)" if r.minimum_rule else "")
        cells += [lead, baazi]
        table.add_row(*cells)
    return table


@app.command()
def simulate(
    players: Annotated[int, typer.Option("--players", "-p", help="2 or 4 players.")] = 4,
    rules: RulesOption = "standard",
    deals: Annotated[int, typer.Option("--deals", "-n", help="Deals to play in all.", min=1)] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="All chance comes from this seed.")] = 0,
    baazis: Annotated[int, typer.Option("--baazis", "-b", help="Baazis to win a match (0: single deal).", min=0)]
    = 1,
    record: Annotated[Path | None, typer.Option("--record", help="Write the game records here (JSON Lines).")]
    = None,
    sheet: Annotated[bool, typer.Option("--sheet", help="Print each match's score sheet.")] = False,
    matches: Annotated[int, typer.Option("--matches", "-m", help="Stop after this many matches (0: no limit).",
                                         min=0)] = 0,
) -> None:
    """Play random legal matches (uniform random bids and plays) and summarise them."""
    from taash.seep.simulate import random_matches

    if players not in (2, 4):
        fail("--players must be 2 or 4")
    chosen = get_rules(rules)
    sims = []
    with progress_bar(deals, "Simulating") as bar:
        task = bar.add_task("deals", total=deals)
        for sim in random_matches(chosen, players, deals, seed, baazis, on_deal=lambda: bar.advance(task),
                                  matches=matches):
            sims.append(sim)
    if record is not None:
        with user_errors(), record.open("w", encoding="utf-8") as f:
            for sim in sims:
                f.write(json.dumps(sim.record().to_json()) + "\n")
    if sheet:
        for k, sim in enumerate(sims, 1):
            m = sim.match
            title = f"Match {k} ({chosen.preset}, {players} players, seed {m.seed})"
            out.print(score_sheet(m.results, players, title))
            w = m.winner()
            if m.over:
                teams = ("North-South", "East-West") if players == 4 else SEAT_NAMES[2]
                out.print(f"Winner: [bold]{teams[w]}[/bold]\n" if w is not None else "A draw.\n")
            else:
                out.print("(match cut short)\n")
    summary = Table(title="Summary", title_justify="left")
    t0, t1 = TEAM_SHORT[players]
    columns = ("matches", "deals", f"{t0} baazis", f"{t1} baazis", "deals with a sweep", f"{t0} mean", f"{t1} mean")
    for col in columns:
        summary.add_column(col, justify="right")
    results = [r for s in sims for r in s.match.results]
    sweeps = sum(r.score.sweep_points[0] > 0 or r.score.sweep_points[1] > 0 for r in results)
    b0 = sum(s.match.baazis[0] for s in sims)
    b1 = sum(s.match.baazis[1] for s in sims)
    mean = [sum(r.score.score[t] for r in results) / max(1, len(results)) for t in (0, 1)]
    summary.add_row(str(len(sims)), str(len(results)), str(b0), str(b1), str(sweeps),
                    f"{mean[0]:.1f}", f"{mean[1]:.1f}")
    out.print(summary)
    if record is not None:
        out.print(f"Records written to {record}")


@app.command()
def bench(
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    repeats: Annotated[int, typer.Option(help="Timed repeats (the median is reported).", min=1)] = 7,
    deals: Annotated[int, typer.Option(help="Random deals per repeat.", min=1)] = 500,
    warmup: Annotated[int, typer.Option(help="Random deals played first, untimed.", min=0)] = 1500,
) -> None:
    """Random full 4-player deals per second and legal-play generations per second, on one core."""
    from taash.benchmarks.seep import run_bench

    with progress_bar(1, "Benchmarking") as bar:
        task = bar.add_task("bench", total=1)
        result = run_bench(repeats=repeats, deals=deals, warmup=warmup,
                           progress=lambda f: bar.update(task, completed=f))
    if as_json:
        data: dict[str, Any] = {"deals_per_sec": result.deals_per_sec, "legal_per_sec": result.legal_per_sec}
        data.update({k: v for k, v in result.to_json().items() if k not in data})
        sys.stdout.write(json.dumps(data) + "\n")
        return
    table = Table(title="Seep engine, one core, pure Python", title_justify="left")
    table.add_column("measure")
    table.add_column("median", justify="right")
    table.add_row("random full 4-player deals / s", f"{result.deals_per_sec:,.0f}")
    table.add_row("legal-play generations / s", f"{result.legal_per_sec:,.0f}")
    table.add_row("mean legal plays per position", f"{result.mean_legal_plays}")
    out.print(table)
    out.print(f"{result.repeats} repeats of {result.deals_per_repeat} deals after {warmup} untimed; "
              f"{result.positions} positions; Python {result.python}")


@app.command("rules")
def rules_command(
    preset: Annotated[str | None, typer.Argument(help="A preset or rules file to show in full.")] = None,
) -> None:
    """List the rules presets, or show every parameter of one."""
    if preset is None:
        table = Table(title="Rules presets", title_justify="left")
        table.add_column("preset")
        table.add_column("what differs from standard")
        base = PRESETS["standard"]
        for name, r in PRESETS.items():
            diffs = []
            for f in r.__dataclass_fields__:
                if f == "preset" or getattr(r, f) == getattr(base, f):
                    continue
                if f == "card_points":
                    changed = {k: v for k, v in r.card_points.items() if base.card_points.get(k) != v}
                    gone = [k for k in base.card_points if k not in r.card_points]
                    diffs.append("points " + " ".join(f"{k}={v}" for k, v in changed.items())
                                 + (" (no others)" if gone else ""))
                else:
                    diffs.append(f"{f}={getattr(r, f)}")
            table.add_row(name, "; ".join(diffs) or "(the 100-point game)")
        out.print(table)
        return
    chosen = get_rules(preset)
    sys.stdout.write(json.dumps({"preset": chosen.preset, **{
        k: (dict(v) if hasattr(v, "items") else list(v) if isinstance(v, tuple) else v)
        for k, v in ((f, getattr(chosen, f)) for f in chosen.__dataclass_fields__) if k != "preset"
    }}, indent=1) + "\n")


def _pair_job(args: tuple[str, str, Rules, int, int]) -> Any:
    from taash.arena.duplicate import play_pair

    return play_pair(*args)


@app.command()
def arena(
    bots: Annotated[list[str], typer.Argument(help="Two or more bots: random, greedy.")],
    deals: Annotated[int, typer.Option("--deals", "-n", help="Duplicate pairs per pairing.", min=2)] = 200,
    players: Annotated[int, typer.Option("--players", "-p", help="2 or 4 players.")] = 4,
    rules: RulesOption = "standard",
    seed: Annotated[int, typer.Option("--seed", "-s")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes.", min=1)] = 1,
    out_dir: Annotated[Path | None, typer.Option("--out", help="Write results.json and results.csv here.")] = None,
) -> None:
    """Duplicate-deal matches between every pair of bots: mean margin per deal with its 95% interval."""
    import csv
    from concurrent.futures import ProcessPoolExecutor
    from dataclasses import asdict
    from itertools import combinations

    from taash.arena.chart import draw
    from taash.arena.duplicate import ratings, summarise
    from taash.bots.base import make_bot

    if players not in (2, 4):
        fail("--players must be 2 or 4")
    if len(bots) < 2:
        fail("name at least two bots")
    for name in bots:
        try:
            make_bot(name, 0)
        except ValueError as e:
            fail(str(e))
    chosen = get_rules(rules)
    pairings = list(combinations(bots, 2))
    if len(set(bots)) != len(bots):
        fail("name each bot once")
    summaries = []
    played = []
    with progress_bar(len(pairings) * deals, "Arena") as bar:
        task = bar.add_task("pairs", total=len(pairings) * deals)
        for a, b in pairings:
            work = [(a, b, chosen, players, seed + k) for k in range(deals)]
            results = []
            if jobs == 1:
                for item in work:
                    results.append(_pair_job(item))
                    bar.advance(task)
            else:
                with ProcessPoolExecutor(jobs) as pool:
                    for r in pool.map(_pair_job, work, chunksize=max(1, min(16, deals // (4 * jobs)))):
                        results.append(r)
                        bar.advance(task)
            summaries.append(summarise(a, b, results))
            played.append((a, b, results))
    rated = ratings(played)
    table = Table(title=f"Duplicate deals ({players} players, {chosen.preset}, {deals} pairs each)",
                  title_justify="left")
    for col in ("A", "B", "margin/deal A-B", "95% CI", "won A", "won B", "ms A p50/p95", "ms B p50/p95"):
        table.add_column(col, justify="right")
    for s in summaries:
        table.add_row(s.bot_a, s.bot_b, f"{s.mean_margin:+.1f}", f"±{s.ci95:.1f}", str(s.a_deals_won),
                      str(s.b_deals_won), f"{s.a_ms_median:.2f}/{s.a_ms_p95:.2f}",
                      f"{s.b_ms_median:.2f}/{s.b_ms_p95:.2f}")
    out.print(table)
    rating_table = Table(title="Ratings (OpenSkill, every game)", title_justify="left")
    for col in ("bot", "mu", "sigma"):
        rating_table.add_column(col, justify="right")
    for name, (mu, sigma) in sorted(rated.items(), key=lambda kv: -kv[1][0]):
        rating_table.add_row(name, f"{mu:.1f}", f"{sigma:.2f}")
    out.print(rating_table)
    if out_dir is not None:
        with user_errors():
            out_dir.mkdir(parents=True, exist_ok=True)
            data = {"pairings": [asdict(s) for s in summaries],
                    "ratings": {n: {"mu": mu, "sigma": sg} for n, (mu, sg) in rated.items()},
                    "players": players, "rules": chosen.to_json(), "pairs": deals, "seed": seed}
            (out_dir / "results.json").write_text(json.dumps(data, indent=1) + "\n")
            draw(summaries, rated, out_dir / "results.png",
                 f"Duplicate deals: {players} players, {chosen.preset}, {deals} pairs per pairing")
            with (out_dir / "results.csv").open("w", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=list(asdict(summaries[0])))
                writer.writeheader()
                writer.writerows(asdict(s) for s in summaries)
        out.print(f"Results written to {out_dir}/results.json, results.csv and results.png")
