"""Duplicate matches for any game of the registry: each seed's cards are played again with the bots' seats
exchanged, so the luck of the cards and of the seats cancels out.

Two sides (Seep, Rummy at two seats): bot A holds the seats of team 0 and bot B those of team 1, then the same seed
(the same pack and dealer) is played again with A and B exchanged. A pair's margin is A's return (its margin over
B: returns are zero-sum between the two sides), summed over both games of the pair (for a single deal of Seep, the
deal scores' difference).

Games of singles at three seats or more (Rummy at 3 to 6; every seat its own side): a pair is the seed played
``2n`` times at ``n`` seats (:func:`seatings`): for each seat k, A alone at seat k against B at every other seat,
then B alone at seat k against A at the others. Each bot thus plays every seat, alone once and in the field
``n - 1`` times, and both bots hold the same number of seats over the pair, so neither the seats nor the mix of the
table favours one of them, and exchanging A and B only changes the margin's sign. A game's margin is A's mean
return over its seats minus B's mean return over its seats; the pair's margin is the sum over its games, and
:func:`summarise` reports the mean per game.

The arena alone may also seat a full-information bot (Seep's ``cheat``: a search that sees every card) as an upper
bound for measurement: :func:`make_arena_bot` makes it, and :func:`play_state` hands it a copy of the whole state
by an explicit path of its own (such a bot has ``full_information = True``). Players are never offered it
(:func:`~taash.bots.base.make_bot` does not know it).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from taash.bots.base import Bot, construct, make_bot, parse_bot_spec
from taash.games.api import Game, State, View
from taash.games.plugin import load
from taash.games.registry import default_game, plugin


def _full_information_kind(game: str, name: str) -> Callable[..., Any] | None:
    """A bot for measurement only that the arena hands the whole state (its game's plugin's
    ``full_information_bots``: never offered to a player), or None."""
    path = dict(plugin(game).full_information_bots).get(name)
    if path is None:
        return None
    kind: Callable[..., Any] = load(path)
    return kind


def make_arena_bot(name: str, seed: int, game: str | None = None) -> Any:
    """A bot for the arena: any of :func:`~taash.bots.base.make_bot`'s, or a full-information one (``cheat``)."""
    game = default_game() if game is None else game
    base, settings = parse_bot_spec(name)
    kind = _full_information_kind(game, base)
    if kind is not None:
        return construct(kind, name, seed, settings)  # type: ignore[arg-type]
    return make_bot(name, seed, game)


def play_state(state: State, bots: Sequence[Bot | Any], times: list[list[float]] | None = None) -> State:
    """Play ``state`` to its end with one bot per seat, and return it.

    Every bot is handed its seat's view only, except a full-information bot, which is handed a copy of the whole
    state. With ``times``, each seat's seconds per decision are appended to ``times[seat]``.
    """
    clock = time.perf_counter
    while not state.is_over:
        seat = state.current_player
        bot = bots[seat]
        start = clock()
        seen: State | View = state.clone() if getattr(bot, "full_information", False) else state.view(seat)
        action = bot.choose(seen)
        if times is not None:
            times[seat].append(clock() - start)
        state.apply(action)
    return state


@dataclass(frozen=True, slots=True)
class PairResult:
    seed: int
    margin: float  # bot A minus bot B over the pair's games (two sides: A's return; singles: A's mean minus B's)
    a_deals_won: int
    b_deals_won: int
    a_seconds: tuple[float, ...] = ()  # bot A's time per decision
    b_seconds: tuple[float, ...] = ()
    a_game_margins: tuple[float, ...] = ()  # A minus B in each game of the pair
    #: The game's own counts for A and B over the pair's games, summed over their seats (Seep: baazis the deals
    #: won on their own; Rummy: drops, wrong and valid declarations).
    tallies: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class DuplicateSummary:
    bot_a: str
    bot_b: str
    pairs: int
    mean_margin: float  # per game (per deal for a single deal)
    ci95: float  # half-width of the 95% interval of the mean margin per game
    a_deals_won: int
    b_deals_won: int
    a_ms_median: float = 0.0
    a_ms_p95: float = 0.0
    b_ms_median: float = 0.0
    b_ms_p95: float = 0.0
    tallies: dict[str, tuple[int, int]] = field(default_factory=dict)


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def is_singles(game: Game) -> bool:
    """Whether every seat of ``game`` is its own side, at three seats or more (Rummy at 3 to 6 players)."""
    return game.players > 2 and all(game.team_of(seat) == seat for seat in range(game.players))


def seatings(players: int) -> list[tuple[bool, ...]]:
    """The games of a pair of singles, as whether each seat holds bot A: for each seat k, A alone at k, then B
    alone at k (``2n`` seatings at ``n`` seats): at three seats, ``A B B``, ``B A A``, ``B A B``, ``A B A``, ``B B A``
    and ``A A B``."""
    return [tuple((seat == alone) is a_alone for seat in range(players))
            for alone in range(players) for a_alone in (True, False)]


