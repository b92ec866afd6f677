"""``taash chips``: the audit's exit statuses (0 clean, 1 naming each fault, 2 for bad input in one line), the
balances and a grant. Two tests run the installed command in a process of its own; the others call its entry point
in this process (a second apiece saved)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from taash.chips import HOUSE_ACCOUNT, Ledger, Stake, wallet_of
from taash.cli.main import run as taash_main
from taash.web.db import make_engine, migrate
from tests.cli.test_seep_cli import one_line_error, run


def taash(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    """``taash ARGS`` through the command's entry point: its exit status, standard output and error."""
    monkeypatch.setattr(sys, "argv", ["taash", *args])
    with pytest.raises(SystemExit) as done:
        taash_main()
    out, err = capsys.readouterr()
    return int(done.value.code or 0), out, err


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('chips') / 'taash.db'}"
    engine = make_engine(url)
    migrate(engine)
    ledger = Ledger(engine)
    ledger.open_wallet("asha")
    ledger.open_wallet("bilal")
    ledger.hold("t1:1", [Stake(0, wallet_of("asha"), 300), Stake(1, HOUSE_ACCOUNT, 300)])
    ledger.settle("t1:1", {0: 300, 1: -300})
    engine.dispose()
    return url


def test_the_audit_of_clean_books_says_so_in_one_line(books: str) -> None:
    proc = run("chips", "audit", "--database-url", books)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ("taash: the books are clean: 5 accounts (2 wallets), 5 transfers, 1 match (0 pending, "
                           "1 settled, 0 refunded); 20,000 chips granted, 20,300 in wallets, the house at -300\n")


def test_the_audit_names_each_fault_and_exits_1(tmp_path: Path, books: str, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "copy.db"
    copy.write_bytes(Path(books.removeprefix("sqlite:///")).read_bytes())
    engine = make_engine(f"sqlite:///{copy}")
    with engine.begin() as c:
        c.execute(text("UPDATE chips_accounts SET balance = balance + 1 WHERE id = 'house'"))
    engine.dispose()
    code, out, err = taash(capsys, monkeypatch, "chips", "audit", "--database-url", f"sqlite:///{copy}")
    assert code == 1 and err == ""
    assert out.splitlines() == [
        "fault: the balances in chips add up to +1, not 0",
        "fault: house has a balance of -299, but its transfers add up to -300",
        "taash: the books have 2 faults: 5 accounts (2 wallets), 5 transfers, 1 match (0 pending, 1 settled, "
        "0 refunded); 20,000 chips granted, 20,300 in wallets, the house at -299"]


def test_balances_and_a_grant_once_per_reason(tmp_path: Path, books: str, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "copy.db"
    copy.write_bytes(Path(books.removeprefix("sqlite:///")).read_bytes())
    url = f"sqlite:///{copy}"
    assert taash(capsys, monkeypatch, "chips", "balance", "asha", "bilal", "--database-url", url) == (
        0, "asha\t10300\nbilal\t10000\n", "")
    for _ in range(2):
        granted = taash(capsys, monkeypatch, "chips", "grant", "bilal", "500", "--reason", "welcome",
                        "--database-url", url)
        assert granted == (0, "taash: grant:bilal:welcome: 500 chips to bilal, who has 10,500\n", "")
    code, _, err = taash(capsys, monkeypatch, "chips", "grant", "bilal", "600", "--reason", "welcome",
                         "--database-url", url)
    assert code == 2 and err.count("\n") == 1
    assert "taash: transfer grant:bilal:welcome was made already as 500 chips" in err
    assert "wallet:bilal\t10500" in taash(capsys, monkeypatch, "chips", "balance", "--database-url", url)[1]
    code, _, err = taash(capsys, monkeypatch, "chips", "balance", "nobody", "--database-url", url)
    assert (code, err) == (2, "taash: the books have no account 'wallet:nobody'\n")


def test_a_missing_database_is_one_line_and_exit_2_and_is_not_made(tmp_path: Path) -> None:
    line = one_line_error(run("chips", "audit", "--database-url", f"sqlite:///{tmp_path}/missing.db"), 2)
    assert line.startswith("taash: there is no database at /")
    assert not (tmp_path / "missing.db").exists()


@pytest.mark.parametrize(("url", "message"), [
    ("mysql://somewhere/db", "--database-url must be sqlite:///FILE or postgresql+psycopg://..."),
    ("sqlite://", "names no database file"),
    ("sqlite:///{tmp}/empty.db", "the database has no chips ledger"),
    ("postgresql+psycopg://nobody:secret@127.0.0.1:1/none", "cannot use the database postgresql+psycopg://nobody:***@"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, url: str, message: str,
                                          capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    make_engine(f"sqlite:///{tmp_path}/empty.db").connect().close()
    code, out, err = taash(capsys, monkeypatch, "chips", "audit", "--database-url", url.format(tmp=tmp_path))
    assert (code, out) == (2, "") and err.startswith("taash: ") and err.count("\n") == 1
    assert message in err and "secret" not in err


@pytest.mark.parametrize("command", [[], ["audit"], ["balance"], ["grant"]])
def test_every_chips_command_takes_h_and_fits_80_columns(command: list[str], capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("TERMINAL_WIDTH", "80")
    code, text, err = taash(capsys, monkeypatch, "chips", *command, "-h")
    assert (code, err) == (0, "") and "Usage:" in text and "<bool>" not in text
    assert all(len(line) <= 80 for line in text.splitlines()), text


def test_flows_with_no_match_between_people_say_so_and_bad_input_is_one_line(
        tmp_path: Path, books: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Asha played only the house: no pair of people, in words and as JSON; a missing database is one line."""
    code, out, _ = taash(capsys, monkeypatch, "chips", "flows", "--database-url", books)
    assert code == 0 and out == "taash: no chips moved between people in settled matches\n"
    code, out, _ = taash(capsys, monkeypatch, "chips", "flows", "--json", "--database-url", books)
    assert code == 0 and out.strip() == "[]"
    code, _, err = taash(capsys, monkeypatch, "chips", "flows", "--database-url", f"sqlite:///{tmp_path}/none.db")
    assert code == 2 and err.strip().startswith("taash: there is no database at") and "\n" not in err.strip()
    code, _, err = taash(capsys, monkeypatch, "chips", "flows", "--limit", "0", "--database-url", books)
    assert code == 2 and "Traceback" not in err
