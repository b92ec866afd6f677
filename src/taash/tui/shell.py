"""The frame every game's terminal screens stand in: :class:`GameApp` (the parts of the screen, ASCII terminals, a
terminal too small), :class:`ReplayShell` (stepping through a record turn by turn and deal by deal) and
:class:`MatchShell` (a match against bots: the bots thinking on a thread, the score sheet between deals, undo,
save and quit). Each game's screens (:mod:`taash.tui.seep`, :mod:`taash.tui.rummy`) draw the game itself."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.widget import Widget
from textual.widgets import Footer, OptionList, Static

from taash.i18n import LANGUAGES, N_, _, current
from taash.tui.widgets import (
    ASCII_KEYS,
    FULL_SIZE,
    HelpScreen,
    SheetScreen,
    TooSmallScreen,
    fit_terminal,
    plain,
    said_bindings,
)

W = TypeVar("W", bound=Widget)
R = TypeVar("R")
D = TypeVar("D")

#: Lines of the log kept in sight (on a terminal of :data:`FULL_SIZE`; fewer on a smaller one).
LOG_LINES = 5


def shared_key_lines(column: int) -> list[str]:
    """The help's lines for the keys every match has (hint, undo, save, quit, back), keys in a column of
    ``column`` characters as the game's own key lines have them."""
    return [
        "  " + "h".ljust(column) + _("a hint: the hard bot's choice and why"),
        "  " + "u".ljust(column) + _("undo your last move and the bots' replies"),
        "  s " + _("save") + "   q " + _("save and quit") + "   ? Esc  " + _("back to the game"),
    ]


def guide_lines() -> list[str]:
    """The help's part that every game shares (Rich markup): the coach, the deal explained after each deal, and the
    language, with how to choose another."""
    return [
        "[b]" + _("The coach") + "[/]",
        "  " + _("On your turn, h asks the coach what the expert (the hard bot) would do now, and why, in one line."),
        "",
        "[b]" + _("Each deal explained") + "[/]",
        "  " + _("When a deal ends, its score sheet explains it: where each side's points came from."),
        "",
        "[b]" + _("Language") + "[/]",
        "  " + _("This game speaks {language}. Choose another with --lang ({codes}) or the LANG variable: {names}.",
                 language=LANGUAGES[current()], codes=", ".join(LANGUAGES),
                 names=", ".join(f"{code} {name}" for code, name in LANGUAGES.items())),
    ]


class GameApp(App[R]):
    """A Textual app of taash: its parts are found on the bottom screen whatever is shown over it, its key names
    and signs turn to ASCII where the terminal wants it, and while the terminal is too small only leaving works."""

    ENABLE_COMMAND_PALETTE = False
    #: What q does, said on the screen that asks for a larger terminal.
    LEAVING: ClassVar[str] = N_("q saves and quits")

    def __init__(self, ascii_only: bool = False) -> None:
        super().__init__()
        self.ascii_only = ascii_only
        said_bindings(self)

    def part(self, selector: str, kind: type[W]) -> W:
        """A widget of the game's screen (the bottom of the stack), whatever screen is shown over it."""
        return self.screen_stack[0].query_one(selector, kind)

    def line(self, markup: str) -> Text:
        """One line of Rich markup, in ASCII where it must be."""
        return Text.from_markup(plain(markup, self.ascii_only))

    def get_key_display(self, binding: Binding) -> str:
        shown = super().get_key_display(binding)
        if self.ascii_only:
            for symbols, words in ASCII_KEYS.items():
                shown = shown.replace(symbols, words)
        return shown

    def fit(self, width: int, height: int) -> None:
        """Ask for a larger terminal while this one is too small, and give the game back after."""
        fit_terminal(self, width, height, _(self.LEAVING))

    def redraw(self) -> None:
        """Draw every part of the screen again from the game."""

    def on_resize(self, event: Resize) -> None:
        self.redraw()
        self.fit(event.size.width, event.size.height)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the terminal is too small, keys play nothing unseen: only leaving works; under the help, only
        its own keys and leaving."""
        if isinstance(self.screen, HelpScreen):
            return action in ("quit_match", "quit")
        return not isinstance(self.screen, TooSmallScreen) or action in ("quit_match", "quit")


@dataclass(slots=True)
class Step(Generic[D]):
    """A position of a replay: the deal after some turns, and the last turn in words."""

    deal: D
    said: str


class Steps(Protocol):
    """What a replay steps through: each deal's positions, in order."""

    @property
    def deals(self) -> Sequence[Sequence[object]]: ...


