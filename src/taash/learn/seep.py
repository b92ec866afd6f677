"""Seep's lesson: the bid, a capture, a house, cementing it and a sweep, each a position of a two-player deal put
together from its parts (the bid from a fixed pack), checked by the engine (:mod:`taash.seep.deal`,
:func:`taash.seep.describe.play_refusal`); and the rules of each preset in words (the terminal help's)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from taash.cards import FULL_PACK, cards_of, mask_of, names_of, parse_card
from taash.i18n import N_, _, said_of
from taash.learn import JSON, GameLesson, Verdict, verdict_for
from taash.seep.deal import Deal
from taash.seep.describe import describe_outcome, describe_play, no_play_reason, play_refusal
from taash.seep.errors import BadPositionError, IllegalPlayError
from taash.seep.notation import houses_to_json, play_from_json
from taash.seep.plays import THROW, House
from taash.seep.rules import PRESETS
from taash.seep.view import PlayerView, view_of
from taash.tables.adapter import TableError
from taash.tui.seep.help import scoring_lines

#: The learner's seat (the bidder: the dealer is the other seat of two).
SEAT = 0
#: Plays made before each position after the bid (so no position is the bid play, nor the deal's last).
PLAYS_BEFORE = 10


@dataclass(frozen=True, slots=True)
class Position:
    """One step's position: the learner's hand, the loose cards, the houses ``(value, cards, cemented)`` (all the
    learner's), the moves to try (the protocol's messages) and those the step teaches."""

    title: str
    teach: str
    well_done: str
    note: str
    hand: tuple[str, ...]
    loose: tuple[str, ...] = ()
    houses: tuple[tuple[int, tuple[str, ...], bool], ...] = ()
    tries: tuple[dict[str, JSON], ...] = ()
    right: tuple[dict[str, JSON], ...] = ()


def _play(card: str, **rest: JSON) -> dict[str, JSON]:
    return {"type": "play", "play": {"card": card, **rest}}


BID = Position(
    N_("The bid"),
    N_("The player after the dealer sees his first four cards and bids a value from 9 to 13 (king) that he holds: "
       "his first play must then build a house of that value, or play a card of it. The four floor cards stay "
       "face down until he bids."),
    N_("A king bid: your K♥ can take a king house later."),
    N_("Bid the highest value you hold: the bigger the house, the more it holds."),
    hand=("Kh", "9s", "5d", "3c"), loose=("4h", "5c", "2d", "7d"),
    tries=({"type": "bid", "value": 13}, {"type": "bid", "value": 9}, {"type": "bid", "value": 5}),
    right=({"type": "bid", "value": 13},))
CAPTURE = Position(
    N_("A capture"),
    N_("A card captures the loose cards that add up to its value (ace 1 to king 13), and must take everything it "
       "can: every group that adds up to its value. A card that can capture may not be thrown."),
    N_("Both groups that make 9 are yours."),
    N_("Look for a play that takes more points."),
    hand=("9s", "Kh", "6c", "3d"), loose=("4h", "5c", "2d", "7d", "Kd"),
    tries=(_play("9s", capture=["4h", "5c"]), _play("9s", capture=["4h", "5c", "2d", "7d"]), _play("9s")),
    right=(_play("9s", capture=["4h", "5c", "2d", "7d"]),))
HOUSE = Position(
    N_("A house"),
    N_("A house is a pile of value 9 to 13 built from a card of your hand and loose cards adding up to it. You "
       "build only for yourself: you must still hold a card of that value, to take the house later."),
    N_("A king house, and you keep K♥ to take it."),
    N_("A throw scores nothing: build a house you can take."),
    hand=("Kh", "8d", "3s", "2c"), loose=("5c", "6d", "4h"),
    tries=(_play("8d", house=13, loose=["5c"]), _play("8d", house=12, loose=["4h"]), _play("8d")),
    right=(_play("8d", house=13, loose=["5c"]),))
CEMENT = Position(
    N_("Cementing a house"),
    N_("Add a card of the house's value (or cards adding up to it) to your house and it is cemented: nobody may "
       "break it any more, and it can only be taken by a card of its value."),
    N_("Cemented: your king house is safe until you take it."),
    N_("Taking your own house is allowed, but cementing it first keeps it safe and lets it grow."),
    hand=("Kh", "Ks", "9d", "3c"), loose=("4h", "6d"), houses=((13, ("8d", "5c"), False),),
    tries=(_play("Ks", house=13), _play("9d", house=13, loose=["6d"]), _play("Kh", capture=[])),
    right=(_play("Ks", house=13), _play("9d", house=13, loose=["4h"])))
SWEEP = Position(
    N_("A sweep"),
    N_("A capture that leaves the floor empty is a sweep (seep): it scores 50 more (25 by the bid play, nothing "
       "by the deal's last play)."),
    N_("The floor is empty: a sweep."),
    N_("That leaves a card on the floor: find the capture that takes them all."),
    hand=("Qd", "Tc", "5h", "8s"), loose=("3h", "7s", "2c"),
    tries=(_play("Qd", capture=["3h", "7s", "2c"]), _play("Tc", capture=["3h", "7s"]), _play("5h")),
    right=(_play("Qd", capture=["3h", "7s", "2c"]),))
STEPS = (BID, CAPTURE, HOUSE, CEMENT, SWEEP)


def bid_deal(step: Position) -> Deal:
    """The bid's deal: a fixed pack, the learner's four cards first, then the floor's."""
    first = [parse_card(c) for c in (*step.hand, *step.loose)]
    return Deal(PRESETS["standard"], 2, 1 - SEAT, first + [c for c in range(52) if c not in first])


