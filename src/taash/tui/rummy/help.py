"""13-card Rummy's help in the terminal (``?``): the keys, how hands and drops score under the rules in play and
what a declaration needs, the match's format, what each level's bots do, and every parameter of the rules."""

from __future__ import annotations

from taash.bots.base import LEVELS
from taash.bots.rummy import LEVEL_WORDS
from taash.rummy.match import Format
from taash.rummy.rules import Rules
from taash.tui.widgets import rules_lines

KEYS = [
    "  1 2 3     take from the stock, take from the discard pile, drop",
    "  ← → a-p   then a card: 1 discards it, 2 declares with it",
    "  h         a hint: the hard bot's choice and why",
    "  u         undo your last move and the bots' replies",
    "  s save   q save and quit   ? or Esc  back to the game",
]


def scoring_lines(rules: Rules) -> list[str]:
    pure = f"{rules.pure_runs_required} of them pure" if rules.pure_runs_required else "pure or not"
    long_run = "; one run of 4 cards or more" if rules.long_run else ""
    needs = (f"  A valid declaration: every card in runs and sets, with at least {rules.runs_required} runs "
             f"({pure}){long_run}." if rules.runs_required else
             "  A valid declaration: every card in runs and sets.")
    return [
        needs,
        f"  Cards outside melds score: tens and faces 10, two to nine their rank, aces {rules.ace_points}, jokers 0;"
        f" a hand scores at most {rules.max_points}.",
        f"  A first drop (before taking a card) costs {rules.first_drop}, a middle drop {rules.middle_drop}, a "
        f"wrong declaration {rules.wrong_declaration}.",
    ]


def format_words(fmt: Format) -> str:
    if fmt.kind == "pool":
        drops = f"; drops cost {fmt.drops[0]} and {fmt.drops[1]}" if fmt.drops else ""
        return f"Pool {fmt.limit}: a total of {fmt.limit} puts a player out; the last one in wins{drops}"
    if fmt.kind == "deals":
        return f"Deals {fmt.deals}: the lowest total after {fmt.deals} deals wins"
    return "points: one deal, the losers' points paid to the winner"


def help_lines(rules: Rules, fmt: Format) -> list[str]:
    """The help's lines (Rich markup)."""
    match_format = format_words(fmt)
    levels = [f"  {level}: {LEVEL_WORDS[level]}" for level in LEVELS]
    return ["[b]Keys[/]", *KEYS, "", "[b]Scoring[/]", *scoring_lines(rules), f"  This match: {match_format}.", "",
            "[b]The bots' levels[/]", *levels, "", f"[b]The rules in play[/]: {rules.preset}, every parameter:",
            *rules_lines(rules)]
