"""The JSON interchange formats of ``shared/seep-protocol.md``: positions, plays and their outcomes.

Readers refuse anything malformed or impossible with :class:`BadPositionError` and a sentence naming what is
wrong; writers always write canonical card names in canonical order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from taash.cards import CardError, card_name, cards_of, mask_of, names_of, parse_card, parse_mask
from taash.i18n import _, said_of
from taash.seep.errors import BadPositionError
from taash.seep.plays import (
    ADD,
    BREAK,
    CAPTURE,
    ESTABLISH,
    KIND_NAMES,
    THROW,
    House,
    Play,
    apply_play,
    legal_plays,
    team_mask,
)
from taash.seep.rules import HOUSE_VALUES, Rules, rules_from_json
from taash.seep.values import VALUE, VALUE_MASK, mask_value_sum

JSON = Any

#: Cards of the first floor: the only loose cards that need not have been thrown (rule 4.1-4.3).
FIRST_FLOOR_CARDS = 4


@dataclass(slots=True)
class Position:
    """What one player sees when it is his turn: enough to list his legal plays."""

    rules: Rules
    players: int
    seat: int
    hand: int
    loose: int
    houses: dict[int, House]
    bid: int = 0
    #: Qasim's restricted cards not yet released (rule 7.2); 0 under other rules.
    restricted: int = 0

    def legal_plays(self) -> list[Play]:
        """Every legal play of the position."""
        return legal_plays(
            self.hand,
            self.seat,
            self.players,
            self.loose,
            self.houses,
            bid=self.bid,
            max_houses=self.rules.max_houses,
            break_with_loose=self.rules.break_with_loose,
            restricted=self.restricted,
        )

    def outcome(self, play: Play) -> dict[str, JSON]:
        """The protocol's outcome object of one play of this position."""
        houses = dict(self.houses)
        loose, captured = apply_play(play, self.seat, self.players, self.loose, houses)
        return {
            "play": play_to_json(play),
            "kind": KIND_NAMES[play[0]],
            "loose": names_of(loose),
            "houses": houses_to_json(houses),
            "captured": names_of(captured),
            "sweep": bool(captured) and not loose and not houses,
        }

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "rules": self.rules.to_json(),
            "players": self.players,
            "seat": self.seat,
            "hand": names_of(self.hand),
            "loose": names_of(self.loose),
            "houses": houses_to_json(self.houses),
            "bid": self.bid or None,
        }
        if self.rules.restricted_cards:
            out["restricted"] = names_of(self.restricted)
        return out


def houses_to_json(houses: dict[int, House]) -> list[dict[str, JSON]]:
    """Houses as protocol objects, sorted by value, with owners sorted."""
    return [
        {
            "value": v,
            "cards": names_of(cards),
            "cemented": cemented,
            "owners": [s for s in range(4) if owners >> s & 1],
        }
        for v, (cards, cemented, owners) in sorted(houses.items())
    ]


def play_to_json(play: Play) -> dict[str, JSON]:
    """A play as the protocol writes it."""
    kind, c, value, broken, m = play
    if kind == THROW:
        return {"card": card_name(c)}
    if kind == CAPTURE:
        return {"card": card_name(c), "capture": names_of(m)}
    out: dict[str, JSON] = {"card": card_name(c), "house": value, "loose": names_of(m)}
    if kind == BREAK:
        out["break"] = broken
    return out


def play_from_json(data: JSON, houses: dict[int, House]) -> Play:
    """Read a protocol play made on a floor with these ``houses`` (which decide between establish and add)."""
    if not isinstance(data, dict):
        raise BadPositionError(_("a play must be a JSON object such as {example}", example='{"card": "7c"}'))
    unknown = set(data) - {"card", "capture", "house", "loose", "break"}
    if unknown:
        raise BadPositionError(_("unknown key {key} in play", key=repr(sorted(unknown)[0])))
    if "card" not in data:
        raise BadPositionError(_("a play must name its card"))
    try:
        c = parse_card(data["card"])
        if "capture" in data:
            if set(data) - {"card", "capture"}:
                raise BadPositionError(_("a capture names only its card and the loose cards taken"))
            return (CAPTURE, c, 0, 0, parse_mask(data["capture"], "capture"))
        if "house" not in data:
            if set(data) != {"card"}:
                raise BadPositionError(_("a play into a house must name the house's value"))
            return (THROW, c, 0, 0, 0)
        value = data["house"]
        if isinstance(value, bool) or not isinstance(value, int) or value not in HOUSE_VALUES:
            raise BadPositionError(_("house value must be 9 to 13, not {value}", value=repr(value)))
        loose = parse_mask(data.get("loose", []), "loose")
        if "break" in data:
            broken = data["break"]
            if isinstance(broken, bool) or not isinstance(broken, int) or broken not in HOUSE_VALUES:
                raise BadPositionError(_("broken house value must be 9 to 13, not {value}", value=repr(broken)))
            return (BREAK, c, value, broken, loose)
        return (ADD if value in houses else ESTABLISH, c, value, 0, loose)
    except CardError as e:
        raise BadPositionError(said_of(e)) from None


