"""``taash rummy play`` (and ``taash play --game rummy``): a match of 13-card Rummy against bots in the terminal."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer

from taash.cli.common import LANG_HELP, fail, out, speak, user_errors
from taash.cli.play_options import PlayOptions, Screens
from taash.cli.spoken import SAID_HELP
from taash.cli.terminal import need_terminal, unicode_ok
from taash.games.registry import levels
from taash.i18n import N_, _, ngettext, said_of
from taash.rummy.match import FORMATS
from taash.rummy.rules import PLAYER_COUNTS, load_rules
from taash.tables.names import bot_name

DEFAULT_SAVE = Path("taash-rummy-match.json")
#: The bots' names, seat 1 on (the person is seat 0).
BOT_NAMES = ("Asha", "Dev", "Vikram", "Meera", "Kabir")
#: What a saved match keeps of its own: options that cannot go with ``--resume`` (parameter name, option).
KEPT_BY_THE_SAVE = (("players", "--players"), ("rules", "--rules"), ("fmt", "--format"), ("level", "--level"),
                    ("seed", "--seed"), ("name", "--name"))
#: The same, in the order ``taash play --game rummy`` names them.
KEPT_BY_A_PLAY_SAVE = (("players", "--players"), ("rules", "--rules"), ("level", "--level"), ("seed", "--seed"),
                       ("name", "--name"), ("fmt", "--format"))
#: ``taash rummy play --help``: paragraphs, each one line (catalogue messages).
HELP_PARAGRAPHS = (
    N_("Play a match of 13-card Indian Rummy against the computer: you and 1 to 5 bots, in points, pool or deals "
       "format."),
    N_("Levels (--level): easy plays at random; medium takes the card that lowers its points most; hard weighs what "
       "its hand could become and what the next player wants; expert weighs every card it may draw next, counting "
       "the cards it has seen, and plays the deal out on guessed hands before it drops."),
    N_("Keys: on your turn 1 takes from the stock, 2 from the discard pile, 3 drops; then Left/Right or a card's "
       "letter picks a card, 1 discards it, 2 declares with it (you confirm, seeing your groups and whether they are "
       "valid). h a hint; u undo your last move; s save; q or Ctrl+Q save and quit (--resume FILE goes on). On the "
       "score sheet: Enter the next deal, q save and quit."),
)


def play_help() -> str:
    """``taash rummy play --help``'s text in the language spoken."""
    return "\n\n".join(_(p) for p in HELP_PARAGRAPHS)


def rummy_levels() -> list[str]:
    """The levels 13-card Rummy offers (its plugin's)."""
    return list(levels("rummy"))


def check_options(players: int, fmt: str, level: str, name: str, delay: float) -> None:
    if players not in PLAYER_COUNTS:
        fail(_("--players must be 2 to 6 at 13-card Rummy, not {value}", value=players))
    if fmt not in FORMATS:
        fail(_("--format must be one of {formats}, not {value}", formats=", ".join(FORMATS), value=repr(fmt[:40])))
    if level not in rummy_levels():
        fail(_("--level must be one of {levels} at 13-card Rummy, not {value}", levels=", ".join(rummy_levels()),
                value=repr(level[:40])))
    if not 0 <= delay <= 10:
        fail(_("--delay must be from 0 to 10 seconds, not {value}", value=delay))
    if not name.strip() or len(name) > 40:
        fail(_("--name must be 1 to 40 characters"))


def play_rummy(players: int, rules: str, fmt: str, level: str, seed: int | None, name: str, resume: Path | None,
               save: Path | None, ascii_only: bool, delay: float, ignored: list[str]) -> None:
    """Check the options, start or resume the match, and run the screen (``ignored``: options given with
    ``--resume``, which are refused)."""
    from taash.rummy.game import RummyState
    from taash.tables.adapter import TableError, adapter
    from taash.tables.match import TableMatch
    from taash.tui.rummy.app import RummyApp
    from taash.tui.rummy.text import format_caption, sheet_table

    if ignored:
        fail(_("--resume goes on with the saved match's own settings; leave out {options}", options=", ".join(ignored)))
    ascii_only = ascii_only or not unicode_ok()
    check_options(players, fmt, level, name, delay)
    human = 0
    if resume is not None:
        with user_errors(str(resume)):
            try:
                session, people = TableMatch.load(resume)
            except TableError as e:
                fail(_("{path}: {why}", path=resume, why=said_of(e)))
        if session.game.name != "rummy":
            fail(_("{path}: a saved match of {game}, not of 13-card Rummy", path=resume, game=session.game.title))
        if len(people) != 1:
            fail(_("{path}: {why}", path=resume, why=ngettext("a match of {n} person, not one against bots",
                                                            "a match of {n} people, not one against bots",
                                                            len(people))))
        human = people[0]
    else:
        game = adapter("rummy")
        with user_errors("--rules"):
            chosen = load_rules(rules)
        try:
            settings = game.settings(players, chosen, fmt, level, False)
        except TableError as e:
            fail(e)
        names = [name.strip(), *(bot_name(n) for n in BOT_NAMES[: players - 1])]
        session = TableMatch(game, settings, random.SystemRandom().randrange(2**31) if seed is None else seed, names)
    if session.over:
        assert isinstance(session.state, RummyState)
        out.print(sheet_table(session.state.match, session.names, ascii_only))
        out.print(format_caption(session.state.match, session.names))
        out.print(_("This match is over; taash replay {path} steps through it.", path=resume))
        return
    path = save or resume or DEFAULT_SAVE
    if not path.parent.is_dir():
        fail(_("--save: there is no folder {folder} to save the match in", folder=path.parent))
    if path.is_dir():
        fail(_("--save: {path} is a folder; name a file to save the match in", path=path))
    need_terminal()
    message = RummyApp(session, path, delay, human, ascii_only).run()
    if session.over:  # the score sheet stays on the terminal after the full screen goes
        assert isinstance(session.state, RummyState)
        out.print(sheet_table(session.state.match, session.names, ascii_only))
        out.print(format_caption(session.state.match, session.names))
    if message:
        print(message)


