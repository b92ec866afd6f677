"""Rich tables for Seep matches: a match's score sheet and the summary of a simulation."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich import box
from rich.table import Table

from taash.i18n import _, ngettext, pgettext
from taash.seep.match import DealResult, Match

SEATS = {4: ("North", "West", "South", "East"), 2: ("P1", "P2")}
TEAMS = {4: ("NS", "EW"), 2: ("P1", "P2")}
TEAM_NAMES = {4: ("North-South", "East-West"), 2: ("Player 1", "Player 2")}


def _lead(difference: int, teams: tuple[str, str]) -> str:
    if difference == 0:
        return pgettext("lead", "level")
    return f"{teams[0 if difference > 0 else 1]} +{abs(difference)}"


def score_sheet(match: Match, teams: tuple[str, str] | None = None, seats: list[str] | None = None,
                caption: str | None = None) -> Table:
    """Per deal: the dealer, both teams' card points (Satthi and majority included), sweep points and deal scores,
    the lead after it, any baazi.

    ``teams`` and ``seats`` name the two sides and the seats (North-South, East-West and the compass by default).
    Fits an 80-column terminal.
    """
    players = match.players
    named = teams
    teams = teams or TEAMS[players]
    seat_names = seats or SEATS[players]
    pair = ":".join(teams)
    table = Table(box=box.SIMPLE_HEAD, caption=caption or _outcome(match, named),
                  caption_justify="left")
    table.add_column("#", justify="right")
    table.add_column(_("dealer"))
    table.add_column(_("card pts") + f"\n{pair}", justify="center")  # points, not a count of cards
    table.add_column(_("sweeps") + f"\n{pair}", justify="center")
    table.add_column(_("score") + f"\n{pair}", justify="center", style="bold")
    table.add_column(_("lead\nafter"), justify="right")
    table.add_column(_("baazi"))
    for i, r in enumerate(match.results, 1):
        card, sweep, score = r.score.card_points, r.score.sweep_points, r.score.score
        baazi = ""
        if r.baazi is not None:
            baazi = f"[green]{teams[r.baazi]}[/]" + (" " + _("(minimum rule)") if r.minimum_rule else "")
        lead = _lead(r.difference, teams)
        table.add_row(str(i), seat_names[r.dealer], f"{card[0]}:{card[1]}", f"{sweep[0]}:{sweep[1]}",
                      f"{score[0]}:{score[1]}", lead, baazi)
    return table


def _outcome(match: Match, teams: tuple[str, str] | None = None) -> str:
    names = teams or TEAM_NAMES[match.players]
    deals = ngettext("{n} deal", "{n} deals", len(match.results))
    if not match.over:
        return _("Cut short after {deals} (baazis {a}:{b}).", deals=deals, a=match.baazis[0], b=match.baazis[1])
    winner = match.winner()
    if winner is None:
        return _("A draw, in {deals}.", deals=deals)
    name = f"[bold]{names[winner]}[/]"
    several = match.players == 4 or teams
    if match.baazis_to_win == 0:
        return _("{names} win the deal.", names=name) if several else _("{name} wins the deal.", name=name)
    a, b = match.baazis[winner], match.baazis[1 - winner]
    return (_("{names} win {a}:{b} in {deals}.", names=name, a=a, b=b, deals=deals) if several else
            _("{name} wins {a}:{b} in {deals}.", name=name, a=a, b=b, deals=deals))


@dataclass(slots=True)
class Summary:
    """Running totals over the matches of a simulation, kept as they finish."""

    players: int
    matches: int = 0
    unfinished: int = 0
    draws: int = 0
    deals: int = 0
    won: list[int] = field(default_factory=lambda: [0, 0])
    baazis: list[int] = field(default_factory=lambda: [0, 0])
    minimum_rule: list[int] = field(default_factory=lambda: [0, 0])
    deals_won: list[int] = field(default_factory=lambda: [0, 0])
    score: list[int] = field(default_factory=lambda: [0, 0])
    sweep_points: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, match: Match) -> None:
        self.matches += 1
        winner = match.winner()
        if not match.over:
            self.unfinished += 1
        elif winner is None:
            self.draws += 1
        else:
            self.won[winner] += 1
        for r in match.results:
            self._add_deal(r)

    def _add_deal(self, r: DealResult) -> None:
        self.deals += 1
        a, b = r.score.score
        if a != b:
            self.deals_won[0 if a > b else 1] += 1
        if r.baazi is not None:
            self.baazis[r.baazi] += 1
            if r.minimum_rule:
                self.minimum_rule[r.baazi] += 1
        for t in (0, 1):
            self.score[t] += r.score.score[t]
            self.sweep_points[t] += r.score.sweep_points[t]

    def table(self) -> Table:
        table = Table(box=box.SIMPLE_HEAD)
        table.add_column("")
        for name in TEAMS[self.players]:
            table.add_column(name, justify="right")
        n = max(1, self.deals)
        table.add_row("matches won", *map(str, self.won))
        table.add_row("baazis", *map(str, self.baazis))
        table.add_row("  of them by the minimum rule", *map(str, self.minimum_rule))
        table.add_row("deals won", *map(str, self.deals_won))
        table.add_row("mean deal score", *(f"{s / n:.1f}" for s in self.score))
        table.add_row("mean sweep points", *(f"{s / n:.1f}" for s in self.sweep_points))
        return table

    def caption(self) -> str:
        notes = [f"{n} {what}" for n, what in ((self.draws, "drawn"), (self.unfinished, "cut short")) if n]
        matches = f"{self.matches} match{'es' * (self.matches != 1)}" + (f" ({', '.join(notes)})" if notes else "")
        return f"{matches}, {self.deals} deal{'s' * (self.deals != 1)}"
