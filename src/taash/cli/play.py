"""``taash play`` (a match against bots in the terminal) and ``taash replay`` (step through a game record)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from taash.bots.base import LEVELS
from taash.cli.common import fail, out, user_errors
from taash.cli.seep import check_players, get_rules

DEFAULT_SAVE = Path("taash-seep-match.json")


def unicode_ok() -> bool:
    """Whether the terminal can show suit symbols (its encoding can write them)."""
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "♠♥♦♣▶…".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def need_terminal() -> None:
    if not (sys.stdin.isatty() and sys.stdout.isatty()) and not os.environ.get("TAASH_NO_TTY_CHECK"):
        fail("this command needs an interactive terminal")


def play(
    players: Annotated[int, typer.Option("--players", "-p", help="2 or 4 players.")] = 4,
    rules: Annotated[str, typer.Option("--rules", "-r", help="A preset or a .toml/.json rules file.")] = "standard",
    level: Annotated[str, typer.Option("--level", "-l", help=f"The bots' level: {', '.join(LEVELS)}.")] = "medium",
    baazis: Annotated[int, typer.Option("--baazis", "-b", help="Baazis to win the match; 0 plays a single deal.")] = 1,
    seed: Annotated[int | None, typer.Option(help="Seed of the match (the same seed deals the same cards).")] = None,
    name: Annotated[str, typer.Option("--name", help="Your name in the game record.")] = "You",
    resume: Annotated[Path | None, typer.Option(help="Resume a saved match (a game record file).")] = None,
    save: Annotated[Path | None, typer.Option(help=f"Where s and q save the match (default: {DEFAULT_SAVE}, "
                                                   "or the --resume file).")] = None,
    ascii_only: Annotated[bool, typer.Option("--ascii", help="Plain ASCII cards (Ks, Th) instead of suit symbols.")]
    = False,
    delay: Annotated[float, typer.Option(help="Seconds between the bots' moves.")] = 0.6,
    old_name: Annotated[str | None, typer.Option("-n", hidden=True)] = None,
) -> None:
    """Play a match of Seep against the computer: you and a bot partner against two bots (or one, with -p 2)."""
    from taash.play.session import Session  # the interface loads only when it is used
    from taash.tui.app import SeepApp, match_summary

    ascii_only = ascii_only or not unicode_ok()
    if old_name is not None:  # -n was --name here, and is --deals in every other command
        fail("-n is not short for --name (in the other commands it is --deals): write --name NAME")
    if level not in LEVELS:
        fail(f"--level must be one of {', '.join(LEVELS)}, not {level!r}")
    if baazis < 0:
        fail(f"--baazis must be 0 (a single deal) or more, not {baazis}")
    if not 0 <= delay <= 10:
        fail(f"--delay must be from 0 to 10 seconds, not {delay}")
    if not name.strip() or len(name) > 40:
        fail("--name must be 1 to 40 characters")
    if resume is not None:
        with user_errors(str(resume)):
            session = Session.load(resume, ascii_only)
    else:
        check_players(players)
        session = Session(get_rules(rules), players, level, baazis, seed, name.strip(), 0, ascii_only)
    if session.over:  # a finished match: its summary, nothing to play
        out.print(match_summary(session, ascii_only))
        out.print(f"This match is over; taash replay {resume} steps through it.")
        return
    path = save or resume or DEFAULT_SAVE
    if not path.parent.is_dir():
        fail(f"--save: there is no folder {path.parent} to save the match in")
    if path.is_dir():
        fail(f"--save: {path} is a folder; name a file to save the match in")
    need_terminal()
    message = SeepApp(session, path, delay).run()
    if session.over:  # the summary stays on the terminal after the full screen goes
        out.print(match_summary(session, ascii_only))
    if message:
        print(message)


def replay_record(
    file: Annotated[Path, typer.Argument(help="A game record (JSON), e.g. a saved match.")],
    ascii_only: Annotated[bool, typer.Option("--ascii", help="Plain ASCII cards instead of suit symbols.")] = False,
) -> None:
    """Step through a game record forwards and backwards, with every hand shown."""
    from taash.seep.record import record_from_json, replay
    from taash.tui.replay import ReplayApp, Timeline

    ascii_only = ascii_only or not unicode_ok()
    with user_errors(str(file)):
        record = record_from_json(json.loads(file.read_text(encoding="utf-8-sig")))
        replay(record)
        timeline = Timeline(record, ascii_only)
    if not timeline.deals:
        fail(f"{file}: the record has no deal with a bid to show")
    need_terminal()
    ReplayApp(timeline, str(file), ascii_only).run()
