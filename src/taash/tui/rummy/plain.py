"""13-card Rummy's words for the plain terminal game (:mod:`taash.tui.plain`): the wild joker, the discard pile's
top card, each seat's standing, the hand in the solver's groups with its points, and the choices of the turn: take
or drop, then each discard and each declaration the engine finds valid."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from taash.i18n import N_, _, ngettext
from taash.packs import JOKER, face_name, parse_face
from taash.rummy.deal import Discard, Phase, Take
from taash.rummy.game import RummyState
from taash.rummy.match import Match
from taash.rummy.solver import solve
from taash.rummy.view import PlayerView
from taash.tables.match import TableMatch
from taash.tables.rummy import arrangement
from taash.tui.plain import RANK_WORDS, Choice, spoken_card
from taash.tui.rummy.help import about_lines

#: Each group's kind, as the plain game says it.
KIND_WORDS = {"pure": N_("pure run"), "impure": N_("impure run"), "set": N_("set"), "free": N_("joker"),
              None: N_("unmatched")}
#: A seat's standing in the deal, by the engine's word for it.
STATUS_WORDS = {"dropped": N_("dropped"), "wrong": N_("out: a wrong declaration"), "declared": N_("declared")}


def _match(session: TableMatch) -> Match:
    state = session.state
    assert isinstance(state, RummyState)
    return state.match


def card_words(face: int, wild: int) -> str:
    if face == JOKER:
        return _("printed joker")
    words = spoken_card(face % 13, face // 13)
    return _("{card} (wild joker)", card=words) if face % 13 == wild else words


def cards_words(faces: Iterable[int], wild: int) -> str:
    return ", ".join(card_words(f, wild) for f in faces) or _("none")


def hand_lines(view: PlayerView) -> list[str]:
    if not view.hand:
        return [_("You hold no cards: you are out of this deal.")]
    shown = arrangement(view.hand, view.rules, view.wild, view.taken_from_pile)
    lines = [ngettext("Your hand of {n} card, in groups:", "Your hand of {n} cards, in groups:", len(view.hand))]
    for group in shown["groups"]:
        faces = [parse_face(name) for name in group["cards"]]
        lines.append("  " + _("{kind}: {cards}.", kind=_(KIND_WORDS.get(group["kind"], KIND_WORDS[None])),
                                cards=cards_words(faces, view.wild)))
    if shown["discard"] is not None:
        lines.append("  " + _("set apart to discard: {card}.", card=card_words(parse_face(shown["discard"]),
                                                                               view.wild)))
    lines.append(_("Points if another player declared now: {points}; these groups would make a valid declaration.",
                   points=shown["points"]) if shown["valid"] else
                 _("Points if another player declared now: {points}.", points=shown["points"]))
    return lines


def table_lines(session: TableMatch, view: PlayerView) -> list[str]:
    wild = view.wild
    top = (_("the top of the discard pile is the {card}", card=card_words(view.pile[-1][0], wild)) if view.pile
           else _("the discard pile is empty"))
    lines = [ngettext("The wild joker card is the {card}: every {rank} is a joker; {top}; {n} card in the stock.",
                      "The wild joker card is the {card}: every {rank} is a joker; {top}; {n} cards in the stock.",
                      view.stock_size, card=card_words(view.wild_card, -1), rank=_(RANK_WORDS[wild]), top=top)]
    for seat in view.seats:
        if seat == view.seat:
            continue
        status = view.status[seat]
        if status == "in":
            lines.append(ngettext("{name}: {n} card.", "{name}: {n} cards.", view.hand_sizes[seat],
                                  name=session.names[seat]))
        elif status is not None:
            lines.append(_("{name}: {standing}.", name=session.names[seat],
                           standing=_(STATUS_WORDS.get(status, status))))
    return lines


class RummyWords:
    """:class:`taash.tui.plain.PlainWords` for 13-card Rummy."""

    def situation(self, session: TableMatch, seat: int) -> list[str]:
        match = _match(session)
        view = match.view(seat)
        lines = [_("Deal {number}: {dealer} dealt.", number=len(match.past) + 1, dealer=session.names[view.dealer])]
        lines += table_lines(session, view)
        lines += hand_lines(view)
        if match.format.kind != "points":
            totals = ", ".join(f"{session.names[s]} {t}" for s, t in enumerate(match.totals))
            lines.append(_("Totals so far: {totals}.", totals=totals))
        return lines

    def choices(self, session: TableMatch, seat: int) -> list[Choice]:
        view = _match(session).view(seat)
        legal = view.legal_actions()
        if view.phase is Phase.TAKE:
            return self.take_choices(view, legal)
        out = [Choice(_("Discard the {card}", card=card_words(a.card, view.wild)),
                      {"type": "discard", "card": face_name(a.card)})
               for a in legal if isinstance(a, Discard)]
        return out + self.declarations(view)

    def take_choices(self, view: PlayerView, legal: Sequence[object]) -> list[Choice]:
        out = []
        if Take("stock") in legal:
            out.append(Choice(_("Take the top card of the stock"), {"type": "take", "from": "stock"}))
        if Take("discard") in legal and view.pile:
            out.append(Choice(_("Take the {card} from the discard pile", card=card_words(view.pile[-1][0], view.wild)),
                              {"type": "take", "from": "discard"}))
        drop = (_("Drop (a middle drop: {points} points)", points=view.middle_drop) if view.has_taken[view.seat] else
                _("Drop (a first drop: {points} points)", points=view.first_drop))
        out.append(Choice(drop, {"type": "drop"}))
        return out

    def declarations(self, view: PlayerView) -> list[Choice]:
        """Every declaration the engine finds valid: one card laid face down, the other 13 in the solver's
        groups (a wrong declaration is never offered: it only costs points)."""
        out = []
        for finish in sorted(set(view.hand)):
            rest = list(view.hand)
            rest.remove(finish)
            solution = solve(rest, view.rules, view.wild)
            if not solution.valid:
                continue
            groups = [list(cards) for _kind, cards in solution.melds] + [[f] for f in solution.free]
            out.append(Choice(_("Declare, laying the {card} face down: a valid declaration",
                                card=card_words(finish, view.wild)),
                              {"type": "declare", "discard": face_name(finish),
                               "melds": [[face_name(f) for f in g] for g in groups]}))
        return out

    def help(self, session: TableMatch) -> list[str]:
        """The terminal's help for the match's rules and format (``?``), as the help screen has it."""
        match = _match(session)
        return about_lines(match.rules, match.format)

    def result(self, session: TableMatch) -> list[str]:
        match = _match(session)
        lines = []
        for i, r in enumerate(match.results, 1):
            paid = ", ".join(f"{session.names[s]} {p}" for s, p in enumerate(r.points.points) if p is not None)
            winner = session.names[r.points.winner]
            lines.append(_("Deal {number}: {winner} won it with a valid declaration; points: {paid}.", number=i,
                           winner=winner, paid=paid) if r.points.declared else
                         _("Deal {number}: {winner} won it; points: {paid}.", number=i, winner=winner, paid=paid))
        lines.append(_("The match is over: {winner} won.", winner=session.names[match.winner])
                     if match.winner is not None else _("The match is over: no winner."))
        return lines


WORDS = RummyWords()
