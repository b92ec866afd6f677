"""``taash verify RECORD``: check that a match a server dealt was dealt fairly (:mod:`taash.fairness`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from taash.cli.common import ILLEGAL, fail, read_input, user_errors
from taash.tables.adapter import TableError
from taash.tables.fair import verify_record

VERIFY_HELP = """Check that a match was dealt fairly: its record (JSON, as a server's replay page downloads it,
or - for standard input) carries the commitment the server published before the match, the secret it revealed
after, and the players' own seeds. The secret must be the one committed to, and every deal's pack (the first
dealer, redeals and reshuffles too) the one the published algorithm deals from it (docs/web-protocol.md, "Fair
dealing"). Prints one line per deal and exits 0; a record that does not check gets one line saying where and exit
status 1 (2 for a file that is not JSON)."""


def verify(
    file: Annotated[Path, typer.Argument(help="A match record (JSON) downloaded from a server, or - for stdin.")],
) -> None:
    """Check that a match was dealt fairly (the help's text is VERIFY_HELP)."""
    with user_errors(str(file)):
        data = json.loads(read_input(file, "record"))
    try:
        lines = verify_record(data)
    except TableError as e:
        fail(f"{file}: {e}", ILLEGAL)
    for line in lines:
        print(line)
    commitment = data["fairness"]["commitment"]
    print(f"Fair: the secret is the one committed to ({commitment[:16]}…), and every deal is the one it deals")


verify.__doc__ = VERIFY_HELP