TL = TypeVar("TL", bound=Steps)


class ReplayShell(GameApp[None], Generic[TL]):
    """Forwards and backwards through a record: ←/→ a turn, ↑/↓ a deal, Home/End the ends of a deal. A game's
    replay names its screen's parts (:attr:`PARTS`) and draws them (:meth:`redraw`) for the step it is at."""

    TITLE = "taash: replay"
    LEAVING = N_("q leaves")
    #: The ids of the screen's lines, top to bottom (each a :class:`Static`); every game's has ``where`` (the
    #: record, the deal and the turn) and ``said`` (the turn in words).
    PARTS: ClassVar[tuple[str, ...]] = ()
    #: The look of the parts every game's replay has; a game adds its own parts' (each one line tall or more).
    REPLAY_CSS: ClassVar[str] = """
    Static { height: auto; }
    #where { background: $primary-background; }
    #said { color: $warning; }
    """

    def __init__(self, timeline: TL, title: str = "", ascii_only: bool = False):
        super().__init__(ascii_only)
        #: The game's record, position by position (its own :class:`Steps`, with what its screen draws).
        self.timeline = timeline
        self.title_text = title
        self.deal_index = 0
        self.step_index = 0

    @classmethod
    def bindings(cls, step: str) -> list[BindingType]:
        """The replay's keys, ``step`` (a message of the catalogue) naming what ←/→ steps through; their names are
        said in the language spoken when the app is made (:func:`said_bindings`)."""
        return [
            Binding("right", "step(1)", step, key_display="←→"),
            Binding("left", "step(-1)", N_("back"), show=False),
            Binding("down", "deal(1)", N_("deal"), key_display="↑↓"),
            Binding("up", "deal(-1)", N_("previous deal"), show=False),
            Binding("pagedown", "deal(1)", show=False),
            Binding("pageup", "deal(-1)", show=False),
            Binding("home", "end(0)", N_("start")),
            Binding("end", "end(1)", N_("end")),
            Binding("q", "quit", N_("quit")),
        ]

    def compose(self) -> ComposeResult:
        for part in self.PARTS:
            yield Static(id=part)
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()
        self.fit(*self.size)

    def action_quit_match(self) -> None:
        """q on the screen that asks for a larger terminal."""
        self.exit()

    def action_step(self, step: int) -> None:
        last = len(self.timeline.deals[self.deal_index]) - 1
        self.step_index = max(0, min(last, self.step_index + step))
        self.redraw()

    def action_deal(self, step: int) -> None:
        index = max(0, min(len(self.timeline.deals) - 1, self.deal_index + step))
        if index != self.deal_index:
            self.deal_index, self.step_index = index, 0
            self.redraw()

    def action_end(self, end: int) -> None:
        self.step_index = end * (len(self.timeline.deals[self.deal_index]) - 1)
        self.redraw()


class LogLines(Static):
    """The newest lines of the log that fit the lines it is given (long lines wrap; the oldest give way), each
    line a text and its style."""

    def __init__(self, widget_id: str) -> None:
        super().__init__(id=widget_id)
        self.lines: list[tuple[str, str]] = []

    def show(self, lines: Sequence[tuple[str, str]]) -> None:
        self.lines = list(lines[-LOG_LINES:])
        self.draw()

    def on_resize(self, _: Resize) -> None:
        self.draw()

    def draw(self) -> None:
        width, height = self.size.width or FULL_SIZE[0], self.size.height or LOG_LINES
        wrapped: list[Text] = []
        for line, style in self.lines:
            wrapped.extend(Text(line, style=style).wrap(self.app.console, max(20, width)))
        self.update(Text("\n").join(wrapped[-min(height, LOG_LINES):]))


