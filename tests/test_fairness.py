"""Fair dealing's algorithm (``taash-fair/1``): a pinned known answer, the same answer from a reading of the
published description written apart from the module, unbiased numbers, and blocks that refuse tampering."""

from __future__ import annotations

import hashlib
import hmac
import itertools
from collections import Counter

import pytest

from taash.cards import card_name
from taash.fairness import (
    ALGORITHM,
    Fairness,
    FairnessError,
    _Numbers,
    check_seed,
    commitment_of,
    fairness_from_json,
)

MATCH = "0123456789abcdef"
SECRET = bytes(32)
#: deal 1's pack of a Seep match ``MATCH`` with the secret of 32 zero bytes and seat 0's seed ``lucky``.
KNOWN_PACK = ("2s9s9d4sQs8c5dTc5hAhQdQh8d8sJsThAs3hTd6s6hJh5s6cTs7h2d4c7cJdKc9hJc3dQc2cKsKh7sKd8hAc4d2hAd3s9c5c3c"
              "4h7d6d")


def outside_shuffle(secret: bytes, message_head: str, n: int) -> list[int]:
    """The published description, written out as another tool would: HMAC blocks, 4 bytes big-endian a number,
    rejection above the largest multiple, Fisher-Yates from the last place."""
    stream = b""
    block = 0
    used = 0
    cards = list(range(n))

    def take4() -> int:
        nonlocal stream, block, used
        while len(stream) - used < 4:
            stream += hmac.new(secret, f"{message_head}|{block}".encode(), hashlib.sha256).digest()
            block += 1
        value = int.from_bytes(stream[used:used + 4], "big")
        used += 4
        return value

    for i in range(n - 1, 0, -1):
        while True:
            x = take4()
            if x < 2**32 - 2**32 % (i + 1):
                j = x % (i + 1)
                break
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def test_a_known_answer_pinned_and_reproduced_from_the_published_description() -> None:
    fair = Fairness("seep", MATCH, SECRET, ((0, "lucky"),))
    assert fair.commitment == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    assert fair.commitment == hashlib.sha256(SECRET).hexdigest()
    assert fair.message(1, "pack", 0, 0) == b"taash-fair/1|0123456789abcdef|0=lucky|1|pack|0|0"
    deck = list(range(52))
    fair.shuffle(deck, 1, "pack", 0)
    assert "".join(card_name(c) for c in deck) == KNOWN_PACK
    assert deck == outside_shuffle(SECRET, f"{ALGORITHM}|{MATCH}|0=lucky|1|pack|0", 52)
    assert fair.first_dealer(4) == 3


def test_every_field_of_the_message_changes_the_pack() -> None:
    base = Fairness("seep", MATCH, SECRET, ((0, "lucky"),))

    def pack(fair: Fairness, deal: int = 1, purpose: str = "pack", index: int = 0) -> list[int]:
        cards = list(range(52))
        fair.shuffle(cards, deal, purpose, index)
        return cards

    packs = [pack(base), pack(base, deal=2), pack(base, index=1), pack(base, purpose="reshuffle"),
             pack(Fairness("seep", MATCH, SECRET)), pack(Fairness("seep", MATCH, SECRET, ((1, "lucky"),))),
             pack(Fairness("seep", "fedcba9876543210", SECRET, ((0, "lucky"),))),
             pack(Fairness("seep", MATCH, bytes([1]) * 32, ((0, "lucky"),)))]
    assert len({tuple(p) for p in packs}) == len(packs)
    assert pack(base) == packs[0]  # and the same draw again is the same


def test_numbers_are_drawn_by_rejection_so_that_none_is_favoured() -> None:
    # 2**32 - 1 is above the largest multiple of 3 below 2**32 (4294967295 = 3 * 1431655765, the limit): refused.
    stream = iter(bytes.fromhex("ffffffff" "00000005"))
    assert _Numbers(stream).below(3) == 5 % 3
    with pytest.raises(FairnessError):
        _Numbers(iter(b"")).below(0)


def test_shuffles_of_three_cards_give_each_order_about_equally_often() -> None:
    fair = Fairness("seep", MATCH, SECRET)
    counts: Counter[tuple[int, ...]] = Counter()
    draws = 6000
    for index in range(draws):
        cards = [0, 1, 2]
        fair.shuffle(cards, 1, "pack", index)
        counts[tuple(cards)] += 1
    assert set(counts) == set(itertools.permutations(range(3)))
    expected = draws / 6
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 20.5  # 5 degrees of freedom: p < 0.001 above


def test_a_first_card_of_a_pack_falls_on_every_card_about_equally() -> None:
    fair = Fairness("rummy", MATCH, bytes([7]) * 32, ((2, "x"),))
    tops = Counter()
    for deal in range(1, 2601):
        cards = list(range(52))
        fair.shuffle(cards, deal, "pack")
        tops[cards[0]] += 1
    expected = 2600 / 52
    chi2 = sum((tops[c] - expected) ** 2 / expected for c in range(52))
    assert chi2 < 100  # 51 degrees of freedom: p < 0.0001 above


def test_seeds_are_plain_words_that_cannot_change_the_message_fields() -> None:
    assert check_seed("a-Z_0.9") == "a-Z_0.9"
    for bad in ("", "a|b", "a,b", "0=x", "x" * 65, "é", 7, None):
        with pytest.raises(FairnessError):
            check_seed(bad)
    with pytest.raises(FairnessError):
        Fairness("seep", MATCH, SECRET, ((1, "b"), (0, "a")))  # not in seat order
    with pytest.raises(FairnessError):
        Fairness("seep", MATCH, bytes(31))


def test_a_block_reads_back_and_a_changed_secret_or_commitment_is_refused() -> None:
    fair = Fairness("rummy", MATCH, bytes(range(32)), ((0, "mine"), (3, "theirs")))
    block = fair.to_json()
    assert block["commitment"] == commitment_of(bytes(range(32)))
    assert fairness_from_json(block) == fair
    for key, value in (("secret", "1" + block["secret"][1:]), ("commitment", "0" * 64),
                       ("algorithm", "taash-fair/0"), ("secret", "zz"), ("seeds", {"x": "y"})):
        with pytest.raises(FairnessError):
            fairness_from_json({**block, key: value})
    with pytest.raises(FairnessError, match="does not match the commitment"):
        fairness_from_json({**block, "secret": bytes(32).hex()})
