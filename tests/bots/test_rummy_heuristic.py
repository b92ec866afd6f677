"""Rummy's heuristic bot: its measure of hands, what it takes, discards and drops, and its edge over greedy."""

from __future__ import annotations

import pytest

from taash.arena.duplicate import run_duplicate
from taash.bots import make_bot
from taash.bots.rummy.heuristic import HeuristicBot, completes_pure_run
from taash.games import make_game
from taash.packs import parse_face
from taash.rummy.deal import Discard, Drop, Phase, Take
from taash.rummy.progress import draws
from taash.rummy.rules import PRESETS
from taash.rummy.view import PlayerView, SeenTurn

OCTRO = PRESETS["octro"]


def faces(text: str) -> list[int]:
    return [parse_face(t) for t in text.split()]


def view_of(hand: str, *, wild: int = 6, phase: Phase = Phase.TAKE, pile: str = "2c",
            turns: tuple[SeenTurn, ...] = (), has_taken: bool = False, players: int = 2) -> PlayerView:
    """Seat 0's view of a deal (only the fields the bot reads are made to matter)."""
    cards = tuple(sorted(faces(hand)))
    return PlayerView(rules=OCTRO, players=players, seats=tuple(range(players)), seat=0, dealer=players - 1,
                      to_move=0, phase=phase, wild_card=wild, wild=wild, hand=cards,
                      hand_sizes=(len(cards),) + (13,) * (players - 1), stock_size=60,
                      pile=tuple((f, 1) for f in faces(pile)), turns=turns, status=("in",) * players,
                      has_taken=(has_taken,) + (True,) * (players - 1), timeouts=(0,) * players, first_drop=20,
                      middle_drop=40, points=(None,) * players, winner=None)


def test_draws_count_pairs_a_third_card_would_meld() -> None:
    assert draws(faces("4s 6s"), 12) == 1  # a run with a gap
    assert draws(faces("4s 4h"), 12) == 1  # a set
    assert draws(faces("As Ks Qs"), 5) == 3  # the ace plays high: A-K, A-Q, K-Q
    assert draws(faces("4s 8s 4s"), 12) == 0  # twins are not a set, 4 and 8 too far apart
    assert draws(faces("4s Kd"), 3) == 0  # a joker (wild rank 4) is no draw: it melds anything


def test_a_pure_run_is_completed_only_by_natural_cards_in_a_row() -> None:
    assert completes_pure_run(faces("4s 5s Kd"), parse_face("6s"), 12, OCTRO)
    assert completes_pure_run(faces("4s 6s Kd"), parse_face("5s"), 12, OCTRO)
    assert completes_pure_run(faces("Qh Kh"), parse_face("Ah"), 5, OCTRO)  # Q-K-A
    assert not completes_pure_run(faces("4s 5s"), parse_face("7s"), 12, OCTRO)
    assert not completes_pure_run(faces("4s 5s"), parse_face("JK"), 12, OCTRO)


def test_the_measure_prefers_jokers_and_near_runs_the_plain_points_cannot_tell_apart() -> None:
    bot = HeuristicBot()
    # Neither hand meets the requirement (both score 80); one has a joker (the wild rank is 7) and a near run.
    hopeful = faces("4s 5s 7d 9c Jc Kc 2h 5h 8h Jh Qd 3d 6c")
    poor = faces("4s 9s 2d 9c Jc Kc 2h 5h 8h Jh Qd 3d 6c")
    assert bot.measure(hopeful, OCTRO, 6) < bot.measure(poor, OCTRO, 6)
    assert bot.measure(faces("4s 5s 6s 7s 9h Th Jh Qc Qd Qh 2c 2d JK"), OCTRO, 7) == 0.0  # valid


def test_it_takes_a_card_that_makes_a_pure_run_and_not_one_that_does_not_help() -> None:
    bot = HeuristicBot()
    hand = "4s 5s 9c Jc Kc 2h 5h 8h Jh Qd 3d 6c 8d"
    assert bot.choose(view_of(hand, pile="6s", has_taken=True)) == Take("discard")
    assert "pure run" in bot.explain(view_of(hand, pile="6s", has_taken=True), Take("discard"))
    assert bot.choose(view_of(hand, pile="Kh", has_taken=True)) == Take("stock")


def test_it_takes_the_open_card_only_for_a_gain_of_take_gain_or_more() -> None:
    view = view_of("Ah 2d 4s 5d Jh Jd Td Ks 7d Ad 6d Th 4c", pile="2c", has_taken=True)  # 63 now, 55 after
    assert HeuristicBot().choose(view) == Take("discard")
    assert HeuristicBot(take_gain=8).choose(view) == Take("discard")
    wary = HeuristicBot(take_gain=10)
    assert wary.choose(view) == Take("stock")
    assert wary.explain(view, Take("stock")).endswith("better by 10")
    assert make_bot("heuristic:take_gain=10", 0, game="rummy").choose(view) == Take("stock")
    with pytest.raises(ValueError, match="take_gain must be a number from 0 to 100"):
        make_bot("heuristic:take_gain=-1", 0, game="rummy")


def test_it_drops_a_hopeless_hand_at_its_first_turn_only() -> None:
    bot = HeuristicBot()
    hopeless = "Ks Qh Jd 9c Kd 8s Th Qc 9d 3c 5h Js 7c"  # no joker (wild rank 2), no cards in a row, 113 points
    view = view_of(hopeless, wild=1)
    assert bot.choose(view) == Drop()
    assert "first drop" in bot.explain(view, Drop())
    assert bot.choose(view_of(hopeless, wild=1, has_taken=True)) != Drop()  # a middle drop: never
    assert bot.choose(view_of(hopeless.replace("7c", "2c"), wild=1)) != Drop()  # a joker keeps it in


def test_it_never_discards_a_joker_and_avoids_feeding_the_next_player() -> None:
    bot = HeuristicBot()
    hand = "4s 5s 6s 9h 9d Kc 2h 3c 8h Jh Qd Qc 7d JK"
    action = bot.choose(view_of(hand, phase=Phase.DISCARD, has_taken=True))
    assert isinstance(action, Discard) and action.card != parse_face("JK")
    chosen = action.card
    # The next player (seat 1) has just taken a card of the chosen one's rank from the pile: another goes.
    took = (SeenTurn(1, take="discard", taken=(chosen + 13) % 52, discard=parse_face("2s")),)
    watched = view_of(hand, phase=Phase.DISCARD, has_taken=True, turns=took)
    other = bot.choose(watched)
    assert isinstance(other, Discard) and other.card != chosen
    assert bot.danger(watched, chosen) > 0 and bot.danger(watched, parse_face("JK")) >= 100


def test_heuristic_beats_greedy_in_duplicate_deals() -> None:
    summary, _ = run_duplicate("heuristic", "greedy", make_game("rummy", players=2), pairs=60, seed=1000)
    assert summary.mean_margin - summary.ci95 > 0


def test_it_is_the_level_hard_and_deterministic() -> None:
    game = make_game("rummy", players=3)
    first = [make_bot("hard", 3, game="rummy") for _ in range(3)]
    again = [make_bot("heuristic", 9, game="rummy") for _ in range(3)]
    from taash.arena.duplicate import play_state

    a = play_state(game.new_state(4), first)
    b = play_state(game.new_state(4), again)
    assert a.to_json()["actions"] == b.to_json()["actions"]  # no chance of its own: the seed changes nothing
