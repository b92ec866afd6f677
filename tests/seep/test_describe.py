from __future__ import annotations

from taash.seep.describe import describe_play
from taash.seep.plays import ADD, BREAK, CAPTURE, ESTABLISH, THROW
from tests.seep.helpers import card, mask

HOUSES = {11: (mask("5c", "6d"), False, 0b10)}


def test_plays_in_plain_words() -> None:
    assert describe_play((THROW, card("7c"), 0, 0, 0), {}) == "Throw 7♣"
    assert describe_play((CAPTURE, card("Jc"), 0, 0, mask("2s", "9s")), HOUSES, ascii_only=True) == \
        "Capture the jack house and 2s 9s with Jc"
    assert describe_play((ESTABLISH, card("5h"), 12, 0, mask("4c", "3d")), {}) == \
        "Build a queen house from 5♥ with 3♦ 4♣"
    assert describe_play((ADD, card("Jh"), 11, 0, 0), HOUSES) == "Put J♥ on the jack house"
    assert describe_play((BREAK, card("2s"), 13, 11, 0), HOUSES) == "Break the jack house with 2♠ into a new king house"


# -- outcomes with their points, and why a card has no play ---------------------------------------------------

from taash.seep.deal import Phase  # noqa: E402
from taash.seep.describe import describe_outcome, no_play_reason  # noqa: E402
from taash.seep.plays import House  # noqa: E402
from taash.seep.rules import PRESETS  # noqa: E402
from taash.seep.view import PlayerView  # noqa: E402


def view(hand: int, loose: int, houses: dict[int, House] | None = None, plays_made: int = 5, bid: int = 0,
         preset: str = "standard", restricted: int = 0, seat: int = 0) -> PlayerView:
    history = tuple((0, (THROW, 0, 0, 0, 0)) for _ in range(plays_made))
    return PlayerView(PRESETS[preset], 4, seat, 3, Phase.PLAY, seat, hand, (12, 12, 12, 12), loose, houses or {},
                      bid or 13, history, (0, 0), (), restricted, 0)


def test_a_capture_says_its_points_and_a_sweep() -> None:
    v = view(mask("Jc", "4h"), mask("2s", "9s", "5d"))
    jack = (CAPTURE, card("Jc"), 0, 0, mask("2s", "9s"))
    assert describe_outcome(v, jack) == "Capture 2♠ 9♠ with J♣: +11 points"
    sweep = view(mask("Jc", "4h"), mask("2s", "9s"))
    assert describe_outcome(sweep, jack) == "Capture 2♠ 9♠ with J♣: +11 points, a sweep (+50)"
    last = view(mask("Jc"), mask("2s", "9s"), plays_made=47)
    assert describe_outcome(last, jack) == \
        "Capture 2♠ 9♠ with J♣: +11 points, a sweep (scores nothing on the last play)"
    bid_play = view(mask("Jc", "4h"), mask("2s", "9s"), plays_made=0, bid=11)
    assert describe_outcome(bid_play, jack).endswith("a sweep (+25)")
    assert describe_outcome(v, (THROW, card("4h"), 0, 0, 0)) == "Throw 4♥"


def test_a_house_says_which_card_you_keep_or_whose_it_is() -> None:
    v = view(mask("8h", "Ks", "Kd"), mask("5d", "Qc"))
    build = (ESTABLISH, card("8h"), 13, 0, mask("5d"))
    assert describe_outcome(v, build) == "Build a king house from 8♥ with 5♦ (you keep K♠ K♦)"
    partners = {13: (mask("8h", "5d"), False, 0b100)}
    v = view(mask("Kh", "2c"), mask("3c"), partners)
    assert describe_outcome(v, (ADD, card("Kh"), 13, 0, 0)) == \
        "Put K♥ on the king house (cemented, your partner's house)"


def test_why_a_card_has_no_play() -> None:
    bid_play = view(mask("Kc", "2h", "3d", "9s"), mask("As", "2c", "6h", "8d"), plays_made=0, bid=13)
    assert no_play_reason(bid_play, card("Kc")) is None
    reason = no_play_reason(bid_play, card("9s"))
    assert reason is not None and reason.startswith("the bid play must use the bid: build a king house")
    assert no_play_reason(bid_play, card("Qd")) == "Q♦ is not in your hand"
    waiting = PlayerView(PRESETS["standard"], 4, 0, 3, Phase.PLAY, 1, mask("Kc"), (12,) * 4, 0, {}, 13,
                         ((0, (THROW, 1, 0, 0, 0)),), (0, 0), (), 0, 0)
    assert no_play_reason(waiting, card("Kc")) == "it is not your turn"
    # Qasim: a restricted card may not capture, but it can always be thrown, so it always has a play.
    qasim = view(mask("9s", "2c"), mask("9h", "3d"), preset="punjab_30_qasim", restricted=mask("9s"))
    assert [p for p in qasim.legal_plays() if p[1] == card("9s")] == [(THROW, card("9s"), 0, 0, 0)]
    assert no_play_reason(qasim, card("9s")) is None


# -- counts, points, Satthi, majority and redeals: the words every screen uses -------------------------------------

from taash.bots.seep.greedy import GreedyBot  # noqa: E402
from taash.bots.seep.heuristic import HeuristicBot  # noqa: E402
from taash.seep.deal import DealScore  # noqa: E402
from taash.seep.describe import card_points_notes, plural, points, redeal_reason  # noqa: E402


def test_one_point_one_card_one_sweep_in_the_singular() -> None:
    assert (points(1), points(2), points(0), points(1, short=True), points(7, short=True)) == \
        ("1 point", "2 points", "0 points", "1 pt", "7 pts")
    assert (plural(1, "card"), plural(3, "sweep")) == ("1 card", "3 sweeps")
    v = view(mask("5c", "Kd"), mask("Ah", "4h"))
    capture = (CAPTURE, card("5c"), 0, 0, mask("Ah", "4h"))
    for bot in (GreedyBot(1), HeuristicBot(1)):
        assert bot.explain(v, capture) == "Capture A♥ 4♥ with 5♣: a sweep, 1 point"


def test_a_satthi_and_the_majority_are_named() -> None:
    punjab = PRESETS["punjab_30"]
    assert card_points_notes(punjab, DealScore((60, 0), (9, 0), (31, 21)), ("Us", "Them")) == \
        ["A Satthi: Us took all 30 card points, which score 60"]
    assert card_points_notes(punjab, DealScore((0, 60), (0, 0), (20, 32)), ("Us", "Them")) == \
        ["A Satthi: Them took all 30 card points, which score 60"]
    assert card_points_notes(punjab, DealScore((10, 20), (0, 0), (24, 28)), ("NS", "EW")) == \
        ["EW +4 card points for the most cards (28 of 52)"]
    assert card_points_notes(punjab, DealScore((13, 17), (0, 0), (26, 26)), ("NS", "EW")) == []
    assert card_points_notes(PRESETS["standard"], DealScore((60, 40), (0, 0), (30, 22)), ("NS", "EW")) == []


def test_a_redeal_names_its_card_as_the_screen_shows_cards() -> None:
    problem = "the first floor cards hold 9s, so the deal would have been redone"
    assert redeal_reason(problem) == "the first floor cards hold 9♠"
    assert redeal_reason(problem, ascii_only=True) == "the first floor cards hold 9s"
    assert redeal_reason("the bidder's first four cards hold no card above 8, so the deal would have been redone") \
        == "the bidder's first four cards hold no card above 8"
