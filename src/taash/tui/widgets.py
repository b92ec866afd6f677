"""What every game's terminal screens share: the terminal they are made for, the screen said while the terminal is
too small, the score sheet between deals, and plain ASCII for terminals without symbols. Each game's screens live
under its own name (:mod:`taash.tui.seep`, :mod:`taash.tui.rummy`), found by the game's name
(its plugin's ``screens``: :mod:`taash.games.registry`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from rich.console import RenderableType
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from taash.i18n import N_, _

#: The terminal the screen is made for (columns, lines).
FULL_SIZE = (80, 24)
#: The smallest terminal the game is played in: every line of the play screen and its score sheets fit, wrapped.
MIN_SIZE = (60, 18)
#: What the key names of the footer become on a terminal without those symbols.
ASCII_KEYS = {"←→": "Left/Right", "↑↓": "Up/Down", "⏎ 1-9": "Enter/1-9", "⏎": "Enter"}


def plain(text: str, ascii_only: bool) -> str:
    """``text`` with its few non-ASCII signs replaced when the terminal cannot show them."""
    if not ascii_only:
        return text
    return text.replace("·", "|").replace("…", "...").replace("▶", ">")


def said_bindings(node: DOMNode) -> None:
    """The names of ``node``'s keys (an app's, a screen's: what its footer shows) said in the language spoken: each
    binding's description is an English message of the catalogue (marked ``N_``), said when the node is made."""
    for key, bindings in node._bindings.key_to_bindings.items():
        node._bindings.key_to_bindings[key] = [replace(b, description=_(b.description)) if b.description else b
                                               for b in bindings]


def too_small(width: int, height: int) -> bool:
    return width < MIN_SIZE[0] or height < MIN_SIZE[1]


class TooSmallScreen(ModalScreen[None]):
    """Said instead of the game while the terminal is smaller than :data:`MIN_SIZE`; gone once it is large enough
    (q still leaves: the app's ``quit_match``, which saves a match first)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "app.quit_match", N_("save & quit"))]
    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; background: $background; }
    TooSmallScreen > Static { width: 100%; height: auto; content-align: center middle; text-align: center; }
    """

    def __init__(self, leaving: str = "") -> None:
        super().__init__()
        said_bindings(self)
        self.leaving = leaving or _("q saves and quits")

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.show(*self.app.size)

    def show(self, width: int, height: int) -> None:
        self.query_one("#too-small", Static).update(_(
            "This terminal is {width}x{height}: enlarge it to at least {least_width}x{least_height} ({full_width}x"
            "{full_height} shows it all at once). {leaving}.", width=width, height=height, least_width=MIN_SIZE[0],
            least_height=MIN_SIZE[1], full_width=FULL_SIZE[0], full_height=FULL_SIZE[1], leaving=self.leaving))


def fit_terminal(app: App[Any], width: int, height: int, leaving: str = "") -> None:
    """Show :class:`TooSmallScreen` over ``app`` while its terminal is smaller than :data:`MIN_SIZE`, with the size
    now; take it away once the terminal is large enough."""
    shown = app.screen if isinstance(app.screen, TooSmallScreen) else None
    if too_small(width, height):
        if shown is None:
            app.push_screen(TooSmallScreen(leaving))
        else:
            shown.show(width, height)
    elif shown is not None:
        app.pop_screen()


class SheetScreen(ModalScreen[None]):
    """The score sheet after a deal (how it ended, then every deal so far), or the match summary at the end."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", N_("continue"), key_display="⏎"),
        Binding("escape", "close", N_("continue"), show=False),
        Binding("space", "close", N_("continue"), show=False),
        Binding("q", "app.quit_match", N_("save & quit")),
        Binding("up", "scroll(-1)", N_("scroll the deals"), key_display="↑↓"),
        Binding("down", "scroll(1)", show=False),
    ]
    DEFAULT_CSS = """
    SheetScreen { align: center top; background: $background; }
    SheetScreen > Vertical { width: 100%; max-width: 80; height: 1fr; background: $panel; padding: 0 1; }
    SheetScreen #sheet-head { height: auto; }
    SheetScreen #sheet-scroll { height: 1fr; }
    SheetScreen #sheet-foot { height: auto; }
    SheetScreen.ascii #sheet-scroll { scrollbar-size-vertical: 0; }
    """

    def __init__(self, head: RenderableType, table: RenderableType, foot: RenderableType, ascii_only: bool) -> None:
        super().__init__(classes="ascii" if ascii_only else "")
        said_bindings(self)
        self.head, self.table, self.foot = head, table, foot

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.head, id="sheet-head")
            with VerticalScroll(id="sheet-scroll"):
                yield Static(self.table, id="sheet")
            yield Static(self.foot, id="sheet-foot")
        yield Footer()

    def on_mount(self) -> None:
        scroll = self.query_one("#sheet-scroll", VerticalScroll)
        self.call_after_refresh(scroll.scroll_end, animate=False, immediate=True)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, step: int) -> None:
        """Up and down through the deals, when there are more than the screen holds."""
        scroll = self.query_one("#sheet-scroll", VerticalScroll)
        scroll.scroll_relative(y=step, animate=False)


class HelpScreen(ModalScreen[None]):
    """The game's help over the match (``?``): its keys, how it scores, what each level's bots do, and every
    parameter of the rules in play. Escape, ``?`` or ``q`` goes back to the match where it was."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("back to the game"), key_display="Esc ?"),
        Binding("question_mark", "close", show=False),
        Binding("q", "close", show=False),
        Binding("up", "scroll(-1)", N_("scroll"), key_display="↑↓"),
        Binding("down", "scroll(1)", show=False),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center top; background: $background; }
    HelpScreen > VerticalScroll { width: 100%; max-width: 80; height: 1fr; background: $panel; padding: 0 1; }
    HelpScreen.ascii > VerticalScroll { scrollbar-size-vertical: 0; }
    """

    def __init__(self, text: RenderableType, ascii_only: bool) -> None:
        super().__init__(classes="ascii" if ascii_only else "")
        said_bindings(self)
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-scroll"):
            yield Static(self.text, id="help")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, step: int) -> None:
        self.query_one("#help-scroll", VerticalScroll).scroll_relative(y=step, animate=False)


def rules_lines(rules: object) -> list[str]:
    """Every parameter of a game's rules (a dataclass), one line each: ``name: value``."""
    out = []
    for name in rules.__dataclass_fields__:  # type: ignore[attr-defined]
        value = getattr(rules, name)
        if isinstance(value, dict | Mapping):
            value = ", ".join(f"{k} {v}" for k, v in value.items()) or _("none")
        elif isinstance(value, tuple | list):
            value = ", ".join(str(v) for v in value) or _("none")
        elif isinstance(value, bool):
            value = _("yes") if value else _("no")
        out.append(f"  {name}: {value}")
    return out