class MatchShell(GameApp[str]):
    """A match of one person against bots, whatever the game: after each move the score sheet (when a deal is
    over), else the bots' turn (each bot thinks on a thread, so the screen keeps answering keys; an answer that
    comes after an undo is dropped), else the person's; the options of the person's turn; undo, save and quit
    (a match is never lost by leaving). A game's app draws the screen and says what the moves are."""

    #: The command that resumes a saved match, for the messages.
    RESUME: ClassVar[str] = "taash play --resume"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("question_mark", "help", N_("help"), key_display="?")]
    #: The ids of the game's own lines above the log (each a :class:`Static`); below it every game's screen has
    #: the person's hand, a message and the options of the person's turn.
    TOP_PARTS: ClassVar[tuple[str, ...]] = ()
    #: The look of the parts every game's match has; a game adds its own parts' (:attr:`TOP_PARTS`).
    MATCH_CSS: ClassVar[str] = """
    Screen { layout: vertical; }
    #status { height: auto; background: $primary-background; }
    #log { height: 1fr; max-height: 5; min-height: 1; color: $text-muted; }
    #hand { height: auto; background: $surface; }
    #message { height: auto; max-height: 3; color: $warning; }
    #options { height: 1fr; min-height: 2; border: none; padding: 0; }
    .ascii #options { scrollbar-size-vertical: 0; }
    """

    @staticmethod
    def keys(choose: str, picks: int, cards: str) -> list[BindingType]:
        """A match's keys: ←/→ a card (shown as ``cards``), Enter (``choose``, a message of the catalogue) or a
        number up to ``picks`` a choice, h a hint, u undo, s save, q save and quit."""
        return [
            Binding("left", "card(-1)", N_("card"), priority=True, key_display=cards),
            Binding("right", "card(1)", N_("card"), show=False, priority=True),
            Binding("enter", "choose", choose, key_display=f"⏎ 1-{picks}"),
            Binding("h", "hint", N_("hint")),
            Binding("u", "undo", N_("undo")),
            Binding("s", "save", N_("save")),
            Binding("q", "quit_match", N_("save & quit")),
            *(Binding(str(i), f"pick({i})", show=False) for i in range(1, picks + 1)),
        ]

    def __init__(self, save_path: Path, delay: float = 0.5, ascii_only: bool = False) -> None:
        super().__init__(ascii_only)
        self.save_path = save_path
        self.delay = delay
        self.cursor = 0
        self.message = ""
        self._generation = 0  # bumped on undo, so a bot's answer that comes after it is dropped
        self.thinking: int | None = None  # the seat of a bot thinking on a thread
        self._sheet_open = False

    # -- what a game's app says ------------------------------------------------------------------------------

    def sheet_due(self) -> bool:
        """A deal is over and its score sheet has not been shown."""
        raise NotImplementedError

    def bots_turn(self) -> bool:
        raise NotImplementedError

    def match_over(self) -> bool:
        raise NotImplementedError

    def bot_seat(self) -> int:
        """The seat of the bot to move."""
        raise NotImplementedError

    def bot_thinks(self) -> Callable[[], Any]:
        """What the bot to move decides, to be called on a thread (on its own copy of its seat's view)."""
        raise NotImplementedError

    def bot_moves(self, seat: int, decision: Any) -> None:
        """Make the decision of the bot of ``seat`` (back on the screen's thread)."""
        raise NotImplementedError

    def sheet_parts(self) -> tuple[RenderableType, RenderableType, RenderableType]:
        """The score sheet's heading, its table and what Enter does."""
        raise NotImplementedError

    def next_deal(self) -> None:
        """The score sheet was closed and the match goes on."""

    def undone(self) -> bool:
        """Take back the person's last move (and the bots' after it); whether there was one."""
        raise NotImplementedError

    def save_quietly(self) -> None:
        raise NotImplementedError

    def make_choice(self, index: int) -> None:
        raise NotImplementedError

    def fill_options(self) -> None:
        raise NotImplementedError

    def help_text(self) -> RenderableType:
        """The game's help (``?``): its keys, its scoring, its levels and the rules in play."""
        raise NotImplementedError

    def humans_turn(self) -> bool:
        raise NotImplementedError

    def hint(self) -> None:
        """Show the hint for the person's turn (it is his turn)."""
        raise NotImplementedError

    def over_words(self) -> str:
        """What leaving a finished match says."""
        return _("Match over. The record is in {path} (taash replay {path} shows it)", path=self.save_path)

    # -- the flow of the game --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        for part in self.TOP_PARTS:
            yield Static(id=part)
        yield LogLines("log")
        yield Static(id="hand")
        yield Static(id="message")
        yield OptionList(id="options")
        yield Footer()

    def on_mount(self) -> None:
        if self.ascii_only:
            self.screen.add_class("ascii")
        self.part("#options", OptionList).focus()
        self.redraw()
        self.after_move()
        self.fit(*self.size)

    def after_move(self) -> None:
        """After any move: the score sheet when a deal is over, else the bots' turn, else the person's."""
        if self.sheet_due():
            self.show_sheet()
        elif self.bots_turn():
            generation = self._generation
            if self.delay > 0:
                self.set_timer(self.delay, lambda: self.bot_move(generation))
            else:
                self.call_later(self.bot_move, generation)

    def bot_move(self, generation: int) -> None:
        if generation != self._generation or not self.bots_turn():
            return
        seat = self.bot_seat()
        decide = self.bot_thinks()
        self.thinking = seat
        self.fill_options()

        def think() -> None:
            decision = decide()
            with contextlib.suppress(RuntimeError):  # the app has closed meanwhile
                self.call_from_thread(self.bot_decided, generation, seat, decision)

        self.run_worker(think, thread=True, exit_on_error=False, group="bot")

    def bot_decided(self, generation: int, seat: int, decision: Any) -> None:
        if generation != self._generation or not self.bots_turn() or self.bot_seat() != seat:
            return
        self.thinking = None
        self.bot_moves(seat, decision)
        self.redraw()
        self.after_move()

    def show_sheet(self) -> None:
        if self._sheet_open:
            return
        self._sheet_open = True
        self.push_screen(SheetScreen(*self.sheet_parts(), self.ascii_only), self.sheet_closed)
        self.fit(*self.size)  # a terminal too small is asked to grow before the sheet shows

    def sheet_closed(self, _: None) -> None:
        self._sheet_open = False
        self.fit(*self.size)
        if self.match_over():
            self.action_quit_match()
            return
        self.next_deal()
        self.message = ""
        self.cursor = 0
        self.redraw()
        self.after_move()

    # -- key actions -----------------------------------------------------------------------------------------

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.make_choice(event.option_index)

    def action_choose(self) -> None:
        highlighted = self.part("#options", OptionList).highlighted
        if highlighted is not None:
            self.make_choice(highlighted)

    def action_pick(self, number: int) -> None:
        self.make_choice(number - 1)

    def action_hint(self) -> None:
        if not self.humans_turn():
            self.message = _("Wait for your turn for a hint")
            self.redraw()
            return
        self.hint()

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.help_text(), self.ascii_only))

    def action_undo(self) -> None:
        self._generation += 1
        self.thinking = None
        undone = self.undone()
        self.message = (_("Undone: back to your last move (u again goes further back)") if undone else
                        _("Nothing to undo yet"))
        self.cursor = 0
        self.redraw()
        self.after_move()

    def action_save(self) -> None:
        try:
            self.save_quietly()
        except OSError as e:
            self.message = _("Could not save to {path}: {why}", path=self.save_path, why=e.strerror or e)
        else:
            self.message = _("Saved to {path} (resume: {command} {path})", path=self.save_path, command=self.RESUME)
        self.redraw()

    def action_quit_match(self) -> None:
        try:
            self.save_quietly()
        except OSError as e:
            self.exit(_("Could not save to {path}: {why}", path=self.save_path, why=e.strerror or e))
            return
        if self.match_over():
            self.exit(self.over_words())
        else:
            self.exit(_("Saved to {path}. Resume with: {command} {path}", path=self.save_path, command=self.RESUME))

    async def action_quit(self) -> None:
        """Ctrl+Q saves too: a match is never lost by leaving."""
        self.action_quit_match()
