"""The compiled cores, built when a C compiler is at hand: the Seep engine's (``taash.seep._core``) and the Rummy
hand solver's (``taash.rummy._solver``).

Everything else about the package is in pyproject.toml. The extensions are optional: when one does not compile,
the install goes on and that game runs on its pure-Python code (``taash seep bench`` and ``taash rummy bench`` say
which core they used). The build prints one line saying which cores it built. Each is built with the hash of its
source, which :mod:`taash.seep.core` and :mod:`taash.rummy.core` check against the source beside it: a core left
over from older source is not used.
"""

from __future__ import annotations

import hashlib
import platform
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
SOURCE = "src/taash/seep/_core.c"
SOLVER_SOURCE = "src/taash/rummy/_solver.c"
#: Every x86-64 processor of the last fifteen years counts bits in one instruction; without the flag gcc calls a
#: library function for each count.
POPCNT = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []


def source_hash(source: str = SOURCE) -> str:
    """What taash.seep.core.source_hash (taash.rummy.core.source_hash) gives for a core's source."""
    return hashlib.sha256((ROOT / source).read_bytes()).hexdigest()[:16]


#: Each extension's name in the build's line, and the game that falls back to pure Python without it.
NAMES = {"taash.seep._core": ("Seep core", "Seep"), "taash.rummy._solver": ("Rummy solver", "Rummy")}


class BuildCore(build_ext):
    """build_ext that says in one line which compiled cores it built, and leaves no stale core in place."""

    def run(self) -> None:
        super().run()
        built, failed = [], []
        for ext in self.extensions:
            if Path(self.get_ext_fullpath(ext.name)).exists():
                built.append(f"{NAMES[ext.name][0]} ({ext.name})")
                continue
            failed.append(ext.name)
            package, _, module = ext.name.rpartition(".")
            for stale in ROOT.joinpath("src", *package.split(".")).glob(f"{module}.*"):
                if stale.suffix in (".so", ".pyd"):
                    stale.unlink()
        line = f"taash: built the compiled {' and '.join(built)}" if built else "taash: built no compiled core"
        if failed:
            line += (f"; the compiled {' and '.join(NAMES[name][0] for name in failed)} did not build (see above): "
                     f"{' and '.join(NAMES[name][1] for name in failed)} will use pure Python")
        print(line, file=sys.stderr)


setup(
    ext_modules=[
        Extension(
            "taash.seep._core",
            [SOURCE],
            define_macros=[("TAASH_CORE_SOURCE", f'"{source_hash()}"')],
            extra_compile_args=["-O3", "-std=c99", "-Wall", *POPCNT],
            optional=True,
        ),
        Extension(
            "taash.rummy._solver",
            [SOLVER_SOURCE],
            define_macros=[("TAASH_SOLVER_SOURCE", f'"{source_hash(SOLVER_SOURCE)}"')],
            extra_compile_args=["-O3", "-std=c99", "-Wall", *POPCNT],
            optional=True,
        ),
    ],
    cmdclass={"build_ext": BuildCore},
)
