"""Text for 13-card Rummy's terminal screens (Rich markup, no widgets): cards in colour, the hand in the solver's
groups with their kinds, the seats, the table, and the score sheet between deals."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rich import box
from rich.markup import escape
from rich.table import Table

from taash.cards import RANKS, SUIT_SYMBOLS, SUITS
from taash.i18n import N_, _
from taash.packs import JOKER, face_symbol, parse_face, rank_name
from taash.rummy.match import Match
from taash.rummy.melds import is_joker
from taash.rummy.view import PlayerView

RED_SUITS = (1, 2)  # hearts, diamonds
#: Each group's kind as the screen says it (messages of the catalogue: :func:`kind_word`).
KIND_WORDS = {"pure": N_("pure run"), "impure": N_("impure run"), "set": N_("set"), "free": N_("joker"),
              "spare": N_("spare"), None: N_("unmatched")}
#: How a seat left the deal, by the engine's word for it, as the seats' line says it.
STATUS_WORDS = {"dropped": N_("dropped"), "wrong": N_("wrong"), "declared": N_("declared")}
#: Letters that pick a card of the hand (h is the hint; q, s and u come after them).
CARD_LETTERS = "abcdefgijklmnop"
#: Longest seat name shown.
NAME_WIDTH = 12
_SECOND_PERSON = {"takes": "take", "discards": "discard", "drops": "drop", "declares": "declare", "deals": "deal",
                  "wins": "win", "is out": "are out"}
_YOU = re.compile(r"\bYou (takes|discards|drops|declares|deals|wins|is out)\b")
_TO_ASCII = str.maketrans(SUIT_SYMBOLS, SUITS)
#: A card's protocol name inside a sentence (a bot's reason says ``Ts``, ``Kd``).
_CARD_NAME = re.compile(rf"\b([{RANKS}])([{SUITS}])\b")


def kind_word(kind: str | None) -> str:
    """A group's kind in the language spoken ("pure run"; "unmatched" for the cards left over)."""
    return _(KIND_WORDS.get(kind, KIND_WORDS[None]))


def status_word(status: str | None) -> str:
    """How a seat left the deal ("dropped", "wrong", "declared") in the language spoken."""
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else str(status)


def words(text: str, ascii_only: bool) -> str:
    """A sentence for the screen: suit symbols in ASCII letters when the terminal cannot show them."""
    return text.translate(_TO_ASCII) if ascii_only else text


def with_symbols(reason: str) -> str:
    """A bot's reason with its cards (``Ts``, ``Kd``) named by suit symbol, as the screen names them."""
    return _CARD_NAME.sub(lambda m: m[1] + SUIT_SYMBOLS[SUITS.index(m[2])], reason)


def card_markup(face: int, wild: int, ascii_only: bool = False) -> str:
    """A card with its suit's colour (a printed joker in magenta); a wild joker underlined."""
    text = face_symbol(face, ascii_only)
    if face == JOKER:
        return f"[bold magenta]{text}[/]"
    style = "bold red" if face // 13 in RED_SUITS else "bold"
    if face % 13 == wild:
        style += " underline"
    return f"[{style}]{text}[/]"


def second_person(line: str) -> str:
    """A log line about "You" in the second person ("You takes" -> "You take")."""
    return _YOU.sub(lambda m: f"You {_SECOND_PERSON[m[1]]}", line)


def short_name(name: str) -> str:
    name = " ".join(name.removesuffix(" (bot)").split()) or "?"
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1].rstrip() + "."


@dataclass(frozen=True, slots=True)
class Group:
    """A group of the hand as shown: its kind (``pure``, ``impure``, ``set``, ``free``; None for the cards
    left over; ``spare`` for the 14th card a 14-card hand would discard) and its cards."""

    kind: str | None
    cards: tuple[int, ...]


def groups_of(arrangement: dict[str, object]) -> list[Group]:
    """The groups of :func:`taash.tables.rummy.arrangement`, in faces, the spare card of a 14-card hand last."""
    raw = arrangement["groups"]
    assert isinstance(raw, list)
    groups = [Group(g["kind"], tuple(parse_face(c) for c in g["cards"])) for g in raw]
    free = [c for g in groups if g.kind == "free" for c in g.cards]
    groups = [g for g in groups if g.kind != "free"]
    if free:
        groups.insert(len([g for g in groups if g.kind is not None]), Group("free", tuple(free)))
    spare = arrangement.get("discard")
    if isinstance(spare, str):
        groups.append(Group("spare", (parse_face(spare),)))
    return groups


def hand_markup(groups: Sequence[Group], wild: int, cursor: int | None, ascii_only: bool,
                letters: bool) -> str:
    """The hand on a line (it wraps): each group's kind, then its cards; the card at ``cursor`` (counted over
    all the cards shown) in reverse; each card's letter before it when ``letters``."""
    parts = []
    i = 0
    for g in groups:
        kind = kind_word(g.kind)
        style = "green" if g.kind in ("pure", "impure", "set", "free") else "yellow"
        cards = []
        for face in g.cards:
            text = card_markup(face, wild, ascii_only)
            if i == cursor:
                text = f"[reverse]{text}[/]"
            if letters and i < len(CARD_LETTERS):
                text = f"[dim]{CARD_LETTERS[i]}[/]{text}"
            cards.append(text)
            i += 1
        parts.append(f"[{style}]{kind}:[/] " + " ".join(cards))
    return "  ".join(parts)


