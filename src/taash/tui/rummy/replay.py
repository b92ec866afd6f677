"""``taash replay FILE`` for a 13-card Rummy record: deal by deal, turn by turn, every hand shown (the match is
over or given away: nothing is hidden), with the discard pile's top, the stock, the wild joker, each turn in words,
and the match's totals before the deal and after it. Every line is said in the language spoken (``taash replay
--lang``)."""

from __future__ import annotations

from typing import ClassVar

from rich.markup import escape
from rich.text import Text
from textual.binding import BindingType
from textual.widgets import Static

from taash.i18n import N_, _
from taash.packs import JOKER, face_symbol, rank_name
from taash.rummy.deal import Deal, Status
from taash.rummy.match import DealResult
from taash.rummy.record import GameRecord, positions, replay
from taash.tui.rummy.text import NAME_WIDTH, card_markup, short_name
from taash.tui.shell import ReplayShell, Step
from taash.tui.widgets import plain


def said(deal: Deal, names: list[str], ascii_only: bool) -> str:
    """The last turn of ``deal`` (after it) in words, and the end of the deal when it ended it."""
    t = deal.turns[-1]
    name, lost = names[t.seat], deal.points.get(t.seat, 0)

    def card(face: int | None) -> str:
        return face_symbol(face, ascii_only) if face is not None else "?"

    if t.drop:
        text = _("{name} drops ({points} points)", name=name, points=lost)
    else:
        text = (_("{name} takes {card} from the stock", name=name, card=card(t.drawn)) if t.take == "stock" else
                _("{name} takes {card} from the discard pile", name=name, card=card(t.drawn)))
        if t.reshuffled:
            text = _("The discard pile is shuffled into a new stock; {said}", said=text)
        if t.declare is not None:
            finish = card(t.declare[0])
            text = (_("{said} and declares, laying {card} face down: a valid declaration", said=text, card=finish)
                    if deal.status[t.seat] is Status.DECLARED else
                    _("{said} and declares, laying {card} face down: a wrong declaration ({points} points)",
                      said=text, card=finish, points=lost))
        elif t.discard is not None:
            text = _("{said} and discards {card}", said=text, card=card(t.discard))
        if t.timeout:
            text = _("{said} (the turn timed out)", said=text)
        if t.timed_out_drop:
            text = _("{said}; timed out too often: dropped ({points} points)", said=text, points=lost)
    if deal.over and deal.winner is not None:
        winner = names[deal.winner]
        text = (_("{said}. The deal is over: {name} wins with a valid declaration", said=text, name=winner)
                if deal.declared else
                _("{said}. The deal is over: {name} wins as the last player left", said=text, name=winner))
    return text


def wild_text(deal: Deal, ascii_only: bool) -> str:
    if deal.wild_card == JOKER:
        return _("JK: every ace is a joker")
    return _("{card}: every {rank} is a joker", card=face_symbol(deal.wild_card, ascii_only), rank=rank_name(deal.wild))


class Timeline:
    """Every position of every deal of a checked Rummy record."""

    def __init__(self, record: GameRecord, ascii_only: bool = False):
        self.record = record
        checked = replay(record)  # refuses a record that breaks the rules, naming the deal and turn
        #: Each finished deal's result (its points, the totals after it, who went out).
        self.results: list[DealResult] = checked.results
        #: The match's winner, once it is over.
        self.winner = checked.tally.winner
        names = record.names or [_("Seat {seat}", seat=i) for i in range(record.players)]
        self.names = [short_name(n) for n in names]
        self.deals: list[list[Step[Deal]]] = []
        for i, j, deal in positions(record):
            if j == 0:
                open_card = face_symbol(deal.pile[-1][0], ascii_only)
                self.deals.append([Step(deal, _("Deal {number}: {dealer} deals; the open card is {card}; wild joker "
                                                "{wild}", number=i + 1, dealer=self.names[deal.dealer],
                                                card=open_card, wild=wild_text(deal, ascii_only)))])
            else:
                self.deals[-1].append(Step(deal, said(deal, self.names, ascii_only)))


