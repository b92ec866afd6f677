"""How many examples a hypothesis test of the engines tries: all it asks for, or a tenth in the pure cores' rerun.

``make test`` runs the engines' tests twice: on the compiled cores, then again with ``TAASH_PURE=1`` on the pure
ones. The first run already holds the pure cores to the compiled ones (tests/seep/test_core.py and
tests/rummy/test_solver_core.py on random deals and hands) and, on every position and hand the against-reference
tests generate, the pure answer as well as the compiled one to the reference. The rerun walks the pure cores' own
paths through the same tests (the fallback a machine without a compiler plays on), on fewer examples.
"""

from __future__ import annotations

import os

#: The pure cores' rerun (``TAASH_PURE=1``, as :mod:`taash.seep.core` and :mod:`taash.rummy.core` read it).
PURE_RERUN = os.environ.get("TAASH_PURE", "") not in ("", "0")
#: The share of its examples a test tries in that rerun.
PURE_SHARE = 10


def examples(wanted: int) -> int:
    """``wanted``, or in the pure cores' rerun a tenth of it (at least 20, never more than ``wanted``)."""
    return max(min(wanted, 20), wanted // PURE_SHARE) if PURE_RERUN else wanted
