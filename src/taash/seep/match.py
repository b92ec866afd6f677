"""A match of Seep: deals one after another, the minimum rule, baazis and who deals next (section 6).

The match owns the only random generator, ``random.Random(seed)``: the same seed gives the same match. A server's
table deals by :mod:`taash.fairness` instead (a :class:`~taash.fairness.Fairness` given to the match): the first
dealer and every pack, redeals included, come from its committed secret (:func:`fair_deck`). Each deal
also keeps how it was dealt (:class:`Dealt`), and a match can be rebuilt from those instead of from its seed alone:
a server that stores them continues its tables exactly even after an upgrade that shuffles differently.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import count

from taash.fairness import Fairness
from taash.seep.deal import Deal, DealScore, deal_problem, shuffled_pack
from taash.seep.errors import IllegalPlayError
from taash.seep.plays import Play
from taash.seep.rules import Rules
from taash.seep.view import PlayerView, view_of


@dataclass(frozen=True, slots=True)
class DealResult:
    """One finished deal as the score sheet shows it."""

    dealer: int
    score: DealScore
    #: Running difference (team 0 minus team 1) after the deal; 0 after a baazi.
    difference: int
    #: The team that won a baazi with this deal, or None.
    baazi: int | None
    #: True when the baazi came from the minimum rule.
    minimum_rule: bool = False


@dataclass(frozen=True, slots=True)
class Dealt:
    """How one deal of a match was dealt: its dealer, its pack (top card first) and why the pack was shuffled
    again before it, one reason per redeal (section 4.2, 7.1)."""

    dealer: int
    deck: tuple[int, ...]
    redeals: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoreStep:
    """What one deal's score does to the running score."""

    difference: int
    baazi: int | None
    minimum_rule: bool


def score_deal(rules: Rules, difference: int, score: tuple[int, int]) -> ScoreStep:
    """Apply a deal's scores to the running difference: the minimum rule first, then the baazi lead (6.1)."""
    if rules.minimum_deal_score:
        low = [team for team in (0, 1) if score[team] < rules.minimum_deal_score]
        if len(low) == 1:
            return ScoreStep(0, 1 - low[0], True)
    difference += score[0] - score[1]
    if abs(difference) >= rules.baazi_lead:
        return ScoreStep(0, 0 if difference > 0 else 1, False)
    return ScoreStep(difference, None, False)


def next_dealer(players: int, dealer: int, difference: int, baazi: int | None) -> int:
    """Who deals after a deal dealt by ``dealer`` that left ``difference`` and won ``baazi`` (6.2, R6)."""
    team = dealer % 2
    if players == 2:
        if baazi is not None:
            return 1 - baazi  # the loser of the baazi deals
        if difference == 0:
            return dealer
        return 0 if difference < 0 else 1  # the player behind deals
    if baazi is not None:
        would = (dealer + 1) % 4 if baazi == team else dealer
        return (would + 2) % 4
    ahead = difference > 0 if team == 0 else difference < 0
    return (dealer + 1) % 4 if ahead else dealer


#: The order of the 52 cards before fair dealing shuffles them (the card numbers of :mod:`taash.cards`).
_CARD_ORDER = range(52)


def fair_deck(rules: Rules, players: int, fairness: Fairness, deal: int) -> tuple[list[int], list[str]]:
    """Deal ``deal``'s pack (from 1) as fair dealing shuffles it: the 52 cards in card order (spades, hearts,
    diamonds, clubs, each ace to king) shuffled by the ``pack`` draw 0, then again by draw 1, 2, ... while the
    rules call for a redeal (4.2, 7.1); with the reason for each redeal."""
    redeals: list[str] = []
    for index in count():
        deck = list(_CARD_ORDER)
        fairness.shuffle(deck, deal, "pack", index)
        problem = deal_problem(rules, players, deck)
        if problem is None:
            break
        redeals.append(problem)
    return deck, redeals


