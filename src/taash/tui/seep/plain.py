"""Seep's words for the plain terminal game (:mod:`taash.tui.plain`): the seat's hand, the floor, the captured
piles and the score, a line each, and its bids or plays, each said with what it brings (the engine's words)."""

from __future__ import annotations

from taash.cards import cards_of
from taash.i18n import N_, _, ngettext
from taash.seep.deal import Phase
from taash.seep.describe import describe_outcome
from taash.seep.game import SeepState
from taash.seep.match import Match
from taash.seep.notation import play_to_json
from taash.seep.view import PlayerView, view_of
from taash.tables.match import TableMatch
from taash.tui.plain import Choice, spoken_card
from taash.tui.seep.help import about_lines

#: A house's value as its name says it (a bid names one too).
HOUSE_WORDS = {9: N_("nine"), 10: N_("ten"), 11: N_("jack"), 12: N_("queen"), 13: N_("king")}


def _match(session: TableMatch) -> Match:
    state = session.state
    assert isinstance(state, SeepState)
    return state.match


def cards_words(mask: int) -> str:
    return ", ".join(spoken_card(c % 13, c // 13) for c in cards_of(mask)) if mask else _("none")


def team_words(session: TableMatch, seat: int, team: int) -> str:
    if _match(session).players == 2:
        return _("you") if team == seat % 2 else session.names[1 - seat]
    return _("your team") if team == seat % 2 else _("the other team")


def floor_lines(session: TableMatch, view: PlayerView) -> list[str]:
    if view.phase is Phase.BID:
        return [_("The floor lies face down until the bid is made.")]
    lines = [_("Loose cards on the floor: {cards}.", cards=cards_words(view.loose))]
    for value in sorted(view.houses):
        cards, cemented, owners = view.houses[value]
        names = ", ".join(session.names[s] for s in range(view.players) if owners >> s & 1)
        line = (_("House of {value} ({name}), cemented, owned by {owners}: {cards}.") if cemented else
                _("House of {value} ({name}), ordinary, owned by {owners}: {cards}."))
        lines.append(line.format(value=value, name=_(HOUSE_WORDS[value]), owners=names, cards=cards_words(cards)))
    return lines


def score_lines(session: TableMatch, seat: int) -> list[str]:
    match = _match(session)
    deal = match.deal
    lines = []
    for team in (0, 1):
        pile = deal.piles[team].bit_count()
        sweeps = sum(1 for s, _seat, _points in deal.sweeps if s % 2 == team)
        lines += captured_lines(session, seat, team, pile, sweeps)
    if match.baazis_to_win:
        lead = match.difference if seat % 2 == 0 else -match.difference
        lines.append(_("Baazis: {ours} to {theirs}, of {goal} to win; your running lead: {lead}.",
                       ours=match.baazis[seat % 2], theirs=match.baazis[1 - seat % 2], goal=match.baazis_to_win,
                       lead=lead))
    return lines


def captured_lines(session: TableMatch, seat: int, team: int, cards: int, sweeps: int) -> list[str]:
    """What a team has captured this deal, said of the person himself, his team, or the others by name."""
    if team != seat % 2:
        who = team_words(session, seat, team)
        return [ngettext("{who} captured {n} card this deal.", "{who} captured {n} cards this deal.", cards, who=who),
                *([ngettext("{who} made {n} sweep this deal.", "{who} made {n} sweeps this deal.", sweeps, who=who)]
                  if sweeps else [])]
    if _match(session).players == 2:
        return [ngettext("You captured {n} card this deal.", "You captured {n} cards this deal.", cards),
                *([ngettext("You made {n} sweep this deal.", "You made {n} sweeps this deal.", sweeps)]
                  if sweeps else [])]
    return [ngettext("Your team captured {n} card this deal.", "Your team captured {n} cards this deal.", cards),
            *([ngettext("Your team made {n} sweep this deal.", "Your team made {n} sweeps this deal.", sweeps)]
              if sweeps else [])]


class SeepWords:
    """:class:`taash.tui.plain.PlainWords` for Seep."""

    def situation(self, session: TableMatch, seat: int) -> list[str]:
        match = _match(session)
        view = view_of(match.deal, seat)
        number, dealer = len(match.past) + 1, session.names[view.dealer]
        opening = (_("Deal {number}: {dealer} dealt; the bid is {bid} ({name}).", number=number, dealer=dealer,
                     bid=view.bid, name=_(HOUSE_WORDS[view.bid])) if view.bid else
                   _("Deal {number}: {dealer} dealt.", number=number, dealer=dealer))
        lines = [opening, _("Your hand: {cards}.", cards=cards_words(view.hand))]
        lines += floor_lines(session, view)
        lines += score_lines(session, seat)
        return lines

    def choices(self, session: TableMatch, seat: int) -> list[Choice]:
        view = view_of(_match(session).deal, seat)
        if view.phase is Phase.BID:
            return [Choice(_("Bid {value} ({name})", value=value, name=_(HOUSE_WORDS[value])),
                           {"type": "bid", "value": value})
                    for value in view.legal_bids()]
        return [Choice(describe_outcome(view, play), {"type": "play", "play": play_to_json(play)})
                for play in view.legal_plays()]

    def help(self, session: TableMatch) -> list[str]:
        """The terminal's help for the match's rules (``?``), as the help screen has it."""
        return about_lines(_match(session).rules)

    def result(self, session: TableMatch) -> list[str]:
        match = _match(session)
        lines = []
        for i, r in enumerate(match.results, 1):
            a, b = r.score.score
            lines.append(_("Deal {number}: {a} to {b}.", number=i, a=a, b=b) if r.baazi is None else
                         _("Deal {number}: {a} to {b}, a baazi to {who}.", number=i, a=a, b=b,
                           who=team_words(session, 0, r.baazi)))
        winner = match.winner()
        lines.append(_("The match is over: a draw.") if winner is None else
                     _("The match is over: {who} won.", who=team_words(session, 0, winner)))
        return lines


WORDS = SeepWords()
