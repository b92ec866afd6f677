"""The database: guests, tables, every table's actions and deals (SQLAlchemy 2; the schema comes from Alembic).

SQLite (the default, one file) or PostgreSQL (``postgresql+psycopg://...``). A table's state is its settings
plus its actions in version order; each deal's pack is kept too, so that a server upgraded to a taash that
shuffles differently still deals a table's deals in progress as they were dealt.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from taash.games.registry import default_game

MIGRATIONS = Path(__file__).parent / "migrations"


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class GuestRow(Base):
    __tablename__ = "guests"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The game played at the table, by its name in the games registry (``taash.games.registry``; a row of
    #: before tables had a game is the default game's).
    game: Mapped[str] = mapped_column(String(16), default=default_game(), server_default=default_game())
    code: Mapped[str] = mapped_column(String(12), unique=True)
    owner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    players: Mapped[int] = mapped_column(Integer)
    rules: Mapped[str] = mapped_column(Text)  # JSON: a preset name or a preset with changed parameters
    baazis: Mapped[int] = mapped_column(Integer)  # Seep's match length (baazis to win; 0 a single deal)
    #: The match's format in a game that names one (Rummy: points, pool101, ...); None for Seep.
    format: Mapped[str | None] = mapped_column(String(16), nullable=True)
    level: Mapped[str] = mapped_column(String(16))
    public: Mapped[bool] = mapped_column(Boolean)
    seed: Mapped[int] = mapped_column(BigInteger)
    #: The server's secret that every card of the match comes from, in hex (:mod:`taash.fairness`; never sent
    #: before the match is over). None: a table made before tables dealt fairly (its cards come from its seed).
    fair_secret: Mapped[str | None] = mapped_column(String(64), nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    #: Chips the match is played for (see taash.web.stakes; 0: no stakes).
    stake: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")


class ActionRow(Base):
    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    guest: Mapped[str | None] = mapped_column(String(32), nullable=True)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    body: Mapped[str] = mapped_column(Text)  # JSON of the action
    #: The extra seconds of the match (the hub's ``extra_seconds``) that the person of the seat to move had spent
    #: by this action (None: his turns are not timed, or nobody was to move); the last one of a seat is what a
    #: restarted server takes off his extra time.
    extra_spent: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class DealRow(Base):
    """How one deal of a table was dealt (:class:`taash.tables.adapter.Dealt`); never sent to anyone."""

    __tablename__ = "deals"
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0 for the match's first deal
    dealer: Mapped[int] = mapped_column(Integer)
    deck: Mapped[str] = mapped_column(Text)  # the pack, top card first, as protocol card names ("AsKs...")
    redeals: Mapped[str] = mapped_column(Text)  # JSON: why the pack was shuffled again before it
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class LeaseRow(Base):
    """Which server process owns a live table (:mod:`taash.web.hub.lease`; only servers run with ``--redis-url``
    keep leases): ``server`` (None: let go), ``epoch`` moved on by each new owner and fencing its writes, and
    ``until``, the wall-clock second the lease lapses unless its owner renews it."""

    __tablename__ = "table_leases"
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id"), primary_key=True)
    server: Mapped[str | None] = mapped_column(String(64), nullable=True)
    epoch: Mapped[int] = mapped_column(Integer)
    until: Mapped[float] = mapped_column(Float, index=True)


#: The key of a result's ``stats`` marking a match that bots finished for people who had all left (every person's
#: seat away when it ended, by a bot's move): it is not rated (:func:`taash.web.history.rate`), and a person's page
#: says so. Kept in the stats rather than a column of its own, so that no migration is needed.
FINISHED_BY_BOTS = "finished_by_bots"


class ResultRow(Base):
    """How a finished match went for one seat (for its player's history and the leaderboards); written with the
    table's finished status, in the same transaction."""

    __tablename__ = "results"
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(16), index=True)
    guest: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)  # None: a bot
    name: Mapped[str] = mapped_column(String(40))
    team: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    result: Mapped[float] = mapped_column(Float)
    points: Mapped[int] = mapped_column(Integer)
    stats: Mapped[str] = mapped_column(Text)  # JSON: the game's own counts (sweeps; drops, declarations)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)


class OfflineMatchRow(Base):
    """A match played offline against bots and uploaded back online (:mod:`taash.web.offline.routes`): its save,
    replayed by the server's engine before it was kept, and its summary for the person's history. Never a result:
    no rating, leaderboard or chips counts it."""

    __tablename__ = "offline_matches"
    #: A hash of the guest and the save: a match sent twice is kept once.
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    guest: Mapped[str] = mapped_column(String(32), ForeignKey("guests.id"), index=True)
    game: Mapped[str] = mapped_column(String(16))
    save: Mapped[str] = mapped_column(Text)
    summary: Mapped[str] = mapped_column(Text)  # JSON: the seats, their results, the level
    uploaded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)


class ServerKeyRow(Base):
    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


def server_key(engine: Engine, name: str = "cookie") -> str:
    """The server's secret for signing guest cookies: made once, kept in the database, so a restart keeps
    everyone signed in. Servers starting together on a new database race to make it: the one whose insert loses
    reads the winner's."""
    from sqlalchemy.exc import IntegrityError

    try:
        return _made_or_read_key(engine, name)
    except IntegrityError:
        return _made_or_read_key(engine, name)


def _made_or_read_key(engine: Engine, name: str) -> str:
    import secrets

    from sqlalchemy.orm import Session

    with Session(engine) as s, s.begin():
        row = s.get(ServerKeyRow, name)
        if row is None:
            row = ServerKeyRow(name=name, value=secrets.token_hex(32))
            s.add(row)
        value = row.value
    return value


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets write-ahead logging, which keeps every commit through a crash of the
    server process (``synchronous=NORMAL`` loses nothing on ``kill -9``; only a power cut could)."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection, _record):  # type: ignore[no-untyped-def]
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_size=5, max_overflow=5, pool_pre_ping=True)


def redacted(url: str) -> str:
    """``url`` with its password hidden, for messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.split("@")[-1]


def database_problem(url: str) -> str | None:
    """Open the database at ``url`` and bring its schema up to date; returns what went wrong in one sentence, or
    None. (The server calls this before it announces its address, so a bad ``--database-url`` is one line.)"""
    try:
        engine = make_engine(url)
        try:
            migrate(engine)
            server_key(engine)
        finally:
            engine.dispose()
    except (SQLAlchemyError, ImportError, ValueError, OSError) as e:
        cause = getattr(e, "orig", None) or e
        text = str(cause).split("\n")[0].strip() or type(cause).__name__
        return f"cannot use the database {redacted(url)}: {text}"
    return None


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to the newest migration (or to ``revision``, for tests of upgrades)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