class Match:
    """A match: first to ``baazis_to_win`` baazis, or a single deal when ``baazis_to_win`` is 0."""

    def __init__(self, rules: Rules, players: int = 4, seed: int = 0, baazis_to_win: int = 1,
                 first_dealer: int | None = None, dealt: Sequence[Dealt] = (), fairness: Fairness | None = None):
        """``dealt``: how the first deals were dealt (from :attr:`dealt` of the same match before); deal ``i`` then
        takes its dealer and pack from ``dealt[i]`` instead of from the seed. The generator still shuffles for it,
        so deals beyond those given come from the seed as if none had been given. ``fairness``: the first dealer
        and every pack come from it (:func:`fair_deck`) rather than from the seed."""
        if players not in (2, 4):
            raise ValueError("Seep is played by 2 or 4 players")
        if baazis_to_win < 0:
            raise ValueError("baazis to win must be 0 (a single deal) or more")
        self.rules = rules
        self.players = players
        self.seed = seed
        self.baazis_to_win = baazis_to_win
        self.rng = random.Random(seed)
        self.fairness = fairness
        if first_dealer is not None:
            dealer = first_dealer
        else:
            dealer = self.rng.randrange(players) if fairness is None else fairness.first_dealer(players)
        self.results: list[DealResult] = []
        self.difference = 0
        self.baazis = [0, 0]
        #: Why the pack was shuffled again before the deal in progress (section 4.2, 7.1), one reason per redeal.
        self.redeals: list[str] = []
        #: How each deal so far was dealt, the one in progress last.
        self.dealt: list[Dealt] = []
        #: The finished deals before the one in progress, in order (they no longer change).
        self.past: list[Deal] = []
        self._given = list(dealt)
        for d in self._given:
            if d.dealer not in range(players) or sorted(d.deck) != list(range(52)):
                raise ValueError(f"a dealt pack must be the 52 cards and its dealer a seat, not {d!r}")
        self.deal = self._shuffle(dealer)

    def _shuffle(self, dealer: int) -> Deal:
        """A new deal, shuffled again (and the reason kept) until no redeal is needed; as :meth:`Deal.shuffled`.
        A deal given to the constructor replaces what was shuffled."""
        if self.fairness is not None:
            deck, self.redeals = fair_deck(self.rules, self.players, self.fairness, len(self.dealt) + 1)
        else:
            deck, self.redeals = self._seeded_deck()
        if len(self._given) > len(self.dealt):
            given = self._given[len(self.dealt)]
            dealer, deck, self.redeals = given.dealer, list(given.deck), list(given.redeals)
        self.dealt.append(Dealt(dealer, tuple(deck), tuple(self.redeals)))
        return Deal(self.rules, self.players, dealer, deck)

    def _seeded_deck(self) -> tuple[list[int], list[str]]:
        """A pack from the match's generator, shuffled again while a redeal is needed; with the reasons."""
        redeals: list[str] = []
        while True:
            deck = shuffled_pack(self.rng)
            problem = deal_problem(self.rules, self.players, deck)
            if problem is None:
                return deck, redeals
            redeals.append(problem)

    # -- forwarding to the deal in progress ----------------------------------------------------------------

    @property
    def to_move(self) -> int:
        return self.deal.to_move

    def legal_bids(self) -> list[int]:
        return self.deal.legal_bids()

    def legal_plays(self) -> list[Play]:
        return self.deal.legal_plays()

    def make_bid(self, value: int) -> None:
        self.deal.make_bid(value)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` sees of the deal in progress."""
        return view_of(self.deal, seat)

    def play(self, play: Play, check: bool = True) -> None:
        """Make a play; when it ends the deal, the deal is scored (call :meth:`next_deal` to go on)."""
        if self.over:
            raise IllegalPlayError("the match is over")
        self.deal.play(play, check)
        if self.deal.over:
            self._score()

    def played_out(self) -> None:
        """The deal in progress was played to its end outside :meth:`play` (by the compiled core): score it."""
        if not self.deal.over:
            raise IllegalPlayError("the deal in progress is not over")
        self._score()

    # -- between deals -------------------------------------------------------------------------------------

    def _score(self) -> None:
        score = self.deal.score()
        step = score_deal(self.rules, self.difference, score.score)
        self.difference = step.difference
        if step.baazi is not None:
            self.baazis[step.baazi] += 1
        self.results.append(DealResult(self.deal.dealer, score, step.difference, step.baazi, step.minimum_rule))

    @property
    def over(self) -> bool:
        """Whether the match is decided."""
        if self.baazis_to_win == 0:
            return bool(self.results)
        return max(self.baazis) >= self.baazis_to_win

    def winner(self) -> int | None:
        """The winning team once the match is over (None for a drawn single deal or a match in progress)."""
        if not self.over:
            return None
        if self.baazis_to_win == 0:
            a, b = self.results[0].score.score
            return None if a == b else (0 if a > b else 1)
        return 0 if self.baazis[0] > self.baazis[1] else 1

    def next_deal(self) -> Deal:
        """Start the next deal (the previous one must be over and the match not)."""
        if not self.deal.over:
            raise IllegalPlayError("the deal in progress is not over")
        if self.over:
            raise IllegalPlayError("the match is over")
        last = self.results[-1]
        dealer = next_dealer(self.players, self.deal.dealer, last.difference, last.baazi)
        self.past.append(self.deal)
        self.deal = self._shuffle(dealer)
        return self.deal

    def clone(self) -> Match:
        """An independent copy (its random generator included)."""
        new = Match.__new__(Match)
        new.rules = self.rules
        new.players = self.players
        new.seed = self.seed
        new.fairness = self.fairness
        new.baazis_to_win = self.baazis_to_win
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.results = self.results[:]
        new.difference = self.difference
        new.baazis = self.baazis[:]
        new.deal = self.deal.clone()
        new.redeals = self.redeals[:]
        new.dealt = self.dealt[:]
        new.past = self.past[:]
        new._given = self._given
        return new
