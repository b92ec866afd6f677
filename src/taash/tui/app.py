"""``taash play``: a whole match of Seep against bots in the terminal (Textual).

Keys: ←/→ choose a card, ↑/↓ choose what to do with it, Enter (or its number) plays it; h hint, u undo,
s save, q save and quit. Everything shown comes from the person's own view of the deal and the public log.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.console import Group
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from taash.cards import card_symbol, cards_of
from taash.cli.sheets import score_sheet
from taash.play.session import Session
from taash.seep.deal import Phase
from taash.seep.describe import HOUSE_NAMES, describe_outcome, no_play_reason
from taash.seep.plays import Play
from taash.tui.render import card_markup, floor_lines, pile_line

LOG_LINES = 5


class SheetScreen(ModalScreen[None]):
    """The score sheet after a deal, or the match summary at the end."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", "Continue"),
        Binding("escape", "close", "Continue", show=False),
        Binding("space", "close", "Continue", show=False),
    ]
    DEFAULT_CSS = """
    SheetScreen { align: center middle; background: $background; }
    SheetScreen > Static { width: 78; height: auto; max-height: 22; background: $panel; padding: 0 1; }
    """

    def __init__(self, body: Group) -> None:
        super().__init__()
        self.body = body

    def compose(self) -> ComposeResult:
        yield Static(self.body, id="sheet")

    def action_close(self) -> None:
        self.dismiss(None)


