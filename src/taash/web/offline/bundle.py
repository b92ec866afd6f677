"""The offline engine's bundle: a zip of exactly the pure-Python modules of taash that the engines, the bots up to
``expert`` and :mod:`taash.web.offline.engine` import, built by the server from its own package (so the rules stay
in one place), for Pyodide to import in the browser.

Pyodide's npm package holds CPython's standard library and nothing else: no compiled cores (each game's pure
reference runs, as with ``TAASH_PURE=1``), no Babel (the offline game speaks English), and no orjson (a two-line
stand-in on :mod:`json`, :data:`ORJSON_STAND_IN`, is shipped as the ``orjson`` module).
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from functools import cache
from pathlib import Path

import taash
from taash.games.registry import plugins

ROOT = Path(taash.__file__).parent
#: The packages shipped whole besides each game's engine (their Python files only: no C sources, compiled cores
#: or learned weights).
PACKAGES = ("bots", "games", "tables")
#: The single modules shipped, by path under the package.
MODULES = ("__init__.py", "py.typed", "cards.py", "packs.py", "fairness.py", "rulebook.py", "i18n/__init__.py",
           "i18n/reasons.py", "web/__init__.py", "web/offline/__init__.py", "web/offline/engine.py")
#: ``orjson`` as the table adapters use it, on :mod:`json` (Pyodide's npm package has no orjson wheel).
ORJSON_STAND_IN = '''"""orjson's dumps and loads on json, for taash's offline engine (Pyodide has no orjson here)."""
import json


def dumps(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def loads(text):
    return json.loads(text)
'''
#: Every file's time in the zip (a fixed one: the same sources make the same bytes, and the same ETag).
FIXED_TIME = (2024, 1, 1, 0, 0, 0)


def engine_packages() -> list[str]:
    """The package of each registered game's engine that is part of taash (``taash.<package>.game``)."""
    found = []
    for p in plugins():
        module = p.game.split(":")[0].split(".")
        if module[0] == "taash" and len(module) > 2:
            found.append(module[1])
    return sorted(set(found))


def bundled_files(root: Path = ROOT) -> list[tuple[str, Path]]:
    """The files shipped: their names in the zip (``taash/...``) and where they are."""
    found = [(f"taash/{name}", root / name) for name in MODULES]
    for package in (*PACKAGES, *engine_packages()):
        for path in sorted((root / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                found.append((f"taash/{path.relative_to(root).as_posix()}", path))
    return found


def build(root: Path = ROOT) -> bytes:
    """The zip's bytes: the same sources give the same bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, path in bundled_files(root):
            z.writestr(zipfile.ZipInfo(name, FIXED_TIME), path.read_bytes(), zipfile.ZIP_DEFLATED)
        z.writestr(zipfile.ZipInfo("orjson.py", FIXED_TIME), ORJSON_STAND_IN, zipfile.ZIP_DEFLATED)
    return out.getvalue()


@cache
def bundle() -> tuple[bytes, str]:
    """The zip, built once a process, and its version (a hash of its bytes: the service worker's cache key)."""
    data = build()
    return data, hashlib.sha256(data).hexdigest()[:16]
