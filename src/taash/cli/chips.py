"""``taash chips``: the books of a server's database (audit, balances, grants, flows between people)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from taash.cli.common import ILLEGAL, fail

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

app = typer.Typer(help="The chips ledger of a server's database: audit the books, show balances, grant chips, "
                       "report the chips that moved between related people.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)

DatabaseUrl = Annotated[str, typer.Option(
    help="The server's database: sqlite:///FILE (default taash.db here) or postgresql+psycopg://USER@HOST/DB.")]


@contextmanager
def books(database_url: str) -> Iterator[Engine]:
    """An engine on an existing database (never a new SQLite file); every database error becomes one line."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from taash.chips import ChipsError
    from taash.web.db import make_engine, redacted

    if not database_url.startswith(("sqlite://", "postgresql")):
        fail(f"--database-url must be sqlite:///FILE or postgresql+psycopg://..., not {database_url!r}")
    try:
        url = make_url(database_url)
    except ArgumentError:
        fail(f"--database-url is not a database URL: {database_url!r}")
    if url.drivername.startswith("sqlite"):
        database = url.database or ""
        if database in ("", ":memory:") or database.startswith("file:") or url.query.get("mode") == "memory":
            fail(f"--database-url {database_url} names no database file")
        if not Path(database).is_file():
            fail(f"there is no database at {database}")
    try:
        engine = make_engine(database_url)
    except (SQLAlchemyError, ImportError, ValueError) as e:
        fail(f"cannot use the database {redacted(database_url)}: {_first_line(e)}")
    try:
        yield engine
    except ChipsError as e:
        fail(str(e))
    except SQLAlchemyError as e:
        fail(f"cannot use the database {redacted(database_url)}: {_first_line(e)}")
    finally:
        engine.dispose()


def _first_line(error: Exception) -> str:
    cause = getattr(error, "orig", None) or error
    return str(cause).strip().split("\n")[0] or type(cause).__name__


@app.command("audit")
def audit(database_url: DatabaseUrl = "sqlite:///taash.db") -> None:
    """Check the books: every currency sums to 0, every balance equals its transfers, every hold is pending,
    settled once or refunded once, every finished table's match settled and every abandoned one refunded.
    Exit 0 when they are clean, 1 naming each fault."""
    from taash.chips.audit import audit as audit_books

    with books(database_url) as engine:
        found = audit_books(engine)
    for fault in found.faults:
        print(f"fault: {fault}")
    print(f"taash: {found.summary()}")
    if not found.clean:
        raise typer.Exit(ILLEGAL)


@app.command("balance")
def balance(
    person: Annotated[list[str] | None, typer.Argument(help="Whose wallets (a guest's or an account's id); "
                                                            "none: every account of the books.")] = None,
    database_url: DatabaseUrl = "sqlite:///taash.db",
) -> None:
    """Show chips: the wallets of the people named, or every account of the books."""
    from taash.chips import Ledger, wallet_of

    with books(database_url) as engine:
        ledger = Ledger(engine)
        if person:
            for p in person:
                print(f"{p}\t{ledger.balance(wallet_of(p))}")
        else:
            for account, chips in sorted(ledger.balances().items()):
                print(f"{account}\t{chips}")


@app.command("grant")
def grant(
    person: Annotated[str, typer.Argument(help="Whose wallet (a guest's or an account's id).")],
    amount: Annotated[int, typer.Argument(help="How many chips.")],
    reason: Annotated[str, typer.Option(
        help="One word naming the grant: a second grant with the same reason is the same grant (not paid twice).")],
    database_url: DatabaseUrl = "sqlite:///taash.db",
) -> None:
    """Give a person chips from the grant source, once per reason."""
    from taash.chips import Ledger, wallet_of

    with books(database_url) as engine:
        ledger = Ledger(engine)
        done = ledger.grant(person, amount, reason)
        print(f"taash: {done.id}: {done.amount:,} chips to {person}, who has "
              f"{ledger.balance(wallet_of(person)):,}")


@app.command("flows")
def flows(
    database_url: DatabaseUrl = "sqlite:///taash.db",
    limit: Annotated[int, typer.Option(help="Show at most this many pairs (the most suspicious).", min=1)] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="Print every pair as JSON (one array) instead.")] = False,
) -> None:
    """Chips that moved between pairs of people through settled matches: each way, net, how one-sided, and
    whether the two are related (they shared an address when they became guests, claimed or logged in). Related
    pairs first, then by net chips times one-sidedness: chips farmed between identities of one person lead."""
    import json

    from rich import box
    from rich.table import Table
    from rich.text import Text
    from sqlalchemy import select

    from taash.chips.flows import chip_flows
    from taash.cli.common import out
    from taash.web.db import GuestRow
    from taash.web.fair_play import accounts_among, shared_addresses

    with books(database_url) as engine:
        people = {p for f in chip_flows(engine) for p in (f.a, f.b)}
        found = chip_flows(engine, shared_addresses(engine, people))  # related pairs only among those who played
        with engine.connect() as c:
            names = dict(c.execute(select(GuestRow.id, GuestRow.name).where(GuestRow.id.in_(sorted(people)))).all())
        accounts = accounts_among(engine, people)
    if as_json:
        print(json.dumps([{**f.as_dict(), "a_name": names.get(f.a), "b_name": names.get(f.b),
                           "a_account": f.a in accounts, "b_account": f.b in accounts} for f in found[:limit]],
                         ensure_ascii=False, indent=1))
        return
    if not found:
        print("taash: no chips moved between people in settled matches")
        return

    def who(person: str) -> Text:  # a Text: a name is never read as markup
        return Text(f"{names.get(person, '?')}{' (account)' if person in accounts else ''} {person[:8]}")

    table = Table(box=box.SIMPLE_HEAD, title="Chips between people, most suspicious first")
    for heading, justify in (("Gave", "left"), ("Took", "left"), ("Net", "right"), ("Other way", "right"),
                             ("One-sided", "right"), ("Matches", "right"), ("Related", "left")):
        table.add_column(heading, justify=justify)  # type: ignore[arg-type]
    for f in found[:limit]:
        other_way = f.b_to_a if f.giver == f.a else f.a_to_b
        related = f"yes: {f.shared} address{'es' if f.shared > 1 else ''}" if f.shared else "no"
        table.add_row(who(f.giver), who(f.taker), f"{abs(f.net):,}", f"{other_way:,}", f"{f.one_sided:.0%}",
                      str(f.matches), related, style="bold red" if f.shared and f.one_sided >= 0.9 else None)
    out.print(table)
    if len(found) > limit:
        print(f"taash: {len(found) - limit} more pairs (--limit)")