class SeepApp(App[str]):
    """A match of one person against bots."""

    TITLE = "taash: Seep"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $primary-background; }
    #seats { height: 1; }
    #floor { height: auto; max-height: 7; background: $surface; }
    #piles { height: 1; }
    #log { height: 5; color: $text-muted; }
    #hand { height: 1; background: $surface; }
    #message { height: 1; color: $warning; }
    #options { height: 1fr; min-height: 3; border: none; padding: 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "card(-1)", "card", priority=True, key_display="←→"),
        Binding("right", "card(1)", "card", show=False, priority=True),
        Binding("enter", "choose", "play", key_display="⏎ 1-9"),
        Binding("h", "hint", "hint"),
        Binding("u", "undo", "undo"),
        Binding("s", "save", "save"),
        Binding("q", "quit_match", "save & quit"),
        *(Binding(str(i), f"pick({i})", show=False) for i in range(1, 10)),
    ]

    def __init__(self, session: Session, save_path: Path, delay: float = 0.5) -> None:
        super().__init__()
        self.session = session
        self.save_path = save_path
        self.delay = delay
        self.ascii_only = session.ascii_only
        self.cursor = 0
        self.choices: list[Play | int | None] = []
        arrows = ("Left/Right", "Up/Down") if self.ascii_only else ("←→", "↑↓")
        self.message = f"{arrows[0]} choose a card, {arrows[1]} what to do with it, Enter or its number plays it"
        self._generation = 0  # bumped on undo and resume, so a pending bot move is dropped
        self._sheet_open = False

    # -- layout -----------------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="seats")
        yield Static(id="floor")
        yield Static(id="piles")
        yield Static(id="log")
        yield Static(id="hand")
        yield Static(id="message")
        yield OptionList(id="options")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self.redraw()
        self.after_move()

    # -- drawing ----------------------------------------------------------------------------------------------

    def hand_cards(self) -> list[int]:
        return cards_of(self.session.view().hand)

    def redraw(self) -> None:
        s, view = self.session, self.session.view()
        rules_name = s.rules.to_json()
        rules_text = rules_name if isinstance(rules_name, str) else "custom rules"
        us, them = s.human % 2, 1 - s.human % 2
        lead = s.match.difference if us == 0 else -s.match.difference
        lead_text = "level" if lead == 0 else (f"Us +{lead}" if lead > 0 else f"Them +{-lead}")
        target = f"first to {s.baazis}" if s.baazis else "single deal"
        self.query_one("#status", Static).update(
            f" Seep ({rules_text}, {s.level}) · deal {s.deal_number} · baazis Us {s.match.baazis[us]}:"
            f"{s.match.baazis[them]} Them ({target}) · lead {lead_text}")

        seats = []
        for seat in range(s.players):
            name = s.who(seat)
            mark = "▶" if not self.ascii_only else ">"
            turn = f"[reverse]{mark}{name}[/]" if view.to_move == seat and view.phase is not Phase.OVER else name
            dealer = " (dealer)" if seat == view.dealer else ""
            seats.append(f"{turn}{dealer} {view.hand_sizes[seat]}")
        bid = f" · bid {view.bid} by {s.who(s.deal.bidder)}" if view.bid else ""
        self.query_one("#seats", Static).update(" Cards: " + " | ".join(seats) + bid)

        if view.phase is Phase.BID:
            floor = [f"[b]Floor[/]  4 cards face down until {s.who(s.deal.bidder)} bid"
                     f"{'s' * (s.deal.bidder != s.human)}"]
        else:
            floor = floor_lines(view.loose, view.houses, s.who, s.players, self.ascii_only)
        self.query_one("#floor", Static).update("\n".join(floor))

        piles = view.captured()
        sweep_points, sweeps = [0, 0], [0, 0]
        for seat, _, points in view.sweeps:
            sweep_points[seat % 2] += points
            sweeps[seat % 2] += 1
        self.query_one("#piles", Static).update(" " + "  |  ".join(
            pile_line(s.team_name(t), s.rules, piles[t], sweep_points[t], sweeps[t]) for t in (us, them)))

        lines = [("[bold yellow]" + e.text + "[/]") if e.sweep else e.text for e in s.log[-LOG_LINES:]]
        self.query_one("#log", Static).update(Text.from_markup("\n".join(lines)) if lines else "")

        cards = self.hand_cards()
        self.cursor = max(0, min(self.cursor, len(cards) - 1))
        shown = []
        for i, c in enumerate(cards):
            text = card_markup(c, self.ascii_only)
            shown.append(f"[reverse]{text}[/]" if i == self.cursor and s.humans_turn() else text)
        self.query_one("#hand", Static).update(" [b]Your hand[/] " + " ".join(shown))
        self.query_one("#message", Static).update(" " + self.message)
        self.fill_options()

    def fill_options(self) -> None:
        s, view = self.session, self.session.view()
        options = self.query_one(OptionList)
        options.clear_options()
        self.choices = []
        if view.phase is Phase.OVER:
            options.add_option(Option("The deal is over", disabled=True))
            return
        if not s.humans_turn():
            options.add_option(Option(f"Waiting for {s.who(view.to_move)}…", disabled=True))
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

    def after_move(self) -> None:
        """After any move: let the bots play, or show the score sheet, or wait for the person."""
        s = self.session
        if s.deal_over:
            self.show_sheet()
        elif s.bots_turn():
            generation = self._generation
            if self.delay > 0:
                self.set_timer(self.delay, lambda: self.bot_move(generation))
            else:
                self.call_later(self.bot_move, generation)

    def bot_move(self, generation: int) -> None:
        if generation != self._generation or not self.session.bots_turn():
            return
        self.session.bot_step()
        self.redraw()
        self.after_move()

    def show_sheet(self) -> None:
        if self._sheet_open:
            return
        self._sheet_open = True
        s = self.session
        us = s.human % 2
        teams = ("Us", "Them") if us == 0 else ("Them", "Us")
        seats = [s.who(seat) for seat in range(s.players)]
        r = s.results()[-1]
        head = Text.from_markup(f"[b]Deal {s.deal_number} is over[/]: card points "
                                f"{r.score.card_points[us]}:{r.score.card_points[1 - us]}, sweeps "
                                f"{r.score.sweep_points[us]}:{r.score.sweep_points[1 - us]} (Us:Them)")
        done = "Press Enter to leave." if s.over else "Press Enter for the next deal."
        b = s.match.baazis
        caption = f"Baazis: Us {b[us]}, Them {b[1 - us]}" + (f" (first to {s.baazis} wins)" if s.baazis else "")
        if s.over:
            winner = s.match.winner()
            verdict = "A draw." if winner is None else ("You win the match!" if winner == us else "They win the match.")
            done = f"[b]{verdict}[/] {done}"
        body = Group(head, score_sheet(s.match, teams, seats, caption), Text.from_markup(done))
        self.push_screen(SheetScreen(body), self.sheet_closed)

    def sheet_closed(self, _: None) -> None:
        self._sheet_open = False
        s = self.session
        if s.over:
            self.save_quietly()
            self.exit(f"Match over. The record is in {self.save_path}")
            return
        s.next_deal()
        self.message = ""
        self.cursor = 0
        self.redraw()
        self.after_move()

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

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.make_choice(event.option_index)

    def action_choose(self) -> None:
        highlighted = self.query_one(OptionList).highlighted
        if highlighted is not None:
            self.make_choice(highlighted)

    def action_pick(self, number: int) -> None:
        self.make_choice(number - 1)

    def action_hint(self) -> None:
        s = self.session
        if not s.humans_turn():
            self.message = "Wait for your turn for a hint"
            self.redraw()
            return
        choice, reason = s.hint()
        if isinstance(choice, tuple):
            self.cursor = self.hand_cards().index(choice[1])
        self.message = f"Hint: {reason}"
        self.redraw()
        if choice in self.choices:
            self.query_one(OptionList).highlighted = self.choices.index(choice)

    def action_undo(self) -> None:
        self._generation += 1
        undone = self.session.undo()
        self.message = "Undone: back to your last move" if undone else "Nothing to undo yet"
        self.redraw()
        self.after_move()

    def save_quietly(self) -> None:
        self.session.save(self.save_path)

    def action_save(self) -> None:
        try:
            self.save_quietly()
        except OSError as e:
            self.message = f"Could not save to {self.save_path}: {e.strerror or e}"
        else:
            self.message = f"Saved to {self.save_path} (resume: taash play --resume {self.save_path})"
        self.redraw()

    def action_quit_match(self) -> None:
        if self.session.over:
            self.exit("Match over.")
            return
        try:
            self.save_quietly()
        except OSError as e:
            self.exit(f"Could not save to {self.save_path}: {e.strerror or e}")
            return
        self.exit(f"Saved to {self.save_path}. Resume with: taash play --resume {self.save_path}")
