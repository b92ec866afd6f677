"""Seep's help in the terminal (``?``): the keys, how a deal scores under the rules in play, what each level's
bots do, and every parameter of those rules (a rules file's included)."""

from __future__ import annotations

from taash.bots.base import LEVELS
from taash.bots.seep import LEVEL_WORDS
from taash.cards import card_symbol, parse_card
from taash.seep.rules import Rules
from taash.tui.widgets import rules_lines

KEYS = [
    "  ← →            a card of your hand: its plays are listed below it",
    "  ↑ ↓ Enter 1-9  make one of them (in the bid: choose the bid)",
    "  h              a hint: the hard bot's choice and why",
    "  u              undo your last move and the bots' replies",
    "  s save   q save and quit   ? or Esc  back to the game",
]


def scoring_lines(rules: Rules, ascii_only: bool = False) -> list[str]:
    cards = ", ".join(f"{card_symbol(parse_card(name), ascii_only)} {points}"
                      for name, points in rules.card_points.items() if points)
    lines = [f"  Card points: {cards} ({rules.total_card_points} in all); other cards score nothing."]
    if rules.majority_points:
        lines.append(f"  {rules.majority_points} more to the team that captures more than 26 cards.")
    if rules.sweep_scores_card_value:
        lines.append("  A sweep scores the capture value of the card that made it.")
    else:
        lines.append(f"  A sweep scores {rules.sweep_points} ({rules.bid_sweep_points} when the bid play makes it).")
    lines.append(f"  A sweep by the deal's last play scores {rules.last_sweep_points}.")
    if rules.satthi_points:
        lines.append(f"  A team that takes every card point scores {rules.satthi_points} (Satthi).")
    if rules.minimum_deal_score:
        lines.append(f"  A team that scores less than {rules.minimum_deal_score} in a deal loses a baazi at once.")
    lines.append(f"  A running lead of {rules.baazi_lead} points wins a baazi; the lead then starts again.")
    return lines


def help_lines(rules: Rules, ascii_only: bool = False) -> list[str]:
    """The help's lines (Rich markup)."""
    levels = [f"  {level}: {LEVEL_WORDS[level]}" for level in LEVELS]
    return ["[b]Keys[/]", *KEYS, "", "[b]Scoring[/]", *scoring_lines(rules, ascii_only), "",
            "[b]The bots' levels[/]", *levels, "", f"[b]The rules in play[/]: {rules.preset}, every parameter:",
            *rules_lines(rules)]
