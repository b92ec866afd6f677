"""``taash play`` (a match against bots in the terminal) and ``taash replay`` (step through a game record)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from taash.bots.base import EXPERT_SECONDS, LEVELS
from taash.cli.common import fail, out, user_errors
from taash.cli.seep import check_players, get_rules
from taash.cli.terminal import need_terminal, unicode_ok

DEFAULT_SAVE = Path("taash-seep-match.json")
#: What a saved match keeps of its own: options that cannot go with ``--resume`` (parameter name, option).
KEPT_BY_THE_SAVE = (("players", "--players"), ("rules", "--rules"), ("level", "--level"), ("baazis", "--baazis"),
                    ("seed", "--seed"), ("name", "--name"))


#: What each level's bots do, for ``taash play --help``.
LEVEL_WORDS = {"easy": "plays at random", "medium": "takes the most points now",
               "hard": "counts the cards and weighs what it leaves the next player",
               "expert": f"searches guessed deals, {EXPERT_SECONDS:g} s a play at most"}
#: ``taash play --help``: paragraphs, each one line (the help wraps them to the terminal).
PLAY_HELP = "\n\n".join([
    "Play a match of Seep against the computer: you and a bot partner against two bots (or one, with -p 2).",
    "Levels (--level): " + "; ".join(f"{level} {LEVEL_WORDS[level]}" for level in LEVELS) + ".",
    "--game rummy plays 13-card Rummy instead, with --format for its match (taash rummy play --help tells its "
    "keys).",
    "Keys: Left/Right choose a card of your hand; Up/Down and Enter, or 1-9, make one of its plays (or the bid); "
    "h a hint; u undo your last move; s save; q or Ctrl+Q save and quit (--resume FILE goes on). On the score "
    "sheet: Enter the next deal, q save and quit.",
])
#: ``taash replay --help``.
REPLAY_HELP = "\n\n".join([
    "Step through a game record forwards and backwards, with every hand shown: Seep's, or 13-card Rummy's (a "
    "record with \"game\": \"rummy\", or a save of taash rummy play), turn by turn.",
    "Keys: Left/Right a play back or forward; Up/Down (or PageUp/PageDown) a deal; Home/End the start or the end of "
    "the deal; q leave.",
])


def given_with_resume(ctx: typer.Context) -> list[str]:
    """The options given on the command line that a resumed match takes from its save file instead."""
    given = []
    for param, option in KEPT_BY_THE_SAVE:
        source = ctx.get_parameter_source(param)
        if source is not None and source.name != "DEFAULT":  # by name: typer brings a click of its own
            given.append(option)
    return given


def saved_game(path: Path) -> str | None:
    """The game of a save file of the tables' sessions (``taash rummy play`` writes them), or None for any other
    file (Seep's saves are game records; a broken file is for the Seep path to refuse)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return None
    if isinstance(data, dict) and data.get("kind") == "taash-session" and isinstance(data.get("game"), str):
        return str(data["game"])
    return None


def play_another_game(ctx: typer.Context, players: int, rules: str, fmt: str | None, level: str,
                      seed: int | None, name: str, resume: Path | None, save: Path | None, ascii_only: bool,
                      delay: float) -> None:
    """``taash play --game rummy`` (or the resume of a Rummy save): Rummy's own command with these options."""
    from taash.cli.rummy_play import play_rummy

    def given(param: str) -> bool:
        source = ctx.get_parameter_source(param)
        return source is not None and source.name != "DEFAULT"

    if given("baazis"):
        fail("--baazis is Seep's; a Rummy match's length is its --format")
    ignored = [option for param, option in (*KEPT_BY_THE_SAVE, ("fmt", "--format"))
               if param != "baazis" and given(param)] if resume is not None else []
    play_rummy(players, rules if given("rules") else "octro", fmt or "points", level, seed, name, resume, save,
               ascii_only, delay, ignored)


def play(
    ctx: typer.Context,
    game: Annotated[str, typer.Option("--game", "-g", help="The game: seep (the default) or rummy (13-card "
                                      "Rummy: taash rummy play --help tells its keys).")] = "seep",
    fmt: Annotated[str | None, typer.Option("--format", "-f", help="Rummy's match format: points (the default), "
                                            "pool101, pool201, deals2, deals3, deals6.")] = None,
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
    """Play a match of Seep against the computer (the help's text is PLAY_HELP)."""
    from taash.play.session import Session  # the interface loads only when it is used
    from taash.tui.app import SeepApp, match_summary

    if game not in ("seep", "rummy"):
        fail(f"--game must be seep or rummy, not {game[:40]!r}")
    if old_name is not None:  # -n was --name here, and is --deals in every other command
        fail("-n is not short for --name (in the other commands it is --deals): write --name NAME")
    if game == "rummy" or (resume is not None and saved_game(resume) == "rummy"):  # a Rummy save goes on as one
        play_another_game(ctx, players, rules, fmt, level, seed, name, resume, save, ascii_only, delay)
        return
    if fmt is not None:
        fail("--format is Rummy's (taash play --game rummy); a Seep match's length is its --baazis")
    ignored = given_with_resume(ctx) if resume is not None else []
    if ignored:
        fail(f"--resume goes on with the saved match's own settings; leave out {', '.join(ignored)}")
    ascii_only = ascii_only or not unicode_ok()
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
    """Step through a game record (the help's text is REPLAY_HELP)."""
    from taash.seep.record import record_from_json, replay
    from taash.tui.replay import ReplayApp, Timeline, redeals_of

    ascii_only = ascii_only or not unicode_ok()
    with user_errors(str(file)):
        data = json.loads(file.read_text(encoding="utf-8-sig"))
    if isinstance(data, dict) and data.get("kind") == "taash-session" and isinstance(data.get("record"), dict):
        data = data["record"]  # a save of taash rummy play: its record is inside
    if isinstance(data, dict) and data.get("game") == "rummy":
        replay_rummy(file, data, ascii_only)
        return
    with user_errors(str(file)):
        record = record_from_json(data)
        replay(record)
        timeline = Timeline(record, ascii_only, redeals_of(data))
    if not timeline.deals:
        fail(f"{file}: the record has no deal with a bid to show")
    need_terminal()
    ReplayApp(timeline, str(file), ascii_only).run()


def replay_rummy(file: Path, data: object, ascii_only: bool) -> None:
    """``taash replay`` of a 13-card Rummy record (``rummy-protocol.md``)."""
    from taash.rummy.record import record_from_json
    from taash.tui.rummy.replay import RummyReplayApp, Timeline

    with user_errors(str(file)):
        timeline = Timeline(record_from_json(data), ascii_only)
    if not timeline.deals:
        fail(f"{file}: the record has no deal to show")
    need_terminal()
    RummyReplayApp(timeline, str(file), ascii_only).run()


play.__doc__ = PLAY_HELP
replay_record.__doc__ = REPLAY_HELP
