"""The compiled core of the Seep engine (``taash.seep._core``), built when a C compiler is at hand.

Everything else about the package is in pyproject.toml. The extension is optional: when it does not compile, the
install goes on and the engine runs on its pure-Python core (``taash seep bench`` says which core it used). The
build prints one line saying which core it built. The core is built with the hash of its source, which
:mod:`taash.seep.core` checks against the source beside it: a core left over from older source is not used.
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
#: Every x86-64 processor of the last fifteen years counts bits in one instruction; without the flag gcc calls a
#: library function for each count.
POPCNT = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []


def source_hash() -> str:
    """What taash.seep.core.source_hash gives for the core's source."""
    return hashlib.sha256((ROOT / SOURCE).read_bytes()).hexdigest()[:16]


class BuildCore(build_ext):
    """build_ext that says in one line which Seep core it built, and leaves no stale core in place."""

    def run(self) -> None:
        super().run()
        if all(Path(self.get_ext_fullpath(ext.name)).exists() for ext in self.extensions):
            print("taash: built the compiled Seep core (taash.seep._core)", file=sys.stderr)
            return
        for stale in (ROOT / "src" / "taash" / "seep").glob("_core.*"):
            if stale.suffix in (".so", ".pyd"):
                stale.unlink()
        print("taash: the compiled Seep core did not build (see above): the engine will use its pure-Python core",
              file=sys.stderr)


setup(
    ext_modules=[
        Extension(
            "taash.seep._core",
            [SOURCE],
            define_macros=[("TAASH_CORE_SOURCE", f'"{source_hash()}"')],
            extra_compile_args=["-O3", "-std=c99", "-Wall", *POPCNT],
            optional=True,
        )
    ],
    cmdclass={"build_ext": BuildCore},
)