def play_deal(step: Position) -> Deal:
    """A deal in its play put together from the step's parts: the learner to play, the other seat holding cards
    of the pack left over, the bid made and :data:`PLAYS_BEFORE` plays behind (thrown cards of the pack)."""
    hand = mask_of(parse_card(c) for c in step.hand)
    loose = mask_of(parse_card(c) for c in step.loose)
    houses: dict[int, House] = {v: (mask_of(parse_card(c) for c in cards), cemented, 1 << SEAT)
                                for v, cards, cemented in step.houses}
    used = hand | loose
    for cards, _cemented, _owners in houses.values():
        used |= cards
    rest = cards_of(FULL_PACK & ~used)
    other = mask_of(rest[:len(step.hand)])
    plays = [(THROW, c, 0, 0, 0) for c in rest[len(step.hand):len(step.hand) + PLAYS_BEFORE]]
    return Deal.from_parts(PRESETS["standard"], 2, 1 - SEAT, list(range(52)), [hand, other], loose, houses, plays,
                           13, SEAT, -1, 0)


#: What Seep is and how a deal goes, in plain words (the learn page's first paragraphs).
ABOUT = (
    N_("Seep (Sweep) is a capturing game for two players, or four in two teams of partners sitting opposite."),
    N_("The player after the dealer sees four cards and bids a value from 9 to king (13) that he holds; four cards "
       "are turned up on the floor, he makes the first play, and everyone is dealt twelve cards."),
    N_("Each turn you play one card: capture the floor cards that add up to its value, build a house (a pile of 9 "
       "to 13 that only a card of its value takes), add to a house to cement it, or throw the card loose."),
    N_("Spades, aces and the ten of diamonds score; a capture that clears the floor is a sweep (seep). A running "
       "lead of 100 points wins a baazi."),
)


class SeepLesson(GameLesson):
    game = "seep"
    size = len(STEPS)
    rule_presets = PRESETS
    about_words = ABOUT
    scoring = staticmethod(scoring_lines)

    def step(self, index: int) -> dict[str, JSON]:
        step = STEPS[index]
        out: dict[str, JSON] = {"title": _(step.title), "teach": _(step.teach), "options": []}
        if index == 0:
            deal = bid_deal(step)
            out["position"] = {"phase": "bid", "hand": names_of(deal.hands[SEAT]), "loose": [], "face_down": 4,
                               "houses": [], "bids": deal.legal_bids(), "blocked": {}}
            out["options"] = [{"label": _("Bid {value}", value=t["value"]), "action": t} for t in step.tries]
            return out
        view = view_of(play_deal(step), SEAT)
        out["position"] = {"phase": "play", "hand": names_of(view.hand), "loose": names_of(view.loose),
                           "face_down": 0, "houses": houses_to_json(view.houses), "bids": [],
                           "blocked": blocked_of(view)}
        out["options"] = [{"label": describe_play(play_from_json(t["play"], view.houses), view.houses),
                           "action": t} for t in step.tries]
        return out

    def check(self, index: int, action: Mapping[str, JSON]) -> Verdict:
        step = STEPS[index]
        kind = action.get("type")
        if index == 0:
            if kind != "bid":
                raise TableError("this step is the bid: send {\"type\": \"bid\", \"value\": 9 to 13}", "malformed")
            return self._bid(step, action.get("value"))
        if kind != "play":
            raise TableError("this step is a play: send {\"type\": \"play\", \"play\": {...}}", "malformed")
        view = view_of(play_deal(step), SEAT)
        try:
            play = play_from_json(action.get("play"), view.houses)
        except BadPositionError as e:
            raise TableError(_("malformed play: {why}", why=said_of(e)), "malformed") from None
        right = any(play == play_from_json(r["play"], view.houses) for r in step.right)
        refusal = play_refusal(view, play)
        outcome = describe_outcome(view, play) if refusal is None else ""
        return verdict_for(refusal, right, _(step.well_done), _(step.note), outcome)

    @staticmethod
    def _bid(step: Position, value: JSON) -> Verdict:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TableError(_("a bid is a whole number, not {value}", value=repr(str(value)[:20])), "malformed")
        deal = bid_deal(step)
        try:
            deal.make_bid(value)
        except IllegalPlayError as e:
            return Verdict("refused", str(e))
        right = any(value == r["value"] for r in step.right)
        return verdict_for(None, right, _(step.well_done), _(step.note), _("You bid {value}", value=value))


def blocked_of(view: PlayerView) -> dict[str, str]:
    """Each card of the hand with no legal play, and why (the engine's words)."""
    return {names_of(1 << c)[0]: reason for c in cards_of(view.hand)
            if (reason := no_play_reason(view, c)) is not None}


LESSON = SeepLesson()
