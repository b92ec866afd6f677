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
from taash.seep.deal import Phase
from taash.seep.describe import HOUSE_NAMES, card_points_notes, describe_outcome, no_play_reason
from taash.seep.plays import Play
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
    teams = ("Us", "Them") if us == 0 else ("Them", "Us")
    seats = [s.who(seat) for seat in range(s.players)]
    b = s.match.baazis
    caption = (f"Baazis: Us {b[us]}, Them {b[1 - us]} (first to {s.baazis} wins)" if s.baazis
               else "A single deal: the higher deal score wins")
    table = score_sheet(s.match, teams, seats, caption)
    if ascii_only:
        table.box = box.ASCII2
    parts: list[RenderableType] = [table]
    if s.over:
        winner = s.match.winner()
        what = "match" if s.baazis else "deal"
        verdict = "A draw." if winner is None else (f"You win the {what}!" if winner == us else f"They win the {what}.")
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
    BINDINGS: ClassVar[list[BindingType]] = MatchShell.keys("play", 9, "←→")

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
        rules_text = f"{rules} rules" if isinstance(rules, str) else f"custom {rules['preset']} rules"
        target = f"first to {s.baazis} baazi{'s' * (s.baazis != 1)}" if s.baazis else "a single deal"
        if self.narrow:
            return f" Deal {s.deal_number} · {rules_text.removesuffix(' rules')} · {s.level} bots · {target}"
        return f" Seep · {rules_text} · {s.level} bots · {target} · deal {s.deal_number}"

    def score_text(self) -> str:
        s, view = self.session, self.session.view()
        us = s.human % 2
        if s.baazis:
            lead = s.match.difference if us == 0 else -s.match.difference
            lead_text = "level" if lead == 0 else (f"Us +{lead}" if lead > 0 else f"Them +{-lead}")
            text = (f" Baazis Us {s.match.baazis[us]} : {s.match.baazis[1 - us]} Them · lead {lead_text} "
                    f"(a baazi at {s.rules.baazi_lead})")
            if self.narrow:
                text = (f" Baazis Us {s.match.baazis[us]}:{s.match.baazis[1 - us]} Them · lead {lead_text}"
                        f"/{s.rules.baazi_lead}")
        else:
            text = " Single deal: the higher deal score wins"
        if view.bid:
            text += f" · bid {view.bid} by {self.who(s.deal.bidder)}"
        return text

    def seats_text(self) -> str:
        s, view = self.session, self.session.view()
        mark = ">" if self.ascii_only else "▶"
        seats = []
        for seat in range(s.players):
            name = escape(s.name(seat))
            turn = f"[reverse]{mark}{name}[/]" if view.to_move == seat and view.phase is not Phase.OVER else name
            marks = [m for m, here in (("partner", seat == s.partner()), ("dealer", seat == view.dealer)) if here]
            shown = f" ({', '.join(marks)})" if marks else ""
            seats.append(f"{turn}{shown} {view.hand_sizes[seat]}")
        text = (" Hands: " if self.narrow else " In hand: ") + " | ".join(seats)
        to_come = DEALT_CARDS - view.plays_made - sum(view.hand_sizes)
        if view.phase is Phase.PLAY and to_come > 0:
            text += f" · {to_come} to come" if self.narrow else f" · {to_come} cards to come"
        return text

    def redraw(self) -> None:
        s, view = self.session, self.session.view()
        self.part("#status", Static).update(self.line(self.status_text()))
        self.part("#score", Static).update(self.line(self.score_text()))
        self.part("#seats", Static).update(self.line(self.seats_text()))

        if view.phase is Phase.BID:
            bidder = "you bid" if s.deal.bidder == s.human else f"{self.who(s.deal.bidder)} bids"
            floor = [f"[b]Floor[/]  4 cards face down until {bidder}"]
        else:
            floor = floor_lines(view.loose, view.houses, self.who, s.players, self.ascii_only)
        self.part("#floor", Static).update(self.line("\n".join(floor)))

        us = s.human % 2
        piles = view.captured()
        sweep_points, sweeps = [0, 0], [0, 0]
        for seat, _, points in view.sweeps:
            sweep_points[seat % 2] += points
            sweeps[seat % 2] += 1
        self.part("#piles", Static).update(self.line(" Captured: " + " | ".join(
            pile_line(s.team_name(t), s.rules, piles[t], sweep_points[t], sweeps[t]) for t in (us, 1 - us))))

        self.part("#log", LogLines).show([(plain(e.text, self.ascii_only), "bold yellow" if e.sweep else "")
                                          for e in self.session.log])

        cards = self.hand_cards()
        self.cursor = max(0, min(self.cursor, len(cards) - 1))
        choosing = s.humans_turn() and view.phase is Phase.PLAY
        shown = []
        for i, c in enumerate(cards):
            text = card_markup(c, self.ascii_only)
            shown.append(f"[reverse]{text}[/]" if i == self.cursor and choosing else text)
        self.part("#hand", Static).update(self.line(" [b]Your hand[/]  " + " ".join(shown)))
        self.part("#message", Static).update(Text(" " + plain(self.message or self.guide(), self.ascii_only)))
        self.fill_options()

    def guide(self) -> str:
        """What to do now, when there is no other message."""
        s = self.session
        arrows = ("Left/Right", "Up/Down") if self.ascii_only else ("←→", "↑↓")
        if not s.humans_turn():
            return ""
        if s.view().phase is Phase.BID:
            return f"Your bid on your first four cards: {arrows[1]} and Enter, or its number"
        if self.narrow:
            return f"{arrows[0]} a card, {arrows[1]} a play, Enter or its number"
        return f"{arrows[0]} choose a card, {arrows[1]} what to do with it, Enter or number plays it"

    def fill_options(self) -> None:
        s, view = self.session, self.session.view()
        options = self.part("#options", OptionList)
        options.clear_options()
        self.choices = []
        if view.phase is Phase.OVER:
            options.add_option(Option("The deal is over", disabled=True))
            return
        if not s.humans_turn():
            waiting = f"{s.who(view.to_move)} is thinking…" if self.thinking == view.to_move else \
                f"Waiting for {s.who(view.to_move)}…"
            options.add_option(Option(plain(waiting, self.ascii_only), disabled=True))
            return
        if view.phase is Phase.BID:
            for n, v in enumerate(view.legal_bids(), 1):
                held = " ".join(card_symbol(c, self.ascii_only) for c in cards_of(view.hand) if c % 13 + 1 == v)
                options.add_option(Option(f"{n}. Bid {v} ({HOUSE_NAMES[v]}): you hold {held}"))
                self.choices.append(v)
            options.highlighted = 0
            return
        cards = self.hand_cards()
        card = cards[self.cursor]
        plays = [p for p in view.legal_plays() if p[1] == card]
        if not plays:
            reason = no_play_reason(view, card, self.ascii_only) or "no legal play"
            options.add_option(Option(f"No play with {card_symbol(card, self.ascii_only)}: {reason}", disabled=True))
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
        lines = [f"[b]Deal {s.deal_number} is over[/]: Us {score[us]}, Them {score[1 - us]} (card points "
                 f"{card[us]}:{card[1 - us]}, sweeps {sweep[us]}:{sweep[1 - us]})"]
        lines.extend("  " + note for note in card_points_notes(s.rules, r.score, (s.team_name(0), s.team_name(1))))
        last = [e.text for e in s.log if not e.text.startswith("Deal over")][-4:]
        lines.extend(escape(plain("  " + text, self.ascii_only)) for text in last)
        head = Text.from_markup("\n".join(lines))
        done = "Enter: leave (the record is saved)" if s.over else "Enter: the next deal · q: save and quit"
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
        self.message = f"Hint: {reason}"
        self.redraw()
        if choice in self.choices:
            self.part("#options", OptionList).highlighted = self.choices.index(choice)
