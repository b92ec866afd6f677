"""13-card Rummy's help in the terminal (``?``): the keys, how hands and drops score under the rules in play and
what a declaration needs, the match's format, what each level's bots do, and every parameter of the rules; the
coach, the deal explained, the language."""

from __future__ import annotations

from taash.bots.rummy import LEVEL_WORDS
from taash.games.registry import levels
from taash.i18n import _
from taash.rummy.match import Format
from taash.rummy.rules import Rules, preset_name
from taash.tui.shell import guide_lines, shared_key_lines
from taash.tui.widgets import rules_lines


def key_lines() -> list[str]:
    return [
        "  1 2 3     " + _("take from the stock, take from the discard pile, drop"),
        "  ← → a-p   " + _("then a card: 1 discards it, 2 declares with it"),
        *shared_key_lines(10),
    ]


def scoring_lines(rules: Rules) -> list[str]:
    if not rules.runs_required:
        needs = _("A valid declaration: every card in runs and sets.")
    elif rules.long_run:
        needs = _("A valid declaration: every card in runs and sets, with at least {runs} runs ({pure} of them "
                  "pure); one run of 4 cards or more.", runs=rules.runs_required, pure=rules.pure_runs_required)
    else:
        needs = _("A valid declaration: every card in runs and sets, with at least {runs} runs ({pure} of them "
                  "pure).", runs=rules.runs_required, pure=rules.pure_runs_required)
    return ["  " + line for line in (
        needs,
        _("Cards outside melds score: tens and faces 10, two to nine their rank, aces {ace}, jokers 0; a hand "
          "scores at most {most}.", ace=rules.ace_points, most=rules.max_points),
        _("A first drop (before taking a card) costs {first}, a middle drop {middle}, a wrong declaration "
          "{wrong}.", first=rules.first_drop, middle=rules.middle_drop, wrong=rules.wrong_declaration),
    )]


def format_words(fmt: Format) -> str:
    if fmt.kind == "pool" and fmt.drops:
        return _("Pool {limit}: a total of {limit} puts a player out; the last one in wins; drops cost {first} and "
                 "{middle}", limit=fmt.limit, first=fmt.drops[0], middle=fmt.drops[1])
    if fmt.kind == "pool":
        return _("Pool {limit}: a total of {limit} puts a player out; the last one in wins", limit=fmt.limit)
    if fmt.kind == "deals":
        return _("Deals {deals}: the lowest total after {deals} deals wins", deals=fmt.deals)
    return _("points: one deal, the losers' points paid to the winner")


def help_lines(rules: Rules, fmt: Format) -> list[str]:
    """The help's lines (Rich markup)."""
    return ["[b]" + _("Keys") + "[/]", *key_lines(), "", *about_lines(rules, fmt)]


def about_lines(rules: Rules, fmt: Format) -> list[str]:
    """The help but its keys (Rich markup): the scoring, the match's format, the levels, the rules in play, the
    coach, the deal explained, the language; the plain game's ``?`` says these after its own commands."""
    offered = [f"  {level}: {_(LEVEL_WORDS[level])}" for level in levels("rummy")]
    return ["[b]" + _("Scoring") + "[/]", *scoring_lines(rules),
            "  " + _("This match: {format}.", format=format_words(fmt)), "",
            "[b]" + _("The bots' levels") + "[/]", *offered, "",
            "[b]" + _("The rules in play: {preset}, every parameter:", preset=preset_name(rules.preset)) + "[/]",
            *rules_lines(rules), "", *guide_lines()]
