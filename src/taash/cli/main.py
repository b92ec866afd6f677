"""The ``taash`` command: thin wrappers that parse, call the engine, and print.

Every error a user can cause ends in one line on standard error and exit status 2 (bad input) or 1 (a record
that breaks the rules); never a traceback.
"""

from __future__ import annotations

import sys

import typer

try:  # Typer vendors Click from 0.2x on; older releases depend on it
    from typer import _click as click
except ImportError:  # pragma: no cover
    import click  # type: ignore[no-redef,import-not-found,unused-ignore]

from taash.cli.seep import app as seep_app

app = typer.Typer(
    name="taash",
    help="Indian card games: an exact Seep engine, simulations and benchmarks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(seep_app, name="seep")


def run() -> None:
    """Entry point of the installed ``taash`` command: usage errors too end in one line and exit status 2."""
    try:
        code = app(standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError:
        sys.exit(2)  # the help was printed
    except click.ClickException as e:
        print(f"taash: {' '.join(e.format_message().split())}", file=sys.stderr)
        sys.exit(e.exit_code)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    except (KeyboardInterrupt, typer.Abort):
        print("taash: interrupted", file=sys.stderr)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    run()
