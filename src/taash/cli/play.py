"""``taash play`` (a match against bots in the terminal) and ``taash replay`` (step through a game record)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from taash.bots.base import EXPERT_SECONDS
from taash.cli.common import LANG_HELP, fail, speak, user_errors
from taash.cli.play_options import PlayOptions, Screens
from taash.cli.spoken import SAID_HELP
from taash.cli.terminal import unicode_ok
from taash.games.registry import default_game, plugin, plugins
from taash.i18n import N_, _

#: The parameters of ``taash play`` a game may refuse, or take from a save, when they are given.
PARAMETERS = ("players", "rules", "fmt", "level", "baazis", "seed", "name")


#: What each level's bots do, for ``taash play --help`` (catalogue messages).
LEVEL_WORDS = {"easy": N_("plays at random"), "medium": N_("takes the most points now"),
               "hard": N_("counts the cards and weighs what it leaves the next player"),
               "learned": N_("a small network trained on played-out deals picks among the best plays"),
               "expert": N_("searches guessed deals, {seconds} s a play at most")}


def levels_help() -> str:
    """Every level some game offers, in order, with what its bots do (and the games that offer it, where not
    every game does), in the language spoken: the games' levels are their plugins' (read here as data, importing no
    game). The levels' names stay as they are typed after ``--level``."""
    offering: dict[str, list[str]] = {}
    games = [p for p in plugins() if p.levels]
    for game in games:
        for level, _kind in game.levels:
            offering.setdefault(level, []).append(_(game.title))
    said = []
    for level, titles in offering.items():
        words = _(LEVEL_WORDS[level], seconds=f"{EXPERT_SECONDS:g}") if level in LEVEL_WORDS else ""
        line = (_("{level} ({games} only) {words}", level=level, games=", ".join(titles), words=words)
                if len(titles) < len(games) else _("{level} {words}", level=level, words=words))
        said.append(line.rstrip())
    return _("Levels (--level): {levels}.", levels="; ".join(said))


#: ``taash play --help``: paragraphs, each one line (the help wraps them to the terminal); catalogue messages.
PLAY_PARAGRAPHS = (
    N_("Play a match of Seep (the default) or 13-card Rummy against the computer. Seep: you and a bot partner "
       "against two bots (or one, with -p 2)."),
    N_("--game rummy plays 13-card Rummy instead, with --format for its match (taash rummy play --help tells its "
       "keys)."),
    N_("Keys: Left/Right choose a card of your hand; Up/Down and Enter, or 1-9, make one of its plays (or the "
       "bid); h a hint; u undo your last move; s save; q or Ctrl+Q save and quit (--resume FILE goes on). On the "
       "score sheet: Enter the next deal, q save and quit."),
    N_("--plain plays either game one line at a time, for a screen reader: no box drawing, every event on a line "
       "of its own, cards named in words; type a choice's number, or l to look again, h a hint, u undo, ? the "
       "commands, q quit."),
)
#: ``taash replay --help``.
REPLAY_PARAGRAPHS = (
    N_("Step through a game record forwards and backwards, with every hand shown: Seep's, or 13-card Rummy's (a "
       "record with \"game\": \"rummy\", or a save of taash rummy play), turn by turn."),
    N_("Keys: Left/Right a play back or forward; Up/Down (or PageUp/PageDown) a deal; Home/End the start or the "
       "end of the deal; q leave."),
)


def play_help() -> str:
    """``taash play --help``'s text in the language spoken."""
    first, *rest = PLAY_PARAGRAPHS
    return "\n\n".join([_(first), levels_help(), *(_(p) for p in rest)])


def replay_help() -> str:
    """``taash replay --help``'s text in the language spoken."""
    return "\n\n".join(_(p) for p in REPLAY_PARAGRAPHS)


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


def with_screens() -> list[str]:
    """The games with a terminal game (their plugin's ``screens``: loaded only when played)."""
    return [p.name for p in plugins() if p.screens is not None]


def screens(game: str) -> Screens:
    """The terminal game of ``game`` (one of :func:`with_screens`)."""
    found: Screens = plugin(game).part("screens")
    return found


def either(names: list[str]) -> str:
    """``"seep or rummy"``, in the language spoken (more than two names: listed with commas)."""
    return _("{a} or {b}", a=names[0], b=names[1]) if len(names) == 2 else ", ".join(names)


def check_game(game: str, plain: bool) -> None:
    """Refuse a game without a terminal game (with ``--plain``: without plain words) in one line."""
    playable = [p.name for p in plugins() if (p.plain if plain else p.screens) is not None]
    if game not in playable:
        games, value = either(playable), repr(game[:40])
        fail(_("--game must be {games} with --plain, not {value}", games=games, value=value) if plain else
             _("--game must be {games}, not {value}", games=games, value=value))


