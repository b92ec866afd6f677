"""13-card Rummy's lesson: the draw, a pure sequence, a joker, a set and the declaration, on one two-player deal
dealt from a fixed pack and checked by the engine (:meth:`taash.rummy.deal.Deal.check`, the meld judge of
:mod:`taash.rummy.melds`); and the rules of each preset in words (the terminal help's)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from taash.i18n import N_, _, said_of
from taash.learn import JSON, GameLesson, Verdict, verdict_for
from taash.packs import face_name, face_symbol, parse_face
from taash.rummy.deal import Deal, Declare, Discard, Take, sorted_pack
from taash.rummy.errors import IllegalTurnError
from taash.rummy.game import action_from_json
from taash.rummy.melds import declaration_problem, group_kind, group_problem
from taash.rummy.rules import PRESETS
from taash.tables.adapter import TableError
from taash.tui.rummy.help import scoring_lines

#: The learner's seat (the first to play: the dealer is the other seat of two).
SEAT = 0
#: The learner's thirteen cards, the open card that completes them, and the card that names the wild rank (2s).
HAND = ("3h", "4h", "5h", "9c", "Tc", "2d", "Qs", "Qd", "Qc", "Ks", "Kh", "Kd", "8s")
OPEN_CARD = "6h"
WILD_CARD = "2c"
#: What each kind of meld is called.
KIND_WORDS = {"pure": N_("a pure sequence"), "impure": N_("a sequence with a joker"), "set": N_("a set"),
              "free": N_("jokers alone")}


@dataclass(frozen=True, slots=True)
class Step:
    """One step: what it teaches, the moves to try and the move (or, for a meld, the kind of meld) it teaches."""

    title: str
    teach: str
    well_done: str
    note: str
    tries: tuple[dict[str, JSON], ...]
    right: tuple[dict[str, JSON], ...] = ()
    kind: str | None = None


def _meld(*cards: str) -> dict[str, JSON]:
    return {"type": "meld", "cards": list(cards)}


GROUPS = [["3h", "4h", "5h", "6h"], ["9c", "Tc", "2d"], ["Qs", "Qd", "Qc"], ["Ks", "Kh", "Kd"]]
STEPS = (
    Step(N_("The draw"),
         N_("Each turn begins with a card: the top of the face-down stock, or the open card on the discard pile. "
            "Then one card goes back on the pile."),
         N_("6♥ follows your 3♥ 4♥ 5♥."),
         N_("The stock's card is unknown; the open 6♥ follows cards of your hand."),
         ({"type": "take", "from": "discard"}, {"type": "take", "from": "stock"}, {"type": "discard", "card": "8s"}),
         right=({"type": "take", "from": "discard"},)),
    Step(N_("A pure sequence"),
         N_("A sequence is three or more cards of one suit in a row. A pure one has no joker standing in for a "
            "card, and every declaration needs one."),
         N_("Pure: four hearts in a row, no joker."),
         N_("A meld, but the step asks for a sequence without a joker."),
         (_meld("4h", "5h", "6h", "8s"), _meld("3h", "4h", "5h", "6h"), _meld("3h", "4h", "5h", "2d")),
         kind="pure"),
    Step(N_("A joker"),
         N_("This deal's wild card is 2♣, so every 2 is a joker: it may stand in for any card of a sequence or a "
            "set (one joker a meld here)."),
         N_("The 2♦ stands in for J♣."),
         N_("A meld, but the step asks for a sequence that uses the joker."),
         (_meld("9c", "Tc", "Qc"), _meld("9c", "Tc", "2d"), _meld("9c", "2d", "Ks")), kind="impure"),
    Step(N_("A set"),
         N_("A set is three or four cards of one rank, each of a different suit."),
         N_("Three queens of three suits."),
         N_("A meld, but the step asks for a set."),
         (_meld("Qs", "Qd", "Kd"), _meld("Qs", "Qd", "Qc")), kind="set"),
    Step(N_("The declaration"),
         N_("With every card of your hand in melds (two sequences or more, one of them pure, one of 4 cards or "
            "more here), lay the fourteenth card face down and show your groups: a valid declaration wins the deal."),
         N_("A valid declaration: you win the deal and score 0."),
         N_("Your hand is complete: declare rather than discard."),
         ({"type": "declare", "discard": "8s", "melds": GROUPS},
          {"type": "declare", "discard": "9c", "melds": [["3h", "4h", "5h", "6h"], ["8s", "Tc", "2d"],
                                                         ["Qs", "Qd", "Qc"], ["Ks", "Kh", "Kd"]]},
          {"type": "discard", "card": "8s"}),
         right=({"type": "declare", "discard": "8s", "melds": GROUPS},)),
)


def lesson_deal(taken: bool) -> Deal:
    """The lesson's deal from its fixed pack: the learner's 13 cards, the open card and the wild card where the
    deal puts them, the rest in the pack's order; ``taken``: after the learner took the open card."""
    rules = PRESETS["octro"]
    mine = [parse_face(c) for c in HAND]
    rest = Counter(sorted_pack(rules, 2))
    rest.subtract([*mine, parse_face(OPEN_CARD), parse_face(WILD_CARD)])
    others = list(rest.elements())
    pack = [face for pair in zip(mine, others[:13], strict=True) for face in pair]
    pack += [parse_face(OPEN_CARD), parse_face(WILD_CARD), *others[13:]]
    deal = Deal(rules, 2, 1 - SEAT, pack, rng=random.Random(0))
    if taken:
        deal.act(Take("discard"))
    return deal


