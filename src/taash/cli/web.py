"""``taash serve`` (the web server) and ``taash web loadtest``."""

from __future__ import annotations

from typing import Annotated

import typer

from taash.cli.common import fail

web_app = typer.Typer(help="The web server's tools: load test.", no_args_is_help=True, add_completion=False,
                      pretty_exceptions_enable=False)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database_url: Annotated[str, typer.Option(
        help="SQLAlchemy URL: sqlite:///FILE (default taash.db here) or postgresql+psycopg://USER@HOST/DB.")]
    = "sqlite:///taash.db",
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before it moves.")] = 0.8,
    away_seconds: Annotated[float, typer.Option(
        help="Seconds a person may be disconnected at his turn before a bot plays for him.")] = 30.0,
    rate: Annotated[float, typer.Option(help="Messages a connection may send per second (bursts of twice).")]
    = 10.0,
    log_level: Annotated[str, typer.Option(help="uvicorn's log level.")] = "warning",
) -> None:
    """Play Seep in the browser: start the server and open the address it prints."""
    import uvicorn

    from taash.web.app import ServerConfig, create_app

    if not 0 < port < 65536:
        fail(f"--port must be from 1 to 65535, not {port}")
    if not 0 <= bot_delay <= 30 or not 0 <= away_seconds <= 3600:
        fail("--bot-delay must be 0 to 30 seconds and --away-seconds 0 to 3600")
    if not database_url.startswith(("sqlite://", "postgresql")):
        fail(f"--database-url must be sqlite:///FILE or postgresql+psycopg://..., not {database_url!r}")
    if not 1 <= rate <= 10000:
        fail(f"--rate must be from 1 to 10000 messages a second, not {rate}")
    config = ServerConfig(database_url=database_url, bot_delay=bot_delay, away_seconds=away_seconds, rate=rate)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    print(f"taash: Seep at http://{shown}:{port}/  (Ctrl-C stops the server)", flush=True)
    try:
        uvicorn.run(create_app(config), host=host, port=port, ws_max_size=65536, ws_per_message_deflate=False,
                    log_level=log_level,
                    timeout_graceful_shutdown=3)
    except OSError as e:
        fail(f"cannot serve on {host}:{port}: {e.strerror or e}")


@web_app.command()
def loadtest(
    players: Annotated[int, typer.Option(help="Simulated people (four to a table).")] = 1000,
    duration: Annotated[float, typer.Option(help="Seconds of play to measure.")] = 60.0,
    interval: Annotated[float, typer.Option(help="Seconds between one person's plays, on average.")] = 2.0,
    seed: Annotated[int, typer.Option(help="Seed of the simulated people's choices.")] = 0,
    url: Annotated[str | None, typer.Option(help="A server already running on loopback (default: start one "
                                                 "with a fresh SQLite file).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Simulated people playing over websockets; reports plays per second and p50/p99 from play to ack."""
    import json

    from rich.table import Table

    from taash.cli.common import out, progress_bar
    from taash.web import loadtest as lt

    if not 4 <= players <= 4000:
        fail(f"--players must be from 4 to 4000, not {players}")
    if not 1 <= duration <= 1800:
        fail(f"--duration must be from 1 to 1800 seconds, not {duration}")
    if not 0.05 <= interval <= 60:
        fail(f"--interval must be from 0.05 to 60 seconds, not {interval}")
    lt.raise_open_files_limit(4 * players + 256)
    with progress_bar("load test", counts=False) as bar:
        task = bar.add_task("run", total=duration)
        try:
            results = lt.run(players, duration, interval, seed, url, lambda t: bar.update(task, completed=t))
        except (ValueError, RuntimeError, OSError) as e:
            fail(str(e))
    figures = results.to_json()
    if json_out:
        print(json.dumps(figures))
        return
    table = Table(title=f"{figures['players']} people at {figures['tables']} tables, {figures['seconds']} s")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key in ("plays", "plays_per_sec", "p50_ms", "p99_ms", "max_ms", "mean_ms", "disconnects"):
        table.add_row(key, str(figures[key]))
    table.add_row("errors", ", ".join(f"{k}: {v}" for k, v in figures["errors"].items()) or "none")
    out.print(table)
