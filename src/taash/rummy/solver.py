"""The exact hand solver of 13-card Indian Rummy: the least points a hand scores (section 5 of
``shared/rummy-rules.md``) with one arrangement reaching them, whether it is a valid declaration (section 4), and
for 14 cards the best discard.

How it works. Jokers (printed jokers and cards of the wild rank) score 0 wherever they lie, so a hand's points are
the points of its natural cards left outside melds, and the only question is which natural cards melds can cover
with the jokers at hand, under the declaration requirement (runs, pure runs, a long run). Two natural cards can sit
in one meld only when they are of one suit and close enough in rank for the jokers a meld may hold to fill the gap
(a run), or of one rank in different suits (a set). The hand therefore falls apart into *clusters* of cards linked
that way; a card linked to nothing never melds and always counts. Each cluster is solved on its own into a small
*table*: for each number of jokers used and each progress towards the requirement (runs, pure runs, a long run,
counted up to what the rules ask), the most it can cover; entries no better than another that uses fewer jokers
for as much progress are dropped. A cluster's table is the best, over every choice of sets among its ranks held
in several suits, of the sets plus each suit's own table for the cards the sets leave; a suit's table comes from a
memoised search over its cards (the lowest card left is unmatched, or in one of the runs that hold it). The
clusters' tables are then folded together within the hand's jokers, and the best entry that meets the requirement
wins; when none does, all 13 cards count. Tables depend only on shapes (ranks per suit, suits relabelled), the
jokers that can be used and the rules, so they are kept across hands: random hands are made of common shapes, and
each discard of a 14-card hand changes only the cluster the card leaves.

A card of the wild rank is a joker; under R2 (``wild_as_natural``) it may also be itself in a run of its suit (it
then keeps the run pure), so it joins the clusters of its suit as a natural card of 0 points that uses up a joker
when it is so placed.

Cards are faces of :mod:`taash.packs` (twins are equal); ``wild`` is the deal's wild rank (0 = ace .. 12 = king).

This module asks the questions of the pure solver, the reference: its search tables are
:mod:`taash.rummy.solver_tables`, a hand taken apart into clusters :mod:`taash.rummy.solver_hand`. When the compiled
solver is built (:mod:`taash.rummy.core`), the questions of value (:func:`hand_value`, :func:`discard_values`,
:func:`take_value`, and the choice of :func:`best_discard`) are answered by it, with the same answers (``pure_*``
name the pure functions, ``compiled_*`` the compiled ones); :func:`solve` and the arrangement :func:`best_discard`
shows are always the pure solver's. :func:`shown_solve` and :func:`shown_best_discard`, for the web server, take the
compiled solver's own arrangement (as good; among equally good groupings maybe another).

>>> from taash.packs import parse_face
>>> from taash.rummy.rules import PRESETS
>>> hand = [parse_face(t) for t in "4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK".split()]
>>> s = solve(hand, PRESETS["octro"], wild=7)
>>> s.valid, s.points, len(s.melds), s.unmatched
(True, 0, 4, ())
"""

from __future__ import annotations

from collections.abc import Sequence

from taash.packs import JOKER
from taash.rummy.core import compiled, solver_rules
from taash.rummy.errors import BadHandError
from taash.rummy.rules import Rules
from taash.rummy.solver_hand import Solution, _check, _Hand, _shown, _without
from taash.rummy.solver_tables import DRAWN, HAND, _Chain, _Game, _game

__all__ = ["DRAWN", "HAND", "Solution", "best_discard", "compiled_best_discard", "compiled_best_discard_shown",
           "compiled_discard_values", "compiled_hand_value", "compiled_solve", "compiled_take_value",
           "discard_values", "hand_value", "pure_best_discard", "pure_discard_values", "pure_hand_value",
           "pure_take_value", "shown_best_discard", "shown_solve", "solve", "take_value"]


# -- the public questions --------------------------------------------------------------------------------------


def solve(faces: Sequence[int], rules: Rules, wild: int) -> Solution:
    """The least points of 13 cards (section 5), whether they are a valid declaration, and one arrangement."""
    _check(faces, HAND, wild)
    return _Hand(_game(rules), faces, wild).solution()


