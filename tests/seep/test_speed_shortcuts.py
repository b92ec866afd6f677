"""The engine's speed shortcuts give exactly what the plain computations give, in the same order.

The hot path cuts floors down to the cards that can matter, reads value floors from tables of their spades, finds
the sums a floor reaches without listing its subsets, and :class:`Deal` makes plays without calling
:func:`apply_play`. Each shortcut is compared here with the plain way of working the answer out.
"""

from __future__ import annotations

import random

import pytest

from taash.cards import mask_of
from taash.seep import canonical_groups, groups
from taash.seep.deal import Deal, deal_problem, shuffled_pack
from taash.seep.groups import (
    ADD_OPTIONS,
    ESTABLISH_OPTIONS,
    MAXIMAL,
    OPTIONAL,
    Groups,
    build_options,
    maximal_groups,
    optional_groups,
    subsets_adding_up,
)
from taash.seep.plays import apply_play, house_summary, legal_plays
from taash.seep.rules import PRESETS
from taash.seep.values import VALUE


def random_floors(seed: int, count: int, most: int = 9) -> list[int]:
    rng = random.Random(seed)
    return [mask_of(rng.sample(range(52), rng.randint(1, most))) for _ in range(count)]


def plain_subsets(loose: int) -> dict[int, Groups]:
    return canonical_groups._subsets(loose)[0]


def plain_real(loose: int, found: Groups) -> Groups:
    """Canonical groups of ``loose`` translated back a card at a time."""
    table = canonical_groups._translation(loose)
    return tuple(canonical_groups._translate(g, table) for g in found)


def plain_unions(loose: int, value: int, maximal_only: bool) -> Groups:
    """Unions of the groups of the whole floor, worked out on its canonical floor and translated back."""
    subsets = plain_subsets(canonical_groups.canonical(loose))
    return plain_real(loose, canonical_groups._unions(subsets.get(value, ()), maximal_only))


def plain_options(loose: int, what: int, v: int, t: int) -> Groups:
    """What build_options answered before floors were cut down: the real loose cards, on the whole floor."""
    by_sum = plain_subsets(canonical_groups.canonical(loose))
    found: Groups
    if what == MAXIMAL:
        found = canonical_groups._unions(by_sum.get(t, ()), True)
    elif what == OPTIONAL or v == t:
        found = canonical_groups._unions(by_sum.get(t, ()), False)
    else:
        seen: dict[int, None] = {}
        for sub in by_sum.get(t - v, ()):
            rest = tuple(g for g in by_sum.get(t, ()) if not g & sub)
            for u in canonical_groups._unions(rest, what == ESTABLISH_OPTIONS):
                seen[sub | u] = None
        found = tuple(seen)
    return plain_real(loose, found)


def test_real_floors_translate_as_card_by_card() -> None:
    for loose in random_floors(9, 500, most=14):
        f = canonical_groups._RealFloor(loose)
        subsets = [sub for subs in plain_subsets(f.canon).values() for sub in subs] + [f.canon]
        assert f.real(tuple(subsets)) == plain_real(loose, tuple(subsets))


def test_sums_reached_and_subsets_adding_up_match_the_subset_table() -> None:
    for loose in random_floors(1, 400):
        table, bits = canonical_groups._subsets(loose)
        assert groups._sums_reached(loose) == bits & 0x3FFE
        for total in range(1, 14):
            assert subsets_adding_up(loose, total) == table.get(total, ())


def test_maximal_and_optional_groups_match_the_canonical_floor() -> None:
    for loose in random_floors(2, 400):
        for value in range(1, 14):
            assert maximal_groups(loose, value) == plain_unions(loose, value, True)
            assert optional_groups(loose, value) == plain_unions(loose, value, False)


