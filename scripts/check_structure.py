#!/usr/bin/env python3
"""The structure targets of the server's rebuild, measured: functions over 60 lines in ``web/`` and ``tables/``,
Python modules over 500 lines in ``src/taash`` (migrations aside), and game names written in generic code (string
literals naming a game outside that game's own modules and the registry; the browser client's generic scripts
too).

    .venv/bin/python scripts/check_structure.py          # a report; exit 1 while a target is missed
    .venv/bin/python scripts/check_structure.py --json

It is a measuring stick for the work in progress, not (yet) a test: when every target holds, the test suite
should run it.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "taash"
GAMES = ("seep", "rummy")
FUNCTION_LIMIT = 60
MODULE_LIMIT = 500
LONG_FUNCTION_PACKAGES = ("web", "tables")
#: Where a game's name may be written: its own modules, and the registry that maps names to them.
REGISTRY = {"games/registry.py"}


def game_of(relative: str) -> str | None:
    """The game a module belongs to by its path (``seep/deal.py``, ``tables/rummy.py``, ``cli/seep_play.py``)."""
    parts = relative.split("/")
    for game in GAMES:
        if game in parts[:-1] or parts[-1].startswith(game):
            return game
    return None


def long_functions() -> list[tuple[str, str, int]]:
    found = []
    for package in LONG_FUNCTION_PACKAGES:
        for path in sorted((SRC / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    length = (node.end_lineno or node.lineno) - node.lineno + 1
                    if length > FUNCTION_LIMIT:
                        found.append((str(path.relative_to(SRC)), node.name, length))
    return sorted(found, key=lambda f: -f[2])


def long_modules() -> list[tuple[str, int]]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MODULE_LIMIT:
            found.append((str(path.relative_to(SRC)), lines))
    return sorted(found, key=lambda f: -f[1])


def python_game_names(path: Path) -> int:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return sum(1 for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
               and id(n) not in docstrings and n.value.lower() in GAMES)


def js_game_names(path: Path) -> int:
    return len(re.findall(r"""["'`](?:seep|rummy)["'`]""", path.read_text(encoding="utf-8"), flags=re.I))


def game_names_in_generic_code() -> list[tuple[str, int]]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        relative = str(path.relative_to(SRC))
        if "migrations" in path.parts or relative in REGISTRY or game_of(relative):
            continue
        count = python_game_names(path)
        if count:
            found.append((relative, count))
    for path in sorted((SRC / "web" / "static").glob("*.js")):
        count = js_game_names(path)
        if count:
            found.append((str(path.relative_to(SRC)), count))
    return sorted(found, key=lambda f: -f[1])


def main() -> int:
    report = {"functions_over_60_lines": long_functions(), "modules_over_500_lines": long_modules(),
              "game_names_in_generic_code": game_names_in_generic_code()}
    if "--json" in sys.argv[1:]:
        print(json.dumps(report, indent=1))
    else:
        for what, rows in report.items():
            print(f"{what.replace('_', ' ')}: {len(rows)}" + (f" ({sum(r[-1] for r in rows)} in all)"
                                                              if what.startswith("game") else ""))
            for row in rows:
                print("   ", *row)
    return 1 if any(report.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