def pure_hand_value(faces: Sequence[int], rules: Rules, wild: int) -> int:
    """The least points of 13 cards alone, without building an arrangement (a little faster than :func:`solve`)."""
    _check(faces, HAND, wild)
    return _Hand(_game(rules), faces, wild).value()[0]


def _discards(faces: Sequence[int], rules: Rules, wild: int, keep: int | None) -> tuple[_Hand, dict[int, _Hand]]:
    """The 14-card hand taken apart once, and the 13-card hand after each distinct discard allowed."""
    _check_drawn(faces, wild, keep)
    whole = _Hand(_game(rules), faces, wild)
    after = {}
    for face in dict.fromkeys(faces):
        if face == keep and faces.count(face) < 2:
            continue  # R3: the card just taken from the discard pile stays (a twin of it may go)
        after[face] = whole.without(face)
    return whole, after


def _check_drawn(faces: Sequence[int], wild: int, keep: int | None) -> None:
    _check(faces, DRAWN, wild)
    if keep is not None and keep not in faces:
        raise BadHandError("the card taken is not in the hand")


def pure_discard_values(faces: Sequence[int], rules: Rules, wild: int, keep: int | None = None) -> dict[int, int]:
    """The least points left after each distinct discard from 14 cards (``keep``: a card that may not be
    discarded, the one just taken from the discard pile under R3). Only the discarded card's cluster is solved
    again for each discard."""
    whole, after = _discards(faces, rules, wild, keep)
    return {face: value[0] for face, value in _values_after(whole, after).items()}


def _values_after(whole: _Hand, after: dict[int, _Hand]) -> dict[int, tuple[int, bool]]:
    """The least points and validity of each hand left by a discard. The tables of the clusters a discard leaves
    alone are folded once for all the discards from one cluster."""
    game = whole.game
    others: dict[int, dict[tuple[int, int], tuple[int, _Chain]]] = {}  # cluster -> fold of every other cluster
    out = {}
    for face, hand in after.items():
        if hand.replaced is None:  # a joker went: every table changed
            out[face] = hand.value()
            continue
        number, fresh = hand.replaced
        if number not in others:
            others[number] = game.fold([t for n, t in enumerate(whole.tables) if n != number], whole.jokers)
        out[face] = hand.evaluate(game.fold(hand.tables[len(hand.tables) - fresh:], hand.jokers, others[number]))
    return out


def _preference(game: _Game, wild: int, face: int, points: int, valid: bool) -> tuple[bool, int, int, int]:
    """How :func:`best_discard` ranks a discard leaving ``points`` (``valid``): least first."""
    own = 0 if face == JOKER or face % 13 == wild else game.points(face)
    return not valid, points, -own, face


def pure_best_discard(faces: Sequence[int], rules: Rules, wild: int,
                      keep: int | None = None) -> tuple[int, Solution]:
    """The best card to discard from 14 and the solution of the 13 left (``keep`` as for :func:`discard_values`).

    The best discard leaves a valid declaration if any does, then the fewest points; among equals it is the card
    of most points (it would cost most if caught in hand), then the lowest face number.
    """
    game = _game(rules)
    whole, after = _discards(faces, rules, wild, keep)
    if not after:
        raise BadHandError("no card may be discarded")
    values = _values_after(whole, after)
    choice = min(values, key=lambda face: _preference(game, wild, face, *values[face]))
    return choice, after[choice].solution()


def pure_take_value(faces: Sequence[int], face: int, rules: Rules, wild: int) -> int:
    """The least points after taking ``face`` into 13 cards and making the best discard allowed (under R3 the
    card taken stays when ``keep_taken_discard``): what taking the open discard is worth."""
    _check(faces, HAND, wild)
    keep = face if rules.keep_taken_discard else None
    return min(pure_discard_values([*faces, face], rules, wild, keep).values())


# -- the same questions answered by the compiled solver (taash.rummy.core), the arrangement by the pure one -------


