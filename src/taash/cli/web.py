"""``taash serve`` (the web server) and ``taash web loadtest``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from taash.cli.common import fail

web_app = typer.Typer(help="The web server's tools: load test.", no_args_is_help=True, add_completion=False,
                      pretty_exceptions_enable=False, rich_markup_mode=None)


LOG_LEVELS = ("critical", "error", "warning", "info", "debug")


def in_memory(database_url: str) -> bool:
    """Whether an SQLite URL names an in-memory database (``sqlite://``, ``sqlite:///:memory:``, ``mode=memory``)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        url = make_url(database_url)
    except ArgumentError:
        return False  # not a URL at all: the database check says so
    if not url.drivername.startswith("sqlite"):
        return False
    database = url.database or ""
    return database in ("", ":memory:") or database.startswith("file::memory:") or url.query.get("mode") == "memory"


def redis_problem(redis_url: str, database_url: str) -> str | None:
    """Why ``--redis-url`` cannot be used (one sentence), or None: servers that share tables need PostgreSQL
    and a Redis that answers."""
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        return f"--redis-url must be redis://HOST:PORT/DB, not {redis_url!r}"
    if not database_url.startswith("postgresql"):
        return "--redis-url needs a database the servers share: --database-url postgresql+psycopg://..."
    import redis

    try:
        client = redis.Redis.from_url(redis_url, socket_connect_timeout=2, socket_timeout=2)
        client.ping()
        client.close()
    except (redis.RedisError, ValueError, OSError) as e:
        return f"cannot use Redis at {redis_url}: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
    return None


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database_url: Annotated[str, typer.Option(
        help="SQLAlchemy URL: sqlite:///FILE (default taash.db here) or postgresql+psycopg://USER@HOST/DB.")]
    = "sqlite:///taash.db",
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before it moves.")] = 0.8,
    away_seconds: Annotated[float, typer.Option(
        help="Seconds a person may be disconnected at his turn before a bot plays for him.")] = 30.0,
    turn_seconds: Annotated[float, typer.Option(
        help="Seconds a person has for a turn (0: no limit); then his extra time runs, and when that is gone "
             "too, Rummy takes the stock's card and discards it for him (three in a row drop him), and at Seep a "
             "bot plays the turn (after three in a row, his seat until he acts again).")] = 30.0,
    extra_seconds: Annotated[float, typer.Option(
        help="Extra seconds each player has for the whole match, spent only once a turn's own have run out.")]
    = 60.0,
    idle_minutes: Annotated[float, typer.Option(
        help="Minutes without a move, with no seated person connected, after which an unfinished table is "
             "abandoned (its stakes refunded).")] = 30.0,
    sweep_seconds: Annotated[float, typer.Option(
        help="Seconds between two sweeps for idle tables (0: no sweep).")] = 60.0,
    starting_chips: Annotated[int, typer.Option(
        help="Chips granted once to a wallet when its guest claims an account (0: none; a guest's opens empty).")]
    = 10_000,
    accounts_per_address: Annotated[int, typer.Option(
        help="Accounts one client address may make in a day.")] = 3,
    allow_related_stakes: Annotated[bool, typer.Option(
        help="Let related people (who became guests, claimed or logged in from one address) play each other for "
             "chips; by default a staked table refuses to seat or start with them.")] = False,
    rake: Annotated[float, typer.Option(
        help="The house's share of each winner's winnings at staked tables, in percent (0 to 100).")] = 0.0,
    rate: Annotated[float, typer.Option(help="Messages a connection may send per second (bursts of twice).")]
    = 10.0,
    creations: Annotated[float, typer.Option(
        help="Guests and tables one client address may create per minute (bursts of as many).")] = 60.0,
    max_tables: Annotated[int, typer.Option(help="Unfinished tables the server holds at most.")] = 2000,
    max_connections: Annotated[int, typer.Option(
        help="Websocket connections the server holds at most; the last tenth only for players at their own "
             "tables.")] = 5000,
    max_connections_per_address: Annotated[int, typer.Option(
        help="Websocket connections from one client address (a player's to his own tables apart).")] = 50,
    max_connections_per_guest: Annotated[int, typer.Option(
        help="Websocket connections of one guest, to tables and the Play now queue.")] = 20,
    allowed_origin: Annotated[list[str] | None, typer.Option(
        help="Another origin (https://HOST[:PORT]) whose pages may open the websocket and make requests that "
             "change something, e.g. behind a proxy; repeat for more.")] = None,
    secure_cookies: Annotated[bool, typer.Option(
        help="Send the guest cookie over HTTPS only (behind a proxy that serves HTTPS).")] = False,
    trusted_proxy: Annotated[list[str] | None, typer.Option(
        help="A proxy's address or network (10.0.0.5, 10.0.0.0/8) whose X-Forwarded-For and X-Forwarded-Proto "
             "headers are believed; repeat for more. None by default: a client's address is the connection's "
             "(the one its limits are counted by).")] = None,
    header_timeout: Annotated[float, typer.Option(
        help="Seconds a connection has to send a request's headers (from its start, or the request's first "
             "byte); then it is closed.")] = 10.0,
    log_level: Annotated[str, typer.Option(help=f"uvicorn's log level: {', '.join(LOG_LEVELS)}.")] = "warning",
    redis_url: Annotated[str | None, typer.Option(
        help="Redis (redis://HOST:PORT/DB) shared with other servers on the same PostgreSQL database: each table "
             "is owned by one server under a lease, and the others relay to it (docs/cluster.md). None: a lone "
             "server.")] = None,
    server_id: Annotated[str | None, typer.Option(
        help="This server's name among several (letters, digits, - and _; by default the host, process and a "
             "random part).")] = None,
    lease_seconds: Annotated[float, typer.Option(
        help="With --redis-url: seconds a table's lease lasts unless renewed (renewed every third of it, from a "
             "thread of its own); a dead server's tables are taken within about this.")] = 3.0,
) -> None:
    """Play Seep and 13-card Rummy in the browser (against bots or people): start the server and open the address
    it prints."""
    import re
    import socket

    import uvicorn

    from taash.web.app import ServerConfig, create_app
    from taash.web.db import database_problem
    from taash.web.lease import LEASE_RANGE
    from taash.web.serving import trusted_proxy as proxy_address
    from taash.web.serving import uvicorn_config

    if not 0 < port < 65536:
        fail(f"--port must be from 1 to 65535, not {port}")
    if not 0 <= bot_delay <= 30:
        fail(f"--bot-delay must be from 0 to 30 seconds, not {bot_delay}")
    if not 0 <= away_seconds <= 3600:
        fail(f"--away-seconds must be from 0 to 3600, not {away_seconds}")
    if not (turn_seconds == 0 or 0.5 <= turn_seconds <= 3600):
        fail(f"--turn-seconds must be 0 (no limit) or from 0.5 to 3600, not {turn_seconds}")
    if not 0 <= extra_seconds <= 3600:
        fail(f"--extra-seconds must be from 0 to 3600, not {extra_seconds}")
    if not 1 <= idle_minutes <= 10_080:
        fail(f"--idle-minutes must be from 1 to 10080 (a week), not {idle_minutes}")
    if not (sweep_seconds == 0 or 1 <= sweep_seconds <= 3600):
        fail(f"--sweep-seconds must be 0 (no sweep) or from 1 to 3600, not {sweep_seconds}")
    if not 0 <= starting_chips <= 10**12:
        fail(f"--starting-chips must be from 0 to 1,000,000,000,000, not {starting_chips}")
    if not 1 <= accounts_per_address <= 1_000_000:
        fail(f"--accounts-per-address must be from 1 to 1000000, not {accounts_per_address}")
    if not 0 <= rake <= 100 or round(rake, 2) != rake:
        fail(f"--rake must be a percentage from 0 to 100 in hundredths at most, not {rake}")
    if not database_url.startswith(("sqlite://", "postgresql")):
        fail(f"--database-url must be sqlite:///FILE or postgresql+psycopg://..., not {database_url!r}")
    if in_memory(database_url):
        fail(f"--database-url {database_url} keeps the database in memory, where each of the server's connections "
             "would see a database of its own; name a file (sqlite:///FILE)")
    if not 1 <= rate <= 10000:
        fail(f"--rate must be from 1 to 10000 messages a second, not {rate}")
    if not 1 <= creations <= 10_000_000:
        fail(f"--creations must be from 1 to 10000000 a minute, not {creations}")
    if not 1 <= max_tables <= 1_000_000:
        fail(f"--max-tables must be from 1 to 1000000, not {max_tables}")
    if not 1 <= max_connections <= 1_000_000:
        fail(f"--max-connections must be from 1 to 1000000, not {max_connections}")
    if not 1 <= max_connections_per_address <= 1_000_000:
        fail(f"--max-connections-per-address must be from 1 to 1000000, not {max_connections_per_address}")
    if not 1 <= max_connections_per_guest <= 1_000_000:
        fail(f"--max-connections-per-guest must be from 1 to 1000000, not {max_connections_per_guest}")
    origins = allowed_origin or []
    for origin in origins:
        if not re.fullmatch(r"https?://[A-Za-z0-9.-]+(:\d{1,5})?|https?://\[[0-9A-Fa-f:]+\](:\d{1,5})?", origin):
            fail(f"--allowed-origin must look like https://example.org or http://host:8080, not {origin!r}")
    proxies = []
    for proxy in trusted_proxy or []:
        try:
            proxies.append(proxy_address(proxy))
        except ValueError as e:
            fail(f"--trusted-proxy: {e}")
    if not 1 <= header_timeout <= 600:
        fail(f"--header-timeout must be from 1 to 600 seconds, not {header_timeout}")
    if log_level not in LOG_LEVELS:
        fail(f"--log-level must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")
    if redis_url is not None:
        problem = redis_problem(redis_url, database_url)
        if problem:
            fail(problem)
    low, high = LEASE_RANGE
    if not low <= lease_seconds <= high:
        fail(f"--lease-seconds must be from {low:g} to {high:g} seconds, not {lease_seconds:g}")
    if server_id is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", server_id):
        fail(f"--server-id must be 1 to 40 letters, digits, - or _, not {server_id!r}")
    problem = database_problem(database_url)
    if problem:
        fail(problem)
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as e:
        fail(f"cannot serve on {host}:{port}: {e.strerror or e}")
    except UnicodeError:
        fail(f"--host is not a host name or address: {host!r}")
    config = ServerConfig(database_url=database_url, bot_delay=bot_delay, away_seconds=away_seconds,
                          turn_seconds=turn_seconds, extra_seconds=extra_seconds, idle_minutes=idle_minutes,
                          sweep_seconds=sweep_seconds, rate=rate, starting_chips=starting_chips, rake=rake,
                          creations=creations, max_tables=max_tables, max_connections=max_connections,
                          max_connections_per_address=max_connections_per_address,
                          max_connections_per_guest=max_connections_per_guest,
                          allowed_origins=origins, trusted_proxies=proxies, header_timeout=header_timeout,
                          accounts_per_address=accounts_per_address, related_stakes=allow_related_stakes,
                          secure_cookies=secure_cookies, redis_url=redis_url, server_id=server_id or "",
                          lease_seconds=lease_seconds)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::1", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    print(f"taash: Seep and Rummy at http://{shown}:{port}/  (Ctrl-C stops the server)", flush=True)
    server = uvicorn.Server(uvicorn_config(create_app(config), config, log_level))
    server.run(sockets=[sock])
    if not server.started:
        fail("the server could not start (see the lines above)", 1)


