"""``taash tournaments``: the operator's tournaments on a server's database (schedule one, list them, show one,
cancel one). The server running on that database starts a scheduled tournament at its time and runs it at its
tables (and ends the tables of one cancelled)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Annotated

import typer

from taash.cli.chips import DatabaseUrl, books
from taash.cli.common import fail

if TYPE_CHECKING:
    from taash.web.tournament_rows import TournamentRow

app = typer.Typer(help="Tournaments on a server's database: schedule one, list them, show one's standings, "
                       "cancel one.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)


def _start_time(at: str | None, minutes: float | None) -> datetime | None:
    if at is not None and minutes is not None:
        fail("give --at or --in-minutes, not both")
    if minutes is not None:
        if not 0 < minutes <= 7 * 24 * 60:
            fail(f"--in-minutes is from 0 to a week, not {minutes:g}")
        return datetime.now(UTC) + timedelta(minutes=minutes)
    if at is None:
        return None
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        fail(f"--at is a date and time like 2026-12-01T18:30 (UTC unless it says), not {at!r}")
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _prizes(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in text.split(","))
    except ValueError:
        fail(f"--prizes is percents by place separated by commas (70,30), not {text!r}")


@app.command("schedule")
def schedule(
    name: Annotated[str, typer.Argument(help="The tournament's name, as players see it.")],
    game: Annotated[str, typer.Option(help="The game (taash's registered games).")],
    kind: Annotated[str, typer.Option(help="knockout, swiss or arena.")] = "knockout",
    players: Annotated[int, typer.Option(help="Seats at each table.")] = 2,
    capacity: Annotated[int, typer.Option(help="Entrants at most (bots fill up to it with --bots).")] = 8,
    rules: Annotated[str | None, typer.Option(help="The rules preset (the game's default when left out).")] = None,
    length: Annotated[str | None, typer.Option(help="The match length: a number, or a format's name.")] = None,
    level: Annotated[str, typer.Option(help="The bots' level.")] = "easy",
    rounds: Annotated[int, typer.Option(help="Swiss rounds (0: enough for one winner).")] = 0,
    minutes: Annotated[float, typer.Option(help="An arena's time window, in minutes from its start.")] = 0.0,
    fee: Annotated[int, typer.Option(help="Chips each person pays to enter (0: free).")] = 0,
    prizes: Annotated[str, typer.Option(help="Percents of the pool by place.")] = "70,30",
    bots: Annotated[bool, typer.Option("--bots/--no-bots", help="Bots fill the places nobody took.")] = True,
    at: Annotated[str | None, typer.Option(help="When it starts (ISO date and time, UTC unless it says).")] = None,
    in_minutes: Annotated[float | None, typer.Option(help="When it starts, in minutes from now.")] = None,
    database_url: DatabaseUrl = "sqlite:///taash.db",
) -> None:
    """Schedule a tournament (no start time: it starts as soon as it is full)."""
    from taash.chips import Ledger
    from taash.tournaments.pairing import TournamentError
    from taash.web.db import migrate
    from taash.web.tournament_book import TournamentSpec, create_tournament

    starts = _start_time(at, in_minutes)
    measure: int | str | None = int(length) if length is not None and length.isdigit() else length
    spec = TournamentSpec(name=name, game=game, kind=kind, players=players, rules=rules, length=measure, level=level,
                          capacity=capacity, rounds=rounds, fee=fee, prizes=_prizes(prizes), bots=bots,
                          starts_at=starts, minutes=minutes)
    with books(database_url) as engine:
        migrate(engine)
        try:
            made = create_tournament(engine, Ledger(engine) if fee else None, spec, None)
        except TournamentError as e:
            fail(str(e))
    when = starts.isoformat(timespec="minutes") if starts else "as soon as it is full"
    print(f"taash: tournament {made} ({name}) scheduled: starts {when}")


@app.command("list")
def list_tournaments(database_url: DatabaseUrl = "sqlite:///taash.db") -> None:
    """Every tournament, the newest first: id, status, game, kind, entrants, fee, name."""
    from taash.web.tournament_book import listed, read

    with books(database_url) as engine:
        for row in listed(engine, limit=1000):
            record = read(engine, row.id)
            count = len(record.registered) if record else 0
            print(f"{row.id}\t{row.status}\t{row.game}\t{row.kind}\t{count}/{row.capacity}\t{row.fee}\t{row.name}")


def _span(seconds: float) -> str:
    """A duration to the second, as ``1h 05m 09s``, ``5m 09s`` or ``9s``.

    >>> _span(3909), _span(309.6), _span(9)
    ('1h 05m 09s', '5m 09s', '9s')
    """
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h {minutes:02d}m {secs:02d}s" if hours else f"{minutes}m {secs:02d}s" if minutes else f"{secs}s"


def _moment(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def arena_window(row: TournamentRow, now: datetime) -> str:
    """An arena's window in a line: how long it lasts, when it opens (or opened) and closes, and the time left."""
    from taash.web.tournament_rows import OPEN, RUNNING, aware

    lasts = f"window: {_span(row.window)}"
    ends = aware(row.ends_at)
    if ends is None:
        starts = aware(row.starts_at)
        if row.status != OPEN:
            return f"{lasts}, never opened ({row.status})"
        when = f"opens {_moment(starts)}" if starts is not None else "opens as soon as it is full"
        return f"{lasts}, {when}"
    opened = f"{lasts}, opened {_moment(ends - timedelta(seconds=row.window))}"
    if now < ends:
        return f"{opened}, closes {_moment(ends)}, {_span((ends - now).total_seconds())} left"
    playing = ": the matches being played finish" if row.status == RUNNING else ""
    return f"{opened}, closed {_moment(ends)}{playing}"