def _message_action(action: Mapping[str, JSON]) -> object:
    """The engine's action a table message names (``TableError`` code ``malformed`` otherwise)."""
    kind = action.get("type")
    data = {"take": {"take": action.get("from")}, "discard": {"discard": action.get("card")},
            "declare": {"declare": {"discard": action.get("discard"), "melds": action.get("melds")}}}.get(str(kind))
    if data is None:
        raise TableError("this step takes a move: take, discard or declare", "malformed")
    try:
        return action_from_json(data)
    except ValueError as e:
        raise TableError(_("malformed {action}: {why}", action=kind, why=said_of(e)), "malformed") from None


#: What 13-card Rummy is and how a deal goes, in plain words (the learn page's first paragraphs).
ABOUT = (
    N_("13-card Rummy (Indian Rummy) is for two to six players, each on his own, with two or more packs and jokers."),
    N_("Each turn you take a card, from the face-down stock or the open discard pile, and discard one, arranging "
       "your thirteen cards into sequences (runs of one suit) and sets (one rank, different suits)."),
    N_("A card of the deal's wild rank is a joker and may stand in for any card; a pure sequence has none. A "
       "declaration needs a pure sequence and a second sequence; the first to declare validly wins the deal."),
    N_("The others score the points of the cards left outside their melds; the lowest total wins."),
)


class RummyLesson(GameLesson):
    game = "rummy"
    size = len(STEPS)
    rule_presets = PRESETS
    about_words = ABOUT
    scoring = staticmethod(scoring_lines)

    def step(self, index: int) -> dict[str, JSON]:
        step = STEPS[index]
        deal = lesson_deal(taken=index > 0)
        position: dict[str, JSON] = {"hand": [face_name(f) for f in deal.hands[SEAT]], "wild": WILD_CARD,
                    "pile": face_name(deal.pile[-1][0]) if deal.pile else None, "stock": len(deal.stock),
                    "blocked": {}}
        if deal.taken_from_pile is not None:
            position["blocked"] = {face_name(deal.taken_from_pile): deal_refusal(deal, Discard(deal.taken_from_pile))}
        return {"title": _(step.title), "teach": _(step.teach), "position": position,
                "options": [{"label": label(t), "action": t} for t in step.tries]}

    def check(self, index: int, action: Mapping[str, JSON]) -> Verdict:
        step = STEPS[index]
        if step.kind is not None:
            return self._meld(step, action)
        deal = lesson_deal(taken=index > 0)
        move = _message_action(action)
        refusal = deal_refusal(deal, move)
        if refusal is None and isinstance(move, Declare):
            problem = declaration_problem(move.groups, deal.rules, deal.wild)
            if problem is not None:
                refusal = _("A wrong declaration, which costs {points} points: {problem}",
                            points=deal.rules.wrong_declaration, problem=problem)
        return verdict_for(refusal, dict(action) in step.right, _(step.well_done), _(step.note), label(action))

    @staticmethod
    def _meld(step: Step, action: Mapping[str, JSON]) -> Verdict:
        cards = action.get("cards")
        if action.get("type") != "meld" or not isinstance(cards, list):
            raise TableError("this step takes a meld: {\"type\": \"meld\", \"cards\": [CARD, ...]}", "malformed")
        try:
            faces = [parse_face(c) for c in cards]
        except ValueError as e:
            raise TableError(str(e), "malformed") from None
        deal = lesson_deal(taken=True)
        if Counter(faces) - Counter(deal.hands[SEAT]):
            raise TableError("a meld is made of cards of your hand", "malformed")
        kind = group_kind(faces, deal.rules, deal.wild)
        outcome = " ".join(face_symbol(f) for f in faces)
        if kind != "invalid":
            outcome = _("{cards}: {kind}", cards=outcome, kind=_(KIND_WORDS[kind]))
        return verdict_for(group_problem(faces, deal.rules, deal.wild), kind == step.kind, _(step.well_done),
                           _(step.note), outcome)


def deal_refusal(deal: Deal, move: object) -> str | None:
    """The engine's reason for refusing ``move`` now, or None when it may be made."""
    try:
        deal.check(move)  # type: ignore[arg-type]
    except IllegalTurnError as e:
        return str(e)
    return None


def label(action: Mapping[str, JSON]) -> str:
    """A move to try, in words."""
    kind = action.get("type")
    if kind == "take":
        return _("Take the open card") if action.get("from") == "discard" else _("Take the stock's top card")
    if kind == "discard":
        return _("Discard {card}", card=face_symbol(parse_face(action.get("card"))))
    if kind == "declare":
        groups = " | ".join(" ".join(face_symbol(parse_face(c)) for c in g) for g in action.get("melds") or [])
        return _("Declare {groups}, laying down {card}", groups=groups,
                 card=face_symbol(parse_face(action.get("discard"))))
    return _("Meld {cards}", cards=" ".join(face_symbol(parse_face(c)) for c in action.get("cards") or []))


LESSON = RummyLesson()
