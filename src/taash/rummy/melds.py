"""Melds and declarations (sections 3-5 of ``shared/rummy-rules.md``): what a group of cards is, what a card is
worth, and whether shown groups make a valid declaration. The one place these rules live; the hand solver finds
the best arrangement, this module judges a given one.

Cards here are faces (:mod:`taash.packs`): twins are equal. ``wild`` is the deal's wild rank (0 = ace .. 12 = king).

>>> from taash.packs import parse_face
>>> from taash.rummy.rules import PRESETS
>>> octro = PRESETS["octro"]
>>> meld_kind([parse_face(t) for t in ("4s", "5s", "6s", "7s")], octro, wild=7)
'pure'
>>> meld_kind([parse_face(t) for t in ("4s", "JK", "6s")], octro, wild=7)
'impure'
>>> meld_kind([parse_face(t) for t in ("Qc", "Qd", "8h")], octro, wild=7)
'set'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Literal

from taash.packs import JOKER, face_symbol
from taash.rummy.rules import Rules

MeldKind = Literal["pure", "impure", "set"]
#: What a group of a declaration is: a meld, free jokers (jokers alone), or nothing valid.
GroupKind = Literal["pure", "impure", "set", "free", "invalid"]

#: Ranks a run may cover: ace low (0..12) or ace high (1..13, the ace read as 13).
_RUN_TOP = 13


def is_joker(face: int, wild: int) -> bool:
    """A printed joker or a card of the wild rank (which may also be used as itself under R2)."""
    return face == JOKER or face % 13 == wild


def card_points(face: int, rules: Rules, wild: int) -> int:
    """Points of a card left unmatched (section 5): jokers 0, ace ``ace_points``, ten to king 10, others rank."""
    if is_joker(face, wild):
        return 0
    rank = face % 13
    if rank == 0:
        return rules.ace_points
    return 10 if rank >= 9 else rank + 1


def hand_points(faces: Iterable[int], rules: Rules, wild: int) -> int:
    """Points of cards left unmatched, capped at ``max_points``."""
    return min(rules.max_points, sum(card_points(f, rules, wild) for f in faces))


def _natural_run(naturals: Sequence[int], length: int) -> bool:
    """Whether natural cards (no two alike) of one suit fit in a run of ``length`` cards, jokers filling the rest."""
    if not naturals:
        return False
    suit = naturals[0] // 13
    if any(f // 13 != suit for f in naturals) or length > _RUN_TOP:
        return False
    ranks = sorted(f % 13 for f in naturals)
    if len(set(ranks)) != len(ranks):
        return False
    for positions in (ranks, sorted(13 if r == 0 else r for r in ranks)):  # ace low, then ace high
        if positions[-1] - positions[0] + 1 <= length:  # jokers fill the gaps and extend the ends
            return True
    return False


def _natural_set(naturals: Sequence[int], size: int, rules: Rules) -> bool:
    if not naturals or not 3 <= size <= rules.max_set_size:
        return False
    rank = naturals[0] % 13
    suits = [f // 13 for f in naturals]
    return all(f % 13 == rank for f in naturals) and len(set(suits)) == len(suits)


def _jokers_allowed(jokers: int, naturals: int, rules: Rules) -> bool:
    if naturals < rules.min_natural_cards:
        return False
    return rules.max_jokers_per_meld == 0 or jokers <= rules.max_jokers_per_meld


def meld_kind(group: Sequence[int], rules: Rules, wild: int) -> MeldKind | None:
    """The best reading of a group as a meld: ``"pure"`` run, ``"impure"`` run, ``"set"``, or ``None``.

    A pure run reads every card of the wild rank as itself (R2, when allowed) and holds no printed joker; an impure
    run or a set may read any of the wild-rank cards as jokers. A run is preferred to a set, a pure run to an impure
    one: the declaration's requirements only ever ask for more runs.
    """
    size = len(group)
    if size < 3:
        return None
    printed = [f for f in group if f == JOKER]
    wilds = [f for f in group if f != JOKER and f % 13 == wild]
    plain = [f for f in group if f != JOKER and f % 13 != wild]
    if rules.wild_as_natural and not printed and _natural_run([*plain, *wilds], size):
        return "pure"
    # Which wild-rank cards act as jokers: all of them, unless R2 lets some be themselves.
    options = (range(len(wilds) + 1) if rules.wild_as_natural else (len(wilds),))
    best: MeldKind | None = None
    for as_jokers in options:
        for chosen in combinations(range(len(wilds)), as_jokers):
            naturals = plain + [w for i, w in enumerate(wilds) if i not in chosen]
            jokers = len(printed) + as_jokers
            if not _jokers_allowed(jokers, len(naturals), rules):
                continue
            if jokers == 0 and _natural_run(naturals, size):
                return "pure"
            if _natural_run(naturals, size):
                best = "impure"
            elif best is None and _natural_set(naturals, size, rules):
                best = "set"
    return best


def group_kind(group: Sequence[int], rules: Rules, wild: int) -> GroupKind:
    """What a group shown in a declaration is: a meld, ``"free"`` jokers, or ``"invalid"``."""
    kind = meld_kind(group, rules, wild)
    if kind is not None:
        return kind
    if group and all(is_joker(f, wild) for f in group):
        return "free"
    return "invalid"


def meets_requirement(kinds: Iterable[MeldKind], lengths: Iterable[int], rules: Rules) -> bool:
    """Whether melds of these kinds and lengths hold the runs a declaration needs (section 4)."""
    runs = pure = 0
    long_run = not rules.long_run
    for kind, length in zip(kinds, lengths, strict=True):
        if kind == "set":
            continue
        runs += 1
        pure += kind == "pure"
        long_run = long_run or length >= 4
    return runs >= rules.runs_required and pure >= rules.pure_runs_required and long_run


def declaration_valid(groups: Sequence[Sequence[int]], rules: Rules, wild: int) -> bool:
    """Whether shown groups make a valid declaration: every group a meld or free jokers, and the required runs."""
    kinds = [group_kind(g, rules, wild) for g in groups]
    if "invalid" in kinds:
        return False
    melds = [(k, len(g)) for k, g in zip(kinds, groups, strict=True) if k != "free"]
    return meets_requirement([k for k, _ in melds], [n for _, n in melds], rules)  # type: ignore[misc]


def group_problem(group: Sequence[int], rules: Rules, wild: int) -> str | None:
    """Why a group is no meld, in a player's words (one line), or None when it is a meld or free jokers. What a
    group is stays :func:`meld_kind`'s to say; this names the rule a group that is none of them breaks first."""
    if group_kind(group, rules, wild) != "invalid":
        return None
    if len(group) < 3:
        return "a meld has at least 3 cards"
    jokers = [f for f in group if is_joker(f, wild)]
    naturals = [f for f in group if not is_joker(f, wild)]
    if len(naturals) < rules.min_natural_cards:
        return f"a meld needs at least {rules.min_natural_cards} cards that are not jokers"
    if rules.max_jokers_per_meld and len(jokers) > rules.max_jokers_per_meld:
        return f"a meld may hold at most {rules.max_jokers_per_meld} joker{'s' * (rules.max_jokers_per_meld != 1)}"
    suits = {f // 13 for f in naturals}
    ranks = [f % 13 for f in naturals]
    if len(set(ranks)) == 1:
        if len(group) > rules.max_set_size:
            return f"a set holds at most {rules.max_set_size} cards, one of each suit"
        return "a set's cards are each of a different suit: " + " ".join(face_symbol(f) for f in naturals)
    if len(suits) > 1:
        return ("a sequence's cards are all of one suit, and a set's all of one rank: "
                + " ".join(face_symbol(f) for f in group) + " is neither")
    if len(set(ranks)) != len(ranks):
        return "a sequence holds each rank once"
    shown = " ".join(face_symbol(f) for f in naturals)
    if not jokers:
        return f"a sequence's cards follow one another in rank: {shown} has a gap and no joker to fill it"
    return (f"a sequence's cards follow one another in rank: {len(jokers)} joker{'s' * (len(jokers) != 1)} cannot "
            f"fill the gaps of {shown}")


def declaration_problem(groups: Sequence[Sequence[int]], rules: Rules, wild: int) -> str | None:
    """Why shown groups are no valid declaration, in a player's words (one line), or None when they are one
    (:func:`declaration_valid` decides; this names the first thing wrong)."""
    for group in groups:
        problem = group_problem(group, rules, wild)
        if problem is not None:
            return f"{' '.join(face_symbol(f) for f in group)} is no meld: {problem}"
    if declaration_valid(groups, rules, wild):
        return None
    kinds = [(k, len(g)) for g in groups if (k := group_kind(g, rules, wild)) in ("pure", "impure")]
    pure = sum(k == "pure" for k, _ in kinds)
    if pure < rules.pure_runs_required:
        return (f"a declaration needs {rules.pure_runs_required} pure sequence{'s' * (rules.pure_runs_required != 1)}"
                " (no joker standing in for a card)")
    if len(kinds) < rules.runs_required:
        return f"a declaration needs {rules.runs_required} sequences, at least {rules.pure_runs_required} pure"
    return "a declaration needs a sequence of 4 cards or more"
