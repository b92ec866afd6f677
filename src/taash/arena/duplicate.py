"""Duplicate deals: each deck is played twice with the sides exchanged, so the luck of the cards cancels out.

Four players: bot A holds seats 0 and 2 and bot B seats 1 and 3, then the same deck (and dealer) is played again
with A and B exchanged. Two players: the same with one seat each. A pair's margin is A's deal score minus B's,
summed over both games of the pair.

The arena alone may also seat ``cheat`` (:class:`~taash.bots.cheat.CheatBot`), a search that sees every card, as
an upper bound for measurement: :func:`make_arena_bot` makes it and :func:`play_deal` hands it a copy of the whole
deal by an explicit path of its own. Players are never offered it (:func:`~taash.bots.base.make_bot` refuses it).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from taash.bots.base import Bot, construct, make_bot, parse_bot_spec
from taash.bots.cheat import CheatBot
from taash.seep.deal import Deal
from taash.seep.match import score_deal
from taash.seep.rules import Rules
from taash.seep.view import view_of

#: Bots for measurement only, that the arena hands the whole deal: never offered to a player.
FULL_INFORMATION_BOTS: dict[str, type[CheatBot]] = {"cheat": CheatBot}


def make_arena_bot(name: str, seed: int) -> Bot | CheatBot:
    """A bot for the arena: any of :func:`~taash.bots.base.make_bot`'s, or a full-information one (``cheat``)."""
    base, settings = parse_bot_spec(name)
    if base in FULL_INFORMATION_BOTS:
        bot: CheatBot = construct(FULL_INFORMATION_BOTS[base], name, seed, settings)
        return bot
    return make_bot(name, seed)


def play_deal(deal: Deal, bots: Sequence[Bot | CheatBot], times: list[list[float]] | None = None) -> tuple[int, int]:
    """Play one deal to its end with one bot per seat; each team's deal score.

    Every bot sees its seat's view only, except a :class:`~taash.bots.cheat.CheatBot`, which is handed a copy of
    the whole deal. With ``times``, each seat's seconds per play decision are appended to ``times[seat]``.
    """
    bidder = bots[deal.to_move]
    if isinstance(bidder, CheatBot):
        deal.make_bid(bidder.choose_bid(deal.clone()))
    else:
        deal.make_bid(bidder.choose_bid(view_of(deal, deal.to_move)))
    clock = time.perf_counter
    while not deal.over:
        seat = deal.to_move
        bot = bots[seat]
        start = clock()
        play = bot.choose_play(deal.clone()) if isinstance(bot, CheatBot) else bot.choose_play(view_of(deal, seat))
        if times is not None:
            times[seat].append(clock() - start)
        deal.play(play)
    return deal.score().score


@dataclass(frozen=True, slots=True)
class PairResult:
    seed: int
    margin: int  # bot A minus bot B over both games
    a_deals_won: int
    b_deals_won: int
    a_seconds: tuple[float, ...] = ()  # bot A's time per play decision
    b_seconds: tuple[float, ...] = ()
    a_game_margins: tuple[int, ...] = ()  # A minus B in each of the two games
    a_baazis: int = 0  # baazis A's deals won on their own (the minimum rule, or a lead of a baazi in one deal)
    b_baazis: int = 0


@dataclass(frozen=True, slots=True)
class DuplicateSummary:
    bot_a: str
    bot_b: str
    pairs: int
    mean_margin: float  # per deal
    ci95: float  # half-width of the 95% interval of the mean margin per deal
    a_deals_won: int
    b_deals_won: int
    a_ms_median: float = 0.0
    a_ms_p95: float = 0.0
    b_ms_median: float = 0.0
    b_ms_p95: float = 0.0
    a_baazis: int = 0  # baazis won by single deals (see PairResult)
    b_baazis: int = 0


def play_pair(name_a: str, name_b: str, rules: Rules, players: int, seed: int) -> PairResult:
    """One duplicate pair: the deck of ``seed`` played with A as team 0, then with A as team 1."""
    rng = random.Random(seed)
    dealer = rng.randrange(players)
    deck = Deal.shuffled(rules, players, dealer, rng).deck
    margin = 0
    won = [0, 0]
    baazis = [0, 0]
    games: list[int] = []
    a_times: list[float] = []
    b_times: list[float] = []
    for a_team in (0, 1):
        bots: list[Bot | CheatBot] = []
        for seat in range(players):
            name = name_a if seat % 2 == a_team else name_b
            bots.append(make_arena_bot(name, seed * 8 + seat))
        times: list[list[float]] = [[] for _ in range(players)]
        score = play_deal(Deal(rules, players, dealer, deck), bots, times)
        for seat in range(players):
            (a_times if seat % 2 == a_team else b_times).extend(times[seat])
        a, b = score[a_team], score[1 - a_team]
        margin += a - b
        games.append(a - b)
        if a != b:
            won[0 if a > b else 1] += 1
        baazi = score_deal(rules, 0, (a, b)).baazi
        if baazi is not None:
            baazis[baazi] += 1
    return PairResult(seed, margin, won[0], won[1], tuple(a_times), tuple(b_times), tuple(games), baazis[0],
                      baazis[1])


def _ms(times: list[float]) -> tuple[float, float]:
    """Median and 95th percentile, in milliseconds."""
    if not times:
        return 0.0, 0.0
    ordered = sorted(times)
    return 1000 * statistics.median(ordered), 1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def summarise(name_a: str, name_b: str, results: list[PairResult]) -> DuplicateSummary:
    per_deal = [r.margin / 2 for r in results]
    mean = statistics.fmean(per_deal)
    ci = 1.96 * statistics.stdev(per_deal) / math.sqrt(len(per_deal)) if len(per_deal) > 1 else math.inf
    a_med, a_p95 = _ms([t for r in results for t in r.a_seconds])
    b_med, b_p95 = _ms([t for r in results for t in r.b_seconds])
    return DuplicateSummary(name_a, name_b, len(results), mean, ci, sum(r.a_deals_won for r in results),
                            sum(r.b_deals_won for r in results), a_med, a_p95, b_med, b_p95,
                            sum(r.a_baazis for r in results), sum(r.b_baazis for r in results))


def run_duplicate(name_a: str, name_b: str, rules: Rules, players: int, pairs: int, seed: int,
                  on_pair: Callable[[], None] | None = None) -> tuple[DuplicateSummary, list[PairResult]]:
    results = []
    for k in range(pairs):
        results.append(play_pair(name_a, name_b, rules, players, seed + k))
        if on_pair:
            on_pair()
    return summarise(name_a, name_b, results), results


def ratings(pairings: list[tuple[str, str, list[PairResult]]]) -> dict[str, tuple[float, float]]:
    """OpenSkill (Plackett-Luce) ratings from every game of every pairing: name -> (mu, sigma)."""
    from openskill.models import PlackettLuce, PlackettLuceRating

    model = PlackettLuce()
    players: dict[str, PlackettLuceRating] = {}
    for a, b, _ in pairings:
        for name in (a, b):
            players.setdefault(name, model.rating(name=name))
    for a, b, results in pairings:
        for r in results:
            for margin in (r.a_game_margins if r.a_game_margins else (r.margin,)):
                ranks: list[float] = [1.0, 1.0] if margin == 0 else ([1.0, 2.0] if margin > 0 else [2.0, 1.0])
                [[players[a]], [players[b]]] = model.rate([[players[a]], [players[b]]], ranks=ranks)
    return {name: (p.mu, p.sigma) for name, p in players.items()}
