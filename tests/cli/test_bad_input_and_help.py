"""Issue 14's command-line items: bounded work, rules checked as a whole, one-line errors for what used to be a
traceback, short echoes of long values, a bounded arena, numbering from 1, and the help."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.cli.in_process import taash as run
from tests.cli.test_seep_cli import one_line_error


def test_legal_refuses_a_floor_that_cannot_arise_at_once() -> None:
    # 20 loose cards took 11 s and 1.6 MB of answer; 24 no answer in a minute.
    for count in (20, 24):
        loose = [f"{r}{s}" for r in "A23456" for s in "shdc"][:count]
        start = time.perf_counter()
        line = one_line_error(run("seep", "legal", stdin=json.dumps({"seat": 0, "hand": ["Ks"], "loose": loose})), 2)
        assert f"at most 16 loose cards, not {count}" in line and time.perf_counter() - start < 10


def test_legal_answers_the_biggest_floor_play_can_make(conformance_dir: Path) -> None:
    loose = ["Ks", "Kh", "Kd", "Kc", *[f"{r}s" for r in "QJT98765432A"]]
    proc = run("seep", "legal", stdin=json.dumps({"seat": 0, "hand": [f"{r}h" for r in "A23456789TJQ"],
                                                  "loose": loose}))
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads(proc.stdout)) > 100


def test_a_rules_file_that_would_redeal_forever_is_refused_by_every_command(tmp_path: Path) -> None:
    rules = tmp_path / "forever.json"
    rules.write_text(json.dumps({"floor_redeal_cards": [f"{r}{s}" for r in "A23456789TJQK" for s in "shdc"]}))
    for command in (["seep", "simulate", "--deals", "1"], ["seep", "arena", "random", "greedy", "--deals", "2"],
                    ["play"]):
        line = one_line_error(run(*command, "--rules", str(rules)), 2)
        assert "floor_redeal_cards names at most 12 cards, not 52" in line


def test_a_record_with_a_fractional_number_of_players_is_one_line(conformance_dir: Path) -> None:
    record = json.loads((conformance_dir / "standard-4p.record.json").read_text())
    record["players"] = 4.0
    assert "players must be 2 or 4, not 4.0" in one_line_error(run("seep", "replay", stdin=json.dumps(record)), 2)


def test_a_full_disk_under_simulate_record_is_one_line() -> None:
    for deals in ("2", "300"):  # the records fit in the buffer (the disk is found full on closing), or not
        line = one_line_error(run("seep", "simulate", "--deals", deals, "--record", "/dev/full"), 2)
        assert line == "taash: /dev/full: No space left on device"


def test_bad_search_settings_are_one_line() -> None:
    for spec, words in (("ismcts:iterations=abc", "iterations must be a whole number from 1 to 1000000, not 'abc'"),
                        ("ismcts:candidates=-5,iterations=3", "candidates must be a whole number from 0 to 1000"),
                        ("ismcts:seconds=0", "seconds must be a number above 0 and at most 600"),
                        ("ismcts:seconds=nan", "not nan"),
                        ("ismcts:prune=x", "prune must be a number from 0 to 100, not 'x'"),
                        ("cheat:iterations=2.5", "iterations must be a whole number")):
        assert words in one_line_error(run("seep", "arena", "random", spec, "--deals", "2"), 2)


def test_serve_refuses_an_in_memory_database_before_announcing_its_address() -> None:
    for url in ("sqlite://", "sqlite:///:memory:", "sqlite:///file:x?mode=memory&uri=true"):
        proc = run("serve", "--port", "1", "--database-url", url)
        assert "keeps the database in memory" in one_line_error(proc, 2) and "http" not in proc.stdout


def test_error_lines_cut_a_long_value_short() -> None:
    for value, length in (("A" * 5_000_000, "5,000,000"), ("As " * 100_000, "300,000")):
        line = one_line_error(run("seep", "legal", stdin=json.dumps({"seat": 0, "hand": [value]})), 2)
        assert len(line) < 200 and f"({length} characters)" in line and line.endswith("such as 'Ts' or 'Kd')")
    line = one_line_error(run("seep", "simulate", "--rules", "r" * 100_000), 2)
    assert len(line) < 250 and "(100,000 characters)" in line
    line = one_line_error(run("play", "--level", "x " * 50_000), 2)
    assert len(line) < 200
    line = one_line_error(run("seep", "legal", "--" + "z" * 100_000), 2)  # a usage error, from the parser
    assert len(line) < 100


def test_arena_jobs_are_capped_by_the_work_and_the_cores() -> None:
    proc = run("seep", "arena", "random", "greedy", "--players", "2", "--deals", "2", "--jobs", "100000")
    assert proc.returncode == 0, proc.stderr
    note = proc.stderr.strip()
    assert note.startswith("taash: --jobs 100000 is more than the ") and "Traceback" not in note
    assert note.endswith(("1 worker process", "2 worker processes")), note


# -- the help (issue 14, item 18) ---------------------------------------------------------------------------------

COMMANDS = [[], ["play"], ["replay"], ["serve"], ["web"], ["web", "loadtest"], ["seep"],
            *[["seep", c] for c in ("legal", "replay", "simulate", "bench", "rules", "arena")]]


#: Runs the installed command's entry point once for each command line given (a JSON list) in a new interpreter,
#: and prints what each wrote on standard output, with its exit status (a JSON list).
HELPS = """
import contextlib, io, json, sys
from taash.cli.main import run
said = []
for argv in json.loads(sys.argv[1]):
    sys.argv, out, code = ["taash", *argv], io.StringIO(), 0
    with contextlib.redirect_stdout(out):
        try:
            run()
        except SystemExit as e:
            code = e.code
    said.append([code, out.getvalue()])
