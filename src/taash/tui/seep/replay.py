"""``taash replay FILE``: step through a game record, every hand shown (the game is over, nothing is hidden).

Besides the hands, the floor and the plays in words, the screen tells why a pack was dealt again (when the save
file's seed shows it), the 2-player second half's deal, and the match so far: the baazis and the running lead
before the deal, and after it once it is over."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from rich.markup import escape
from rich.text import Text
from textual.binding import BindingType
from textual.widgets import Static

from taash.cli.seep_sheets import SEATS
from taash.seep.deal import Deal, card_points
from taash.seep.describe import (
    HOUSE_NAMES,
    card_points_notes,
    cards_text,
    describe_play,
    plural,
    points,
    redeal_reason,
)
from taash.seep.errors import SeepError
from taash.seep.match import DealResult
from taash.seep.notation import play_from_json
from taash.seep.plays import apply_play
from taash.seep.record import GameRecord, replay
from taash.tui.seep.render import cards_markup, floor_lines
from taash.tui.shell import ReplayShell, Step
from taash.tui.widgets import plain

#: Longest seat name shown (names in a record may be longer).
NAME_WIDTH = 14


def redeals_of(data: Any) -> list[tuple[str, ...]]:
    """Why each deal's pack was dealt again, for a save file of ``taash play``: a save of the tables says it of
    each deal; an older save (a record with its seed) shows it when its seed shuffles the match again. None for
    another record, or one whose packs its seed does not give."""
    from taash.tables.match import SAVE_KIND
    from taash.tui.seep.persons_match import PersonsMatch

    if isinstance(data, dict) and data.get("kind") == SAVE_KIND:
        try:
            return [tuple(json.loads(d["notes"])) for d in data["dealt"]]
        except (TypeError, KeyError, ValueError):
            return []
    if not isinstance(data, dict) or not isinstance(data.get("taash"), dict) or data["taash"].get("seed") is None:
        return []
    try:
        person = PersonsMatch.from_record(data)
    except (SeepError, ValueError):
        return []
    record = person.record()
    return [dealt.redeals if list(dealt.deck) == list(d.deck) else () for dealt, d in
            zip(person.match.dealt, record.deals, strict=False)]


def short(name: str) -> str:
    name = " ".join(name.split())
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1].rstrip() + "."


class Timeline:
    """Every position of every deal with a bid in a (checked) record."""

    def __init__(self, record: GameRecord, ascii_only: bool = False, redeals: list[tuple[str, ...]] | None = None):
        self.record = record
        players = record.players
        #: Each finished deal's result: its score, the running lead after it, any baazi.
        self.results: list[DealResult] = replay(record)
        #: Why each deal's pack was dealt again (in the words of the screen), where known.
        self.redeals = [[redeal_reason(p, ascii_only) for p in r] for r in redeals or []]
        names = list(record.names) if record.names else list(SEATS[players])
        self.names = [short(n) or f"Seat {i}" for i, n in enumerate(names)]
        bare = [n.removesuffix(" (bot)") for n in self.names]
        if players == 4:
            self.teams = (f"{bare[0]} & {bare[2]}", f"{bare[1]} & {bare[3]}")
        else:
            self.teams = (bare[0], bare[1])
        self.deals: list[list[Step[Deal]]] = []
        for d in record.deals:
            if not d.bid:
                continue
            deal = Deal(record.rules, players, d.dealer, list(d.deck))
            deal.make_bid(d.bid)
            bidder = self.names[deal.bidder]
            said = f"{bidder} bids {d.bid} ({HOUSE_NAMES[d.bid]}) on {cards_text(deal.hands[deal.bidder], ascii_only)}"
            redealt = self.redeals[len(self.deals)] if len(self.deals) < len(self.redeals) else []
            if redealt:  # one line for each time the pack was dealt again
                said = "\n".join(f"Dealt again: {why}" for why in redealt) + "\n" + said
            steps = [Step(deal.clone(), said)]
            for raw in d.plays:
                play = raw if isinstance(raw, tuple) else play_from_json(raw, deal.houses)
                seat, houses, loose = deal.to_move, dict(deal.houses), deal.loose
                sweeps = len(deal.sweeps)
                left = apply_play(play, seat, players, loose, dict(houses))[0]
                deal.play(play)
                said = f"{self.names[seat]}: {describe_play(play, houses, ascii_only)}"
                if len(deal.sweeps) > sweeps:
                    said += f": a sweep (+{deal.sweeps[-1][2]})"
                if deal.over and left:
                    to = self.teams[deal.last_capturer] if deal.last_capturer >= 0 else "no one"
                    said += f"; {cards_text(left, ascii_only)} left on the floor go to {to}"
                if players == 2 and len(deal.plays) == 24:
                    said += "; second half: 12 new cards each"
                steps.append(Step(deal.clone(), said))
            self.deals.append(steps)


class ReplayApp(ReplayShell[Timeline]):
    """Forwards and backwards through a record: ←/→ a play, ↑/↓ a deal, Home/End the ends of a deal."""

    PARTS = ("where", "hands", "floor", "said", "piles", "match")
    CSS = ReplayShell.REPLAY_CSS + """
    #floor { background: $surface; }
    """
    BINDINGS: ClassVar[list[BindingType]] = ReplayShell.bindings("play")

    def redraw(self) -> None:
        t = self.timeline
        steps = t.deals[self.deal_index]
        step = steps[self.step_index]
        deal = step.deal
        players = t.record.players
        names = [escape(n) for n in t.names]
        self.part("#where", Static).update(self.line(
            f" {escape(self.title_text)} · deal {self.deal_index + 1}/{len(t.deals)} · play {self.step_index}/"
            f"{len(steps) - 1}{'' if steps[-1].deal.over else ' (unfinished)'} · dealer {names[deal.dealer]}, "
            f"bid {deal.bid}"))
        hands = []
        for seat in range(players):
            turn = ">" if deal.to_move == seat and not deal.over else " "
            name = escape(f"{t.names[seat]:<{NAME_WIDTH}}")
            hands.append(f"{turn} [b]{name}[/] {cards_markup(deal.hands[seat], self.ascii_only)}")
        self.part("#hands", Static).update(self.line("\n".join(hands)))
        self.part("#floor", Static).update(self.line("\n".join(
            floor_lines(deal.loose, deal.houses, lambda s: names[s], players, self.ascii_only))))
        self.part("#said", Static).update(Text(" " + plain(step.said, self.ascii_only).replace("\n", "\n ")))
        teams = [escape(n) for n in t.teams]
        sweeps, sweep_points = [0, 0], [0, 0]
        for seat, _, won in deal.sweeps:
            sweeps[seat % 2] += 1
            sweep_points[seat % 2] += won
        piles = []
        for k in (0, 1):
            text = (f" [b]{teams[k]}[/]: {plural(deal.piles[k].bit_count(), 'card')}, "
                    f"{points(card_points(t.record.rules, deal.piles[k]), short=True)}")
            if sweeps[k]:
                text += f", {plural(sweeps[k], 'sweep')} +{sweep_points[k]}"
            piles.append(text)
        lines = "\n".join(piles)
        if deal.over:
            score = deal.score()
            lines += (f"\n [b]Deal score[/] {score.score[0]} : {score.score[1]} "
                      f"(card points {score.card_points[0]}:{score.card_points[1]}, "
                      f"sweeps {score.sweep_points[0]}:{score.sweep_points[1]})")
            lines += "".join(f"\n   {escape(note)}" for note in card_points_notes(t.record.rules, score, t.teams))
        self.part("#piles", Static).update(self.line(lines))
        self.part("#match", Static).update(self.line(self.match_text(deal.over)))

    def match_text(self, over: bool) -> str:
        """The match so far: the baazis and the running lead before this deal, and after it once it is over."""
        t = self.timeline
        teams = [escape(n) for n in t.teams]
        baazi_lead = t.record.rules.baazi_lead

        def standing(results: list[DealResult]) -> str:
            won = [sum(1 for r in results if r.baazi == k) for k in (0, 1)]
            difference = results[-1].difference if results else 0
            lead = "level" if difference == 0 else f"{teams[0 if difference > 0 else 1]} +{abs(difference)}"
            return f"baazis {won[0]}:{won[1]}, lead {lead}"

        text = f" [b]Match[/] before this deal: {standing(t.results[: self.deal_index])} (a baazi at {baazi_lead})"
        if over and self.deal_index < len(t.results):
            r = t.results[self.deal_index]
            text += f"\n [b]After it[/]: {standing(t.results[: self.deal_index + 1])}"
            if r.baazi is not None:
                text += f"; a baazi to {teams[r.baazi]}" + (" (the minimum rule)" if r.minimum_rule else "") + \
                    ", and the count starts again"
        return text
