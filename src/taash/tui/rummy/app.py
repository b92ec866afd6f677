"""``taash rummy play``: a match of 13-card Rummy against bots in the terminal (Textual), by keys, in 80x24.

The match is a :class:`taash.tables.match.TableMatch` (the web's tables play through the same one): the screen
shows the person's own view of the deal (his hand in the solver's groups, each with its kind; the open discard,
the stock, the wild joker) and the public log, and sends his moves as the table's messages. Keys: 1-3 (or Up/Down
and Enter) take from the stock or the discard pile, or drop; then Left/Right or a card's letter picks a card, 1
discards it, 2 declares with it (a confirmation shows the groups and whether they are valid); h a hint, u undo,
s save, q save and quit. The bots think on a thread, so the screen answers keys while they do.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Group as RichGroup
from rich.console import RenderableType
from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from taash.i18n import N_, _, ngettext, said_of
from taash.packs import face_name, face_symbol
from taash.rummy.deal import Declare, Discard, Drop, Phase, Take
from taash.rummy.game import RummyState
from taash.rummy.match import Match
from taash.rummy.solver import solve
from taash.rummy.view import PlayerView
from taash.tables.adapter import TableError
from taash.tables.match import TableMatch
from taash.tables.rummy import arrangement
from taash.tui.rummy.help import help_lines
from taash.tui.rummy.text import (
    CARD_LETTERS,
    Group,
    card_markup,
    format_caption,
    groups_of,
    hand_markup,
    kind_word,
    result_line,
    seat_markup,
    second_person,
    sheet_table,
    short_name,
    status_word,
    top_markup,
    verdict,
    wild_words,
    with_symbols,
    words,
)
from taash.tui.shell import LogLines, MatchShell
from taash.tui.widgets import HelpScreen, SheetScreen, TooSmallScreen, plain, said_bindings

#: The bot that gives hints, whatever the opponents' level.
HINT_LEVEL = "hard"
#: A choice the screen offers: a move as the table's message, or ``{"declare": face}`` (a declaration laying that
#: card down, confirmed first).
Choice = dict[str, Any]


class DeclareScreen(ModalScreen[bool]):
    """The declaration about to be made: the groups shown, each with its kind, and whether it is valid (a wrong
    one costs what the rules say). y or Enter declares, n or Escape goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("declare")),
        Binding("enter", "answer(True)", show=False),
        Binding("n", "answer(False)", N_("back")),
        Binding("escape", "answer(False)", show=False),
    ]
    DEFAULT_CSS = """
    DeclareScreen { align: center middle; background: $background 60%; }
    DeclareScreen > Vertical { width: 100%; max-width: 80; height: auto; background: $panel; padding: 0 1; }
    """

    def __init__(self, text: Text) -> None:
        super().__init__()
        said_bindings(self)
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.text, id="declare")
        yield Footer()

    def action_answer(self, declare: bool) -> None:
        self.dismiss(declare)


