"""What the terminal games ask of the terminal: whether it is one, and whether it can show suit symbols."""

from __future__ import annotations

import os
import sys

from taash.cli.common import fail
from taash.i18n import _


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
        fail(_("this command needs an interactive terminal"))
