"""``taash replay FILE``: step through a game record, every hand shown (the game is over, nothing is hidden).

Besides the hands, the floor and the plays in words, the screen tells why a pack was dealt again (when the save
file's seed shows it), the 2-player second half's deal, and the match so far: the baazis and the running lead
before the deal, and after it once it is over. Every line is said in the language spoken (``taash replay --lang``)."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from rich.markup import escape
from rich.text import Text
from textual.binding import BindingType
from textual.widgets import Static

from taash.cli.seep_sheets import SEATS
from taash.i18n import N_, _, ngettext, pgettext
from taash.seep.deal import Deal, card_points
from taash.seep.describe import (
    card_points_notes,
    cards_text,
    describe_play,
    house_word,
    redeal_reason,
)
from taash.seep.errors import SeepError
from taash.seep.match import DealResult
from taash.seep.notation import play_from_json
from taash.seep.plays import House, Play, apply_play
from taash.seep.record import GameRecord, replay
from taash.tables.names import bare_name, shown_name
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
        self.names = [short(shown_name(n)) or _("Seat {seat}", seat=i) for i, n in enumerate(names)]
        bare = [short(bare_name(n)) or _("Seat {seat}", seat=i) for i, n in enumerate(names)]
        if players == 4:
            self.teams = (_("{a} & {b}", a=bare[0], b=bare[2]), _("{a} & {b}", a=bare[1], b=bare[3]))
        else:
            self.teams = (bare[0], bare[1])
        self.deals: list[list[Step[Deal]]] = []
        for d in record.deals:
            if not d.bid:
                continue
            deal = Deal(record.rules, players, d.dealer, list(d.deck))
            deal.make_bid(d.bid)
            bidder = self.names[deal.bidder]
            said = _("{name} bids {bid} ({house}) on {cards}", name=bidder, bid=d.bid, house=house_word(d.bid),
                     cards=cards_text(deal.hands[deal.bidder], ascii_only))
            redealt = self.redeals[len(self.deals)] if len(self.deals) < len(self.redeals) else []
            if redealt:  # one line for each time the pack was dealt again
                said = "\n".join(_("Dealt again: {why}", why=why) for why in redealt) + "\n" + said
            steps = [Step(deal.clone(), said)]
            for raw in d.plays:
                play = raw if isinstance(raw, tuple) else play_from_json(raw, deal.houses)
                seat, houses, loose = deal.to_move, dict(deal.houses), deal.loose
                sweeps = len(deal.sweeps)
                left = apply_play(play, seat, players, loose, dict(houses))[0]
                deal.play(play)
                said = self.play_said(deal, seat, play, houses, left, len(deal.sweeps) > sweeps, ascii_only)
                steps.append(Step(deal.clone(), said))
            self.deals.append(steps)

    def play_said(self, deal: Deal, seat: int, play: Play, houses: dict[int, House], left: int, swept: bool,
                  ascii_only: bool) -> str:
        """A play in words, with the sweep it made, the cards left on the floor at the end of the deal and who
        takes them, and the second half's deal (of 2 players)."""
        name, words = self.names[seat], describe_play(play, houses, ascii_only)
        said = (_("{name}: {play}: a sweep (+{points})", name=name, play=words, points=deal.sweeps[-1][2]) if swept
                else _("{name}: {play}", name=name, play=words))
        if deal.over and left:
            to = self.teams[deal.last_capturer] if deal.last_capturer >= 0 else _("no one")
            said = _("{said}; {cards} left on the floor go to {to}", said=said, cards=cards_text(left, ascii_only),
                     to=to)
        if self.record.players == 2 and len(deal.plays) == 24:
            said = _("{said}; second half: 12 new cards each", said=said)
        return said


class ReplayApp(ReplayShell[Timeline]):
    """Forwards and backwards through a record: ←/→ a play, ↑/↓ a deal, Home/End the ends of a deal."""

    PARTS = ("where", "hands", "floor", "said", "piles", "match")
    CSS = ReplayShell.REPLAY_CSS + """
    #floor { background: $surface; }
    """
    BINDINGS: ClassVar[list[BindingType]] = ReplayShell.bindings(N_("play"))

    def redraw(self) -> None:
        t = self.timeline
        steps = t.deals[self.deal_index]
        step = steps[self.step_index]
        deal = step.deal
        players = t.record.players
        names = [escape(n) for n in t.names]
        where = dict(title=escape(self.title_text), deal=self.deal_index + 1, deals=len(t.deals),
                     play=self.step_index, plays=len(steps) - 1, dealer=names[deal.dealer], bid=deal.bid)
        self.part("#where", Static).update(self.line(" " + (
            _("{title} · deal {deal}/{deals} · play {play}/{plays} · dealer {dealer}, bid {bid}", **where)
            if steps[-1].deal.over else
            _("{title} · deal {deal}/{deals} · play {play}/{plays} (unfinished) · dealer {dealer}, bid {bid}",
              **where))))
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
        for seat, _card, won in deal.sweeps:
            sweeps[seat % 2] += 1
            sweep_points[seat % 2] += won
        piles = []
        for k in (0, 1):
            taken = ngettext("{n} card", "{n} cards", deal.piles[k].bit_count())
            worth = ngettext("{n} pt", "{n} pts", card_points(t.record.rules, deal.piles[k]))
            text = (_("{cards}, {points}, {sweeps} +{sweep_points}", cards=taken, points=worth,
                      sweeps=ngettext("{n} sweep", "{n} sweeps", sweeps[k]), sweep_points=sweep_points[k])
                    if sweeps[k] else _("{cards}, {points}", cards=taken, points=worth))
            piles.append(f" [b]{teams[k]}[/]: {text}")
        lines = "\n".join(piles)
        if deal.over:
            score = deal.score()
            lines += "\n [b]" + _("Deal score") + "[/] " + _(
                "{us} : {them} (card points {us_cards}:{them_cards}, sweeps {us_sweeps}:{them_sweeps})",
                us=score.score[0], them=score.score[1], us_cards=score.card_points[0],
                them_cards=score.card_points[1], us_sweeps=score.sweep_points[0], them_sweeps=score.sweep_points[1])
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
            leader = teams[0 if difference > 0 else 1]
            lead = pgettext("lead", "level") if difference == 0 else f"{leader} +{abs(difference)}"
            return _("baazis {us}:{them}, lead {lead}", us=won[0], them=won[1], lead=lead)

        text = " [b]" + _("Match") + "[/] " + _("before this deal: {standing} (a baazi at {lead})",
                                                standing=standing(t.results[: self.deal_index]), lead=baazi_lead)
        if over and self.deal_index < len(t.results):
            r = t.results[self.deal_index]
            after = standing(t.results[: self.deal_index + 1])
            if r.baazi is not None:
                after = (_("{standing}; a baazi to {team} (the minimum rule), and the count starts again",
                           standing=after, team=teams[r.baazi]) if r.minimum_rule else
                         _("{standing}; a baazi to {team}, and the count starts again", standing=after,
                           team=teams[r.baazi]))
            text += "\n [b]" + _("After it") + "[/]: " + after
        return text
