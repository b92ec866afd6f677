"""Which core answers the Rummy hand solver's questions of value: the compiled one (``taash.rummy._solver``, C,
built by the install when a compiler is at hand) or the pure-Python one (:mod:`taash.rummy.solver`), the readable
reference and the fallback. Both give the same least points and validity of a hand, and of each discard of 14
cards; the arrangement shown for a hand is always the pure solver's.

``TAASH_PURE=1`` in the environment (read once, at import) forces the pure core. :data:`CORE` names the core in use
(what ``taash rummy bench`` reports); :data:`compiled` is the compiled module, or None on the pure core.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from types import ModuleType

from taash.rummy.rules import Rules


def source_hash(path: Path) -> str:
    """The hash of the compiled solver's source that setup.py builds into it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _load() -> tuple[ModuleType | None, str]:
    if os.environ.get("TAASH_PURE", "") not in ("", "0"):
        return None, "pure (TAASH_PURE=1)"
    try:
        from taash.rummy import _solver
    except ImportError:
        return None, "pure (the compiled solver is not built)"
    source = Path(__file__).with_name("_solver.c")
    if source.is_file() and getattr(_solver, "SOURCE", None) != source_hash(source):
        return None, "pure (the compiled solver was built from older source: reinstall, or make venv)"
    return _solver, "compiled"


#: The compiled solver (its functions are documented in ``_solver.c``), or None when the pure core runs.
compiled: ModuleType | None
#: The name of the core in use: ``"compiled"``, or ``"pure (...)"`` with the reason.
CORE: str
compiled, CORE = _load()

_rules_tuples: dict[int, tuple[Rules, tuple[int, ...]]] = {}


def solver_rules(rules: Rules) -> tuple[int, ...]:
    """What the compiled solver reads of ``rules``, as one tuple (made once per rules value)."""
    found = _rules_tuples.get(id(rules))
    if found is None or found[0] is not rules:
        found = _rules_tuples[id(rules)] = (rules, (
            rules.min_natural_cards, rules.max_set_size, rules.max_jokers_per_meld, int(rules.wild_as_natural),
            rules.ace_points, rules.max_points, int(rules.long_run), rules.runs_required, rules.pure_runs_required,
        ))
    return found[1]
