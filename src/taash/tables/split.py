"""A split of the prize on agreement: the players still in a match end it there and share its prize.

The rules of the game say nothing of it (rummy-rules.md section 6); taash follows the usual apps' house rule:

- Only a match whose format has a prize pool may be split: Rummy's Pool 101 / Pool 201 and Deals N (a points
  match is one deal; Seep has none). Its game's adapter says who may share and by what weights
  (:meth:`taash.tables.adapter.TableGame.split_terms`): in a pool, the players not out, each by his points left
  (the pool's limit less his total: the one nearer the limit takes less); in Deals N, every player, equally.
- It needs 2 or 3 players left (:data:`MOST_SHARING`), and a person among them to propose it. The deal in progress
  waits (nobody moves) until every person left accepts; one who declines (the proposer too: he withdraws it)
  ends the proposal and play goes on. Agreed, the match ends there, the deal in progress uncounted.
- A bot answers at once, by :func:`bot_accepts`: it accepts a share at least as large as an equal one.
- The prize (every seat's entry fee) is divided by :func:`divide`: in whole chips, by weight, the chips left over
  by rounding down going one each to the largest weights first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from taash.i18n import _

#: The most players left who may split a match.
MOST_SHARING = 3
#: The answers of the ``split`` action.
ANSWERS = ("propose", "accept", "decline")


@dataclass(slots=True)
class SplitOffer:
    """A split proposed and not yet agreed: who proposed it, each sharing seat's weight, and who has accepted."""

    proposer: int
    weights: dict[int, int]
    accepted: set[int] = field(default_factory=set)

    def waiting_for(self) -> list[int]:
        """The seats whose answer is still awaited."""
        return sorted(set(self.weights) - self.accepted)


def bot_accepts(weights: Mapping[int, int], seat: int) -> bool:
    """A bot's answer: yes when its weight is at least the average (its share at least an equal share)."""
    return weights[seat] * len(weights) >= sum(weights.values())


def divide(prize: int, weights: Mapping[int, int]) -> dict[int, int]:
    """``prize`` chips shared by ``weights`` (positive), in whole chips that add up to the prize: each seat gets
    its share rounded down, and the chips left over go one each to the largest weights first (then the lower
    seat).

    >>> divide(100, {0: 81, 2: 101})
    {0: 44, 2: 56}
    >>> divide(10, {0: 1, 1: 1, 2: 1})
    {0: 4, 1: 3, 2: 3}
    """
    total = sum(weights.values())
    if prize < 0 or not weights or any(w <= 0 for w in weights.values()):
        raise ValueError(f"a split shares a prize of 0 or more chips by positive weights, not {prize} by {weights}")
    shares = {seat: prize * w // total for seat, w in sorted(weights.items())}
    left = prize - sum(shares.values())
    for seat in sorted(weights, key=lambda s: (-weights[s], s))[:left]:
        shares[seat] += 1
    return shares


def split_returns(players: int, weights: Mapping[int, int]) -> list[float]:
    """Each seat's result of a split match in the games API's units (as a pool's winner takes one unit from the
    others, shared equally): a seat with a fraction ``f`` of the prize gets ``f * n / (n - 1) - 1 / (n - 1)``;
    they add up to 0."""
    total = sum(weights.values())
    n = players
    return [(weights.get(s, 0) / total) * n / (n - 1) - 1 / (n - 1) for s in range(n)]


def declined_said(name: str, proposer: bool) -> str:
    """The log's line for a split declined (by its proposer: withdrawn)."""
    return (_("{name} withdraws the split: play goes on", name=name) if proposer
            else _("{name} declines the split: play goes on", name=name))


def answered_said(name: str, accepts: bool) -> str:
    """The log's line for a bot's answer to a split proposed."""
    return _("{name} accepts", name=name) if accepts else _("{name} declines", name=name)