class RummyReplayApp(ReplayShell[Timeline]):
    """Forwards and backwards through a Rummy record: ←/→ a turn, ↑/↓ a deal, Home/End the ends of a deal."""

    PARTS = ("where", "table", "said", "hands", "match")
    CSS = ReplayShell.REPLAY_CSS + """
    #table { background: $surface; }
    """
    BINDINGS: ClassVar[list[BindingType]] = ReplayShell.bindings(N_("turn"))

    def redraw(self) -> None:
        t = self.timeline
        steps = t.deals[self.deal_index]
        deal = steps[self.step_index].deal
        names = [escape(n) for n in t.names]
        record = t.record
        rules = record.rules.to_json()
        where = dict(title=escape(self.title_text), rules=rules if isinstance(rules, str) else _("custom"),
                     format=record.format.name, deal=self.deal_index + 1, deals=len(t.deals), turn=self.step_index,
                     turns=len(steps) - 1)
        self.part("#where", Static).update(self.line(" " + (
            _("{title} · {rules} · {format} · deal {deal}/{deals} · turn {turn}/{turns}", **where)
            if steps[-1].deal.over else
            _("{title} · {rules} · {format} · deal {deal}/{deals} · turn {turn}/{turns} (unfinished)", **where))))
        top = (card_markup(deal.pile[-1][0], deal.wild, self.ascii_only) if deal.pile
               else "[dim]" + _("empty") + "[/]")
        self.part("#table", Static).update(self.line(
            " [b]" + _("Discard") + "[/] " + top + " · [b]" + _("Stock") + f"[/] {deal.stock_size} · [b]"
            + _("Wild joker") + "[/] " + wild_text(deal, self.ascii_only)))
        self.part("#said", Static).update(Text(" " + plain(steps[self.step_index].said, self.ascii_only)))
        self.part("#hands", Static).update(self.line("\n".join(self.hand_line(deal, seat, names[seat])
                                                      for seat in range(record.players))))
        self.part("#match", Static).update(self.line(self.match_text(deal.over)))

    def hand_line(self, deal: Deal, seat: int, name: str) -> str:
        """A seat's hand, by suit, or how it left the deal (a declarer's shown groups)."""
        turn = ">" if deal.to_move == seat and not deal.over and seat in deal.status else " "
        label = f"{turn} [b]{name:<{NAME_WIDTH}}[/]{'(d)' if seat == deal.dealer else '   '}"
        if seat not in deal.status:
            return f"{label} [dim]" + _("not dealt in") + "[/]"
        status = deal.status[seat]

        def cards(faces: list[int] | tuple[int, ...]) -> str:
            return " ".join(card_markup(f, deal.wild, self.ascii_only)
                            for f in sorted(faces, key=lambda f: (f // 13, f % 13)))

        if status is Status.DROPPED:
            return f"{label} [dim]" + _("dropped ({points} points)", points=deal.points.get(seat, 0)) + "[/]"
        if seat in deal.shown:
            groups = " | ".join(cards(g) for g in deal.shown[seat])
            word = (_("declared") if status is Status.DECLARED
                    else _("wrong ({points})", points=deal.points.get(seat, 0)))
            return f"{label} {word}: {groups}"
        over = deal.over and seat in deal.points
        points = " [dim]" + _("({points} points)", points=deal.points[seat]) + "[/]" if over else ""
        return f"{label} {cards(deal.hands[seat])}{points}"

    def match_text(self, over: bool) -> str:
        """The totals before this deal, and after it once it is over (who went out of a pool)."""
        t = self.timeline
        players = t.record.players
        before = t.results[self.deal_index - 1].totals if self.deal_index else (0,) * players
        names = [escape(n) for n in t.names]
        text = " [b]" + _("Totals") + "[/] " + _("before this deal: {totals}", totals=", ".join(
            f"{names[s]} {before[s]}" for s in range(players)))
        if over and self.deal_index < len(t.results):
            r = t.results[self.deal_index]
            after = ", ".join(f"{names[s]} {r.totals[s]}" for s in range(players))
            if r.eliminated:
                after = _("{totals}; out of the pool: {names}", totals=after,
                          names=", ".join(names[s] for s in r.eliminated))
            text += "\n [b]" + _("After it") + "[/]: " + after
            if self.deal_index == len(t.results) - 1 and t.winner is not None:
                text += "\n [b]" + _("{name} wins the match", name=names[t.winner]) + "[/]"
        return text