def _int_field(data: dict[str, JSON], key: str, default: int | None, allowed: range | tuple[int, ...]) -> int:
    value = data.get(key, default)
    if value is None and default is None and key not in data:
        raise BadPositionError(f"position must give {key!r}")
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise BadPositionError(f"{key} must be one of {list(allowed)}, not {value!r}")
    return value


def position_from_json(data: JSON) -> Position:
    """Read and check a protocol position; refuse one that cannot arise in a game."""
    if not isinstance(data, dict):
        raise BadPositionError("a position must be a JSON object")
    known = {"rules", "players", "seat", "hand", "loose", "houses", "bid", "restricted"}
    unknown = set(data) - known
    if unknown:
        raise BadPositionError(f"unknown key {sorted(unknown)[0]!r} in position")
    rules = rules_from_json(data.get("rules", "standard"))
    players = _int_field(data, "players", 4, (2, 4))
    seat = _int_field(data, "seat", None, range(players))
    try:
        hand = parse_mask(data.get("hand"), "hand") if "hand" in data else None
        loose = parse_mask(data.get("loose", []), "loose")
        raw_houses = data.get("houses", [])
        if not isinstance(raw_houses, list):
            raise BadPositionError("houses must be a list")
        houses: dict[int, House] = {}
        seen = loose
        for raw in raw_houses:
            v, house = _house_from_json(raw, players)
            if v in houses:
                raise BadPositionError(f"two houses of value {v}: a play would have merged them")
            if house[0] & seen:
                raise BadPositionError(f"card {names_of(house[0] & seen)[0]} is in two places")
            seen |= house[0]
            houses[v] = house
        restricted = (
            parse_mask(data["restricted"], "restricted") if "restricted" in data else None
        )
    except CardError as e:
        raise BadPositionError(said_of(e)) from None
    if hand is None:
        raise BadPositionError("position must give 'hand'")
    if not hand:
        raise BadPositionError("the player to move must hold at least one card")
    if hand.bit_count() > 12:
        raise BadPositionError("a hand holds at most 12 cards")
    if hand & seen:
        raise BadPositionError(f"card {names_of(hand & seen)[0]} is in two places")
    check_loose_could_arise(loose, rules)
    for v in houses:
        if loose & VALUE_MASK[v]:
            raise BadPositionError(f"a loose card has the value of the {v}-house (invariant I1)")
        if houses[v][2] >> seat & 1 and not hand & VALUE_MASK[v]:
            raise BadPositionError(f"seat {seat} owns the {v}-house but holds no card of {v} (invariant I2)")
    bid = data.get("bid")
    if bid is None:
        bid = 0
    else:
        if isinstance(bid, bool) or not isinstance(bid, int) or bid not in HOUSE_VALUES:
            raise BadPositionError(f"bid must be null or 9 to 13, not {bid!r}")
        if houses:
            raise BadPositionError("the bid play is made on a floor of loose cards only")
        if not hand & VALUE_MASK[bid]:
            raise BadPositionError(f"the bidder must hold a card of his bid {bid}")
    restricted_mask = 0
    for name in rules.restricted_cards:
        c = parse_card(name)
        if restricted is not None:
            if restricted >> c & 1:
                restricted_mask |= 1 << c
        elif not (seen >> c & 1) and VALUE[c] not in houses:
            restricted_mask |= 1 << c
    for c_ in range(52):
        if restricted_mask >> c_ & 1 and VALUE[c_] in houses:
            restricted_mask &= ~(1 << c_)
    return Position(rules, players, seat, hand, loose, houses, bid, restricted_mask)


def most_loose_cards(rules: Rules) -> int:
    """The most loose cards a floor holds in play: one of each of the 13 values, three more from the first floor,
    and one more for each of Qasim's restricted cards (see :func:`check_loose_could_arise`)."""
    return 13 + FIRST_FLOOR_CARDS - 1 + len(rules.restricted_cards)


def _sums_up_to_13(values: list[int]) -> int:
    """Bit ``s`` set for every total ``s`` <= 13 that some of ``values`` add up to (bit 0: none of them)."""
    sums = 1
    for v in values:
        sums = (sums | sums << v) & 0x3FFF
    return sums


