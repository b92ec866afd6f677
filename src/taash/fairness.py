"""Provably fair dealing (``taash-fair/1``): every card a server table deals comes from a secret it committed to.

Before a match starts, the server draws a secret of 32 bytes and publishes its commitment, the SHA-256 of the
secret in hex; players may add seeds of their own, published as they are. Every draw that decides the cards (the
first dealer, each deal's pack, a pack shuffled again for a redeal, a Rummy stock made again from the discard
pile) is then a Fisher-Yates shuffle driven by HMAC-SHA256 keyed with the secret, over a message naming the
match, the players' seeds, the deal and the draw. The secret is revealed with the match's record once the match is
over, so that anyone can check that it is the one committed to and that every deal is the one it gives.

The algorithm, exactly (``docs/web-protocol.md`` says the same for other tools):

- ``message(block) = "taash-fair/1|" + match + "|" + seeds + "|" + deal + "|" + purpose + "|" + index + "|" +
  block`` in ASCII: ``match`` the table's id; ``seeds`` the players' seeds as ``seat=seed`` joined by ``,`` in
  seat order (empty when none); ``deal`` the deal's number from 1; ``purpose`` ``dealer``, ``pack`` or
  ``reshuffle``; ``index`` which draw of that purpose in the deal, from 0; ``block`` from 0; numbers in decimal.
- The byte stream of a draw is ``HMAC-SHA256(secret, message(0)) || HMAC-SHA256(secret, message(1)) || ...``.
- A number below ``n``: the next 4 bytes as a big-endian unsigned ``x``; taken when ``x < 2**32 - 2**32 % n``,
  as ``x % n``; otherwise the next 4 bytes instead (rejection: every number is equally likely).
- A shuffle of a list ``a``: for ``i`` from ``len(a) - 1`` down to 1, swap ``a[i]`` and ``a[j]`` with ``j`` the
  next number below ``i + 1``.

The module is pure: the secret is given (the server draws it), and nothing here reads a clock or prints.

>>> fair = Fairness("seep", "0123456789abcdef", bytes(32), ((0, "lucky"),))
>>> fair.commitment[:16]
'66687aadf862bd77'
>>> cards = list(range(6)); fair.shuffle(cards, deal=1, purpose="pack"); cards
[0, 5, 4, 2, 3, 1]
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from taash.i18n import _

#: The algorithm's name, as records and table states give it.
ALGORITHM = "taash-fair/1"
#: The length of a server's secret, in bytes.
SECRET_BYTES = 32
#: What a player's own seed may be: 1 to 64 letters, digits, ``-``, ``_`` or ``.`` (nothing that could change the
#: message's fields).
SEED_RULE = "1 to 64 letters, digits, '-', '_' or '.'"
_SEED = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_MATCH = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_HEX64 = re.compile(r"[0-9a-f]{64}")
#: The draws of a deal, by purpose.
PURPOSES = ("dealer", "pack", "reshuffle")
_SPACE = 2**32

JSON = Any


class FairnessError(ValueError):
    """A fairness block that is malformed, or a secret, commitment or deal that does not check, in one sentence."""


def commitment_of(secret: bytes) -> str:
    """The commitment to ``secret``: its SHA-256, in lowercase hex."""
    return hashlib.sha256(secret).hexdigest()


def check_seed(seed: object) -> str:
    """A player's own seed, checked (``FairnessError`` naming what it may be)."""
    if not isinstance(seed, str) or not _SEED.fullmatch(seed):
        raise FairnessError(_("a seed is 1 to 64 letters, digits, '-', '_' or '.', not {seed}",
                               seed=repr(str(seed)[:40])))
    return seed


