"""The operator's cancel (``taash tournaments cancel``, :func:`cancel_tournament`): a tournament not finished is
cancelled with every entry fee returned exactly once (a cancel killed half way and run again returns the rest),
its tables still playing are ended by the server, and one finished or unknown is refused in one line."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import Engine

from taash.chips.audit import audit
from taash.chips.ledger import Ledger, Transfer, wallet_of
from taash.tournaments.pairing import TournamentError
from taash.web.tournament_book import cancel_tournament, create_tournament, read
from taash.web.tournament_rows import CANCELLED, CANCELLING, DONE, PLAYING, pool_person, return_id
from tests.web.test_tournaments import GRANT, Server, database, people, spec


def test_an_open_tournament_cancelled_returns_every_fee_and_is_refused_a_second_time(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as engine:
        async def run() -> None:
            server = Server(engine)
            entrants = people(server.ledger, 3)
            made = create_tournament(engine, server.ledger, spec(fee=250), None)
            for p in entrants:
                await server.director.register(made, p, p)
            record, returned = cancel_tournament(engine, server.ledger, made)
            assert returned == 3 * 250 and record.people == entrants
            after = read(engine, made)
            assert after is not None and after.row.status == CANCELLED
            assert all(server.ledger.balance(wallet_of(p)) == GRANT for p in entrants)
            assert server.ledger.balance(wallet_of(pool_person(made))) == 0
            with pytest.raises(TournamentError, match="cancelled already"):
                cancel_tournament(engine, server.ledger, made)
            with pytest.raises(TournamentError, match="closed"):
                await server.director.register(made, entrants[0], "again")
            assert audit(engine).clean
            await server.close()

        asyncio.run(run())


def test_a_running_knockout_cancelled_has_its_tables_ended_and_pays_no_prize(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as engine:
        async def run() -> None:
            server = Server(engine)
            server.hub.turns.bot_delay = 30.0  # its matches stay under way while it is cancelled
            entrants = people(server.ledger, 4)
            made = create_tournament(engine, server.ledger, spec(fee=100, capacity=4, bots=False), None)
            for p in entrants:
                await server.director.register(made, p, p)
            record = read(engine, made)
            assert record is not None and [m.status for m in record.matches] == [PLAYING, PLAYING]
            tables = [server.hub.get(m.table_id or "") for m in record.matches]
            _, returned = cancel_tournament(engine, server.ledger, made)
            assert returned == 400
            await server.director.tick()  # the server ends what the cancel left under way
            record = read(engine, made)
            assert record is not None and record.row.status == CANCELLED
            assert all(m.status == DONE and m.outcome_of() == {"cancelled": True} for m in record.matches)
            assert all(t is not None and t.gone for t in tables)
            assert made not in server.director.active()
            assert record.row.payout is None
            assert all(server.ledger.balance(wallet_of(p)) == GRANT for p in entrants)
            assert audit(engine).clean
            await server.close()

        asyncio.run(run())


class DyingLedger(Ledger):
    """Books that die before the second return of a cancel (after the first is committed)."""

    def __init__(self, engine: Engine):
        super().__init__(engine, starting_grant=GRANT)
        self.returned = 0

    def transfer(self, transfer_id: str, debit: str, credit: str, amount: int, kind: str = "move") -> Transfer:
        if ":return:" in transfer_id:
            if self.returned:
                raise RuntimeError("killed")
            self.returned += 1
        return super().transfer(transfer_id, debit, credit, amount, kind)


def test_a_cancel_killed_half_way_and_run_again_returns_each_fee_once(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as engine:
        async def run() -> list[str]:
            server = Server(engine)
            entrants = people(server.ledger, 3)
            made = create_tournament(engine, server.ledger, spec(fee=500), None)
            for p in entrants:
                await server.director.register(made, p, p)
            await server.close()
            with pytest.raises(RuntimeError, match="killed"):
                cancel_tournament(engine, DyingLedger(engine), made)
            record = read(engine, made)
            assert record is not None and record.row.status == CANCELLING
            ledger = Ledger(engine)
            assert sum(ledger.balance(wallet_of(p)) for p in entrants) == 3 * GRANT - 2 * 500
            _, returned = cancel_tournament(engine, ledger, made)  # the operator runs it again
            assert returned == 2 * 500
            assert all(ledger.transfer_by_id(return_id(made, p, 1)) is not None for p in entrants)
            assert all(ledger.balance(wallet_of(p)) == GRANT for p in entrants)
            return entrants

        asyncio.run(run())
        assert audit(engine).clean


def test_a_finished_or_unknown_tournament_is_refused_in_one_line(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as engine:
        async def run() -> None:
            server = Server(engine)
            made = create_tournament(engine, None, spec(capacity=2), None)
            for p in people(server.ledger, 2):
                await server.director.register(made, p, p)
            await server.run_until(made)
            with pytest.raises(TournamentError, match="is over") as over:
                cancel_tournament(engine, server.ledger, made)
            assert "\n" not in str(over.value)
            with pytest.raises(TournamentError, match="no tournament"):
                cancel_tournament(engine, server.ledger, "0123456789abcdef")
            record = read(engine, made)
            assert record is not None and record.row.status == "finished"
            await server.close()

        asyncio.run(run())