def play(
    ctx: typer.Context,
    game: Annotated[str | None, typer.Option("--game", "-g", help=N_("The game: seep (the default) or rummy (13-card "
                                             "Rummy: taash rummy play --help tells its keys)."), show_default=False)]
    = None,
    fmt: Annotated[str | None, typer.Option("--format", "-f", help=N_("Rummy's match format: points (the default), "
                                            "pool101, pool201, deals2, deals3, deals6."))] = None,
    players: Annotated[int, typer.Option("--players", "-p", help=N_("2 or 4 players."))] = 4,
    rules: Annotated[str, typer.Option("--rules", "-r", help=N_("A preset or a .toml/.json rules file."))] = "standard",
    level: Annotated[str, typer.Option("--level", "-l", help=N_("The bots' level, one the game offers."))] = "medium",
    baazis: Annotated[int, typer.Option("--baazis", "-b", help=N_("Baazis to win the match; 0 plays a single deal."))]
    = 1,
    seed: Annotated[int | None, typer.Option(help=N_("Seed of the match (the same seed deals the same cards)."))]
    = None,
    name: Annotated[str, typer.Option("--name", help=N_("Your name in the game record."))] = "You",
    resume: Annotated[Path | None, typer.Option(help=N_("Resume a saved match (a game record file)."))] = None,
    save: Annotated[Path | None, typer.Option(help=N_("Where s and q save the match (default: taash-GAME-match.json, "
                                                   "or the --resume file)."))] = None,
    ascii_only: Annotated[bool, typer.Option("--ascii", help=N_("Plain ASCII cards (Ks, Th) instead of suit symbols."))]
    = False,
    delay: Annotated[float, typer.Option(help=N_("Seconds between the bots' moves."))] = 0.6,
    lang: Annotated[str | None, typer.Option("--lang", help=LANG_HELP)] = None,
    plain: Annotated[bool, typer.Option("--plain", help=N_("The plain game: one line per event, no box drawing or "
                                        "colour, a numbered choice typed at a prompt (for screen readers)."))]
    = False,
    old_name: Annotated[str | None, typer.Option("-n", hidden=True)] = None,
) -> None:
    """Play a match of Seep or 13-card Rummy against the computer (the help's text is play_help())."""
    game = default_game() if game is None else game
    check_game(game, plain)
    if old_name is not None:  # -n was --name here, and is --deals in every other command
        fail(_("-n is not short for --name (in the other commands it is --deals): write --name NAME"))
    saved = saved_game(resume) if resume is not None else None
    if saved in with_screens() and saved != default_game():  # a save of another game goes on as one (the default
        game = saved                                      # game's saves are its records, not tables' saves)
    speak(lang)
    given = frozenset(p for p in PARAMETERS
                      if (source := ctx.get_parameter_source(p)) is not None and source.name != "DEFAULT")
    if "name" not in given:  # "You" in the language spoken: the log and the seats name the person so
        name = _("You")
    options = PlayOptions(players, rules, fmt, level, baazis, seed, name, resume, save, ascii_only, delay, given,
                          plain)
    if plain:
        from taash.cli.plain_play import play_plain

        play_plain(game, options)
        return
    screens(game).play(options)


def replay_record(
    file: Annotated[Path, typer.Argument(help=N_("A game record (JSON), e.g. a saved match."))],
    ascii_only: Annotated[bool, typer.Option("--ascii", help=N_("Plain ASCII cards instead of suit symbols."))] = False,
    lang: Annotated[str | None, typer.Option("--lang", help=LANG_HELP)] = None,
) -> None:
    """Step through a game record (the help's text is replay_help())."""
    speak(lang)
    ascii_only = ascii_only or not unicode_ok()
    with user_errors(str(file)):
        data = json.loads(file.read_text(encoding="utf-8-sig"))
    if isinstance(data, dict) and data.get("kind") == "taash-session" and isinstance(data.get("record"), dict):
        data = data["record"]  # a save of a tables' session (taash rummy play): its record is inside
    game = data.get("game") if isinstance(data, dict) else None
    # A record of no game (or of one without a terminal game) is the default game's to read or refuse.
    screens(game if isinstance(game, str) and game in with_screens() else default_game()).replay(file, data,
                                                                                               ascii_only)


play.__doc__ = play_help()
replay_record.__doc__ = replay_help()
SAID_HELP.update({play: play_help, replay_record: replay_help})