@app.command("show")
def show(tournament_id: Annotated[str, typer.Argument(help="The tournament's id (taash tournaments list).")],
         database_url: DatabaseUrl = "sqlite:///taash.db") -> None:
    """A tournament's settings, its standings (with the prizes once decided) and its pool's chips now; an arena's
    window (when it opens and closes, the time left), and each entrant's points, matches won and played."""
    import json

    from taash.chips import Ledger, UnknownAccount, wallet_of
    from taash.tournaments.pairing import ARENA
    from taash.web.tournament_book import arena_results, read
    from taash.web.tournament_rows import DONE, pool_person

    with books(database_url) as engine:
        record = read(engine, tournament_id)
        if record is None:
            fail(f"no tournament {tournament_id!r}")
        row = record.row
        arena = row.kind == ARENA
        where = f"{len(record.matches)} matches made" if arena else f"round {row.round}"
        print(f"{row.name}: {row.kind} of {row.game}, tables of {row.players}, {len(record.registered)}/"
              f"{row.capacity} entrants, fee {row.fee:,}, {row.status}, {where}")
        if arena:
            print(arena_window(row, datetime.now(UTC)))
        if row.fee:
            try:
                print(f"pool: {Ledger(engine).balance(wallet_of(pool_person(row.id))):,} chips")
            except UnknownAccount:
                print("pool: none")
        names = record.names()
        payout = json.loads(row.payout or "{}")
        played = arena_results([m for m in record.matches if m.status == DONE]) if arena else {}
        for s in record.standings() if row.round else []:
            prize = f"\t{payout[s.entrant]:,} chips" if s.entrant in payout else ""
            score = (f"{s.score:g} points\t{s.tiebreak:g} won of {len(played.get(s.entrant, []))}" if arena
                     else f"{s.score:g}")
            print(f"{s.place}\t{names.get(s.entrant, s.entrant)}\t{score}{prize}")


@app.command("cancel")
def cancel(tournament_id: Annotated[str, typer.Argument(help="The tournament's id (taash tournaments list).")],
           database_url: DatabaseUrl = "sqlite:///taash.db") -> None:
    """Cancel a tournament not finished: every entry fee returned (once, even if this is run again after a crash),
    and the server running it ends its tables."""
    from taash.chips import Ledger
    from taash.tournaments.pairing import TournamentError
    from taash.web.db import migrate
    from taash.web.tournament_book import cancel_tournament

    with books(database_url) as engine:
        migrate(engine)
        try:
            record, returned = cancel_tournament(engine, Ledger(engine), tournament_id)
        except TournamentError as e:
            fail(str(e))
    people = len(record.people)
    print(f"taash: tournament {record.row.id} ({record.row.name}) cancelled: {returned:,} chips returned to "
          f"{people} entrant{'s' if people != 1 else ''}")
