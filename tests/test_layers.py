"""The layers point one way (``shared/style.md``): engines import nothing above them, the games layer, the generic
bots and the arena import no game's engine (a game reaches them through its adapter, registered by name), and no
module of the package takes part in an import circle. The plugin rule: a game is one plugin registered in
:mod:`taash.games.registry`; no other generic module, Python or the browser's, imports a game's modules or names a
game."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from taash.games.registry import game_names

SRC = Path(__file__).resolve().parents[1] / "src"
ENGINES = ("taash.cards", "taash.packs", "taash.fairness", "taash.rulebook", "taash.seep", "taash.rummy")
GAME_ENGINES = ("taash.seep", "taash.rummy")
ABOVE_ENGINES = ("taash.games", "taash.bots", "taash.arena", "taash.env", "taash.tables", "taash.cli", "taash.tui",
                 "taash.web", "taash.chips")
#: The interfaces; the chips ledger sits below them (the web server uses it, it knows nothing of the server).
INTERFACES = ("taash.cli", "taash.tui", "taash.web")
#: Modules above the games layer that may import a game's engine: each game's own bots, screens and adapters.
GAME_FOLDERS = ("taash.bots.seep", "taash.bots.rummy", "taash.tables.seep", "taash.tables.rummy", "taash.cli.seep",
                "taash.cli.seep_play", "taash.cli.seep_sheets", "taash.cli.rummy", "taash.cli.rummy_hands",
                "taash.cli.rummy_play", "taash.tui.seep", "taash.tui.rummy",
                "taash.cli.seep_bench", "taash.cli.rummy_bench", "taash.env.seep", "taash.env.seep_v0",
                "taash.env.rummy", "taash.env.rummy_v0", "taash.env.seep_batch")


#: The one generic module that names the games: where each is registered.
REGISTRY = "taash.games.registry"


def game_owning(name: str) -> str | None:
    """The game a module is part of by its name (``taash.seep.deal``, ``taash.tables.rummy``,
    ``taash.web.seep_stakes``, ``taash.cli.rummy_play``), or None for a generic module."""
    parts = name.split(".")[1:]
    for game in game_names():
        if any(part == game or part.startswith(game + "_") for part in parts):
            return game
    return None


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted((SRC / "taash").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path) -> set[str]:
    """Every ``taash`` module a module imports, at the top or inside functions."""
    out = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("taash")}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # a relative import: up from this package
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            if base.startswith("taash"):
                out.add(base)
    return out


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_engines_import_nothing_above_them() -> None:
    for name, path in modules().items():
        if within(name, ENGINES):
            wrong = sorted(i for i in imports_of(name, path) if within(i, ABOVE_ENGINES))
            assert not wrong, f"the engine module {name} imports {wrong}"


def test_generic_layers_import_no_game_engine() -> None:
    checked = 0
    for name, path in modules().items():
        if not within(name, ABOVE_ENGINES) or within(name, GAME_FOLDERS):
            continue
        wrong = sorted(i for i in imports_of(name, path) if within(i, GAME_ENGINES))
        assert not wrong, f"{name} imports a game's engine {wrong}: go through the games layer or a game folder"
        checked += 1
    assert checked >= 16  # games.*, bots.base, bots.random_bot, arena.*, tables.*, web.*, cli.*, tui.*
    interfaces = [n for n in modules() if within(n, INTERFACES) and not within(n, GAME_FOLDERS)]
    assert {"taash.cli.common", "taash.cli.play", "taash.tui.widgets", "taash.tui.shell"} <= set(interfaces)


def test_the_chips_ledger_imports_no_interface() -> None:
    chips = {n: p for n, p in modules().items() if within(n, ("taash.chips",))}
    assert chips
    for name, path in chips.items():
        wrong = sorted(i for i in imports_of(name, path) if within(i, INTERFACES))
        assert not wrong, f"{name} imports {wrong}: the ledger sits below the web server"


def test_each_game_folder_imports_no_other_game_engine() -> None:
    for name, path in modules().items():
        if not within(name, GAME_FOLDERS):
            continue
        # The game a folder is named for: taash.tui.seep.app is Seep's, taash.cli.rummy_play Rummy's.
        game = next(g for g in GAME_ENGINES
                    if any(part.split("_")[0] == g.rpartition(".")[2] for part in name.split(".")[2:]))
        wrong = sorted(i for i in imports_of(name, path) if within(i, GAME_ENGINES) and not within(i, (game,)))
        assert not wrong, f"{name} is {game}'s and imports another game's engine {wrong}"


def test_no_import_circles() -> None:
    found = modules()
    graph = {name: {i for i in imports_of(name, path) if i in found and i != name} for name, path in found.items()}
    # A package imports its own modules through __init__ re-exports; a circle through a package's __init__ and one
    # of its own modules is how Python packages work, not a circle between modules.
    for name in graph:
        graph[name] = {i for i in graph[name] if not name.startswith(i + ".")}
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circle = [*path[path.index(nxt):], nxt]
                raise AssertionError("import circle: " + " -> ".join(circle))
            if nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)


def names_a_game(path: Path) -> list[str]:
    """The string literals of a module that are a game's name (docstrings aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in docstrings and n.value.lower() in game_names()]


def test_generic_modules_import_no_games_module_and_name_no_game() -> None:
    found = modules()
    # Migrations are history, written once and never changed: a column's old default names the game of its time.
    generic = {n: p for n, p in found.items() if game_owning(n) is None and n != REGISTRY and ".migrations" not in n}
    assert {"taash.web.app", "taash.web.stakes", "taash.tables.adapter", "taash.cli.play", "taash.bots.base"} \
        <= set(generic)
    for name, path in generic.items():
        wrong = sorted(i for i in imports_of(name, path) if game_owning(i) is not None)
        assert not wrong, f"{name} imports a game's modules {wrong}: ask the registry (taash.games.registry)"
        named = names_a_game(path)
        assert not named, f"{name} names a game ({', '.join(map(repr, named))}): ask the registry"


def test_the_browsers_generic_scripts_name_no_game() -> None:
    static = SRC / "taash" / "web" / "static"
    games = "|".join(map(re.escape, game_names()))
    for path in sorted(static.glob("*.js")):  # each game's own modules are in a folder of its own
        named = re.findall(rf"""["'`/](?:{games})["'`/]""", path.read_text(encoding="utf-8"), flags=re.I)
        assert not named, f"{path.name} names a game ({named}): ask GET /api/games"
    assert "/games/" not in (static / "table.js").read_text(encoding="utf-8")  # views are the server's to say


def test_the_game_modules_are_found_by_name() -> None:
    assert game_owning("taash.seep.deal") == "seep" and game_owning("taash.web.rummy_stakes") == "rummy"
    assert game_owning("taash.cli.seep_play") == "seep" and game_owning("taash.web.stakes") is None
    assert game_owning("taash.games.registry") is None
