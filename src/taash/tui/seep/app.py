"""``taash play``: a whole match of Seep against bots in the terminal (Textual).

Keys: ←/→ choose a card, ↑/↓ choose what to do with it, Enter (or its number) plays it; h hint, u undo,
s save, q save and quit. Everything shown comes from the person's own view of the deal and the public log.
The screen is laid out for an 80x24 terminal (:data:`FULL_SIZE`): every line is built to fit 80 columns, and the
log keeps its newest lines in sight however long the plays are. A smaller terminal, down to :data:`MIN_SIZE`, gets
the same lines wrapped to its width and a shorter log (the log gives way first, down to one line); a terminal
smaller still is asked to grow, and the game comes back as soon as it has.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.text import Text
from textual.binding import BindingType
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from taash.cards import card_symbol, cards_of
from taash.cli.seep_sheets import score_sheet
from taash.i18n import N_, _, ngettext, pgettext
from taash.seep.deal import Phase
from taash.seep.describe import card_points_notes, describe_outcome, house_word, no_play_reason
from taash.seep.plays import Play
from taash.seep.rules import preset_name
from taash.tui.seep.help import help_lines
from taash.tui.seep.persons_match import PersonsMatch
from taash.tui.seep.render import card_markup, floor_lines, pile_line
from taash.tui.shell import LogLines, MatchShell
from taash.tui.widgets import FULL_SIZE, plain

#: Cards that make up a deal: the pack less the four first floor cards (the stock is what is not yet dealt).
DEALT_CARDS = 48


def match_summary(session: PersonsMatch, ascii_only: bool = False) -> Group:
    """The score sheet of the match so far (every deal, the running lead and the baazis), and how it stands."""
    s = session
    us = s.human % 2
    teams = (_("Us"), _("Them")) if us == 0 else (_("Them"), _("Us"))
    seats = [s.who(seat) for seat in range(s.players)]
    b = s.match.baazis
    caption = (_("Baazis: Us {us}, Them {them} (first to {n} wins)", us=b[us], them=b[1 - us], n=s.baazis)
               if s.baazis else _("A single deal: the higher deal score wins"))
    table = score_sheet(s.match, teams, seats, caption)
    if ascii_only:
        table.box = box.ASCII2
    parts: list[RenderableType] = [table]
    if s.over:
        winner = s.match.winner()
        if winner is None:
            verdict = _("A draw.")
        elif s.baazis:
            verdict = _("You win the match!") if winner == us else _("They win the match.")
        else:
            verdict = _("You win the deal!") if winner == us else _("They win the deal.")
        parts.append(Text(verdict, style="bold"))
    return Group(*parts)


class SeepApp(MatchShell):
    """A match of one person against bots."""

    TITLE = "taash: Seep"
    TOP_PARTS = ("status", "score", "seats", "floor", "piles")
    CSS = MatchShell.MATCH_CSS + """
    #score { height: auto; background: $primary-background; }
    #seats { height: auto; }
    #floor { height: auto; background: $surface; }
    #piles { height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = MatchShell.keys(N_("play"), 9, "←→")

    def __init__(self, session: PersonsMatch, save_path: Path, delay: float = 0.5) -> None:
        super().__init__(save_path, delay, session.ascii_only)
        self.session = session
        self.choices: list[Play | int | None] = []

    # -- layout -----------------------------------------------------------------------------------------------

    @property
    def narrow(self) -> bool:
        """Narrower than the screen is made for: shorter words where there are shorter ones."""
        return self.size.width < FULL_SIZE[0]

    # -- drawing ----------------------------------------------------------------------------------------------

    def hand_cards(self) -> list[int]:
        return cards_of(self.session.view().hand)

    def who(self, seat: int) -> str:
        """A seat's name, safe inside Rich markup."""
        return escape(self.session.who(seat))

    def status_text(self) -> str:
        s = self.session
        rules = s.rules.to_json()
        preset = (preset_name(rules) if isinstance(rules, str) else
                  _("custom {preset}", preset=preset_name(rules["preset"])))
        target = (ngettext("first to {n} baazi", "first to {n} baazis", s.baazis) if s.baazis else
                  _("a single deal"))
        if self.narrow:
            return " " + _("Deal {number} · {rules} · {level} bots · {target}", number=s.deal_number, rules=preset,
                           level=_(s.level), target=target)
        return " " + _("Seep · {rules} rules · {level} bots · {target} · deal {number}", rules=preset, level=_(s.level),
                       target=target, number=s.deal_number)

    def score_text(self) -> str:
        s, view = self.session, self.session.view()
        us = s.human % 2
        if s.baazis:
            lead = s.match.difference if us == 0 else -s.match.difference
            lead_text = (pgettext("lead", "level") if lead == 0 else
                         _("Us +{lead}", lead=lead) if lead > 0 else _("Them +{lead}", lead=-lead))
            ours, theirs = s.match.baazis[us], s.match.baazis[1 - us]
            text = " " + (_("Baazis Us {us}:{them} Them · lead {lead}/{at}", us=ours, them=theirs, lead=lead_text,
                            at=s.rules.baazi_lead) if self.narrow else
                          _("Baazis Us {us} : {them} Them · lead {lead} (a baazi at {at})", us=ours, them=theirs,
                            lead=lead_text, at=s.rules.baazi_lead))
        else:
            text = " " + _("Single deal: the higher deal score wins")
        if view.bid:
            text += " · " + _("bid {bid} by {name}", bid=view.bid, name=self.who(s.deal.bidder))
        return text

    def seats_text(self) -> str:
        s, view = self.session, self.session.view()
        mark = ">" if self.ascii_only else "▶"
        seats = []
        for seat in range(s.players):
            name = escape(s.name(seat))
            turn = f"[reverse]{mark}{name}[/]" if view.to_move == seat and view.phase is not Phase.OVER else name
            marks = [m for m, here in ((_("partner"), seat == s.partner()), (_("dealer"), seat == view.dealer))
                     if here]
            shown = f" ({', '.join(marks)})" if marks else ""
            seats.append(f"{turn}{shown} {view.hand_sizes[seat]}")
        listed = " | ".join(seats)
        text = " " + (_("Hands: {seats}", seats=listed) if self.narrow else _("In hand: {seats}", seats=listed))
        to_come = DEALT_CARDS - view.plays_made - sum(view.hand_sizes)
        if view.phase is Phase.PLAY and to_come > 0:
            text += " · " + (_("{n} to come", n=to_come) if self.narrow else
                             ngettext("{n} card to come", "{n} cards to come", to_come))
        return text

    def redraw(self) -> None:
        s, view = self.session, self.session.view()
        self.part("#status", Static).update(self.line(self.status_text()))
        self.part("#score", Static).update(self.line(self.score_text()))
        self.part("#seats", Static).update(self.line(self.seats_text()))

        if view.phase is Phase.BID:
            waiting = (_("4 cards face down until you bid") if s.deal.bidder == s.human else
                       _("4 cards face down until {name} bids", name=self.who(s.deal.bidder)))
            floor = ["[b]" + _("Floor") + "[/]  " + waiting]
        else:
            floor = floor_lines(view.loose, view.houses, self.who, s.players, self.ascii_only)
        self.part("#floor", Static).update(self.line("\n".join(floor)))

        us = s.human % 2
        piles = view.captured()
        sweep_points, sweeps = [0, 0], [0, 0]
        for seat, _card, points in view.sweeps:
            sweep_points[seat % 2] += points
            sweeps[seat % 2] += 1
        self.part("#piles", Static).update(self.line(" " + _("Captured: {piles}", piles=" | ".join(
            pile_line(s.team_name(t), s.rules, piles[t], sweep_points[t], sweeps[t]) for t in (us, 1 - us)))))

        self.part("#log", LogLines).show([(plain(e.text, self.ascii_only), "bold yellow" if e.sweep else "")
                                          for e in self.session.log])

        cards = self.hand_cards()
        self.cursor = max(0, min(self.cursor, len(cards) - 1))
        choosing = s.humans_turn() and view.phase is Phase.PLAY
        shown = []
        for i, c in enumerate(cards):
            text = card_markup(c, self.ascii_only)
            shown.append(f"[reverse]{text}[/]" if i == self.cursor and choosing else text)
        self.part("#hand", Static).update(self.line(" [b]" + _("Your hand") + "[/]  " + " ".join(shown)))
        self.part("#message", Static).update(Text(" " + plain(self.message or self.guide(), self.ascii_only)))
        self.fill_options()

    def guide(self) -> str:
        """What to do now, when there is no other message."""
        s = self.session
        cards, plays = ("Left/Right", "Up/Down") if self.ascii_only else ("←→", "↑↓")
        if not s.humans_turn():
            return ""
        if s.view().phase is Phase.BID:
            return _("Your bid on your first four cards: {keys} and Enter, or its number", keys=plays)
        if self.narrow:
            return _("{cards} a card, {plays} a play, Enter or its number", cards=cards, plays=plays)
        return _("{cards} choose a card, {plays} what to do with it, Enter or number plays it", cards=cards,
                 plays=plays)

    def fill_options(self) -> None:
        s, view = self.session, self.session.view()
        options = self.part("#options", OptionList)
        options.clear_options()
        self.choices = []
        if view.phase is Phase.OVER:
            options.add_option(Option(_("The deal is over"), disabled=True))
            return
        if not s.humans_turn():
            waiting = (_("{name} is thinking…", name=s.who(view.to_move)) if self.thinking == view.to_move else
                       _("Waiting for {name}…", name=s.who(view.to_move)))
            options.add_option(Option(plain(waiting, self.ascii_only), disabled=True))
            return
        if view.phase is Phase.BID:
            for n, v in enumerate(view.legal_bids(), 1):
                held = " ".join(card_symbol(c, self.ascii_only) for c in cards_of(view.hand) if c % 13 + 1 == v)
                options.add_option(Option(f"{n}. " + _("Bid {bid} ({house}): you hold {cards}", bid=v,
                                                          house=house_word(v), cards=held)))
                self.choices.append(v)
            options.highlighted = 0
            return
        cards = self.hand_cards()
        card = cards[self.cursor]
        plays = [p for p in view.legal_plays() if p[1] == card]
        if not plays:
            reason = no_play_reason(view, card, self.ascii_only) or _("no legal play")
            options.add_option(Option(_("No play with {card}: {why}", card=card_symbol(card, self.ascii_only),
                                        why=reason), disabled=True))
            return
        for n, p in enumerate(plays, 1):
            options.add_option(Option(f"{n}. {describe_outcome(view, p, self.ascii_only)}"))
            self.choices.append(p)
        options.highlighted = 0

    # -- the flow of the game ---------------------------------------------------------------------------------

    def sheet_due(self) -> bool:
        return self.session.deal_over

    def bots_turn(self) -> bool:
        return self.session.bots_turn()

    def match_over(self) -> bool:
        return self.session.over

    def bot_move(self, generation: int) -> None:
        """A quick bot plays at once; the search bot thinks on a thread (:meth:`MatchShell.bot_move`)."""
        if generation == self._generation and self.session.bots_turn() and not self.session.bots_think:
            self.session.bot_step()
            self.redraw()
            self.after_move()
            return
        super().bot_move(generation)

    def bot_seat(self) -> int:
        return self.session.deal.to_move

    def bot_thinks(self) -> Callable[[], int | Play]:
        return self.session.bot_task()[1]

    def bot_moves(self, seat: int, decision: int | Play) -> None:
        self.session.bot_move(seat, decision)

    def help_text(self) -> Text:
        return self.line("\n".join(help_lines(self.session.match.rules, self.ascii_only)))

    def sheet_parts(self) -> tuple[Text, Group, Text]:
        """The score sheet's heading (the deal's result and its last plays), its table, and what Enter does."""
        s = self.session
        us = s.human % 2
        r = s.results()[-1]
        card, sweep, score = r.score.card_points, r.score.sweep_points, r.score.score
        lines = ["[b]" + _("Deal {number} is over", number=s.deal_number) + "[/]: " + _(
            "Us {us}, Them {them} (card points {us_cards}:{them_cards}, sweeps {us_sweeps}:{them_sweeps})",
            us=score[us], them=score[1 - us], us_cards=card[us], them_cards=card[1 - us], us_sweeps=sweep[us],
            them_sweeps=sweep[1 - us])]
        lines.extend("  " + note for note in card_points_notes(s.rules, r.score, (s.team_name(0), s.team_name(1))))
        last = [e.text for e in s.log if not e.deal_over][-4:]
        lines.extend(escape(plain("  " + text, self.ascii_only)) for text in last)
        head = Text.from_markup("\n".join(lines))
        done = _("Enter: leave (the record is saved)") if s.over else _("Enter: the next deal · q: save and quit")
        return head, match_summary(s, self.ascii_only), Text(plain(done, self.ascii_only), style="bold")

    def next_deal(self) -> None:
        self.session.next_deal()

    def undone(self) -> bool:
        return self.session.undo()

    def save_quietly(self) -> None:
        self.session.save(self.save_path)

    def make_choice(self, index: int) -> None:
        s = self.session
        if not s.humans_turn() or not 0 <= index < len(self.choices):
            return
        choice = self.choices[index]
        if choice is None:
            return
        self.message = ""
        if isinstance(choice, int):
            s.bid(choice)
        else:
            s.play(choice)
        self.redraw()
        self.after_move()

    # -- key actions ------------------------------------------------------------------------------------------

    def action_card(self, step: int) -> None:
        if self.session.humans_turn() and self.session.view().phase is Phase.PLAY:
            n = len(self.hand_cards())
            self.cursor = (self.cursor + step) % n if n else 0
            self.redraw()

    def humans_turn(self) -> bool:
        return self.session.humans_turn()

    def hint(self) -> None:
        s = self.session
        choice, reason = s.hint()
        if isinstance(choice, tuple):
            self.cursor = self.hand_cards().index(choice[1])
        self.message = _("Hint: {reason}", reason=reason)
        self.redraw()
        if choice in self.choices:
            self.part("#options", OptionList).highlighted = self.choices.index(choice)