def test_a_floors_options_are_build_options_answers() -> None:
    asked = [(ESTABLISH_OPTIONS, v, t) for t in range(9, 14) for v in range(1, t)]
    asked += [(ADD_OPTIONS, v, w) for w in range(9, 14) for v in range(1, w + 1)]
    asked += [(what, 0, t) for what in (MAXIMAL, OPTIONAL) for t in range(9, 14)]
    # A floor's options are build_options' answers (once taken from the loose cards).
    loose = mask_of([2, 15, 4, 8])  # 3, 3, 5 and 9 of different suits: not a value floor
    options = groups.floor_info(loose)[4]
    for what, v, t in asked:
        assert tuple(loose & m for m in options[what, v, t]) == build_options(loose, what, v, t, False)


def test_every_floor_answers_its_options_as_the_whole_floor_does() -> None:
    """The options a deal reads from a floor's facts, by key, on value floors and on floors with two loose cards of
    one value alike (these answer from their canonical floor, or from a value floor's spread answers when the cards
    up to the house value hold no two of one value)."""
    asked = [(ESTABLISH_OPTIONS, v, t) for t in range(9, 14) for v in range(1, t)]
    asked += [(ADD_OPTIONS, v, w) for w in range(9, 14) for v in range(1, w + 1)]
    asked += [(what, 0, t) for what in (MAXIMAL, OPTIONAL) for t in range(9, 14)]
    floors = random_floors(11, 120, most=10)
    assert sum(groups.floor_info(loose)[0] == -1 for loose in floors) > 30  # both kinds of floor are asked
    for loose in floors:
        options = groups.floor_info(loose)[4]
        for what, v, t in asked:
            got = tuple(loose & m for m in options[what, v, t])
            assert got == plain_options(loose, what, v, t), (loose, what, v, t)


def suits_moved(loose: int, rng: random.Random) -> int:
    """The same floor with each card of a value it holds once moved to a random suit."""
    out = 0
    for v in range(1, 14):
        cards = [c for c in range(52) if loose >> c & 1 and VALUE[c] == v]
        if len(cards) == 1:
            cards = [rng.randrange(4) * 13 + v - 1]
        out |= mask_of(cards)
    return out


def test_floors_with_two_cards_of_one_value_share_their_facts_whatever_the_suits_of_the_rest() -> None:
    """A floor with two loose cards of one value shares its facts with every floor holding the same cards of its
    repeated values and the same single values in any suits: the answers found for one serve the other."""
    rng = random.Random(12)
    shared = 0
    for loose in random_floors(13, 300, most=9):
        facts = groups.floor_info(loose)
        if facts[0] != -1:
            continue
        other = suits_moved(loose, rng)
        assert groups.floor_info(other) is facts
        shared += other != loose
        _, _, _, caps, options = facts
        for value in range(1, 14):  # answered first for ``loose``, then read for ``other``
            assert tuple(loose & u for u in caps[value]) == maximal_groups(loose, value)
            assert tuple(other & u for u in caps[value]) == maximal_groups(other, value)
        for t in range(9, 14):
            for v in range(1, t):
                key = (ESTABLISH_OPTIONS, v, t)
                assert tuple(loose & m for m in options[key]) == plain_options(loose, ESTABLISH_OPTIONS, v, t)
                assert tuple(other & m for m in options[key]) == plain_options(other, ESTABLISH_OPTIONS, v, t)
    assert shared > 40


@pytest.mark.parametrize("what", [ESTABLISH_OPTIONS, ADD_OPTIONS, MAXIMAL, OPTIONAL])
def test_build_options_on_cut_down_floors_match_the_whole_floor(what: int) -> None:
    for loose in random_floors(3 + what, 250):
        fold = (loose | loose >> 13 | loose >> 26 | loose >> 39) & 0x1FFF
        by_value = fold.bit_count() == loose.bit_count()
        for t in range(9, 14):
            for v in range(0 if what >= MAXIMAL else 1, 1 if what >= MAXIMAL else t + 1):
                got = build_options(fold if by_value else loose, what, v, t, by_value)
                assert tuple(loose & m for m in got) == plain_options(loose, what, v, t)