@web_app.command()
def loadtest(
    players: Annotated[int, typer.Option(help="Simulated people (four to a Seep table, six to a Rummy one).")] = 1000,
    game: Annotated[str | None, typer.Option(help="The game: seep (the default) or rummy.", show_default=False)]
    = None,
    duration: Annotated[float, typer.Option(help="Seconds of play to measure.")] = 60.0,
    interval: Annotated[float, typer.Option(help="Seconds between one person's plays, on average.")] = 2.0,
    seed: Annotated[int, typer.Option(help="Seed of the simulated people's choices.")] = 0,
    url: Annotated[str | None, typer.Option(help="A server already running on loopback (default: start one "
                                                 "with a fresh SQLite file).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    latencies: Annotated[Path | None, typer.Option(
        help="Also write the figures, every play's time to its ack and the measured window's clock times to this "
             "JSON file, to merge with load tests run beside this one (benchmarks/merge_loadtests.py).",
        dir_okay=False, show_default=False)] = None,
    stay_relayed: Annotated[bool, typer.Option(
        "--stay-relayed", help="Against several servers: stay on the server the proxy gives each websocket, not "
                               "the table's owner that it names (to measure the relay).")] = False,
) -> None:
    """Simulated people playing over websockets; reports plays per second and p50/p99 from play to ack."""
    import json
    import time

    from rich.table import Table

    from taash.cli.common import out, progress_bar
    from taash.games.registry import default_game
    from taash.web import loadtest as lt

    game = default_game() if game is None else game
    if not 4 <= players <= 4000:
        fail(f"--players must be from 4 to 4000, not {players}")
    if not 1 <= duration <= 1800:
        fail(f"--duration must be from 1 to 1800 seconds, not {duration}")
    if not 0.05 <= interval <= 60:
        fail(f"--interval must be from 0.05 to 60 seconds, not {interval}")
    if latencies is not None and not latencies.parent.is_dir():
        fail(f"--latencies: no folder {str(latencies.parent)!r} to write {latencies.name!r} in")
    lt.raise_open_files_limit(4 * players + 256)
    with progress_bar("load test", counts=False) as bar:
        task = bar.add_task("run", total=duration)
        try:
            results = lt.run(players, duration, interval, seed, url, lambda t: bar.update(task, completed=t), game,
                             stay_relayed)
        except (ValueError, RuntimeError, OSError) as e:
            fail(str(e))
    figures = results.to_json()
    if latencies is not None:
        from taash.web.loadtest_merge import latencies_record

        try:
            latencies.write_text(json.dumps(latencies_record(results, time.time())))
        except OSError as e:
            fail(f"cannot write --latencies {latencies}: {e.strerror or e}")
    if json_out:
        print(json.dumps(figures))
        return
    table = Table(title=f"{figures['players']} people at {figures['tables']} {game} tables, {figures['seconds']} s")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key in ("plays", "plays_per_sec", "p50_ms", "p99_ms", "max_ms", "mean_ms", "disconnects", "moved_to_owner"):
        table.add_row(key, str(figures[key]))
    table.add_row("errors", ", ".join(f"{k}: {v}" for k, v in figures["errors"].items()) or "none")
    out.print(table)
