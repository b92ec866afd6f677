"""Tournaments without I/O: seeding, the tables of a knockout round, Swiss pairings by score, who goes on from a
table, the standings, and the prizes shared out of a pool.

An entrant is a string (a person's id, or ``bot:N``); a table is the list of entrants in seat order. Nothing here
knows a game: a table's result is, per seat, its team, whether it won and its result (the games API's return), as
:class:`SeatOutcome`. Knockout after the big Rummy sites (tables of the game's size, the winners go on, seeded by
rating so the strongest meet last); Swiss after FIDE's Dutch system, simplified: rounds of tables paired by score,
no two entrants meet twice while another pairing is possible, ranked by score then Buchholz (the sum of the
opponents' scores).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from taash.i18n import _

KNOCKOUT = "knockout"
SWISS = "swiss"
#: Paired again as they finish, for a time window (:mod:`taash.tournaments.arena`).
ARENA = "arena"
KINDS = (KNOCKOUT, SWISS, ARENA)


class TournamentError(ValueError):
    """A tournament that cannot be made or go on as asked, in a sentence."""


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """How one seat of a finished tournament table went: its entrant (None: a bot filling an empty seat, who is
    no entrant), its team, whether it won (with its partner), and its result."""

    entrant: str | None
    team: int
    won: bool
    result: float


def seeded(ratings: Mapping[str, float], order: Sequence[str]) -> list[str]:
    """The entrants of ``order`` (their registration order) strongest first: by rating, the earlier registered
    first among equals.

    >>> seeded({"a": 1.0, "b": 5.0, "c": 1.0}, ["a", "b", "c"])
    ['b', 'a', 'c']
    """
    position = {e: i for i, e in enumerate(order)}
    return sorted(order, key=lambda e: (-ratings.get(e, 0.0), position[e]))


def table_sizes(entrants: int, size: int) -> list[int]:
    """How ``entrants`` sit at tables of at most ``size``: as few tables as can take them, as even as can be,
    the larger first.

    >>> table_sizes(8, 4), table_sizes(7, 3), table_sizes(2, 4)
    ([4, 4], [3, 2, 2], [2])
    """
    if size < 2 or entrants < 1:
        raise TournamentError(_("tables of {size} for {entrants} entrants: a table seats 2 or more", size=size,
                                 entrants=entrants))
    tables = -(-entrants // size)
    base, extra = divmod(entrants, tables)
    return [base + 1 if i < extra else base for i in range(tables)]


def knockout_tables(seeds: Sequence[str], size: int) -> list[list[str]]:
    """A knockout round's tables for ``seeds`` (strongest first), dealt out like cards in a snake (1, 2, ... k,
    then k ... 2, 1), so that the strongest are at different tables and each table gets a fair share.

    >>> knockout_tables(["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"], 2)
    [['s1', 's8'], ['s2', 's7'], ['s3', 's6'], ['s4', 's5']]
    """
    sizes = table_sizes(len(seeds), size)
    tables: list[list[str]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    i = 0
    while i < len(seeds):
        for t in order:
            if i < len(seeds) and len(tables[t]) < sizes[t]:
                tables[t].append(seeds[i])
                i += 1
        order.reverse()
    return tables


def is_final(entrants: int, size: int) -> bool:
    """Whether a knockout round of ``entrants`` is its final: they all fit at one table."""
    return entrants <= size


def knockout_rounds(entrants: int, size: int, goers_per_table: int = 1) -> int:
    """How many rounds a knockout of ``entrants`` at tables of ``size`` plays when each table sends
    ``goers_per_table`` on (a game of partners sends a team).

    >>> knockout_rounds(8, 2), knockout_rounds(8, 4, 2), knockout_rounds(8, 4)
    (3, 2, 2)
    """
    rounds = 1
    while not is_final(entrants, size):
        entrants = len(table_sizes(entrants, size)) * goers_per_table
        rounds += 1
    return rounds


def goers(table: Sequence[SeatOutcome], seeds: Sequence[str]) -> list[str]:
    """Who goes on from a finished table: its entrants who won; when none did (a draw, or a filling bot won),
    the team of the best-seeded of the entrants with the best result."""
    won = [s.entrant for s in table if s.won and s.entrant is not None]
    if won:
        return won
    entrants = [s for s in table if s.entrant is not None]
    if not entrants:
        return []
    best = max(s.result for s in entrants)
    rank = {e: i for i, e in enumerate(seeds)}
    leader = min((s for s in entrants if s.result == best), key=lambda s: rank.get(s.entrant or "", len(rank)))
    return [s.entrant for s in entrants if s.team == leader.team and s.entrant is not None]


def points(table: Sequence[SeatOutcome]) -> dict[str, float]:
    """Each entrant's Swiss points from a table: 1 for a win, ½ each when nobody won (a draw), else 0."""
    anyone_won = any(s.won for s in table)
    return {s.entrant: 1.0 if s.won else 0.0 if anyone_won else 0.5 for s in table if s.entrant is not None}


