"""Seep's help in the terminal (``?``): the keys, how a deal scores under the rules in play, what each level's
bots do, and every parameter of those rules (a rules file's included); the coach, the deal explained, the language."""

from __future__ import annotations

from taash.bots.seep import LEVEL_WORDS
from taash.cards import card_symbol, parse_card
from taash.games.registry import levels
from taash.i18n import _
from taash.seep.rules import Rules, preset_name
from taash.tui.shell import guide_lines, shared_key_lines
from taash.tui.widgets import rules_lines


def key_lines() -> list[str]:
    return [
        "  ← →            " + _("a card of your hand: its plays are listed below it"),
        "  ↑ ↓ Enter 1-9  " + _("make one of them (in the bid: choose the bid)"),
        *shared_key_lines(15),
    ]


def scoring_lines(rules: Rules, ascii_only: bool = False) -> list[str]:
    cards = ", ".join(f"{card_symbol(parse_card(name), ascii_only)} {points}"
                      for name, points in rules.card_points.items() if points)
    lines = [_("Card points: {cards} ({total} in all); other cards score nothing.", cards=cards,
               total=rules.total_card_points)]
    if rules.majority_points:
        lines.append(_("{points} more to the team that captures more than 26 cards.", points=rules.majority_points))
    lines.append(_("A sweep scores the capture value of the card that made it.") if rules.sweep_scores_card_value
                 else _("A sweep scores {points} ({bid} when the bid play makes it).", points=rules.sweep_points,
                        bid=rules.bid_sweep_points))
    lines.append(_("A sweep by the deal's last play scores {points}.", points=rules.last_sweep_points))
    if rules.satthi_points:
        lines.append(_("A team that takes every card point scores {points} (Satthi).", points=rules.satthi_points))
    if rules.minimum_deal_score:
        lines.append(_("A team that scores less than {points} in a deal loses a baazi at once.",
                       points=rules.minimum_deal_score))
    lines.append(_("A running lead of {points} points wins a baazi; the lead then starts again.",
                   points=rules.baazi_lead))
    return ["  " + line for line in lines]


def help_lines(rules: Rules, ascii_only: bool = False) -> list[str]:
    """The help's lines (Rich markup)."""
    return ["[b]" + _("Keys") + "[/]", *key_lines(), "", *about_lines(rules, ascii_only)]


def about_lines(rules: Rules, ascii_only: bool = False) -> list[str]:
    """The help but its keys (Rich markup): the scoring, the levels, the rules in play, the coach, the deal
    explained, the language; the plain game's ``?`` says these after its own commands."""
    offered = [f"  {level}: {_(LEVEL_WORDS[level])}" for level in levels("seep")]
    return ["[b]" + _("Scoring") + "[/]", *scoring_lines(rules, ascii_only), "",
            "[b]" + _("The bots' levels") + "[/]", *offered, "",
            "[b]" + _("The rules in play: {preset}, every parameter:", preset=preset_name(rules.preset)) + "[/]",
            *rules_lines(rules), "", *guide_lines()]
