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
    config = ServerConfig(database_url=database_url, bot_delay=bot_delay, away_seconds=away_seconds)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    print(f"taash: Seep at http://{shown}:{port}/  (Ctrl-C stops the server)", flush=True)
    try:
        uvicorn.run(create_app(config), host=host, port=port, ws_max_size=65536, log_level=log_level,
                    timeout_graceful_shutdown=3)
    except OSError as e:
        fail(f"cannot serve on {host}:{port}: {e.strerror or e}")
