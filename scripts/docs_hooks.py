"""MkDocs hooks for the documentation site (mkdocs.yml names this file).

The command-line reference is generated from the ``taash`` command itself at every build, so it cannot drift from
the code: the page ``reference/cli.md`` holds a marker that is replaced by what ``typer ... utils docs`` prints for
the installed CLI (every command, its help and its options).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

MARKER = "<!-- taash-cli-reference -->"


def cli_reference() -> str:
    """Every command of ``taash`` in Markdown, one heading level below the page's title."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cli.md"
        subprocess.run([sys.executable, "-m", "typer", "taash.cli.main", "utils", "docs", "--name", "taash",
                        "--output", str(out)], check=True, capture_output=True, text=True)
        text = out.read_text(encoding="utf-8")
    return re.sub(r"^(#+) ", r"#\1 ", text, flags=re.M)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    if MARKER in markdown:
        return markdown.replace(MARKER, cli_reference())
    return markdown