def play_pair(name_a: str, name_b: str, game: Game, seed: int) -> PairResult:
    """One duplicate pair: the match of ``seed`` played with A as team 0, then with A as team 1; for a game of
    singles, the seed played at every seating of :func:`seatings`."""
    if is_singles(game):
        return _play_singles(name_a, name_b, game, seed)
    if {game.team_of(seat) for seat in range(game.players)} != {0, 1}:
        raise ValueError(f"the duplicate arena seats two sides or singles; {game.name} at {game.players} seats has "
                         f"{len({game.team_of(s) for s in range(game.players)})} sides")
    margin = 0.0
    won = [0, 0]
    tallies: dict[str, list[int]] = {}
    games: list[float] = []
    a_times: list[float] = []
    b_times: list[float] = []
    for a_team in (0, 1):
        bots = [make_arena_bot(name_a if game.team_of(seat) == a_team else name_b, seed * 8 + seat, game.name)
                for seat in range(game.players)]
        times: list[list[float]] = [[] for _ in range(game.players)]
        state = play_state(game.new_state(seed), bots, times)
        seats_a = [s for s in range(game.players) if game.team_of(s) == a_team]
        for seat in range(game.players):
            (a_times if seat in seats_a else b_times).extend(times[seat])
        # Returns are zero-sum between the two sides: A's return is its margin over B (Seep: the deal scores'
        # difference).
        a = state.returns()[seats_a[0]]
        margin += a
        games.append(_number(a))
        if a:
            won[0 if a > 0 else 1] += 1
        for name, per_team in state.tallies().items():
            counts = tallies.setdefault(name, [0, 0])
            counts[0] += per_team[a_team]
            counts[1] += per_team[1 - a_team]
    return PairResult(seed, _number(margin), won[0], won[1], tuple(a_times), tuple(b_times), tuple(games),
                      {name: (a, b) for name, (a, b) in tallies.items()})


def _play_singles(name_a: str, name_b: str, game: Game, seed: int) -> PairResult:
    margin = 0.0
    won = [0, 0]
    tallies: dict[str, list[int]] = {}
    games: list[float] = []
    a_times: list[float] = []
    b_times: list[float] = []
    for seating in seatings(game.players):
        bots = [make_arena_bot(name_a if is_a else name_b, seed * 8 + seat, game.name)
                for seat, is_a in enumerate(seating)]
        times: list[list[float]] = [[] for _ in range(game.players)]
        state = play_state(game.new_state(seed), bots, times)
        returns = state.returns()
        a_returns = [returns[s] for s, is_a in enumerate(seating) if is_a]
        b_returns = [returns[s] for s, is_a in enumerate(seating) if not is_a]
        a = statistics.fmean(a_returns) - statistics.fmean(b_returns)
        margin += a
        games.append(_number(a))
        if a:
            won[0 if a > 0 else 1] += 1
        for seat, is_a in enumerate(seating):
            (a_times if is_a else b_times).extend(times[seat])
        for name, per_seat in state.tallies().items():
            counts = tallies.setdefault(name, [0, 0])
            for seat, is_a in enumerate(seating):
                counts[0 if is_a else 1] += per_seat[seat]
    return PairResult(seed, _number(margin), won[0], won[1], tuple(a_times), tuple(b_times), tuple(games),
                      {name: (a, b) for name, (a, b) in tallies.items()})


def _ms(times: list[float]) -> tuple[float, float]:
    """Median and 95th percentile, in milliseconds."""
    if not times:
        return 0.0, 0.0
    ordered = sorted(times)
    return 1000 * statistics.median(ordered), 1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def summarise(name_a: str, name_b: str, results: list[PairResult]) -> DuplicateSummary:
    """The pairs' mean margin per game (a pair's margin over its games: two, or ``2n`` for singles), its 95%
    interval over the pairs, the games won, times per decision and the game's tallies."""
    per_deal = [r.margin / (len(r.a_game_margins) or 2) for r in results]
    mean = statistics.fmean(per_deal)
    ci = 1.96 * statistics.stdev(per_deal) / math.sqrt(len(per_deal)) if len(per_deal) > 1 else math.inf
    a_med, a_p95 = _ms([t for r in results for t in r.a_seconds])
    b_med, b_p95 = _ms([t for r in results for t in r.b_seconds])
    tallies: dict[str, tuple[int, int]] = {}
    for r in results:
        for name, (a, b) in r.tallies.items():
            old = tallies.get(name, (0, 0))
            tallies[name] = (old[0] + a, old[1] + b)
    return DuplicateSummary(name_a, name_b, len(results), mean, ci, sum(r.a_deals_won for r in results),
                            sum(r.b_deals_won for r in results), a_med, a_p95, b_med, b_p95, tallies)


def run_duplicate(name_a: str, name_b: str, game: Game, pairs: int, seed: int,
                  on_pair: Callable[[], None] | None = None) -> tuple[DuplicateSummary, list[PairResult]]:
    results = []
    for k in range(pairs):
        results.append(play_pair(name_a, name_b, game, seed + k))
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
