"""Seep's words for the plain terminal game (:mod:`taash.tui.plain`): the seat's hand, the floor, the captured
piles and the score, a line each, and its bids or plays, each said with what it brings (the engine's words)."""

from __future__ import annotations

from taash.cards import cards_of
from taash.seep.deal import Phase
from taash.seep.describe import HOUSE_NAMES, describe_outcome, plural
from taash.seep.game import SeepState
from taash.seep.match import Match
from taash.seep.notation import play_to_json
from taash.seep.view import PlayerView, view_of
from taash.tables.session import Session
from taash.tui.plain import Choice, spoken_card


def _match(session: Session) -> Match:
    state = session.state
    assert isinstance(state, SeepState)
    return state.match


def cards_words(mask: int) -> str:
    return ", ".join(spoken_card(c % 13, c // 13) for c in cards_of(mask)) if mask else "none"


def team_words(session: Session, seat: int, team: int) -> str:
    if _match(session).players == 2:
        return "you" if team == seat % 2 else session.names[1 - seat]
    return "your team" if team == seat % 2 else "the other team"


def floor_lines(session: Session, view: PlayerView) -> list[str]:
    if view.phase is Phase.BID:
        return ["The floor lies face down until the bid is made."]
    lines = [f"Loose cards on the floor: {cards_words(view.loose)}."]
    for value in sorted(view.houses):
        cards, cemented, owners = view.houses[value]
        names = " and ".join(session.names[s] for s in range(view.players) if owners >> s & 1)
        lines.append(f"{HOUSE_NAMES[value].capitalize()} house ({value}), {'cemented' if cemented else 'ordinary'}, "
                     f"owned by {names}: {cards_words(cards)}.")
    return lines


def score_lines(session: Session, seat: int) -> list[str]:
    match = _match(session)
    deal = match.deal
    lines = []
    for team in (0, 1):
        pile = deal.piles[team]
        sweeps = sum(1 for s, _, _ in deal.sweeps if s % 2 == team)
        lines.append(f"Captured by {team_words(session, seat, team)} this deal: {plural(pile.bit_count(), 'card')}"
                     + (f", {plural(sweeps, 'sweep')}" if sweeps else "") + ".")
    if match.baazis_to_win:
        ours, theirs = match.baazis[seat % 2], match.baazis[1 - seat % 2]
        lines.append(f"Baazis: {ours} to {theirs}, of {match.baazis_to_win} to win; running lead "
                     f"{match.difference if seat % 2 == 0 else -match.difference}.")
    return lines


class SeepWords:
    """:class:`taash.tui.plain.PlainWords` for Seep."""

    def situation(self, session: Session, seat: int) -> list[str]:
        match = _match(session)
        view = view_of(match.deal, seat)
        bid = f"; the bid is {view.bid} ({HOUSE_NAMES[view.bid]})" if view.bid else ""
        lines = [f"Deal {len(match.past) + 1}: {session.names[view.dealer]} dealt{bid}.",
                 f"Your hand: {cards_words(view.hand)}."]
        lines += floor_lines(session, view)
        lines += score_lines(session, seat)
        return lines

    def choices(self, session: Session, seat: int) -> list[Choice]:
        view = view_of(_match(session).deal, seat)
        if view.phase is Phase.BID:
            return [Choice(f"Bid {value} ({HOUSE_NAMES[value]})", {"type": "bid", "value": value})
                    for value in view.legal_bids()]
        return [Choice(describe_outcome(view, play), {"type": "play", "play": play_to_json(play)})
                for play in view.legal_plays()]

    def result(self, session: Session) -> list[str]:
        match = _match(session)
        lines = []
        for i, r in enumerate(match.results, 1):
            a, b = r.score.score
            lines.append(f"Deal {i}: {a} to {b}" + (f", a baazi to team {r.baazi + 1}" if r.baazi is not None
                                                     else "") + ".")
        winner = match.winner()
        if winner is None:
            lines.append("The match is over: a draw.")
        else:
            lines.append(f"The match is over: {team_words(session, 0, winner)} won.")
        return lines


WORDS = SeepWords()
