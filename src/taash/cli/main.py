"""The ``taash`` command: thin wrappers that parse, call the engine, and print.

Every error a user can cause ends in one line on standard error and exit status 2 (bad input) or 1 (a record
that breaks the rules); never a traceback. ``TAASH_DEBUG=1`` shows the traceback of an unexpected error.
"""

from __future__ import annotations

import os
import sys
from importlib import metadata
from typing import Annotated

import typer

try:  # Typer vendors Click from 0.2x on; older releases depend on it
    from typer import _click as click
except ImportError:  # pragma: no cover
    import click  # type: ignore[no-redef,import-not-found,unused-ignore]

from taash.cli.admin import app as admin_app
from taash.cli.chips import app as chips_app
from taash.cli.cluster import cluster
from taash.cli.common import BAD_INPUT, one_line
from taash.cli.play import play, replay_record
from taash.cli.spoken import language_asked, mistyped_command, player_command, refusal, speak_help
from taash.cli.tournaments import app as tournaments_app
from taash.cli.verify import verify
from taash.cli.web import serve, web_app
from taash.games.registry import plugins
from taash.i18n import use

#: Exit status for an error in taash itself (sysexits' EX_SOFTWARE).
INTERNAL_ERROR = 70

app = typer.Typer(
    name="taash",
    help="Indian card games: play Seep or 13-card Rummy against bots or people; exact engines, simulations, bots "
         "and benchmarks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # Click's plain help: no `<bool>` beside flags, whole sentences at 80 columns
    context_settings={"help_option_names": ["-h", "--help"]},  # every command's context inherits them
)
app.command("play", short_help="Play Seep or 13-card Rummy against bots in the terminal.")(play)
app.command("replay", short_help="Step through a game record, every hand shown.")(replay_record)
app.command("serve", short_help="Play Seep and 13-card Rummy in the browser: start the web server.")(serve)
app.command("cluster", short_help="Several web servers behind HAProxy, on PostgreSQL and Redis.")(cluster)
app.command("verify", short_help="Check that a server dealt a match fairly, from its record.")(verify)


def version_text() -> str:
    """``taash VERSION``, the installed distribution's version."""
    try:
        return f"taash {metadata.version('taash')}"
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "taash (version unknown: not installed)"


def show_version(value: bool) -> None:
    if value:
        print(version_text())
        raise typer.Exit(0)


@app.callback()
def main(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.", is_eager=True,
                                          callback=show_version)] = False,
) -> None:
    """Indian card games: play Seep or 13-card Rummy against bots or people; exact engines, simulations, bots and
    benchmarks."""
for _game in plugins():  # each game's own commands: taash <game> ...
    if _game.command is not None:
        app.add_typer(_game.part("command"), name=_game.name)
app.add_typer(web_app, name="web")
app.add_typer(chips_app, name="chips")
app.add_typer(admin_app, name="admin")
app.add_typer(tournaments_app, name="tournaments")


def run() -> None:
    """Entry point of the installed ``taash`` command: usage errors too end in one line and exit status 2."""
    player = None
    try:
        command = typer.main.get_command(app)
        player = player_command(command, sys.argv[1:])
        if player is not None:  # a player's command refuses, and helps, in his language
            use(language_asked(sys.argv[1:]))
            speak_help(player)
        code = command(standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError:
        sys.exit(BAD_INPUT)  # the help was printed
    except click.ClickException as e:
        if player is None and mistyped_command(e):
            use(language_asked(sys.argv[1:]))
        print(f"taash: {one_line(refusal(e))}", file=sys.stderr)
        sys.exit(BAD_INPUT)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    except (KeyboardInterrupt, typer.Abort):  # Ctrl-C: stop quietly, as Typer does inside a command
        sys.exit(130)
    except BrokenPipeError:  # the reader of our output went away (`taash ... | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except Exception as e:
        if os.environ.get("TAASH_DEBUG"):
            raise
        print(f"taash: internal error: {type(e).__name__}: {one_line(e)} "
              "(please report it; TAASH_DEBUG=1 shows the traceback)", file=sys.stderr)
        sys.exit(INTERNAL_ERROR)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    run()