def wild_words(view: PlayerView, ascii_only: bool = False) -> str:
    """``7♦: every 7 is a joker`` (``JK: every ace is a joker`` when a printed joker was turned)."""
    if view.wild_card == JOKER:
        return _("JK: every ace is a joker")
    return _("{card}: every {rank} is a joker", card=face_symbol(view.wild_card, ascii_only), rank=rank_name(view.wild))


def top_markup(view: PlayerView, names: Sequence[str], ascii_only: bool = False) -> str:
    if not view.pile:
        return "[dim]" + _("empty") + "[/]"
    face, by = view.pile[-1]
    who = _("the open card") if by is None else _("from {name}", name=escape(short_name(names[by])))
    joker = " [magenta]" + _("(a joker!)") + "[/]" if is_joker(face, view.wild) else ""
    return f"{card_markup(face, view.wild, ascii_only)} ({who}){joker}"


def seat_markup(view: PlayerView, match: Match, names: Sequence[str], human: int, ascii_only: bool) -> str:
    """Every seat: the one to move marked, the dealer, cards in hand or how it left the deal, and the running
    total in a pool or deals match."""
    mark = ">" if ascii_only else "▶"
    totals = match.format.kind != "points"
    parts = []
    for seat in range(view.players):
        name = escape("You" if seat == human and names[seat] == "You" else short_name(names[seat]))
        if seat in match.tally.eliminated:
            parts.append("[dim]" + _("{name} out", name=name) + "[/]")
            continue
        status = view.status[seat]
        if view.to_move == seat and status == "in":
            name = f"[reverse]{mark}{name}[/]"
        if status is None:
            what = _("sits out")
        elif status == "in":
            what = str(view.hand_sizes[seat])
        else:
            what = status_word(status)
        dealer = "(d)" if seat == view.dealer else ""
        total = " " + _("{points}pt", points=match.totals[seat]) if totals else ""
        parts.append(f"{name}{dealer} {what}{total}")
    return " | ".join(parts)


def sheet_table(match: Match, names: Sequence[str], ascii_only: bool) -> Table:
    """Every deal so far: each seat's points (the winner's marked), then the totals (:func:`format_caption` says
    what they make)."""
    table = Table(box=box.ASCII2 if ascii_only else box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(_("deal"), justify="right")
    for name in names:
        table.add_column(escape(short_name(name)), justify="right")
    for i, r in enumerate(match.results, 1):
        cells = []
        for s in range(match.players):
            points = r.points.points[s]
            if points is None:
                cells.append("[dim]-[/]")
            elif s == r.points.winner:
                cells.append("[green]" + _("{points} won", points=points) + "[/]")
            else:
                mark = " d" if s in r.points.dropped else " w" if s in r.points.wrong else ""
                cells.append(f"{points}{mark}")
        table.add_row(str(i), *cells)
    table.add_section()
    table.add_row(_("total"), *[f"[b]{t}[/]" for t in match.totals])
    return table


def format_caption(match: Match, names: Sequence[str]) -> str:
    """What the match's format makes of the totals (d: a drop, w: a wrong declaration)."""
    f = match.format
    if f.kind == "points":
        text = _("Points: one deal; the losers' points are paid to the winner")
    elif f.kind == "pool":
        out = ", ".join(_("{name} (deal {number})", name=short_name(names[s]), number=d)
                        for s, d in sorted(match.tally.eliminated.items()))
        text = (_("Pool {limit}: a total of {limit} puts a player out; out: {names}", limit=f.limit, names=out) if out
                else _("Pool {limit}: a total of {limit} puts a player out", limit=f.limit))
    else:
        number = min(len(match.results), f.deals)
        text = (_("Deals {deals}: deal {number} of {deals}; the lowest total wins (tie-break deals)", deals=f.deals,
                  number=number) if len(match.results) > f.deals else
                _("Deals {deals}: deal {number} of {deals}; the lowest total wins", deals=f.deals, number=number))
    return text + " · " + _("d: dropped, w: wrong declaration")


def result_line(match: Match, names: Sequence[str]) -> str:
    """How the last finished deal ended, in a sentence."""
    r = match.results[-1]
    p = r.points
    winner = escape(short_name(names[p.winner]))
    over = "[b]" + _("Deal {number} is over", number=len(match.results)) + "[/]: "
    if winner == "You":
        return over + (_("You win with a valid declaration") if p.declared else _("You win as the last player left"))
    return over + (_("{name} wins with a valid declaration", name=winner) if p.declared else
                   _("{name} wins as the last player left", name=winner))


def verdict(match: Match, names: Sequence[str], human: int) -> str:
    winner = match.winner
    if winner is None:
        return ""
    if winner == human:
        return _("You win the match!")
    return _("{name} wins the match.", name=short_name(names[winner]))
