"""Rummy's expert (``ismcts``): legal and explained choices everywhere, a seed's determinism, decisions from the
seat's view alone, what it infers of hidden cards, its settings, its time budget, and its edge over random."""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Sequence

import pytest

from taash.arena.duplicate import play_state, run_duplicate
from taash.bots import make_bot
from taash.bots.rummy.heuristic import HeuristicBot
from taash.bots.rummy.inference import determinise, knowledge, known_holdings
from taash.bots.rummy.ismcts import IsmctsBot, _beats
from taash.bots.rummy.rollout import Playout, Table, can_meld_with
from taash.games import make_game
from taash.packs import parse_face
from taash.rummy.deal import Declare, Discard, Drop, Phase, Take, sorted_pack
from taash.rummy.game import RummyState
from taash.rummy.rules import PRESETS
from taash.rummy.view import PlayerView

QUICK = "ismcts:iterations=3,depth=1"


class Checked:
    """Checks that every choice of the bot it wraps is legal in its seat's view and explained in one line."""

    def __init__(self, spec: str, seed: int):
        self.bot = make_bot(spec, seed, game="rummy")
        self.name = self.bot.name
        self.chosen = 0

    def choose(self, view: PlayerView) -> object:
        action = self.bot.choose(view)
        assert action in view.legal_actions()
        reason = self.bot.explain(view, action)
        assert reason and "\n" not in reason
        self.chosen += 1
        return action


