"""``taash rummy check`` and ``taash rummy bench``: the hand solver's contract (the protocol's hand check) and its
benchmark. :func:`register` adds them to the ``taash rummy`` group.

Thin: each command parses its input, calls the solver and prints; the format is ``shared/rummy-protocol.md``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from taash.cli.common import answer_documents, fail, out, progress_bar
from taash.cli.rummy_bench import run_bench
from taash.rummy.check import check_json
from taash.rummy.rules import PRESETS


def answer_check(document: object) -> str:
    """The protocol's answer to one hand check, as one line of JSON."""
    return json.dumps(check_json(document))


def check(
    file: Annotated[Path | None, typer.Argument(
        help="A hand check (JSON), or JSON Lines of them; '-' or nothing reads standard input.")] = None,
) -> None:
    """The least points of a hand of 13 cards, whether it is a valid declaration, and one arrangement; for 14
    cards the best discard too (the protocol's hand check).

    One object in, one JSON object out. JSON Lines in (one hand per line), one line per hand out, in order.
    """
    answer_documents(file, "hand", answer_check)


def bench(
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object.")] = False,
    repeats: Annotated[int, typer.Option(help="Timed repeats (the median is reported).", min=1)] = 11,
    hands: Annotated[int, typer.Option(help="13-card hands solved per repeat.", min=1)] = 2000,
    discards: Annotated[int, typer.Option(help="14-card best-discard checks per repeat.", min=1)] = 300,
    warmup: Annotated[int, typer.Option(help="Random 13-card hands solved first (the first --hands of them "
                                             "timed alone, every table still to be made), and a tenth as many "
                                             "14-card checks.", min=0)] = 20000,
    rules: Annotated[str, typer.Option("--rules", "-r", help=f"A preset: {', '.join(PRESETS)}.")] = "octro",
) -> None:
    """13-card hands solved and valued, and 14-card best discards found, per second by the exact solver on one core
    (on its compiled core when built, with the pure figures beside them)."""
    if rules not in PRESETS:
        fail(f"unknown rules preset {rules[:40]!r} (known: {', '.join(PRESETS)})")
    with progress_bar("Benchmarking", counts=False) as bar:
        task = bar.add_task("bench", total=1)
        result = run_bench(repeats=repeats, hands=hands, discards=discards, warmup=warmup, preset=rules,
                           progress=lambda done: bar.update(task, completed=done))
    if as_json:
        data: dict[str, Any] = result.to_json()
        sys.stdout.write(json.dumps(data) + "\n")
        return
    on_pure = result.core != "compiled"
    table = Table(title=f"Rummy hand solver ({rules} rules), one core, {result.core} core", title_justify="left")
    table.add_column("measure")
    table.add_column("median", justify="right")
    table.add_column("per CPU s" if not on_pure else "per processor second", justify="right")
    if not on_pure:
        table.add_column("pure", justify="right")
        table.add_column("pure per CPU s", justify="right")
    blank: list[str] = [] if on_pure else ["", ""]

    def pure(wall: float, cpu: float) -> list[str]:
        return [] if on_pure else [f"{wall:,.0f}", f"{cpu:,.0f}"]

    table.add_row("13-card hands solved / s", f"{result.hands_per_sec:,.0f}", f"{result.hands_per_cpu_sec:,.0f}",
                  *blank)
    table.add_row("13-card hands valued / s", f"{result.values_per_sec:,.0f}", f"{result.values_per_cpu_sec:,.0f}",
                  *pure(result.pure_values_per_sec, result.pure_values_per_cpu_sec))
    table.add_row("14-card best discards / s", f"{result.discards_per_sec:,.0f}",
                  f"{result.discards_per_cpu_sec:,.0f}",
                  *pure(result.pure_discards_per_sec, result.pure_discards_per_cpu_sec))
    table.add_row(f"first {result.hands_per_repeat}, tables empty / s", f"{result.cold_hands_per_sec:,.0f}", "",
                  *blank)
    out.print(table)
    out.print("Random hands. Solved: least points, validity and an arrangement (the pure solver's, always); valued: "
              f"least points and validity alone, on the {result.core} core" +
              ("." if on_pure else "; pure: the same on the pure core; per CPU s: per second of processor time."))
    out.print(f"{result.repeats} repeats of {result.hands_per_repeat} hands and {result.discard_hands_per_repeat} "
              f"14-card hands, after {warmup} hands and {warmup // 10} 14-card hands; "
              f"Python {result.python} ({result.interpreter})")


def register(app: typer.Typer) -> None:
    """Add ``check`` and ``bench`` to a Typer app (the ``taash rummy`` group)."""
    app.command("check")(check)
    app.command("bench")(bench)
