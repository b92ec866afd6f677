"""Chip flows between people (read only): for each pair of people, the chips that moved from one to the other
through settled matches, for an operator looking for chips farmed between identities of one person.

A settled match moved each seat ``its payout - its stake`` (after the house's rake). What the losers lost is
shared among the winners in proportion to what each won: a loser of 300 at a table where one winner won 200 and
another 100 (after the rake) gave 200 to the first and 100 to the second. Bots play with the house's chips: what a
bot lost or won is in the shares, but the house is no one's pair. Refunded and pending matches moved nothing.

A pair is suspicious when chips went one way only (``one_sided`` near 1), in quantity (``net``), and more so when
the two are *related* (the caller says how: :func:`taash.web.fair_play.shared_addresses`, the addresses they
shared). :func:`chip_flows` sorts the related pairs first, then by ``|net| x one_sided``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from sqlalchemy import Engine, select

from taash.chips.books import ESCROW, HOLD, POSTED, SETTLE, WALLET
from taash.chips.ledger import ACCOUNTS, TRANSFERS

_WALLET = f"{WALLET}:"


@dataclass(frozen=True, slots=True)
class PairFlow:
    """The chips that moved between ``a`` and ``b`` (person ids, ``a < b``) through the ``matches`` settled matches
    they played together; ``shared``: how many addresses they shared (0: not related)."""

    a: str
    b: str
    a_to_b: int
    b_to_a: int
    matches: int
    shared: int = 0

    @property
    def net(self) -> int:
        """Chips from ``a`` to ``b`` less those from ``b`` to ``a`` (negative: ``b`` gave ``a`` more)."""
        return self.a_to_b - self.b_to_a

    @property
    def moved(self) -> int:
        return self.a_to_b + self.b_to_a

    @property
    def one_sided(self) -> float:
        """1.0 when every chip between them went one way, 0.0 when as many went each way (or none moved)."""
        return abs(self.net) / self.moved if self.moved else 0.0

    @property
    def giver(self) -> str:
        """The one of the pair who gave more (``a`` when even)."""
        return self.b if self.net < 0 else self.a

    @property
    def taker(self) -> str:
        return self.a if self.net < 0 else self.b

    @property
    def suspicion(self) -> tuple[bool, float, int, int]:
        """The order of the report, most suspicious first: related, then ``|net| x one_sided``, then the addresses
        shared, then the chips moved."""
        return self.shared > 0, abs(self.net) * self.one_sided, self.shared, self.moved

    def as_dict(self) -> dict[str, object]:
        return {"a": self.a, "b": self.b, "a_to_b": self.a_to_b, "b_to_a": self.b_to_a, "net": self.net,
                "one_sided": round(self.one_sided, 3), "matches": self.matches, "shared_addresses": self.shared,
                "related": self.shared > 0, "giver": self.giver, "taker": self.taker}


def match_results(engine: Engine) -> dict[str, dict[str, int]]:
    """Each settled match's result per payer (a person's wallet id, or the house for a bot's seat: its seats
    summed), after the rake."""
    with engine.connect() as c:
        settled = select(ACCOUNTS.c.id).where(ACCOUNTS.c.kind == ESCROW, ACCOUNTS.c.state == POSTED)
        rows = c.execute(select(TRANSFERS.c.match_id, TRANSFERS.c.kind, TRANSFERS.c.amount, TRANSFERS.c.debit_id,
                                TRANSFERS.c.credit_id)
                         .where(TRANSFERS.c.kind.in_((HOLD, SETTLE)),
                                (TRANSFERS.c.credit_id.in_(settled)) | (TRANSFERS.c.debit_id.in_(settled))))
        results: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for r in rows:
            if r.kind == HOLD:
                results[r.match_id][r.debit_id] -= r.amount
            else:
                results[r.match_id][r.credit_id] += r.amount
    return {m: dict(payers) for m, payers in results.items()}


def _shares(result: Mapping[str, int]) -> dict[tuple[str, str], Fraction]:
    """What each loser of one match gave each winner: his loss shared in proportion to their winnings."""
    won = {p: v for p, v in result.items() if v > 0}
    total = sum(won.values())
    if not total:
        return {}
    return {(loser, winner): Fraction(-lost * gain, total)
            for loser, lost in result.items() if lost < 0 for winner, gain in won.items()}


def chip_flows(engine: Engine, related: Mapping[frozenset[str], int] | None = None) -> list[PairFlow]:
    """Every pair of people who played a settled staked match together, with the chips that moved between them,
    most suspicious first (:attr:`PairFlow.suspicion`); ``related``: pairs of person ids and the addresses they
    shared."""
    given: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
    together: dict[frozenset[str], int] = defaultdict(int)
    for result in match_results(engine).values():
        people = sorted(p.removeprefix(_WALLET) for p in result if p.startswith(_WALLET))
        for i, a in enumerate(people):
            for b in people[i + 1:]:
                together[frozenset((a, b))] += 1
        for (loser, winner), chips in _shares(result).items():
            if loser.startswith(_WALLET) and winner.startswith(_WALLET):
                given[(loser.removeprefix(_WALLET), winner.removeprefix(_WALLET))] += chips
    related = related or {}
    flows = []
    for pair, matches in together.items():
        a, b = sorted(pair)
        flows.append(PairFlow(a, b, round(given[(a, b)]), round(given[(b, a)]), matches, related.get(pair, 0)))
    return sorted(sorted(flows, key=lambda f: (f.a, f.b)), key=lambda f: f.suspicion, reverse=True)
