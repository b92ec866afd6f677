"""Hands for the solver's tests: dealt at random, built from melds, rich in jokers; and the checks every solution
must pass whatever the hand."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence

from taash.packs import JOKER
from taash.rummy.melds import card_points, declaration_valid, is_joker, meets_requirement, meld_kind
from taash.rummy.rules import PRESETS, Rules
from taash.rummy.solver import Solution
from tests.rummy.reference import RefRules

#: Rule sets the solver is checked under: the presets and variants that move every parameter of the search.
VARIANTS: dict[str, Rules] = {
    "octro": PRESETS["octro"],
    "classic": PRESETS["classic"],
    "octro-no-R2": dataclasses.replace(PRESETS["octro"], wild_as_natural=False),
    "classic-sets-of-3": dataclasses.replace(PRESETS["classic"], max_set_size=3, wild_as_natural=False),
    "one-run-any": dataclasses.replace(PRESETS["octro"], runs_required=1, pure_runs_required=0, long_run=False,
                                       ace_points=0, max_points=60),
    "two-jokers-one-natural": dataclasses.replace(PRESETS["classic"], max_jokers_per_meld=2, min_natural_cards=1,
                                                  long_run=True),
    "three-runs-two-pure": dataclasses.replace(PRESETS["octro"], runs_required=3, pure_runs_required=2,
                                               min_natural_cards=3, ace_points=10),
}


def ref_rules(rules: Rules) -> RefRules:
    return RefRules(**{f.name: getattr(rules, f.name) for f in dataclasses.fields(RefRules)})


def most_copies(rules: Rules) -> tuple[int, int]:
    return max(p for p, _ in rules.packs.values()), max(j for _, j in rules.packs.values())


def dealt_hand(rng: random.Random, rules: Rules, size: int = 13, players: int = 2) -> tuple[list[int], int]:
    """A hand dealt from the packs of ``players``, with a wild rank turned from them (aces for a printed joker)."""
    cards = rules.pack(players).cards()
    dealt = rng.sample(cards, size + 1)
    turned = dealt[-1] % 53
    return [c % 53 for c in dealt[:size]], 0 if turned == JOKER else turned % 13


def joker_hand(rng: random.Random, rules: Rules, jokers: int, size: int = 13) -> tuple[list[int], int]:
    """A hand holding exactly ``jokers`` jokers (printed ones and cards of the wild rank, the wild rank often
    the ace), the rest natural cards at random."""
    packs, printed = most_copies(rules)
    wild = 0 if rng.random() < 0.3 else rng.randrange(13)
    wild_cards = [s * 13 + wild for s in range(4) for _ in range(packs)]
    pool = [JOKER] * printed + wild_cards
    hand = rng.sample(pool, min(jokers, len(pool)))
    naturals = [f for f in range(52) if f % 13 != wild for _ in range(packs)]
    hand += rng.sample(naturals, size - len(hand))
    rng.shuffle(hand)
    return hand, wild


def built_hand(rng: random.Random, rules: Rules, size: int = 13) -> tuple[list[int], int]:
    """A hand built from runs (some with jokers, some long, some with the ace high or low), sets (twins offered)
    and loose jokers, often a valid declaration or one card off."""
    packs, printed = most_copies(rules)
    wild = 0 if rng.random() < 0.2 else rng.randrange(13)
    counts: Counter[int] = Counter()
    hand: list[int] = []

    def add(face: int) -> None:
        if counts[face] < (printed if face == JOKER else packs) and len(hand) < size:
            counts[face] += 1
            hand.append(face)

    def a_joker() -> int:
        return JOKER if rng.random() < 0.5 else rng.randrange(4) * 13 + wild

    target = rng.choice([size, size, size, size - 1, size - 2, size - 3])
    while len(hand) < target:
        room = target - len(hand)
        roll = rng.random()
        if roll < 0.5 and room >= 3:
            suit, length = rng.randrange(4), rng.randint(3, min(room, 7))
            start = rng.randint(0, 14 - length)
            for p in range(start, start + length):
                add(a_joker() if rng.random() < 0.15 else suit * 13 + p % 13)
        elif roll < 0.8 and room >= 3:
            rank = rng.randrange(13)
            for s in rng.sample(range(4), rng.randint(3, min(room, 4))):
                add(a_joker() if rng.random() < 0.15 else s * 13 + rank)
        elif roll < 0.9:
            add(a_joker())
        else:
            add(rng.randrange(52))
    while len(hand) < size:
        add(rng.randrange(53))
    rng.shuffle(hand)
    return hand, wild


def check_solution(hand: Sequence[int], solution: Solution, rules: Rules, wild: int) -> None:
    """What every answer of the solver must be, whatever the hand: its arrangement holds every card once, its melds
    are melds as ``taash.rummy.melds`` reads them, its points are those the arrangement scores (section 5), and
    ``valid`` is whether it is a valid declaration."""
    shown = [f for _, cards in solution.melds for f in cards] + list(solution.free) + list(solution.unmatched)
    assert Counter(shown) == Counter(hand), (hand, solution)
    for kind, cards in solution.melds:
        assert meld_kind(cards, rules, wild) == kind, (cards, kind)
    assert all(is_joker(f, wild) for f in solution.free)
    assert all(not is_joker(f, wild) for f in solution.unmatched)
    kinds = [k for k, _ in solution.melds]
    lengths = [len(c) for _, c in solution.melds]
    if meets_requirement(kinds, lengths, rules):
        expected = sum(card_points(f, rules, wild) for f in solution.unmatched)
    else:
        assert not solution.melds  # all 13 cards count: the arrangement shows no melds
        expected = sum(card_points(f, rules, wild) for f in hand)
    assert solution.points == min(expected, rules.max_points), (hand, solution)
    groups = [list(cards) for _, cards in solution.melds] + [[f] for f in solution.free]
    assert solution.valid == (not solution.unmatched and declaration_valid(groups, rules, wild)), (hand, solution)
    if solution.valid:
        assert solution.points == 0
