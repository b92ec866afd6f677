"""Which core runs the Seep engine's hot path: the compiled one (``taash.seep._core``, C, built by the install when
a compiler is at hand) or the pure-Python one (:mod:`taash.seep.plays`, :mod:`taash.seep.deal`), the readable
reference and the fallback. Both give the same legal plays in the same order and the same outcomes.

``TAASH_PURE=1`` in the environment (read once, at import) forces the pure core. :data:`CORE` names the core in use
(what ``taash seep bench`` reports); :data:`compiled` is the compiled module, or None on the pure core.
"""

from __future__ import annotations

import hashlib
import os
import random
from pathlib import Path
from types import ModuleType
from typing import Any

from taash.cards import mask_of, parse_card
from taash.seep.rules import Rules


def source_hash(path: Path) -> str:
    """The hash of the compiled core's source that setup.py builds into it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _load() -> tuple[ModuleType | None, str]:
    if os.environ.get("TAASH_PURE", "") not in ("", "0"):
        return None, "pure (TAASH_PURE=1)"
    try:
        from taash.seep import _core  # type: ignore[attr-defined]
    except ImportError:
        return None, "pure (the compiled core is not built)"
    source = Path(__file__).with_name("_core.c")
    if source.is_file() and getattr(_core, "SOURCE", None) != source_hash(source):
        return None, "pure (the compiled core was built from older source: reinstall, or make venv)"
    return _core, "compiled"


#: The compiled core (its functions are documented in ``_core.c``), or None when the pure core runs.
compiled: ModuleType | None
#: The name of the core in use: ``"compiled"``, or ``"pure (...)"`` with the reason.
CORE: str
compiled, CORE = _load()

_rules_tuples: dict[int, tuple[Rules, tuple[Any, ...]]] = {}


def core_rules(rules: Rules) -> tuple[Any, ...]:
    """What the compiled core reads of ``rules``, as one tuple (made once per rules value)."""
    found = _rules_tuples.get(id(rules))
    if found is None or found[0] is not rules:
        found = _rules_tuples[id(rules)] = (rules, (
            rules.max_houses, int(rules.break_with_loose), rules.sweep_points, rules.bid_sweep_points,
            rules.last_sweep_points, int(rules.sweep_scores_card_value), rules.majority_points, rules.satthi_points,
            rules.total_card_points, mask_of(parse_card(c) for c in rules.restricted_cards),
            mask_of(parse_card(c) for c in rules.floor_redeal_cards), rules.card_point_table(),
        ))
    return found[1]


def state_of(rng: random.Random) -> tuple[int, ...]:
    """The Mersenne Twister state of ``rng`` as the compiled core reads it (624 words and an index)."""
    state: tuple[int, ...] = rng.getstate()[1]
    return state


def set_state(rng: random.Random, state: tuple[int, ...]) -> None:
    """Hand the state the compiled core drew from back to ``rng``, as if it had made the draws itself."""
    version, _, gauss = rng.getstate()
    rng.setstate((version, state, gauss))
