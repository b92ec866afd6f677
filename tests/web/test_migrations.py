"""Databases made by an older taash upgrade in place: their tables keep playing."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, text

from taash.web.db import MIGRATIONS, make_engine, migrate
from taash.web.hub import Hub
from taash.web.store import Store
from tests.web.server import POSTGRES, postgres_database
from tests.web.test_hub import two_player_table


def downgrade(url: str, revision: str) -> None:
    engine = make_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
    engine.dispose()


def test_a_database_from_before_games_had_names_upgrades_and_its_tables_play_on(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    migrate(engine)

    async def start() -> str:
        store = Store(engine)
        hub = Hub(store, bot_delay=0)
        live = await two_player_table(hub)
        for _ in range(5):  # the bid and a few plays
            seat = live.table.to_move()
            await hub.act(live, live.table.bot_action(), f"g{seat}")
        store.close()
        return live.table.id

    table_id = asyncio.run(start())
    engine.dispose()
    downgrade(url, "0002")  # the schema of the taash before tables named their game
    old = make_engine(url)
    assert "game" not in {c["name"] for c in inspect(old).get_columns("tables")}
    old.dispose()

    upgraded = make_engine(url)
    migrate(upgraded)
    with upgraded.begin() as c:
        assert c.execute(text("SELECT game FROM tables WHERE id = :id"), {"id": table_id}).scalar() == "seep"

    async def finish() -> str:
        store = Store(upgraded)
        hub = Hub(store, bot_delay=0)
        assert hub.restore() == 1
        live = hub.live[table_id]
        while live.table.status != "finished":
            seat = live.table.to_move()
            await hub.act(live, live.table.bot_action(), f"g{seat}")
        store.close()
        return live.table.status

    assert asyncio.run(finish()) == "finished"


def test_a_table_of_a_game_this_server_does_not_seat_is_left_out_and_the_others_go_on(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 't.db'}")
    migrate(engine)

    async def two_tables() -> tuple[str, str]:
        store = Store(engine)
        hub = Hub(store, bot_delay=0)
        first = await two_player_table(hub)
        second = await two_player_table(hub)
        store.close()
        return first.table.id, second.table.id

    kept, other = asyncio.run(two_tables())
    with engine.begin() as c:
        c.execute(text("UPDATE tables SET game = 'rummy' WHERE id = :id"), {"id": other})
    store = Store(engine)
    try:
        hub = Hub(store, bot_delay=0)
        assert hub.restore() == 1 and kept in hub.live and other not in hub.live
    finally:
        store.close()


def test_accounts_made_before_the_sound_key_keep_their_names_when_two_read_alike(tmp_path: Path) -> None:
    """0010 gives every account its name's reading ("Меера" reads "Meera"); two accounts made before it that read
    alike both stay, the later with a key of its own, and a new claim of that reading is refused."""
    from taash.web.names import name_keys

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    migrate(engine, "0009")
    with engine.begin() as c:
        for guest, name, when in (("g1", "Meera", "2026-01-01"), ("g2", "Меера", "2026-01-02")):  # Cyrillic
            c.execute(text("INSERT INTO guests (id, name, created_at) VALUES (:g, :n, :t)"),
                      {"g": guest, "n": name, "t": when})
            keys = name_keys(name)
            c.execute(text("INSERT INTO accounts (guest_id, name, name_key, look_key, password_hash, created_at, "
                           "failures) VALUES (:g, :n, :k, :l, 'h', :t, 0)"),
                      {"g": guest, "n": name, "k": keys.folded, "l": keys.look, "t": when})
    migrate(engine)
    with engine.begin() as c:
        rows = dict(c.execute(text("SELECT guest_id, sound_key FROM accounts")).all())
    assert rows == {"g1": "meera", "g2": "meera#g2"}
    engine.dispose()


def test_actions_stored_before_0011_leave_every_seat_its_whole_extra_time(tmp_path: Path) -> None:
    """0011 keeps with each action the extra seconds the seat to move had spent, which a restart takes off his
    extra time; a table whose actions were stored before it restores with every seat's extra time whole."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    migrate(engine)

    async def start() -> str:
        store = Store(engine)
        hub = Hub(store, bot_delay=0)
        live = await two_player_table(hub)
        for _ in range(5):
            seat = live.table.to_move()
            await hub.act(live, live.table.bot_action(), f"g{seat}")
        store.close()
        return live.table.id

    table_id = asyncio.run(start())
    with engine.begin() as c:  # as if Anil had spent 12.5 s of his extra time in his turns
        changed = c.execute(text("UPDATE actions SET extra_spent = 12.5 WHERE table_id = :id AND guest = 'g0' "
                                 "AND extra_spent IS NOT NULL"), {"id": table_id}).rowcount
    assert changed >= 2

    def banks() -> dict[int, float]:
        store = Store(make_engine(url))
        try:
            hub = Hub(store, bot_delay=0, extra_seconds=60)
            assert hub.restore() == 1
            return dict(hub.live[table_id].bank)
        finally:
            store.close()

    assert banks() == {0: 47.5, 1: 60.0}
    engine.dispose()
    downgrade(url, "0010")
    old = make_engine(url)
    assert "extra_spent" not in {c["name"] for c in inspect(old).get_columns("actions")}
    migrate(old)
    old.dispose()
    assert banks() == {}


@pytest.mark.parametrize("database", ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not POSTGRES, reason="TAASH_TEST_POSTGRES_URL is not set (scripts/ensure-postgres prints one)"))])
def test_0021_gives_accounts_a_language_none_chosen_and_goes_back(tmp_path: Path, database: str) -> None:
    """An account made before 0021 keeps everything and has chosen no language; the column goes with a
    downgrade, the account staying."""
    with contextlib.ExitStack() as stack:
        url = (f"sqlite:///{tmp_path / 'old.db'}" if database == "sqlite"
               else stack.enter_context(postgres_database()))
        engine = make_engine(url)
        migrate(engine, "0020_tourney2")
        with engine.begin() as c:
            c.execute(text("INSERT INTO guests (id, name, created_at) VALUES ('g1', 'Lata', '2026-01-01')"))
            c.execute(text("INSERT INTO accounts (guest_id, name, name_key, look_key, sound_key, password_hash, "
                           "created_at) VALUES ('g1', 'Lata', 'lata', 'lata', 'lata', 'h', '2026-01-01')"))
        migrate(engine)
        with engine.begin() as c:
            assert c.execute(text("SELECT name, language FROM accounts")).all() == [("Lata", None)]
            c.execute(text("UPDATE accounts SET language = 'hi'"))
        downgrade(url, "0020_tourney2")
        assert "language" not in {col["name"] for col in inspect(make_engine(url)).get_columns("accounts")}
        with engine.begin() as c:
            assert c.execute(text("SELECT name FROM accounts")).all() == [("Lata",)]
        engine.dispose()