def test_floor_info_matches_the_subset_table() -> None:
    for loose in random_floors(7, 300):
        _, reach, builders, caps, _ = groups.floor_info(loose)
        bits = canonical_groups._subsets(loose)[1]
        assert reach == bits & 0x3FFE
        for value in range(1, 14):
            found = caps[value]
            assert tuple(loose & u for u in found) == maximal_groups(loose, value)
        for t in range(9, 14):
            expected = 0
            for v in range(1, t):
                if bits >> (t - v) & 1:
                    expected |= 1 << v
            assert builders[1 << (t - 9)] == expected


@pytest.mark.parametrize("preset", ["standard", "punjab_30_qasim", "break_with_loose", "limited_houses"])
@pytest.mark.parametrize("players", [2, 4])
def test_deal_play_makes_the_plays_as_apply_play_does(preset: str, players: int) -> None:
    rules = PRESETS[preset]
    rng = random.Random(f"{preset}{players}")
    for i in range(15):
        deal = Deal.shuffled(rules, players, i % players, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            p = deal.to_move
            play = rng.choice(deal.legal_plays())
            houses = dict(deal.houses)
            loose, taken = apply_play(play, p, players, deal.loose, houses)
            piles = list(deal.piles)
            if taken:
                piles[p & 1] |= taken
            index = len(deal.plays)
            deal.play(play)
            if index + 1 < 48:
                assert (deal.loose, deal.houses, deal.piles) == (loose, houses, piles)


@pytest.mark.parametrize("preset", ["standard", "punjab_30_qasim", "break_with_loose", "limited_houses"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_deal_keeps_its_house_summary_and_lists_plays_as_from_the_houses(preset: str, players: int) -> None:
    """Deal keeps the houses in brief play by play and lists plays from that; the plain way walks the houses."""
    rules = PRESETS[preset]
    rng = random.Random(f"summary{preset}{players}")
    seen_owned = 0
    for i in range(15):
        deal = Deal.shuffled(rules, players, i % players, rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over:
            assert (deal.house_bits, deal.uncemented, deal.owned_by) == house_summary(deal.houses)
            p = deal.to_move
            listed = deal.legal_plays()
            assert listed == legal_plays(deal.hands[p], p, players, deal.loose, dict(deal.houses),
                                         0 if deal.plays else deal.bid, rules.max_houses, rules.break_with_loose,
                                         deal.restricted)
            seen_owned |= sum(deal.owned_by)
            deal.play(rng.choice(listed))
            assert deal.clone().owned_by is not deal.owned_by
    assert seen_owned  # houses were built and owned along the way


@pytest.mark.parametrize("preset", ["standard", "punjab_30"])
def test_shuffled_deals_are_those_of_shuffling_until_no_redeal(preset: str) -> None:
    rules = PRESETS[preset]
    for seed in range(40):
        rng = random.Random(seed)
        while True:
            deck = shuffled_pack(rng)
            if deal_problem(rules, 4, deck) is None:
                break
        deal = Deal.shuffled(rules, 4, seed % 4, random.Random(seed))
        assert deal.deck == deck
        assert deal.hands[(seed % 4 + 1) % 4] == mask_of(deck[0:4])
        assert deal.loose == mask_of(deck[4:8])
        assert any(VALUE[c] >= 9 for c in deck[0:4])


def test_a_shuffled_pack_is_every_card_once_in_any_order() -> None:
    rng = random.Random(11)
    where = [[0] * 52 for _ in range(52)]  # where[card][position]
    draws = 5200
    for _ in range(draws):
        deck = shuffled_pack(rng)
        assert sorted(deck) == list(range(52))
        for position, c in enumerate(deck):
            where[c][position] += 1
    # Each card lands in each place 100 times on average; a chi-square over the 52 places of a card, with 51
    # degrees of freedom, exceeds 100 with a chance of about 1 in 30,000.
    for counts in where:
        assert sum((n - draws / 52) ** 2 / (draws / 52) for n in counts) < 100