def _compiled_discards(faces: Sequence[int], rules: Rules, wild: int,
                       keep: int | None) -> tuple[tuple[int, int, bool], ...]:
    assert compiled is not None
    _check_drawn(faces, wild, keep)
    values: tuple[tuple[int, int, bool], ...] = compiled.discard_values(faces, wild, solver_rules(rules),
                                                                        -1 if keep is None else keep)
    return values


def compiled_hand_value(faces: Sequence[int], rules: Rules, wild: int) -> int:
    """:func:`pure_hand_value` by the compiled solver."""
    assert compiled is not None
    _check(faces, HAND, wild)
    points: int = compiled.hand_value(faces, wild, solver_rules(rules))[0]
    return points


def compiled_discard_values(faces: Sequence[int], rules: Rules, wild: int,
                            keep: int | None = None) -> dict[int, int]:
    """:func:`pure_discard_values` by the compiled solver."""
    return {face: points for face, points, _ in _compiled_discards(faces, rules, wild, keep)}


def compiled_best_discard(faces: Sequence[int], rules: Rules, wild: int,
                          keep: int | None = None) -> tuple[int, Solution]:
    """:func:`pure_best_discard`, each discard weighed by the compiled solver; the solution of the 13 cards left
    is the pure solver's, found as :func:`pure_best_discard` finds it (the same arrangement)."""
    values = _compiled_discards(faces, rules, wild, keep)
    if not values:
        raise BadHandError("no card may be discarded")
    game = _game(rules)
    choice = min(values, key=lambda value: _preference(game, wild, *value))[0]
    return choice, _Hand(game, faces, wild).without(choice).solution()


def compiled_take_value(faces: Sequence[int], face: int, rules: Rules, wild: int) -> int:
    """:func:`pure_take_value` by the compiled solver."""
    _check(faces, HAND, wild)
    keep = face if rules.keep_taken_discard else None
    return min(compiled_discard_values([*faces, face], rules, wild, keep).values())


def compiled_solve(faces: Sequence[int], rules: Rules, wild: int) -> Solution:
    """:func:`solve` by the compiled solver: the same points and validity, and a best arrangement, which among
    equally good ones may group the cards otherwise than the pure solver's."""
    assert compiled is not None
    _check(faces, HAND, wild)
    points, valid, shown = compiled.arrange(faces, wild, solver_rules(rules))
    printed = [f for f in faces if f == JOKER]
    wilds = [f for f in faces if f != JOKER and f % 13 == wild]
    naturals = [f for f in faces if f != JOKER and f % 13 != wild]
    if not shown:  # no arrangement meets the requirement: all 13 cards count
        return Solution(points, False, (), (*printed, *wilds), tuple(naturals))
    return _shown(rules, wild, printed, wilds, naturals, shown, points, valid)


def compiled_best_discard_shown(faces: Sequence[int], rules: Rules, wild: int,
                                keep: int | None = None) -> tuple[int, Solution]:
    """:func:`compiled_best_discard` (the same card) with the compiled solver's best arrangement of the 13 left
    (:func:`compiled_solve`)."""
    values = _compiled_discards(faces, rules, wild, keep)
    if not values:
        raise BadHandError("no card may be discarded")
    game = _game(rules)
    choice = min(values, key=lambda value: _preference(game, wild, *value))[0]
    return choice, compiled_solve(_without(faces, [choice]), rules, wild)


#: What a hand shown to a player is arranged by (the web server's): the compiled solver when it is in use (fast; a
#: best arrangement, maybe grouped otherwise than the pure solver's among equally good ones), else the pure one.
#: The engine's scoring, the protocol's hand check, the bots and records keep :func:`solve` and
#: :func:`best_discard`, whose arrangements never depend on the core.
shown_solve = solve if compiled is None else compiled_solve
shown_best_discard = pure_best_discard if compiled is None else compiled_best_discard_shown

#: The questions of value as the core in use answers them (:mod:`taash.rummy.core`; the same answers).
hand_value = pure_hand_value if compiled is None else compiled_hand_value
discard_values = pure_discard_values if compiled is None else compiled_discard_values
best_discard = pure_best_discard if compiled is None else compiled_best_discard
take_value = pure_take_value if compiled is None else compiled_take_value
