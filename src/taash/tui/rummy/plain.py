"""13-card Rummy's words for the plain terminal game (:mod:`taash.tui.plain`): the wild joker, the discard pile's
top card, each seat's standing, the hand in the solver's groups with its points, and the choices of the turn: take
or drop, then each discard and each declaration the engine finds valid."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from taash.packs import JOKER, face_name, parse_face
from taash.rummy.deal import Discard, Phase, Take
from taash.rummy.game import RummyState
from taash.rummy.match import Match
from taash.rummy.solver import solve
from taash.rummy.view import PlayerView
from taash.tables.rummy import arrangement
from taash.tables.session import Session
from taash.tui.plain import RANK_WORDS, Choice, spoken_card

#: Each group's kind, as the plain game says it.
KIND_WORDS = {"pure": "pure run", "impure": "impure run", "set": "set", "free": "joker", None: "unmatched"}


def _match(session: Session) -> Match:
    state = session.state
    assert isinstance(state, RummyState)
    return state.match


def card_words(face: int, wild: int) -> str:
    if face == JOKER:
        return "printed joker"
    words = spoken_card(face % 13, face // 13)
    return f"{words} (wild joker)" if face % 13 == wild else words


def cards_words(faces: Iterable[int], wild: int) -> str:
    return ", ".join(card_words(f, wild) for f in faces) or "none"


def hand_lines(view: PlayerView) -> list[str]:
    if not view.hand:
        return ["You hold no cards: you are out of this deal."]
    shown = arrangement(view.hand, view.rules, view.wild, view.taken_from_pile)
    lines = [f"Your hand of {len(view.hand)} cards, in groups:"]
    for group in shown["groups"]:
        faces = [_face(name) for name in group["cards"]]
        lines.append(f"  {KIND_WORDS.get(group['kind'], 'unmatched')}: {cards_words(faces, view.wild)}.")
    if shown["discard"] is not None:
        lines.append(f"  set apart to discard: {card_words(_face(shown['discard']), view.wild)}.")
    lines.append(f"Points if another player declared now: {shown['points']}"
                 + ("; these groups would make a valid declaration." if shown["valid"] else "."))
    return lines


def _face(name: str) -> int:
    return parse_face(name)


def table_lines(session: Session, view: PlayerView) -> list[str]:
    wild = view.wild
    top = (f"the top of the discard pile is the {card_words(view.pile[-1][0], wild)}" if view.pile
           else "the discard pile is empty")
    lines = [f"The wild joker card is the {card_words(view.wild_card, -1)}: every {RANK_WORDS[wild]} is a joker; "
             f"{top}; {view.stock_size} cards in the stock."]
    for seat in view.seats:
        if seat == view.seat:
            continue
        status = view.status[seat]
        standing = f"{view.hand_sizes[seat]} cards" if status == "in" else str(status)
        lines.append(f"{session.names[seat]}: {standing}.")
    return lines


class RummyWords:
    """:class:`taash.tui.plain.PlainWords` for 13-card Rummy."""

    def situation(self, session: Session, seat: int) -> list[str]:
        match = _match(session)
        view = match.view(seat)
        lines = [f"Deal {len(match.past) + 1}: {session.names[view.dealer]} dealt."]
        lines += table_lines(session, view)
        lines += hand_lines(view)
        if match.format.kind != "points":
            totals = ", ".join(f"{session.names[s]} {t}" for s, t in enumerate(match.totals))
            lines.append(f"Totals so far: {totals}.")
        return lines

    def choices(self, session: Session, seat: int) -> list[Choice]:
        view = _match(session).view(seat)
        legal = view.legal_actions()
        if view.phase is Phase.TAKE:
            return self.take_choices(view, legal)
        out = [Choice(f"Discard the {card_words(a.card, view.wild)}", {"type": "discard", "card": face_name(a.card)})
               for a in legal if isinstance(a, Discard)]
        return out + self.declarations(view)

    def take_choices(self, view: PlayerView, legal: Sequence[object]) -> list[Choice]:
        out = []
        if Take("stock") in legal:
            out.append(Choice("Take the top card of the stock", {"type": "take", "from": "stock"}))
        if Take("discard") in legal and view.pile:
            out.append(Choice(f"Take the {card_words(view.pile[-1][0], view.wild)} from the discard pile",
                              {"type": "take", "from": "discard"}))
        cost, which = (view.middle_drop, "middle") if view.has_taken[view.seat] else (view.first_drop, "first")
        out.append(Choice(f"Drop ({which} drop: {cost} points)", {"type": "drop"}))
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
            groups = [list(cards) for _, cards in solution.melds] + [[f] for f in solution.free]
            out.append(Choice(f"Declare, laying the {card_words(finish, view.wild)} face down: a valid declaration",
                              {"type": "declare", "discard": face_name(finish),
                               "melds": [[face_name(f) for f in g] for g in groups]}))
        return out

    def result(self, session: Session) -> list[str]:
        match = _match(session)
        lines = []
        for i, r in enumerate(match.results, 1):
            paid = ", ".join(f"{session.names[s]} {p}" for s, p in enumerate(r.points.points) if p is not None)
            how = " with a valid declaration" if r.points.declared else ""
            lines.append(f"Deal {i}: {session.names[r.points.winner]} won it{how}; points: {paid}.")
        winner = match.winner
        lines.append("The match is over: " + (f"{session.names[winner]} won." if winner is not None else "no winner."))
        return lines


WORDS = RummyWords()
