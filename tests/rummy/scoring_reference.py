"""A plain exact scorer for the tests, written from section 5 with no shortcut: the lowest plain card is unmatched
or in any group of the cards left that ``meld_kind`` accepts (every run window through it, every set of its rank,
with every choice of jokers). Slow with many jokers; the engine's scorer (:mod:`taash.rummy.scoring`) must agree."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from taash.rummy.melds import card_points, hand_points, is_joker, meld_kind
from taash.rummy.rules import Rules


def reference_least_points(faces: Sequence[int], rules: Rules, wild: int) -> int:
    @cache
    def search(cards: tuple[int, ...], runs: int, pure: int, long_run: bool) -> float:
        plain = next((f for f in cards if not is_joker(f, wild)), None)
        if plain is None:
            met = runs >= rules.runs_required and pure >= rules.pure_runs_required and long_run
            if met:
                return 0
            # runs of one natural wild-rank card and jokers (min_natural_cards 1): try every group of the rest
            best = float("inf")
            for size in range(3, len(cards) + 1):
                for group in set(combinations(cards, size)):
                    kind = meld_kind(group, rules, wild)
                    if kind in ("pure", "impure"):
                        left = list(cards)
                        for f in group:
                            left.remove(f)
                        best = min(best, search(tuple(left), runs + 1, pure + (kind == "pure"),
                                                long_run or size >= 4))
            return best
        rest = list(cards)
        rest.remove(plain)
        best = card_points(plain, rules, wild) + search(tuple(rest), runs, pure, long_run)
        for size in range(2, len(rest) + 1):
            for others in set(combinations(rest, size)):
                group = (plain, *others)
                kind = meld_kind(group, rules, wild)
                if kind is None:
                    continue
                left = list(rest)
                for f in others:
                    left.remove(f)
                if kind == "set":
                    best = min(best, search(tuple(left), runs, pure, long_run))
                else:
                    best = min(best, search(tuple(left), min(runs + 1, 4), min(pure + (kind == "pure"), 4),
                                            long_run or len(group) >= 4))
        return best

    found = search(tuple(sorted(faces)), 0, 0, not rules.long_run)
    everything = hand_points(faces, rules, wild)
    return int(min(everything, found))