def given_with_resume(ctx: typer.Context) -> list[str]:
    given = []
    for param, option in KEPT_BY_THE_SAVE:
        source = ctx.get_parameter_source(param)
        if source is not None and source.name != "DEFAULT":
            given.append(option)
    return given


def play(
    ctx: typer.Context,
    players: Annotated[int, typer.Option("--players", "-p", help=N_("2 to 6 players (you and the bots)."))] = 2,
    rules: Annotated[str, typer.Option("--rules", "-r", help=N_("A preset (octro, classic, ...) or a .toml/.json "
                                       "rules file."))] = "octro",
    fmt: Annotated[str, typer.Option("--format", "-f", help=N_("The match format: points, pool101, pool201, "
                                                                             "deals2, deals3, deals6."))]
    = "points",
    level: Annotated[str, typer.Option("--level", "-l", help=N_("The bots' level: easy, medium, hard."))] = "medium",
    seed: Annotated[int | None, typer.Option(help=N_("Seed of the match (the same seed deals the same cards)."))]
    = None,
    name: Annotated[str, typer.Option("--name", help=N_("Your name in the log and the record."))] = "You",
    resume: Annotated[Path | None, typer.Option(help=N_("Resume a saved match."))] = None,
    save: Annotated[Path | None, typer.Option(help=N_("Where s and q save the match (default: "
                                                      "taash-rummy-match.json, or the --resume file)."))] = None,
    ascii_only: Annotated[bool, typer.Option("--ascii", help=N_("Plain ASCII cards (Ks, Th) instead of suit symbols."))]
    = False,
    delay: Annotated[float, typer.Option(help=N_("Seconds between the bots' moves."))] = 0.6,
    lang: Annotated[str | None, typer.Option("--lang", help=LANG_HELP)] = None,
) -> None:
    """Play 13-card Rummy against the computer (the help's text is play_help())."""
    speak(lang)
    source = ctx.get_parameter_source("name")
    if source is None or source.name == "DEFAULT":  # "You" in the language spoken, as taash play says it
        name = _("You")
    play_rummy(players, rules, fmt, level, seed, name, resume, save, ascii_only, delay,
               given_with_resume(ctx) if resume is not None else [])


def play_shared(options: PlayOptions) -> None:
    """``taash play --game rummy`` (or the resume of a Rummy save): Rummy's own command with these options."""
    o = options
    if "baazis" in o.given:
        fail(_("--baazis is Seep's; a Rummy match's length is its --format"))
    ignored = [option for param, option in KEPT_BY_A_PLAY_SAVE if param in o.given] if o.resume is not None else []
    play_rummy(o.players, o.rules if "rules" in o.given else "octro", o.fmt or "points", o.level, o.seed, o.name,
               o.resume, o.save, o.ascii_only, o.delay, ignored)


def replay_rummy(file: Path, data: object, ascii_only: bool) -> None:
    """``taash replay`` of a 13-card Rummy record (``rummy-protocol.md``)."""
    from taash.rummy.record import record_from_json
    from taash.tui.rummy.replay import RummyReplayApp, Timeline

    with user_errors(str(file)):
        timeline = Timeline(record_from_json(data), ascii_only)
    if not timeline.deals:
        fail(_("{path}: the record has no deal to show", path=file))
    need_terminal()
    RummyReplayApp(timeline, str(file), ascii_only).run()


play.__doc__ = play_help()
SAID_HELP[play] = play_help
SCREENS = Screens(play=play_shared, replay=replay_rummy)
