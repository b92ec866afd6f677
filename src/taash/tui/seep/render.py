"""Text for the terminal screens: cards in colour, the floor, hands, captured piles (Rich markup, no widgets); the
floor's words in the language spoken."""

from __future__ import annotations

from collections.abc import Callable

from taash.cards import card_symbol, cards_of
from taash.i18n import _, ngettext
from taash.seep.deal import card_points
from taash.seep.describe import house_word
from taash.seep.plays import House
from taash.seep.rules import Rules
from taash.seep.values import VALUE_MASK

RED_SUITS = (1, 2)  # hearts, diamonds


def card_markup(c: int, ascii_only: bool = False) -> str:
    """A card with its suit's colour: red hearts and diamonds, bold spades and clubs."""
    text = card_symbol(c, ascii_only)
    return f"[bold red]{text}[/]" if c // 13 in RED_SUITS else f"[bold]{text}[/]"


def cards_markup(mask: int, ascii_only: bool = False) -> str:
    return " ".join(card_markup(c, ascii_only) for c in cards_of(mask)) if mask else "[dim]" + _("none") + "[/]"


def house_line(value: int, house: House, who: Callable[[int], str], players: int, ascii_only: bool) -> str:
    """``King house (13): K♠ 8♥ 5♦, cemented, owners You, Partner``."""
    cards, cemented, owners = house
    names = ", ".join(who(s) for s in range(players) if owners >> s & 1)
    state = "[green]" + _("cemented") + "[/]" if cemented else _("ordinary")
    label = _("{house} house", house=house_word(value).capitalize())
    return (f"[b]{label}[/] ({value}): {cards_markup(cards, ascii_only)}  {state}, "
            + ngettext("owner: {names}", "owners: {names}", owners.bit_count(), names=names))


def floor_lines(loose: int, houses: dict[int, House], who: Callable[[int], str], players: int,
                ascii_only: bool) -> list[str]:
    lines = ["[b]" + _("Floor") + "[/]  " + _("loose: {cards}", cards=cards_markup(loose, ascii_only))]
    lines.extend("  " + house_line(v, houses[v], who, players, ascii_only) for v in sorted(houses))
    return lines


def pile_line(name: str, rules: Rules, pile: int, sweep_points: int, sweeps: int) -> str:
    """``Us 14 cards 23 pts, 1 sweep +50``."""
    cards = ngettext("{n} card", "{n} cards", pile.bit_count())
    worth = ngettext("{n} pt", "{n} pts", card_points(rules, pile))
    if sweeps:
        return f"[b]{name}[/] " + _("{cards} {points}, {sweeps} +{sweep_points}", cards=cards, points=worth,
                                    sweeps=ngettext("{n} sweep", "{n} sweeps", sweeps), sweep_points=sweep_points)
    return f"[b]{name}[/] " + _("{cards} {points}", cards=cards, points=worth)


def held_values(hand: int) -> dict[int, int]:
    """How many cards of each house value a hand holds."""
    return {v: (hand & VALUE_MASK[v]).bit_count() for v in range(9, 14) if hand & VALUE_MASK[v]}