#: How many candidates the Swiss pairing may try in all before it settles (:func:`swiss_tables`): far more than any
#: tournament of up to 64 entrants needs when a pairing without a rematch exists.
PAIRING_STEPS = 200_000


class _OutOfSteps(Exception):
    """The pairing's search tried :data:`PAIRING_STEPS` candidates."""


def swiss_tables(scores: Mapping[str, float], seeds: Sequence[str], met: Mapping[str, set[str]],
                 size: int) -> list[list[str]]:
    """A Swiss round's tables: entrants by score (then seed) fill tables of ``size`` in turn, each table taking
    the next entrants who have met none of those already at it, going back over earlier tables when a choice
    would leave the last ones with nobody new to meet: no two entrants meet again while a pairing exists where
    nobody does. When none exists (everyone has met nearly everyone), the pairing in score order with the fewest
    meetings again. The search tries at most :data:`PAIRING_STEPS` candidates (far more than any pairing of 64
    needs); past that, it seats the rest greedily (each the next who has met none at his table, or the next).

    >>> met = {"a": {"b"}, "b": {"a", "c"}, "c": {"b", "d"}, "d": {"c"}}
    >>> swiss_tables({"a": 1, "c": 1}, ["a", "b", "c", "d"], met, 2)
    [['a', 'c'], ['b', 'd']]
    """
    rank = {e: i for i, e in enumerate(seeds)}
    waiting = sorted(seeds, key=lambda e: (-scores.get(e, 0.0), rank[e]))
    sizes = table_sizes(len(waiting), size)
    steps = [PAIRING_STEPS]
    most = sum(n * (n - 1) // 2 for n in sizes)
    try:
        for again in range(most + 1):
            found = _seat(waiting, sizes, met, again, steps)
            if found is not None:
                return found
    except _OutOfSteps:
        pass
    return _seat_greedily(waiting, sizes, met)


def _meetings_again(entrant: str, table: Sequence[str], met: Mapping[str, set[str]]) -> int:
    return sum(1 for t in table if entrant in met.get(t, set()))


def _seat(waiting: Sequence[str], sizes: Sequence[int], met: Mapping[str, set[str]], again: int,
          steps: list[int]) -> list[list[str]] | None:
    """The first tables in score order for ``waiting`` with at most ``again`` meetings again (None: there are
    none). The best-placed entrant opens a table of each size left in turn (the larger first): each way of
    seating them is tried once."""
    if not sizes:
        return []
    for count in dict.fromkeys(sizes):
        left = list(sizes)
        left.remove(count)
        found = _fill([waiting[0]], waiting[1:], 0, [count, *left], met, again, steps)
        if found is not None:
            return found
    return None


def _fill(table: list[str], others: Sequence[str], start: int, sizes: Sequence[int], met: Mapping[str, set[str]],
          again: int, steps: list[int]) -> list[list[str]] | None:
    """Complete ``table`` from ``others[start:]`` (in order), then the tables after it."""
    if len(table) == sizes[0]:
        rest = _seat([e for e in others if e not in table], sizes[1:], met, again, steps)
        return None if rest is None else [table, *rest]
    for i in range(start, len(others)):
        steps[0] -= 1
        if steps[0] < 0:
            raise _OutOfSteps
        cost = _meetings_again(others[i], table, met)
        if cost <= again:
            found = _fill([*table, others[i]], others, i + 1, sizes, met, again - cost, steps)
            if found is not None:
                return found
    return None


def _seat_greedily(waiting: Sequence[str], sizes: Sequence[int], met: Mapping[str, set[str]]) -> list[list[str]]:
    """Each table takes the next entrant who has met none of those at it, or the next at all (no going back)."""
    left = list(waiting)
    tables: list[list[str]] = []
    for count in sizes:
        table = [left.pop(0)]
        while len(table) < count:
            fresh = next((e for e in left if not _meetings_again(e, table, met)), left[0])
            left.remove(fresh)
            table.append(fresh)
        tables.append(table)
    return tables


def swiss_rounds(entrants: int) -> int:
    """The rounds a Swiss tournament plays by default: enough for one winner among ``entrants`` (log₂, rounded
    up), at least 1.

    >>> swiss_rounds(8), swiss_rounds(9), swiss_rounds(2)
    (3, 4, 1)
    """
    return max(1, (entrants - 1).bit_length())


@dataclass(frozen=True, slots=True)
class Standing:
    """One entrant's place: ``place`` (1 first; equals share one), score and tie-break."""

    place: int
    entrant: str
    score: float
    tiebreak: float


def swiss_standings(scores: Mapping[str, float], met: Mapping[str, set[str]], seeds: Sequence[str]) -> list[Standing]:
    """The Swiss standings: by score, then Buchholz (the opponents' scores summed), then seed; entrants equal in
    score and Buchholz share a place."""
    buchholz = {e: sum(scores.get(o, 0.0) for o in met.get(e, set())) for e in seeds}
    rank = {e: i for i, e in enumerate(seeds)}
    order = sorted(seeds, key=lambda e: (-scores.get(e, 0.0), -buchholz[e], rank[e]))
    out: list[Standing] = []
    for i, e in enumerate(order):
        same = out and (out[-1].score, out[-1].tiebreak) == (scores.get(e, 0.0), buchholz[e])
        out.append(Standing(out[-1].place if same else i + 1, e, scores.get(e, 0.0), buchholz[e]))
    return out


def knockout_standings(reached: Mapping[str, int], champions: Sequence[str], seeds: Sequence[str]) -> list[Standing]:
    """The knockout standings: the champions first (one place, shared), then by the round each entrant reached
    (deeper first; those out in one round share a place); ``score`` is the round reached."""
    rank = {e: i for i, e in enumerate(seeds)}
    top = max(reached.values(), default=0) + 1
    level = {e: top if e in champions else reached.get(e, 0) for e in seeds}
    order = sorted(seeds, key=lambda e: (-level[e], rank[e]))
    out: list[Standing] = []
    for i, e in enumerate(order):
        same = out and out[-1].score == level[e]
        out.append(Standing(out[-1].place if same else i + 1, e, float(level[e]), 0.0))
    return out


def prizes(pool: int, shares: Sequence[int], standings: Sequence[Standing],
           paid: Sequence[str] | None = None) -> dict[str, int]:
    """Each entrant's prize out of ``pool`` chips: place n gets ``shares[n-1]`` percent, entrants who share a place
    share the prizes of the places they fill, in whole chips (the chips left by rounding go to the first of
    them). Only the entrants in ``paid`` (people; None: all) take places: a bot's place goes to the next person.
    The prizes add up to the whole pool exactly, whatever the shares (the last share takes what rounding left).

    >>> prizes(100, [70, 30], [Standing(1, "a", 3, 0), Standing(2, "b", 2, 0), Standing(3, "c", 1, 0)])
    {'a': 70, 'b': 30}
    """
    if pool < 0 or not shares or any(s < 0 for s in shares) or sum(shares) != 100:
        raise TournamentError(_("prize shares are percents adding up to 100, not {shares}", shares=list(shares)))
    taking = [s for s in standings if paid is None or s.entrant in paid]
    if not taking or pool == 0:
        return {}
    shares = list(shares[:len(taking)])
    shares[-1] += 100 - sum(shares)  # fewer people than places: the last of them takes the rest
    amounts = [pool * s // 100 for s in shares]
    amounts[0] += pool - sum(amounts)
    out: dict[str, int] = {}
    i = 0
    while i < len(shares):
        group = [s for s in taking if s.place == taking[i].place]
        start = taking.index(group[0])
        places = range(i, min(start + len(group), len(shares)))
        total = sum(amounts[p] for p in places)
        each, left = divmod(total, len(group))
        for k, s in enumerate(group):
            if each + (left if k == 0 else 0):
                out[s.entrant] = each + (left if k == 0 else 0)
        i = start + len(group)
    return out
