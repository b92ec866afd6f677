"""The lessons: every step's position is a real engine position, the moves it offers are judged by the engine
(a refused one with the engine's own reason, the taught one legal), and the rules are explained from the data."""

from __future__ import annotations

import pytest

from taash.learn import Verdict, learn_page, lesson, step_index
from taash.learn import rummy as rummy_lesson
from taash.learn import seep as seep_lesson
from taash.packs import parse_face
from taash.rummy.deal import Discard, IllegalTurnError
from taash.rummy.melds import group_kind
from taash.seep.errors import IllegalPlayError
from taash.seep.notation import play_from_json
from taash.seep.view import view_of
from taash.tables.adapter import TableError

GAMES = ("seep", "rummy")


@pytest.mark.parametrize("game", GAMES)
def test_every_step_offers_a_refused_move_and_the_taught_one(game: str) -> None:
    taught = lesson(game)
    assert taught.size == 5
    for index in range(taught.size):
        verdicts = [taught.check(index, option["action"]).verdict for option in taught.step(index)["options"]]
        assert "right" in verdicts, (game, index, verdicts)
        assert "refused" in verdicts or (game == "rummy" and index == 3), (game, index, verdicts)


def test_a_seep_bid_refused_says_the_engines_reason() -> None:
    deal = seep_lesson.bid_deal(seep_lesson.BID)
    with pytest.raises(IllegalPlayError) as engine:
        deal.make_bid(5)
    verdict = lesson("seep").check(0, {"type": "bid", "value": 5})
    assert verdict == Verdict("refused", str(engine.value))
    assert lesson("seep").check(0, {"type": "bid", "value": 13}).verdict == "right"
    assert lesson("seep").check(0, {"type": "bid", "value": 9}).verdict == "legal"


@pytest.mark.parametrize("index", range(1, 5))
def test_each_seep_play_is_judged_by_the_engines_legal_plays(index: int) -> None:
    """A play is refused exactly when the engine has it among no legal plays, whatever the step offers."""
    step = seep_lesson.STEPS[index]
    view = view_of(seep_lesson.play_deal(step), seep_lesson.SEAT)
    for action in step.tries:
        play = play_from_json(action["play"], view.houses)
        verdict = lesson("seep").check(index, action)
        assert (verdict.verdict == "refused") == (play not in view.legal_plays()), (action, verdict)
    for right in step.right:
        assert play_from_json(right["play"], view.houses) in view.legal_plays()


def test_a_seep_throw_that_could_capture_is_refused_with_the_capture_named() -> None:
    verdict = lesson("seep").check(4, {"type": "play", "play": {"card": "5h"}})
    assert verdict.verdict == "refused"
    assert verdict.said == "a card that can capture may not be thrown: Capture 3♥ 2♣ with 5♥"


def test_a_rummy_discard_before_the_draw_is_refused_with_the_engines_reason() -> None:
    deal = rummy_lesson.lesson_deal(taken=False)
    with pytest.raises(IllegalTurnError) as engine:
        deal.check(Discard(parse_face("8s")))
    verdict = lesson("rummy").check(0, {"type": "discard", "card": "8s"})
    assert verdict == Verdict("refused", str(engine.value))
    assert lesson("rummy").check(0, {"type": "take", "from": "discard"}).verdict == "right"


def test_rummy_melds_are_judged_by_the_meld_rules() -> None:
    deal = rummy_lesson.lesson_deal(taken=True)
    for index in (1, 2, 3):
        step = rummy_lesson.STEPS[index]
        for action in step.tries:
            kind = group_kind([parse_face(c) for c in action["cards"]], deal.rules, deal.wild)
            verdict = lesson("rummy").check(index, action)
            assert (verdict.verdict == "refused") == (kind == "invalid")
            assert (verdict.verdict == "right") == (kind == step.kind)
    gap = lesson("rummy").check(2, {"type": "meld", "cards": ["9c", "Tc", "Qc"]})
    assert gap.said == "a sequence's cards follow one another in rank: 9♣ T♣ Q♣ has a gap and no joker to fill it"


def test_a_wrong_rummy_declaration_says_what_is_wrong_and_its_cost() -> None:
    wrong = lesson("rummy").check(4, rummy_lesson.STEPS[4].tries[1])
    assert wrong.verdict == "refused" and wrong.said.startswith("A wrong declaration, which costs 80 points: ")
    assert lesson("rummy").check(4, rummy_lesson.STEPS[4].right[0]).verdict == "right"


@pytest.mark.parametrize(("game", "index", "action"), [
    ("seep", 0, {"type": "play", "play": {"card": "Kh"}}),
    ("seep", 1, {"type": "play", "play": {"card": "Zz"}}),
    ("seep", 1, {"type": "bid", "value": 13}),
    ("seep", 0, {"type": "bid", "value": "13"}),
    ("rummy", 0, {"type": "fly"}),
    ("rummy", 1, {"type": "meld", "cards": ["Ah", "Ah", "Ah"]}),
    ("rummy", 1, {"type": "meld", "cards": "3h"}),
    ("rummy", 4, {"type": "declare", "discard": "8s", "melds": "no"}),
])
def test_a_message_that_names_no_move_is_malformed(game: str, index: int, action: dict[str, object]) -> None:
    with pytest.raises(TableError) as e:
        lesson(game).check(index, action)
    assert e.value.code == "malformed"


def test_steps_and_games_are_checked() -> None:
    with pytest.raises(TableError):
        step_index(lesson("seep"), 5)
    with pytest.raises(TableError):
        step_index(lesson("seep"), True)
    with pytest.raises(TableError) as e:
        lesson("chess")
    assert e.value.code == "not_found"


def test_the_learn_page_explains_every_preset_from_its_rules() -> None:
    page = learn_page(lesson("seep"))
    rules = {p["name"]: p["rules"] for p in page["presets"]}
    assert "Card points: A♠ 1" in rules["standard"][0]
    assert any("Satthi" in line for line in rules["punjab_30"])
    assert not any("Satthi" in line for line in rules["standard"])
    rummy = {p["name"]: p["rules"] for p in learn_page(lesson("rummy"))["presets"]}
    assert "aces 10" in rummy["classic"][1] and "aces 1," in rummy["octro"][1]


def test_a_declaration_without_a_pure_sequence_is_told_so() -> None:
    from taash.rummy.melds import declaration_problem, declaration_valid
    from taash.rummy.rules import PRESETS as RUMMY

    rules, wild = RUMMY["octro"], parse_face("2c") % 13
    groups = [[parse_face(c) for c in g] for g in (("3h", "4h", "2d", "6h"), ("9c", "Tc", "2s"), ("Qs", "Qd", "Qc"),
                                                    ("Ks", "Kh", "Kd"))]
    assert not declaration_valid(groups, rules, wild)
    assert declaration_problem(groups, rules, wild) == ("a declaration needs 1 pure sequence (no joker standing in "
                                                        "for a card)")
    assert declaration_problem([[parse_face(c) for c in g] for g in rummy_lesson.GROUPS], rules, wild) is None


def test_breaking_ones_own_seep_house_is_refused_with_its_rule() -> None:
    from taash.seep.describe import play_refusal

    view = view_of(seep_lesson.play_deal(seep_lesson.CEMENT), seep_lesson.SEAT)
    breaking = play_from_json({"card": "9d", "house": 13, "loose": [], "break": 13}, view.houses)
    assert play_refusal(view, breaking) == "you own that house: add to it instead of breaking it"
    assert play_refusal(view, play_from_json({"card": "Ks", "house": 13}, view.houses)) is None