print(json.dumps(said))
"""


def helps_at_80_columns(*commands: list[str]) -> list[str]:
    """The help of each command line in ``commands`` (its option included), as a terminal 80 columns wide shows
    it: one new interpreter for them all (a start costs seconds on a loaded machine), the width set before the
    command's modules are imported, as for the command a person types."""
    import os
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", HELPS, json.dumps(commands)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "COLUMNS": "80", "TERMINAL_WIDTH": "80"})
    assert proc.returncode == 0, proc.stderr
    said = json.loads(proc.stdout)
    assert [code for code, _ in said] == [0] * len(commands), (commands, proc.stderr)
    return [text for _, text in said]


def help_at_80_columns(*command: str, option: str = "--help") -> str:
    return helps_at_80_columns([*command, option])[0]


def test_version_prints_the_installed_version() -> None:
    from importlib import metadata

    proc = run("--version")
    assert proc.returncode == 0 and proc.stdout == f"taash {metadata.version('taash')}\n"


def test_every_command_takes_h_and_shows_no_bool_and_fits_80_columns() -> None:
    short = helps_at_80_columns(*([*command, "-h"] for command in COMMANDS))
    long = helps_at_80_columns(*([*command, "--help"] for command in COMMANDS))
    for command, text, same in zip(COMMANDS, short, long, strict=True):
        assert text == same and "Usage:" in text, command
        assert "<bool>" not in text, command
        assert all(len(line) <= 80 for line in text.splitlines()), command


def test_seep_replay_help_keeps_its_sentences_whole() -> None:
    # The description's second paragraph broke after "2 means the record", the rest on a new line.
    paragraphs = help_at_80_columns("seep", "replay").split("\n\n")
    lines = next(p for p in paragraphs if "malformed" in p).splitlines()
    assert "2 means the record itself is malformed" in " ".join(" ".join(lines).split())
    assert all(len(line.rstrip()) > 60 for line in lines[:-1]), lines


def test_serve_help_shows_every_description_whole_at_80_columns() -> None:
    text = help_at_80_columns("serve")
    for whole in ("postgresql+psycopg://USER@HOST/DB.", "(https://HOST[:PORT])",
                  "Seconds a person may be disconnected"):
        assert whole in text
    assert "…" not in text


def test_n_means_deals_everywhere_and_play_says_so() -> None:
    *deals, play = helps_at_80_columns(["seep", "simulate", "--help"], ["seep", "arena", "--help"],
                                       ["seep", "bench", "--help"], ["play", "--help"])
    assert all("-n, --deals" in text for text in deals)
    assert "-n," not in play
    line = one_line_error(run("play", "-n", "Priya"), 2)
    assert "write --name NAME" in line
    proc = run("seep", "simulate", "-n", "3", "-p", "2")
    assert proc.returncode == 0 and "3 deals" in proc.stdout


def test_the_documented_synopsis_names_every_option_of_play() -> None:
    commands = (Path(__file__).parents[2] / "docs" / "reference" / "commands.md").read_text()
    synopsis = next(line for line in commands.splitlines() if line.startswith("| `taash play "))
    for option in ("--players", "--rules", "--level", "--baazis", "--seed", "--name", "--resume", "--save",
                   "--ascii", "--delay"):
        assert option in synopsis
