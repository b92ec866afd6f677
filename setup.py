"""The compiled core of the Seep engine (``taash.seep._core``), built when a C compiler is at hand.

Everything else about the package is in pyproject.toml. The extension is optional: when it does not compile, the
install goes on and the engine runs on its pure-Python core (``taash seep bench`` says which core it used). The
install prints one line saying which core it built.
"""

from __future__ import annotations

import platform
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class BuildCore(build_ext):
    """build_ext that says in one line which Seep core the install built."""

    def run(self) -> None:
        super().run()
        built = all(not getattr(ext, "_needs_stub", False) and self._built(ext) for ext in self.extensions)
        line = ("taash: built the compiled Seep core (taash.seep._core)" if built else
                "taash: no C compiler or Python headers: the Seep engine will use its pure-Python core")
        print(line, file=sys.stderr)

    def _built(self, ext: Extension) -> bool:
        from pathlib import Path
        path = Path(self.get_ext_fullpath(ext.name))
        return path.exists()


#: Every x86-64 processor of the last fifteen years counts bits in one instruction; without the flag gcc calls a
#: library function for each count.
_POPCNT = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []

setup(
    ext_modules=[
        Extension(
            "taash.seep._core",
            ["src/taash/seep/_core.c"],
            extra_compile_args=["-O3", "-std=c99", "-Wall", "-Wno-unused-function", *_POPCNT],
            optional=True,
        )
    ],
    cmdclass={"build_ext": BuildCore},
)