@dataclass(frozen=True, slots=True)
class Fairness:
    """A match's fair dealing: its game and id (the table's), the server's secret, and the players' own seeds
    (``(seat, seed)`` in seat order)."""

    game: str
    match: str
    secret: bytes
    seeds: tuple[tuple[int, str], ...] = ()

    def __post_init__(self) -> None:
        if not _MATCH.fullmatch(self.match):
            raise FairnessError(_("a match id is 1 to 64 letters, digits, '-', '_' or '.', not {match}",
                                  match=repr(self.match[:40])))
        if len(self.secret) != SECRET_BYTES:
            raise FairnessError(_("the secret must be {bytes} bytes, not {given}", bytes=SECRET_BYTES,
                                   given=len(self.secret)))
        seats = [seat for seat, _ in self.seeds]
        if seats != sorted(set(seats)) or any(seat < 0 for seat in seats):
            raise FairnessError(_("the seeds must be given once per seat, in seat order"))
        for _seat, seed in self.seeds:
            check_seed(seed)

    @property
    def commitment(self) -> str:
        return commitment_of(self.secret)

    def seeds_text(self) -> str:
        """The players' seeds as the message names them: ``seat=seed`` joined by commas, in seat order."""
        return ",".join(f"{seat}={seed}" for seat, seed in self.seeds)

    def message(self, deal: int, purpose: str, index: int, block: int) -> bytes:
        """The HMAC's message for one block of a draw's stream."""
        if purpose not in PURPOSES:
            raise FairnessError(f"a draw's purpose is one of {', '.join(PURPOSES)}, not {purpose!r}")
        text = f"{ALGORITHM}|{self.match}|{self.seeds_text()}|{deal}|{purpose}|{index}|{block}"
        return text.encode("ascii")

    def stream(self, deal: int, purpose: str, index: int) -> Iterator[int]:
        """The bytes of one draw: HMAC-SHA256 blocks of the secret over :meth:`message`, block 0, 1, ..."""
        block = 0
        while True:
            yield from hmac.digest(self.secret, self.message(deal, purpose, index, block), "sha256")
            block += 1

    def shuffle(self, cards: list[int], deal: int, purpose: str, index: int = 0) -> None:
        """Shuffle ``cards`` in place: Fisher-Yates from the last place to the second, by the draw's stream."""
        draw = _Numbers(self.stream(deal, purpose, index))
        for i in range(len(cards) - 1, 0, -1):
            j = draw.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]

    def first_dealer(self, players: int) -> int:
        """The first deal's dealer: the first number below ``players`` of deal 1's ``dealer`` draw."""
        return _Numbers(self.stream(1, "dealer", 0)).below(players)

    def to_json(self) -> dict[str, JSON]:
        """The block a finished match's record carries, the secret revealed."""
        return {"algorithm": ALGORITHM, "game": self.game, "match": self.match, "commitment": self.commitment,
                "secret": self.secret.hex(), "seeds": {str(seat): seed for seat, seed in self.seeds}}


def published(game: str, match: str, commitment: str, seeds: Mapping[int, str]) -> dict[str, JSON]:
    """The block every player sees before and during the match: the algorithm, the match, the commitment and the
    players' seeds; never the secret."""
    return {"algorithm": ALGORITHM, "game": game, "match": match, "commitment": commitment,
            "seeds": {str(seat): seed for seat, seed in sorted(seeds.items())}}


def fairness_from_json(data: JSON) -> Fairness:
    """Read a record's fairness block and check its secret against its commitment (``FairnessError`` for the
    first thing wrong)."""
    if not isinstance(data, dict):
        raise FairnessError(_("the fairness block must be a JSON object"))
    if data.get("algorithm") != ALGORITHM:
        raise FairnessError(_("unknown fairness algorithm {algorithm} (known: {known})",
                               algorithm=repr(str(data.get("algorithm"))[:40]), known=ALGORITHM))
    game, match = data.get("game"), data.get("match")
    if not isinstance(game, str) or not isinstance(match, str):
        raise FairnessError(_("the fairness block must name its game and match"))
    commitment, secret = data.get("commitment"), data.get("secret")
    if not isinstance(commitment, str) or not _HEX64.fullmatch(commitment):
        raise FairnessError(_("the commitment must be 64 lowercase hex digits"))
    if not isinstance(secret, str) or not _HEX64.fullmatch(secret):
        raise FairnessError(_("the secret must be 64 lowercase hex digits (it is revealed once the match is over)"))
    raw = data.get("seeds", {})
    if not isinstance(raw, dict) or not all(isinstance(k, str) and k.isdigit() and len(k) <= 2 for k in raw):
        raise FairnessError(_("the seeds must be an object of seat -> seed"))
    fair = Fairness(game, match, bytes.fromhex(secret), tuple(sorted((int(k), v) for k, v in raw.items())))
    if not hmac.compare_digest(fair.commitment, commitment):
        raise FairnessError(_("the secret does not match the commitment: its SHA-256 is another"))
    return fair


@dataclass(slots=True)
class Reshuffles:
    """The shuffles of one deal beyond its pack (a Rummy stock made again from the discard pile): the ``k``-th
    (from 0) is the ``reshuffle`` draw ``k`` of the deal. Used where an engine takes a ``random.Random`` for them."""

    fairness: Fairness
    deal: int
    done: int = 0

    def shuffle(self, cards: list[int]) -> None:
        self.fairness.shuffle(cards, self.deal, "reshuffle", self.done)
        self.done += 1

    def copy(self) -> Reshuffles:
        return Reshuffles(self.fairness, self.deal, self.done)


class _Numbers:
    """Numbers below ``n``, each equally likely, from a stream of bytes (4 at a time, by rejection)."""

    __slots__ = ("_bytes",)

    def __init__(self, stream: Iterator[int]):
        self._bytes = stream

    def below(self, n: int) -> int:
        if not 1 <= n <= _SPACE:
            raise FairnessError(f"a number below {n} cannot be drawn")
        limit = _SPACE - _SPACE % n
        while True:
            b = self._bytes
            x = (next(b) << 24) | (next(b) << 16) | (next(b) << 8) | next(b)
            if x < limit:
                return x % n
