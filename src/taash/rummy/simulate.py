"""Random matches of 13-card Rummy: legal actions drawn at random, all chance from one seed.

Uniformly random turns would almost never declare, so the random player has a few sensible habits that make
deals end: it declares whenever its 14 cards hold a valid declaration, drops now and then (more often as a deal
goes on), declares wrongly very rarely, and discards either any card or a card with no neighbour in its hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from taash.packs import JOKER
from taash.rummy.deal import Action, Deal, Declare, Discard, Drop, Phase, Take
from taash.rummy.match import Format, Match
from taash.rummy.record import GameRecord, record_of
from taash.rummy.rules import Rules

#: Chance of a drop at a turn's start (plus a little more for every turn the deal has lasted).
DROP = 0.01
#: Chance of a wrong declaration instead of a discard.
WRONG = 0.003
#: Chance of discarding any card rather than one with no neighbour.
ANY_DISCARD = 0.4


@dataclass(slots=True)
class SimulatedMatch:
    """A finished random match."""

    match: Match

    def record(self, names: list[str] | None = None) -> GameRecord:
        return record_of(self.match, names)


def _lonely(hand: Sequence[int], allowed: Sequence[int], wild: int) -> list[int]:
    """Allowed discards with no card of the same rank or of the same suit within two ranks in the hand (jokers
    kept)."""
    out = []
    for face in allowed:
        if face == JOKER or face % 13 == wild:
            continue
        suit, rank = divmod(face, 13)
        others = list(hand)
        others.remove(face)
        if not any(o != JOKER and (o % 13 == rank or (o // 13 == suit and abs(o % 13 - rank) <= 2)) for o in others):
            out.append(face)
    return out


def random_action(deal: Deal, chooser: random.Random) -> Action:
    """The random player's action for the seat to move."""
    legal = deal.legal_actions()
    if deal.phase is Phase.TAKE:
        if chooser.random() < DROP + len(deal.turns) / 3000:
            return Drop()
        takes = [a for a in legal if isinstance(a, Take)]
        if not takes:
            return Drop()
        return takes[0] if len(takes) == 1 or chooser.random() < 0.7 else takes[1]
    hand = deal.hands[deal.to_move]
    declaration = next((a for a in legal if isinstance(a, Declare)), None)
    if declaration is not None:
        return declaration
    if chooser.random() < WRONG:
        finish = chooser.choice(hand)
        rest = list(hand)
        rest.remove(finish)
        chooser.shuffle(rest)
        return Declare(finish, (tuple(rest[:4]), tuple(rest[4:8]), tuple(rest[8:])))
    allowed = [a.card for a in legal if isinstance(a, Discard)]
    lonely = _lonely(hand, allowed, deal.wild)
    if lonely and chooser.random() >= ANY_DISCARD:
        return Discard(chooser.choice(lonely))
    return Discard(chooser.choice(allowed))


def play_match(match: Match, chooser: random.Random, on_deal: Callable[[], None] | None = None) -> Match:
    """Play ``match`` to its end with random actions."""
    while True:
        deal = match.deal
        while not deal.over:
            match.act(random_action(deal, chooser))
        if on_deal:
            on_deal()
        if match.over:
            return match
        match.next_deal()


def random_matches(rules: Rules, players: int, fmt: str | Format, matches: int, seed: int,
                   on_deal: Callable[[], None] | None = None) -> Iterator[SimulatedMatch]:
    """Play ``matches`` random matches; match ``k`` deals from seed ``seed + k``, and the actions come from
    ``random.Random(seed)``."""
    chooser = random.Random(seed)
    for k in range(matches):
        yield SimulatedMatch(play_match(Match(rules, players, fmt, seed + k), chooser, on_deal))
