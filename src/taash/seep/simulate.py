"""Random matches: every bid and play drawn uniformly from the legal ones, all chance from one seed."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from taash.seep.core import compiled, set_state, state_of
from taash.seep.match import Match
from taash.seep.record import DealRecord, GameRecord
from taash.seep.rules import Rules


@dataclass(slots=True)
class SimulatedMatch:
    """A finished (or cut short) random match and its record."""

    match: Match
    past: list[DealRecord] = field(default_factory=list)

    def record(self, names: list[str] | None = None) -> GameRecord:
        """The game record of every deal played (each one finished)."""
        return GameRecord(self.match.rules, self.match.players, list(self.past), names)


def random_matches(rules: Rules, players: int, deals: int, seed: int, baazis_to_win: int = 1,
                   on_deal: Callable[[], None] | None = None, matches: int = 0) -> Iterator[SimulatedMatch]:
    """Play random matches until ``deals`` deals (or ``matches`` matches, when not 0) are done; the last match
    may stop short of its end.

    Match ``k`` uses seed ``seed + k`` for its cards; bids and plays come from ``random.Random(seed)``.
    """
    chooser = random.Random(seed)
    done = 0
    k = 0
    while done < deals and (not matches or k < matches):
        match = Match(rules, players, seed + k, baazis_to_win)
        sim = SimulatedMatch(match)
        while done < deals:
            deal = match.deal
            deal.make_bid(chooser.choice(deal.legal_bids()))
            play_to_end(match, chooser)
            sim.past.append(DealRecord(deal.dealer, list(deal.deck), deal.bid, list(deal.plays)))
            done += 1
            if on_deal:
                on_deal()
            if match.over:
                break
            if done < deals:
                match.next_deal()
        yield sim
        k += 1


def play_to_end(match: Match, chooser: random.Random) -> None:
    """Play the deal in progress to its end, each play ``legal[chooser.randrange(len(legal))]``, and score it.

    On the compiled core the whole play-out runs in C, drawing from ``chooser``'s own random stream: the same
    plays, the same deal at its end and the same state of ``chooser`` after as on the pure core.
    """
    deal = match.deal
    if compiled is None:
        while not deal.over:
            legal = deal.legal_plays()
            match.play(legal[chooser.randrange(len(legal))], check=False)
        return
    state, (out,) = compiled.play_out(deal.core_state(), state_of(chooser), 1, True, True)
    set_state(chooser, state)
    deal.take_play_out(out)
    match.played_out()
