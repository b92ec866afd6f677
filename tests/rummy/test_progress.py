"""A hand laid out as a player would (:mod:`taash.rummy.progress`): complete melds first even before the hand could
declare, then the draws, the loose cards last; the measure the heuristic bot plays by."""

from __future__ import annotations

from taash.packs import face_name, parse_face
from taash.rummy.progress import apart, arranged, arranged_after_discard, close, draws_of, measure, run_ranks
from taash.rummy.rules import PRESETS
from taash.rummy.solver import best_discard, solve

OCTRO = PRESETS["octro"]


def faces(text: str) -> list[int]:
    return [parse_face(t) for t in text.split()]


def names(cards: tuple[int, ...] | list[int]) -> list[str]:
    return [face_name(f) for f in cards]


def melds_of(laid: object) -> list[tuple[str, list[str]]]:
    return [(kind, sorted(names(cards))) for kind, cards in laid.melds]  # type: ignore[attr-defined]


def test_a_set_shows_as_its_own_meld_before_any_pure_run() -> None:
    """Issue 27, 3: 3s 3d 3c, found by "Sort by rank", was buried in one invalid lump of twelve cards."""
    hand = faces("3s 3d 3c 9h Jh 2s 5c 8d Kc Qs 6h Ad JK")
    assert not solve(hand, OCTRO, 6).melds  # no pure run: the hand cannot meet the requirement yet
    laid = arranged(hand, OCTRO, wild=6)
    assert ("set", ["3c", "3d", "3s"]) in melds_of(laid)
    assert ("impure", ["9h", "JK", "Jh"]) in melds_of(laid)  # the joker with the run it completes
    assert laid.points == 70 and not laid.valid  # every card still counts


def test_pure_runs_show_as_their_own_melds_before_the_long_run() -> None:
    """Issue 27, 3: a pure run 5d 6d 7d was left inside an invalid group (octro asks for a run of four too)."""
    hand = faces("5d 6d 7d 9h Jh 2s 4c 8s Kc Qs Th Ac 9c")
    assert not solve(hand, OCTRO, 2).melds
    laid = arranged(hand, OCTRO, wild=2)
    assert melds_of(laid) == [("pure", ["9h", "Jh", "Th"]), ("pure", ["5d", "6d", "7d"])]
    assert [names(p) for p in laid.draws] == [["Ac", "Kc"]]  # an ace is next to the king
    assert names(laid.loose) == ["2s", "8s", "Qs", "4c", "9c"]


def test_the_cards_left_pair_into_draws_and_every_card_is_shown_once() -> None:
    hand = faces("5d 6d 7d 9h Th Kc Kd 2s 8c Qs 4h Js 3c")
    laid = arranged(hand, OCTRO, wild=0)
    held = [f for _, cards in laid.melds for f in cards] + [f for p in laid.draws for f in p] + list(laid.loose)
    assert sorted(held + list(laid.free)) == sorted(hand)
    assert ["9h", "Th"] in [names(p) for p in laid.draws] and ["Kd", "Kc"] in [names(p) for p in laid.draws]


def test_draws_are_as_many_pairs_as_can_be_made_closest_first() -> None:
    # Kh would go with Qh (in a row) or Kd (a pair): taken with Kd, Qh still pairs with Ah: three pairs, not two.
    pairs, loose = draws_of(faces("2s 4s Kh Kd 9c Ah Qh"), OCTRO, wild=5)
    assert [names(p) for p in pairs] == [["Kh", "Kd"], ["2s", "4s"], ["Ah", "Qh"]]
    assert names(loose) == ["9c"]
    assert draws_of(faces("2s 5s 9c"), OCTRO, wild=5) == ((), tuple(faces("2s 5s 9c")))  # three ranks apart
    pairs, loose = draws_of(faces("5d 5d 6d 9c 9c"), OCTRO, wild=1)  # twins are no pair
    assert [names(p) for p in pairs] == [["5d", "6d"]] and names(loose) == ["5d", "9c", "9c"]


def test_an_ace_is_next_to_the_two_and_to_the_king() -> None:
    assert run_ranks(0) == (0, 13)
    assert apart(parse_face("As"), parse_face("Ks")) == 1 and apart(parse_face("As"), parse_face("2s")) == 1
    assert apart(parse_face("As"), parse_face("Qs")) == 2 and not close(parse_face("As"), parse_face("Js"), 2)
    assert apart(parse_face("As"), parse_face("Ah")) is None and apart(parse_face("As"), parse_face("As")) is None


def test_the_discard_from_fourteen_breaks_no_meld_while_a_loose_card_is_left() -> None:
    """Before the requirement is met every card counts, so the solver's best discard is the card of most points,
    here a king of the set; a player lays off a loose card."""
    hand = faces("Ks Kd Kc 5d 6d 2s 3h 9c 4h 8s 7c Ah 2d 7h")
    assert face_name(best_discard(hand, OCTRO, 9)[0]) == "Ks"
    finish, laid = arranged_after_discard(hand, OCTRO, wild=9)
    assert face_name(finish) == "9c"  # the loose card of most points
    assert ("set", ["Kc", "Kd", "Ks"]) in melds_of(laid)


def test_the_discard_from_fourteen_is_the_solvers_when_the_requirement_is_met() -> None:
    hand = faces("4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK 8c")
    finish, laid = arranged_after_discard(hand, OCTRO, wild=7)
    assert finish == best_discard(hand, OCTRO, 7)[0] and laid.valid


def test_the_discard_keeps_the_card_just_taken() -> None:
    hand = faces("Ks Kd Kc 5d 6d 2s 3h 9c 4h 8s 7c Ah 2d 7h")
    finish, _ = arranged_after_discard(hand, OCTRO, wild=9, keep=parse_face("9c"))
    assert face_name(finish) != "9c"


def test_a_valid_hand_measures_nothing_and_a_pure_run_measures_less_than_none() -> None:
    assert measure(faces("4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK"), OCTRO, 7) == 0.0
    nothing = faces("2s 5h 8d Jc 3h 6d 9c Qs 4d 7c Th Ks 2h")
    assert measure(faces("2s 3s 4s Jc 3h 6d 9c Qs 4d 7c Th Ks 2h"), OCTRO, 12) < measure(nothing, OCTRO, 12)