class RummyApp(MatchShell):
    """A match of 13-card Rummy: one person (seat ``human``) against bots."""

    TITLE = "taash: 13-card Rummy"
    RESUME = "taash rummy play --resume"
    TOP_PARTS = ("status", "seats", "table")
    CSS = MatchShell.MATCH_CSS + """
    #seats { height: auto; background: $primary-background; }
    #table { height: auto; background: $surface; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *MatchShell.keys(N_("do"), 3, "←→ a-p"),
        *(Binding(letter, f"letter({i})", show=False) for i, letter in enumerate(CARD_LETTERS)),
    ]

    def __init__(self, session: TableMatch, save_path: Path, delay: float = 0.5, human: int = 0,
                 ascii_only: bool = False) -> None:
        super().__init__(save_path, delay, ascii_only)
        self.session = session
        self.human = human
        self.choices: list[Choice | None] = []
        #: Finished deals whose score sheet the person has seen.
        self.seen = session.finished_deals()

    # -- the match ---------------------------------------------------------------------------------------------

    @property
    def match(self) -> Match:
        state = self.session.state
        assert isinstance(state, RummyState)
        return state.match

    def view(self) -> PlayerView:
        return self.match.view(self.human)

    def humans_turn(self) -> bool:
        return self.session.to_move() == self.human and not self.sheet_due()

    def bots_turn(self) -> bool:
        to_move = self.session.to_move()
        return to_move is not None and to_move != self.human and not self.sheet_due()

    def sheet_due(self) -> bool:
        return self.session.finished_deals() > self.seen

    def match_over(self) -> bool:
        return self.session.over

    def seat_name(self, seat: int) -> str:
        return self.session.names[seat]

    # -- layout ------------------------------------------------------------------------------------------------

    def line(self, markup: str) -> Text:
        return Text.from_markup(self.words(markup))

    def words(self, text: str) -> str:
        """``text`` for this terminal: cards with suit symbols, or all in ASCII where it must be."""
        return plain(words(text, self.ascii_only), self.ascii_only)

    # -- drawing -----------------------------------------------------------------------------------------------

    def groups(self) -> list[Group]:
        view = self.view()
        if not view.hand:
            return []
        return groups_of(arrangement(list(view.hand), view.rules, view.wild))

    def shown_cards(self) -> list[int]:
        return [c for g in self.groups() for c in g.cards]

    def status_text(self) -> str:
        s, m = self.session, self.match
        rules = s.game.rules_json(s.settings)
        rules_text = rules if isinstance(rules, str) else _("custom")
        return " " + _("13-card Rummy · {rules} rules · {format} · {level} bots · deal {number}", rules=rules_text,
                       format=_(m.format.name), level=_(s.settings.level), number=len(m.past) + (0 if m.over else 1))

    def redraw(self) -> None:
        view = self.view()
        self.part("#status", Static).update(self.line(self.status_text()))
        self.part("#seats", Static).update(self.line(
            " " + seat_markup(view, self.match, self.session.names, self.human, self.ascii_only)))
        self.part("#table", Static).update(self.line(
            " [b]" + _("Discard") + f"[/] {top_markup(view, self.session.names, self.ascii_only)} · [b]" + _("Stock")
            + f"[/] {view.stock_size} · [b]" + _("Wild joker") + f"[/] {wild_words(view, self.ascii_only)}"))
        self.part("#log", LogLines).show([(self.words(second_person(line)), "") for line in self.session.log])
        self.draw_hand()
        self.part("#message", Static).update(Text(" " + self.words(self.message or self.guide())))
        self.fill_options()

    def draw_hand(self) -> None:
        view = self.view()
        groups = self.groups()
        n = sum(len(g.cards) for g in groups)
        self.cursor = max(0, min(self.cursor, n - 1))
        choosing = self.humans_turn() and view.phase is Phase.DISCARD
        if not view.hand:
            self.part("#hand", Static).update(self.line(" [b]" + _("Your hand") + "[/]: " + _(
                "you are out of this deal ({status})", status=status_word(view.status[self.human]))))
            return
        points = solve(view.hand, view.rules, view.wild).points if len(view.hand) == 13 else \
            arrangement(list(view.hand), view.rules, view.wild)["points"]
        head = " [b]" + _("Your hand") + "[/] " + ngettext("({n} point now)", "({n} points now)", points) + ": "
        self.part("#hand", Static).update(self.line(
            head + hand_markup(groups, view.wild, self.cursor if choosing else None, self.ascii_only, choosing)))

    def guide(self) -> str:
        if not self.humans_turn():
            return ""
        if self.view().phase is Phase.TAKE:
            return _("Your turn: 1 take from the stock, 2 from the discard pile, 3 drop")
        arrows = "Left/Right" if self.ascii_only else "←→"
        return _("{keys} or a card's letter picks a card: 1 discards it, 2 declares with it", keys=arrows)

    def fill_options(self) -> None:
        view = self.view()
        options = self.part("#options", OptionList)
        options.clear_options()
        self.choices = []
        to_move = self.session.to_move()
        if to_move is None or self.sheet_due():
            options.add_option(Option(_("The deal is over"), disabled=True))
            return
        if to_move != self.human:
            name = short_name(self.seat_name(to_move))
            waiting = (_("{name} is thinking…", name=name) if self.thinking == to_move else
                       _("Waiting for {name}…", name=name))
            options.add_option(Option(self.words(waiting), disabled=True))
            return
        if view.phase is Phase.TAKE:
            self.offer("1. " + _("Take the top card of the stock"), {"type": "take", "from": "stock"},
                       Take("stock") in view.legal_actions())
            if view.pile:
                top = face_symbol(view.pile[-1][0], self.ascii_only)
                self.offer("2. " + _("Take {card} from the discard pile", card=top),
                           {"type": "take", "from": "discard"})
            else:
                self.offer("2. " + _("The discard pile is empty"), None)
            drop = (_("Drop (middle drop: {points} points)", points=view.middle_drop) if view.has_taken[self.human]
                    else _("Drop (first drop: {points} points)", points=view.first_drop))
            self.offer("3. " + drop, {"type": "drop"})
        else:
            cards = self.shown_cards()
            card = cards[self.cursor]
            name = face_symbol(card, self.ascii_only)
            if Discard(card) in view.legal_actions():
                self.offer("1. " + _("Discard {card}", card=name), {"type": "discard", "card": face_name(card)})
            else:
                self.offer("1. " + _("You may not discard {card}: you just took it from the discard pile", card=name),
                           None)
            declare = self.declaration(card)
            self.offer("2. " + (_("Declare, laying {card} face down (valid)", card=name) if declare[1] else
                                _("Declare, laying {card} face down (NOT valid: it would cost {points} points)",
                                  card=name, points=view.rules.wrong_declaration)), {"declare": card})
        first = next((i for i, c in enumerate(self.choices) if c is not None), None)
        options.highlighted = first

    def offer(self, text: str, choice: Choice | None, enabled: bool = True) -> None:
        if not enabled:
            choice = None
        self.part("#options", OptionList).add_option(Option(self.words(text), disabled=choice is None))
        self.choices.append(choice)

    def declaration(self, finish: int) -> tuple[list[Group], bool]:
        """The groups a declaration laying ``finish`` down would show (the solver's best of the 13 cards left),
        and whether they are a valid declaration."""
        view = self.view()
        rest = list(view.hand)
        rest.remove(finish)
        solution = solve(rest, view.rules, view.wild)
        groups = [Group(kind, cards) for kind, cards in solution.melds]
        if solution.free:
            groups.append(Group("free", solution.free))
        if solution.unmatched:
            groups.append(Group(None, solution.unmatched))
        return groups, solution.valid

    # -- the flow of the game ----------------------------------------------------------------------------------

    def bot_seat(self) -> int:
        seat = self.session.to_move()
        assert seat is not None
        return seat

    def bot_thinks(self) -> Callable[[], Choice | None]:
        bot, view = self.session.bot_choice(self.session.settings.level)
        game = self.session.game

        def decide() -> Choice | None:
            try:
                return game.action_to(bot.choose(view))
            except Exception:  # a bot that fails: the engine's first legal move is made instead
                return None

        return decide

    def bot_moves(self, seat: int, decision: Choice | None) -> None:
        try:
            self.session.move(seat, decision if decision is not None else self.session.first_legal())
        except TableError:  # a bot's mistake: the engine's first legal move instead
            self.session.move(seat, self.session.first_legal())

    def make(self, message: Choice) -> None:
        """The person's move."""
        try:
            self.session.move(self.human, message)
        except TableError as e:
            self.message = said_of(e)
            self.redraw()
            return
        self.message = ""
        self.cursor = 0
        self.redraw()
        self.after_move()

    def make_choice(self, index: int) -> None:
        if not self.humans_turn() or not 0 <= index < len(self.choices):
            return
        choice = self.choices[index]
        if choice is None:
            return
        if "declare" in choice:
            self.confirm_declaration(choice["declare"])
            return
        self.make(choice)

    def confirm_declaration(self, finish: int) -> None:
        view = self.view()
        groups, valid = self.declaration(finish)
        lines = [_("[b]Declare[/], laying {card} face down and showing:",
                   card=card_markup(finish, view.wild, self.ascii_only))]
        for g in groups:
            cards = " ".join(card_markup(c, view.wild, self.ascii_only) for c in g.cards)
            lines.append(f"  {kind_word(g.kind)}: {cards}")
        if valid:
            lines.append("[green]" + _("A valid declaration: you win the deal.") + "[/]")
        else:
            lines.append(_("[red]NOT a valid declaration[/]: it costs {points} points and puts you out of the deal",
                           points=view.rules.wrong_declaration))
        lines.append(_("y or Enter: declare · n or Escape: back"))
        message = {"type": "declare", "discard": face_name(finish),
                   "melds": [[face_name(c) for c in g.cards] for g in groups]}

        def answered(declare: bool | None) -> None:
            if declare and self.humans_turn():
                self.make(message)

        self.push_screen(DeclareScreen(self.line("\n".join(lines))), answered)

    # -- the score sheet ---------------------------------------------------------------------------------------

    def help_text(self) -> Text:
        return self.line("\n".join(help_lines(self.match.rules, self.match.format)))

    def sheet_parts(self) -> tuple[Text, RenderableType, Text]:
        m, names = self.match, self.session.names
        lines = [result_line(m, names)]
        deal = m.past[-1]
        for seat, groups in deal.shown.items():
            shown = "  ".join(" ".join(card_markup(c, deal.wild, self.ascii_only) for c in g) for g in groups)
            lines.append("  " + _("{name} showed: {cards}", name=escape(short_name(names[seat])), cards=shown))
        parts: list[RenderableType] = [sheet_table(m, names, self.ascii_only),
                                       Text(self.words(format_caption(m, names)))]
        if m.over:
            parts.append(Text(verdict(m, names, self.human), style="bold"))
        done = _("Enter: leave (the record is saved)") if m.over else _("Enter: the next deal · q: save and quit")
        return self.line("\n".join(lines)), RichGroup(*parts), Text(self.words(done), style="bold")

    def next_deal(self) -> None:
        self.seen = self.session.finished_deals()

    def over_words(self) -> str:
        return _("Match over. The match is saved in {path} (its record inside: taash replay {path} shows it)",
                 path=self.save_path)

    # -- key actions -------------------------------------------------------------------------------------------

    def action_card(self, step: int) -> None:
        if self.humans_turn() and self.view().phase is Phase.DISCARD:
            n = len(self.shown_cards())
            self.cursor = (self.cursor + step) % n if n else 0
            self.redraw()

    def action_letter(self, index: int) -> None:
        if self.humans_turn() and self.view().phase is Phase.DISCARD and index < len(self.shown_cards()):
            self.cursor = index
            self.redraw()

    def hint(self) -> None:
        action, reason = self.session.hint(self.human, HINT_LEVEL)
        index = 0
        if isinstance(action, Take):
            index = 0 if action.source == "stock" else 1
        elif isinstance(action, Drop):
            index = 2
        elif isinstance(action, Discard | Declare):
            card = action.card if isinstance(action, Discard) else action.finish
            self.cursor = self.shown_cards().index(card)
            index = 0 if isinstance(action, Discard) else 1
        self.message = _("Hint: {reason}", reason=with_symbols(reason))
        self.redraw()
        self.part("#options", OptionList).highlighted = index

    def undone(self) -> bool:
        undone = self.session.undo(self.human)
        self.seen = self.session.finished_deals()
        return undone

    def save_quietly(self) -> None:
        self.session.save(self.save_path, [self.human])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the terminal is too small, keys play nothing unseen: only quitting works; over a declaration's
        confirmation or a score sheet, only their own keys, saving and quitting."""
        if isinstance(self.screen, TooSmallScreen):
            return action in ("quit_match", "quit")
        if isinstance(self.screen, DeclareScreen | SheetScreen | HelpScreen):
            return action in ("quit_match", "quit", "save")
        return True
