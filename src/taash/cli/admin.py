"""``taash admin``: what the operator of a server looks after, from its database (the chat lines people
reported)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from taash.cli.chips import DatabaseUrl, books

app = typer.Typer(help="A server's operator: the chat lines people reported.", no_args_is_help=True,
                  add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)


@app.command("reports")
def reports(
    database_url: DatabaseUrl = "sqlite:///taash.db",
    limit: Annotated[int, typer.Option(help="Show at most this many reports (the newest).", min=1)] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="Print every report as JSON (one array) instead.")] = False,
) -> None:
    """The chat lines people reported, newest first: when, the table, who said it, what, and who reported it."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from taash.web.chat.reports import reports as reported

    with books(database_url) as engine:
        found = reported(engine, limit)
    if as_json:
        print(json.dumps([r.as_dict() for r in found], ensure_ascii=False, indent=1))
        return
    if not found:
        print("taash: nobody has reported a chat line")
        return
    table = Table(box=box.SIMPLE_HEAD, title="Reported chat lines, newest first")
    for heading in ("Reported", "Table", "Channel", "Speaker", "Text", "Reporter"):
        table.add_column(heading)
    for r in found:  # every cell a Text: what people typed is never read as markup
        speaker = f"{r.speaker_name} {r.speaker[:8]}" if r.speaker else f"{r.speaker_name} (bot)"
        table.add_row(Text(r.reported_at.strftime("%Y-%m-%d %H:%M")), Text(r.table), Text(r.channel),
                      Text(speaker), Text(r.text), Text(f"{r.reporter_name or '?'} {r.reporter[:8]}"))
    Console(soft_wrap=True).print(table)