def check_loose_could_arise(loose: int, rules: Rules) -> None:
    """Refuse loose cards that cannot lie together on a floor in play.

    Loose cards come from the first floor (any four cards, two of a rank among them, rule 4.3) or from throws, and a
    card is thrown only when no loose cards add up to its value (5.2), Qasim's restricted cards aside (7.2: they
    may be thrown whatever the floor holds). Cards never come back to the floor once taken, so the loose cards
    thrown before a card were all on the floor when it was thrown. Hence the floor could arise only if its cards can
    be taken back in the reverse order of their throws, down to at most four: a card can be taken back when no other
    remaining card sums to its value, and taking one back never stops another from being taken back, so taking them
    back in any such order decides it. This bounds the floor (:func:`most_loose_cards`) and with it the work of
    listing the legal plays, which grows exponentially with the loose cards of a floor that could not arise.
    """
    count = loose.bit_count()
    if count <= FIRST_FLOOR_CARDS:
        return
    most = most_loose_cards(rules)
    if count > most:
        raise BadPositionError(f"a floor in play holds at most {most} loose cards, not {count}")
    free = {parse_card(name) for name in rules.restricted_cards}
    left = cards_of(loose)
    taken_back = True
    while taken_back and len(left) > FIRST_FLOOR_CARDS:
        taken_back = False
        for c in left:
            others = [VALUE[o] for o in left if o != c]
            if c in free or not _sums_up_to_13(others) >> VALUE[c] & 1:
                left.remove(c)
                taken_back = True
                break
    if len(left) > FIRST_FLOOR_CARDS:
        raise BadPositionError(
            f"loose cards {' '.join(names_of(mask_of(left)))} cannot lie together in play: a card is thrown only "
            f"when no loose cards add up to its value, and only the first {FIRST_FLOOR_CARDS} floor cards are not "
            "thrown")


def splits_into_groups(cards: int, value: int) -> bool:
    """Whether ``cards`` split wholly into two or more disjoint groups each adding up to ``value`` (a cemented house).

    Worked out on how many cards of each value there are (suits never matter to a sum): the biggest value left must
    be in some group, so each way of completing one group around it is tried, and the counts that do not split are
    remembered. Bounded however many cards a house holds (trying every subset of the cards, as the engine's floor
    groups do, took a second for 20 cards and never ended for 28).
    """
    counts = [0] * 14
    for c in cards_of(cards):
        counts[VALUE[c]] += 1
    if any(counts[value + 1:]) or mask_value_sum(cards) % value or mask_value_sum(cards) < 2 * value:
        return False
    counts[value] = 0  # each card of the house's value is a group by itself
    failed: set[tuple[int, ...]] = set()

    def splits(left: tuple[int, ...]) -> bool:
        top = max((v for v in range(1, value) if left[v]), default=0)
        if not top:
            return True
        if left in failed:
            return False
        start = list(left)
        start[top] -= 1
        for rest in completions(start, value - top, top):
            if splits(tuple(rest)):
                return True
        failed.add(left)
        return False

    def completions(left: list[int], need: int, most: int) -> Iterator[list[int]]:
        """``left`` less each multiset of its values, none above ``most``, adding up to ``need``."""
        if not need:
            yield left
            return
        for v in range(min(most, need), 0, -1):
            if left[v]:
                left[v] -= 1
                yield from completions(left, need - v, v)
                left[v] += 1

    return splits(tuple(counts))


def _house_from_json(raw: JSON, players: int) -> tuple[int, House]:
    if not isinstance(raw, dict):
        raise BadPositionError("a house must be an object with value, cards, cemented and owners")
    unknown = set(raw) - {"value", "cards", "cemented", "owners"}
    if unknown:
        raise BadPositionError(f"unknown key {sorted(unknown)[0]!r} in house")
    v = raw.get("value")
    if isinstance(v, bool) or not isinstance(v, int) or v not in HOUSE_VALUES:
        raise BadPositionError(f"house value must be 9 to 13, not {v!r}")
    cards = parse_mask(raw.get("cards"), f"cards of the {v}-house")
    cemented = raw.get("cemented", False)
    if not isinstance(cemented, bool):
        raise BadPositionError(f"cemented of the {v}-house must be true or false")
    if cards.bit_count() < 2:
        raise BadPositionError(f"the {v}-house must hold at least two cards")
    if cemented:
        if not splits_into_groups(cards, v):
            raise BadPositionError(f"the cemented {v}-house's cards do not split into groups of {v}")
    elif mask_value_sum(cards) != v:
        raise BadPositionError(f"the ordinary {v}-house's cards do not add up to {v}")
    owners_raw = raw.get("owners")
    if not isinstance(owners_raw, list) or not owners_raw:
        raise BadPositionError(f"the {v}-house must have a list of one or two owner seats")
    owners = 0
    for s in owners_raw:
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < players:
            raise BadPositionError(f"owner of the {v}-house must be a seat from 0 to {players - 1}, not {s!r}")
        if owners & team_mask(s, players):
            raise BadPositionError(f"the {v}-house has two owners of one team")
        owners |= 1 << s
    if not cemented and owners.bit_count() != 1:
        raise BadPositionError(f"an ordinary house has one owner; the {v}-house has {owners.bit_count()}")
    return v, (cards, cemented, owners)


def legal_outcomes(position: Position) -> list[dict[str, JSON]]:
    """The ``legal`` contract: every legal play of the position with its outcome."""
    return [position.outcome(p) for p in position.legal_plays()]


__all__ = [
    "Position",
    "check_loose_could_arise",
    "houses_to_json",
    "legal_outcomes",
    "most_loose_cards",
    "play_from_json",
    "play_to_json",
    "position_from_json",
]