@pytest.mark.parametrize("spec", [QUICK, QUICK + ",play_from=2"])  # the expectimax's choices, the play-outs'
@pytest.mark.parametrize("preset", ["octro", "classic"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_it_plays_whole_deals_legally_in_every_preset_and_table_size(preset: str, players: int, spec: str) -> None:
    game = make_game("rummy", rules=preset, players=players, format="points")
    expert = Checked(spec, 1)
    bots = [expert if seat == players - 1 else Checked("heuristic", seat) for seat in range(players)]
    state = play_state(game.new_state(players), bots)
    assert state.is_over and expert.chosen > 0


def _mid_deal(players: int, seed: int, turns: int) -> RummyState:
    """A state some turns into a deal of heuristic players (the seat to move about to discard)."""
    state = make_game("rummy", players=players).new_state(seed)
    assert isinstance(state, RummyState)
    bots = [make_bot("heuristic", s, game="rummy") for s in range(players)]
    while len(state.match.deal.turns) < turns or state.match.deal.phase is not Phase.DISCARD:
        seat = state.current_player
        state.apply(bots[seat].choose(state.view(seat)))
        assert not state.match.deal.over
    return state


def test_it_is_deterministic_for_its_seed() -> None:
    state = _mid_deal(3, 4, 6)
    view = state.view(state.current_player)
    first, second = IsmctsBot(7, iterations=12, play_from=2), IsmctsBot(7, iterations=12, play_from=2)
    assert first.choose(view) == second.choose(view)
    assert first.last_stats == second.last_stats and first.last_stats


@pytest.mark.parametrize(("players", "spec"), [(4, QUICK), (4, QUICK + ",play_from=2"), (2, QUICK),
                                                   (2, QUICK + ",sharpen=8,play_from=2"),
                                                   (2, QUICK + ",play_from=3,drops_from=3,take_gain=10")])
def test_hidden_cards_never_change_a_decision(players: int, spec: str) -> None:
    game = make_game("rummy", players=players)
    rng = random.Random(15)
    checked = 0
    for seed in range(8):
        if checked >= 60:
            break
        state = game.new_state(seed)
        while not state.is_over and checked < 20 * (seed + 1):
            seat = state.current_player
            other = state.with_hidden_dealt_again(seat, rng)
            assert other.view(seat) == state.view(seat)
            first = make_bot(spec, 5, game="rummy").choose(state.view(seat))
            assert make_bot(spec, 5, game="rummy").choose(other.view(seat)) == first
            state.apply(first)
            checked += 1
    assert checked >= 60


def test_what_an_opponent_took_from_the_pile_stays_in_his_guessed_hand_until_he_throws_it() -> None:
    game = make_game("rummy", players=2)
    for seed in range(40):  # find a deal where the second player takes the open card
        state = game.new_state(seed)
        assert isinstance(state, RummyState)
        deal = state.match.deal
        first, second = deal.order
        deal.act(Take("stock"))
        deal.act(Discard(deal.hands[first][0]))
        taken = deal.pile[-1][0]
        deal.act(Take("discard"))
        thrown = next(f for f in deal.hands[second] if f != taken)
        deal.act(Discard(thrown))
        view = state.view(first)
        assert known_holdings(view) == {second: [taken]}
        known = knowledge(view)
        # every unseen card is in the opponent's hand, the stock or out of play: here, nowhere else
        assert len(known.unseen) == 13 + view.stock_size
        assert Counter(known.unseen) == Counter(deal.hands[second]) + Counter(deal.stock)
        for k in range(5):
            world = determinise(view, known, random.Random(k))
            assert taken in world.hands[second] and len(world.hands[second]) == 13
            assert Counter(world.hands[second]) + Counter(world.stock) == Counter(known.unseen)
        deal.act(Take("stock"))
        deal.act(Discard(deal.hands[first][0]))
        deal.act(Take("stock"))
        deal.act(Discard(taken))
        assert known_holdings(state.view(first)) == {second: []}
        return
    pytest.fail("no deal found")


def test_a_card_melds_with_a_hand_only_through_its_rank_its_suit_nearby_or_jokers() -> None:
    octro = PRESETS["octro"]
    hand = [parse_face(t) for t in ["4s", "9h", "Kd"]]
    assert can_meld_with(parse_face("6s"), hand, octro, 1)  # 4-5-6 of spades with a 5 to come
    assert can_meld_with(parse_face("9c"), hand, octro, 1)  # a set of nines
    assert not can_meld_with(parse_face("8s"), hand, octro, 1)
    assert not can_meld_with(parse_face("9h"), hand, octro, 1)  # a twin is no set
    assert can_meld_with(parse_face("2c"), hand, octro, 1)  # a card of the wild rank (2) is a joker
    jokers = [parse_face("JK"), parse_face("JK")]
    assert not can_meld_with(parse_face("7s"), [*hand, jokers[0]], PRESETS["classic"], 1)  # 4 . . 7: two gaps
    assert can_meld_with(parse_face("7s"), [*hand, *jokers], PRESETS["classic"], 1)  # two jokers fill them
    assert not can_meld_with(parse_face("7s"), [*hand, *jokers], octro, 1)  # one joker a meld


def test_it_declares_at_once_when_it_can() -> None:
    game = make_game("rummy", players=2)
    for seed in range(30):
        state = game.new_state(seed)
        bots = [make_bot("greedy", s, game="rummy") for s in range(2)]
        while not state.is_over:
            seat = state.current_player
            view = state.view(seat)
            declaration = next((a for a in view.legal_actions() if isinstance(a, Declare)), None)
            if declaration is not None:
                assert make_bot(QUICK, 1, game="rummy").choose(view) == declaration
                return
            state.apply(bots[seat].choose(view))
    pytest.fail("no declaration met")


def test_the_expert_level_is_this_search_with_a_time_budget() -> None:
    bot = make_bot("expert", 1, game="rummy")
    assert isinstance(bot, IsmctsBot) and bot.seconds == 0.5


@pytest.mark.parametrize(("spec", "words"), [
    ("ismcts:iterations=0", "iterations must be a whole number from 1"),
    ("ismcts:seconds=0", "seconds must be a number above 0"),
    ("ismcts:depth=deep", "depth must be a whole number"),
    ("ismcts:candidates=99", "candidates must be a whole number from 1 to 14"),
    ("ismcts:prune=-1", "prune must be a number from 0"),
    ("ismcts:drops=1.5", "drops must be a whole number from 0"),
    ("ismcts:measured=15", "measured must be a whole number from 0 to 14"),
    ("ismcts:anchor=-1", "anchor must be a number from 0"),
    ("ismcts:sharpen=0", "sharpen must be a whole number from 1"),
    ("ismcts:drops_from=1", "drops_from must be a whole number from 2 to 7"),
    ("ismcts:play_from=8", "play_from must be a whole number from 2 to 7"),
    ("ismcts:take_gain=101", "take_gain must be a number from 0 to 100"),
    ("ismcts:lookahead=2", "lookahead must be a whole number from 0 to 1"),
    ("ismcts:nosuch=1", "unknown setting 'nosuch'"),
    ("expert:iterations=3", "a level (expert) takes no settings"),
])
def test_bad_settings_are_refused_in_one_line(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)) as error:
        make_bot(spec, 1, game="rummy")
    assert "\n" not in str(error.value)


def test_the_time_budget_cuts_the_search_short() -> None:
    state = _mid_deal(6, 2, 8)
    view = state.view(state.current_player)
    bot = IsmctsBot(1, iterations=1_000_000, seconds=0.05, prune=0, play_from=2)
    start = time.perf_counter()
    action = bot.choose(view)
    assert time.perf_counter() - start < 1.0
    assert action in view.legal_actions()
    visits = [v for v, _ in bot.last_stats.values()]
    assert 0 < max(visits) < 1_000_000


def test_it_beats_random_in_duplicate_deals() -> None:
    summary, _ = run_duplicate(QUICK, "random", make_game("rummy", players=2), pairs=4, seed=3)
    assert summary.mean_margin - summary.ci95 > 0


def _six_player_view(hand: str, *, has_taken: bool, wild: int = 0) -> PlayerView:
    """Seat 0's view of a 6-player deal at its turn to take (the pile's cards and the stock add up)."""
    octro = PRESETS["octro"]
    cards = tuple(sorted(parse_face(t) for t in hand.split()))
    pile = ((parse_face("5h"), 5),)
    stock = len(sorted_pack(octro, 6)) - 6 * 13 - len(pile) - 1
    return PlayerView(rules=octro, players=6, seats=tuple(range(6)), seat=0, dealer=5, to_move=0, phase=Phase.TAKE,
                      wild_card=wild, wild=wild, hand=cards, hand_sizes=(13,) * 6, stock_size=stock, pile=pile,
                      turns=(), status=("in",) * 6, has_taken=(has_taken,) + (True,) * 5, timeouts=(0,) * 6,
                      first_drop=20, middle_drop=40, points=(None,) * 6, winner=None)


def test_it_drops_midway_a_hand_that_would_cost_more_than_the_drop_and_keeps_a_good_one() -> None:
    poor = _six_player_view("Ks 9s 5s Qh 8h 4h Jd 7d 3d Tc 6c 2c Kh", has_taken=True)
    bot = IsmctsBot(3, iterations=4, drops=12)
    assert bot.choose(poor) == Drop() and bot.drop_stats[0] == 12 and bot.drop_stats[1] < -43
    assert bot.explain(poor, Drop()).startswith("Drop (40 points): over 12 guessed deals played to the end")
    good = _six_player_view("4s 6s 7s 8s 9s Th Jh Qh Qc Qd 2c 3c Ks", has_taken=True)
    assert bot.choose(good) != Drop()
    assert IsmctsBot(3, iterations=4, drops=0).choose(poor) != Drop()


def test_a_drop_is_weighed_only_at_a_table_of_drops_from_players_or_more() -> None:
    poor = _six_player_view("Ks 9s 5s Qh 8h 4h Jd 7d 3d Tc 6c 2c Kh", has_taken=True)
    at_six = IsmctsBot(3, iterations=4, drops=12, drops_from=6)
    assert at_six.choose(poor) == Drop() and at_six.drop_stats[0] == 12
    above = IsmctsBot(3, iterations=4, drops=12, drops_from=7)
    assert above.choose(poor) != Drop() and above.drop_stats == (0, 0.0, 0)


@pytest.mark.parametrize(("players", "searched"), [(2, False), (3, True)])
def test_below_play_from_players_the_heuristics_takes_and_discards_stand(players: int, searched: bool) -> None:
    game = make_game("rummy", players=players)
    heuristic = HeuristicBot(take_gain=10)
    for seed in range(2):
        state = game.new_state(seed)
        searches = 0  # searches made: at three players every take and discard with a choice is searched
        while not state.is_over:
            seat = state.current_player
            view = state.view(seat)
            bot = IsmctsBot(4, iterations=2, drops=0 if searched else 12, play_from=3, drops_from=3, take_gain=10,
                            lookahead=0)
            action = bot.choose(view)
            searches += bool(bot.last_stats)
            if not searched:
                assert action == heuristic.choose(view)
            state.apply(action)
        assert bool(searches) is searched


def test_its_own_play_out_discards_may_follow_the_measure_among_the_fewest_points() -> None:
    octro = PRESETS["octro"]
    hand = [parse_face(t) for t in ["Ks", "Qh", "Jd", "Tc", "9s", "8h", "7d", "6c", "5s", "4h", "3d", "2c", "Ah", "Kd"]]
    values = {card: 50 + i for i, card in enumerate(hand)}  # Ks leaves the fewest points, then Qh, then Jd

    def measure(rest: Sequence[int]) -> float:
        return 0.0 if parse_face("Jd") not in rest else 10.0  # the measure wants the jack of diamonds gone

    table = Table({0: list(hand), 1: []}, [], [], (0, 1))
    by_points = Playout(octro, 4, 0, 1, measure)
    by_points._discard(table, 0, values, {})
    assert table.pile == [parse_face("Ks")]
    table = Table({0: list(hand), 1: []}, [], [], (0, 1))
    Playout(octro, 4, 0, 1, measure, measured=3)._discard(table, 0, values, {})
    assert table.pile == [parse_face("Jd")]
    table = Table({0: list(hand), 1: []}, [], [], (0, 1))
    Playout(octro, 4, 0, 1, measure, measured=2)._discard(table, 0, values, {})  # the jack is not among the two
    assert table.pile == [parse_face("Ks")]


def test_another_candidate_beats_the_heuristics_only_by_enough_standard_errors() -> None:
    assert _beats([5.0, 7.0, 6.0], [1.0, 2.0, 3.0], 3.0)  # 4 points better on every deal
    assert not _beats([5.0, -7.0, 6.0], [1.0, 2.0, 3.0], 0.5)  # worse on average
    assert not _beats([3.0, 2.0, 9.0], [1.0, 2.0, 3.0], 2.0)  # +2.67 on average, 1.76 the standard error
    assert _beats([3.0, 2.0, 9.0], [1.0, 2.0, 3.0], 1.0)
    assert not _beats([9.0], [1.0], 0.5)  # one deal says nothing of the spread


def test_with_an_anchor_the_heuristics_choice_stands_unless_clearly_beaten() -> None:
    heuristic = HeuristicBot()
    for seed in range(20):
        state = _mid_deal(2, seed, 4)
        view = state.view(state.current_player)
        candidates = [Discard(card) for card, _ in heuristic.discard_order(view)][:4]
        free = IsmctsBot(3, iterations=8, prune=0)
        chosen = free.search(view, candidates)
        if chosen == candidates[0]:
            continue
        anchored = IsmctsBot(3, iterations=8, prune=0, anchor=100)
        assert anchored.search(view, candidates) == candidates[0]
        assert anchored.last_stats == free.last_stats  # the same guessed deals, the same means
        assert free.last_stats[chosen][1] > free.last_stats[candidates[0]][1]
        return
    pytest.fail("the search never left the heuristic's discard")


def test_a_sharpened_guess_deals_the_opponent_a_better_hand_and_keeps_what_he_is_known_to_hold() -> None:
    state = _mid_deal(2, 5, 12)
    seat = state.current_player
    view = state.view(seat)
    known = knowledge(view)
    (other, size, held), = known.opponents
    heuristic = HeuristicBot()

    def judge(hand: Sequence[int]) -> float:
        return heuristic.measure(hand, view.rules, view.wild)

    plain = [determinise(view, known, random.Random(k)) for k in range(12)]
    sharp = [determinise(view, known, random.Random(k), judge, {other: 8}) for k in range(12)]
    for world in sharp:
        assert len(world.hands[other]) == size and Counter(held) <= Counter(world.hands[other])
        assert len(world.stock) == view.stock_size
        assert Counter(world.hands[other]) + Counter(world.stock) <= Counter(known.unseen)
    mean = sum(judge(w.hands[other]) for w in plain) / 12
    assert sum(judge(w.hands[other]) for w in sharp) / 12 < mean - 5
    bot = IsmctsBot(2, iterations=2, sharpen=8)
    assert bot.choose(view) in view.legal_actions()


@pytest.mark.parametrize(("players", "seed", "sharpened"), [(2, 5, True), (3, 4, False)])
def test_only_a_two_player_search_sharpens_its_guesses(players: int, seed: int, sharpened: bool) -> None:
    state = _mid_deal(players, seed, 6)
    view = state.view(state.current_player)
    known = knowledge(view)
    guesses = [IsmctsBot(4, sharpen=k)._guess(view, known)() for k in (8, 1)]
    assert (guesses[0] != guesses[1]) is sharpened
