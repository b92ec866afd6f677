"""Deals built to order for the Rummy tests: chosen hands, open card, wild card and stock top."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from taash.packs import parse_face
from taash.rummy.deal import HAND, Deal, sorted_pack
from taash.rummy.rules import Rules


def faces(text: str) -> list[int]:
    """``"4s 5s JK"`` -> faces."""
    return [parse_face(t) for t in text.split()]


def pack_for(rules: Rules, players: int, dealer: int, hands: Mapping[int, str] | None = None, open_card: str = "",
             wild_card: str = "", stock_top: str = "", seed: int = 0, seats: Sequence[int] | None = None) -> list[int]:
    """A pack in dealing order giving these seats these hands (the rest filled from a shuffled remainder), then the
    open card, the wild card and the stock's top cards (first named is on top)."""
    seats = tuple(range(players)) if seats is None else tuple(seats)
    n = len(seats)
    left = Counter(sorted_pack(rules, n))
    wanted: dict[int, list[int]] = {s: faces(h) for s, h in (hands or {}).items()}
    fixed = [f for hand in wanted.values() for f in hand] + faces(open_card) + faces(wild_card) + faces(stock_top)
    left.subtract(fixed)
    assert min(left.values()) >= 0, "more copies than the pack holds"
    rest = sorted(left.elements())
    random.Random(seed).shuffle(rest)
    start = seats.index(dealer) + 1
    order = [seats[(start + k) % n] for k in range(n)]
    full = {s: wanted.get(s, []) + [rest.pop() for _ in range(HAND - len(wanted.get(s, [])))] for s in order}
    pack = [full[order[i % n]][i // n] for i in range(HAND * n)]
    pack += faces(open_card) or [rest.pop()]
    pack += faces(wild_card) or [rest.pop()]
    pack += faces(stock_top) + rest
    return pack


def deal_for(rules: Rules, players: int, dealer: int = 0, seed: int = 0, **kwargs: object) -> Deal:
    pack = pack_for(rules, players, dealer, seed=seed, **kwargs)  # type: ignore[arg-type]
    seats = kwargs.get("seats")
    return Deal(rules, players, dealer, pack, random.Random(seed), seats)  # type: ignore[arg-type]
