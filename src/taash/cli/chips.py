"""``taash chips``: the books of a server's database (audit, balances, grants)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from taash.cli.common import ILLEGAL, fail

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

app = typer.Typer(help="The chips ledger of a server's database: audit the books, show balances, grant chips.",
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
