"""Seep rules as data: one :class:`Rules` value holds every parameter, and the named presets are values of it.

Sources: ``shared/seep-rules.md`` (the project's rulings) after John McLeod's pagat.com text on Seep/Sweep,
Karan Juneja's scoring, and the Punjabi 30-point game with Qasim Shabbir Chaudry's variation (section 7).

A custom variant is a preset plus overrides, given as a dict, a JSON object or a TOML/JSON file::

    preset = "standard"
    max_houses = 2
    baazi_lead = 150
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from taash.cards import CardError, card_name, parse_card
from taash.i18n import N_, _, said_of
from taash.rulebook import rules_document, rules_from_data
from taash.seep.errors import BadRulesError

HOUSE_VALUES = range(9, 14)
#: Plays in a deal (every card but the four first floor cards is played once), the index of the last one, and, in
#: the 2-player game, the plays of the first half (its second 12 cards each are dealt after them).
PLAYS_PER_DEAL = 48
LAST_PLAY = PLAYS_PER_DEAL - 1
FIRST_HALF_PLAYS = 24

#: Bounds on the rule parameters (documented in the README): card points of one card, majority, sweep, Satthi
#: and minimum-score points are whole numbers from 0 to MOST_POINTS; the baazi lead from 1 to MOST_BAAZI_LEAD.
MOST_POINTS = 1000
MOST_BAAZI_LEAD = 10_000
#: At most this many floor redeal cards: with 12 a first floor avoids them one shuffle in three (with all 52, never).
MOST_FLOOR_REDEAL_CARDS = 12


def _card_of_rule(rule: str, text: object) -> str:
    """The canonical name of a card named in rule ``rule``."""
    try:
        return card_name(parse_card(text))  # type: ignore[arg-type]
    except CardError as e:
        raise BadRulesError(_("bad card in rule {rule}: {why}", rule=rule, why=said_of(e))) from None


def _twice(names: list[str]) -> str:
    """The first card that ``names`` name twice (whatever the case or spelling)."""
    seen: set[str] = set()
    for name in names:
        canonical = card_name(parse_card(name))
        if canonical in seen:
            return canonical
        seen.add(canonical)
    return names[0]


def _standard_points(ten_of_diamonds: int) -> dict[str, int]:
    points = {card_name(c): c % 13 + 1 for c in range(13)}  # every spade its capture value
    points.update({"Ah": 1, "Ad": 1, "Ac": 1, "Td": ten_of_diamonds})
    return points


_PUNJAB_POINTS = {"Td": 12, "9s": 9, "2s": 1, "As": 1, "Ah": 1, "Ad": 1, "Ac": 1}


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule parameter of a Seep variant (defaults are the 100-point ``standard`` game)."""

    #: Name of the preset these rules start from (for records and display).
    preset: str = "standard"
    #: Points of each scoring card, by card name (each card once, whole numbers from 0 to :data:`MOST_POINTS`);
    #: cards not named score 0.
    card_points: Mapping[str, int] = field(default_factory=lambda: _standard_points(6))
    #: Points to the team that captures more than half of the 52 cards (none on 26-26).
    majority_points: int = 0
    #: A sweep's value in play.
    sweep_points: int = 50
    #: A sweep made by the bid play.
    bid_sweep_points: int = 25
    #: A sweep made by the last play of the deal.
    last_sweep_points: int = 0
    #: When true a sweep scores the capture value of the card that made it (bid play too, the last play still
    #: ``last_sweep_points``), instead of ``sweep_points`` / ``bid_sweep_points``.
    sweep_scores_card_value: bool = False
    #: A team whose deal score is below this loses a baazi at once (0: no minimum rule).
    minimum_deal_score: int = 9
    #: Running difference that wins a baazi (1 to :data:`MOST_BAAZI_LEAD`).
    baazi_lead: int = 100
    #: Card points of a team that takes every card point of a deal (Satthi); 0: no Satthi.
    satthi_points: int = 0
    #: Most houses the floor may hold after a play (0: no limit, else 2 to 5).
    max_houses: int = 0
    #: An ordinary house may be broken with loose cards if a card of the new value from hand cements it (7.4).
    break_with_loose: bool = False
    #: Redeal when the first four floor cards hold any of these (30-point Seep: ten of diamonds, nine of spades);
    #: at most :data:`MOST_FLOOR_REDEAL_CARDS`, each named once.
    floor_redeal_cards: tuple[str, ...] = ()
    #: Qasim's restricted cards: each may not capture loose cards nor go into a larger house until a house of its
    #: value has been built, and the first house of its value may only be built by its holder.
    restricted_cards: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.preset, str):
            raise BadRulesError(_("rule preset must be a preset name, not {preset}", preset=repr(self.preset)))
        points = self.card_points
        if not isinstance(points, Mapping):
            raise BadRulesError(_("rule card_points must be an object mapping cards to points"))
        pts = {_card_of_rule("card_points", k): v for k, v in points.items()}
        if len(pts) != len(points):
            raise BadRulesError(_("rule card_points names {card} twice", card=_twice(list(points))))
        for name, v in pts.items():
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MOST_POINTS:
                raise BadRulesError(_("card points must be whole numbers from 0 to {most}, not {value} for {card}",
                                       most=MOST_POINTS, value=repr(v), card=name))
        redeal = tuple(_card_of_rule("floor_redeal_cards", c) for c in self.floor_redeal_cards)
        restricted = tuple(_card_of_rule("restricted_cards", c) for c in self.restricted_cards)
        for name, cards in (("floor_redeal_cards", redeal), ("restricted_cards", restricted)):
            if len(set(cards)) != len(cards):
                raise BadRulesError(_("rule {rule} names {card} twice", rule=name, card=_twice(list(cards))))
        if len(redeal) > MOST_FLOOR_REDEAL_CARDS:
            raise BadRulesError(_("rule floor_redeal_cards names at most {most} cards, not {count} (with more, a "
                                  "first floor without them is dealt too rarely)", most=MOST_FLOOR_REDEAL_CARDS,
                                  count=len(redeal)))
        object.__setattr__(self, "card_points", pts)
        object.__setattr__(self, "floor_redeal_cards", redeal)
        object.__setattr__(self, "restricted_cards", restricted)
        for name in ("majority_points", "sweep_points", "bid_sweep_points", "last_sweep_points",
                     "minimum_deal_score", "satthi_points"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MOST_POINTS:
                raise BadRulesError(_("rule {rule} must be a whole number from {low} to {high}, not {value}", rule=name,
                                       low=0, high=MOST_POINTS, value=repr(value)))
        lead = self.baazi_lead
        if isinstance(lead, bool) or not isinstance(lead, int) or not 1 <= lead <= MOST_BAAZI_LEAD:
            raise BadRulesError(_("rule {rule} must be a whole number from {low} to {high}, not {value}",
                                   rule="baazi_lead", low=1, high=MOST_BAAZI_LEAD, value=repr(lead)))
        houses = self.max_houses
        if isinstance(houses, bool) or not isinstance(houses, int) or houses not in (0, *range(2, 6)):
            raise BadRulesError(_("rule max_houses must be 0 (no limit) or 2 to 5 (there are five house values), "
                                  "not {value}", value=repr(houses)))
        for name in ("break_with_loose", "sweep_scores_card_value"):
            if not isinstance(getattr(self, name), bool):
                raise BadRulesError(_("rule {rule} must be true or false", rule=name))
        if any(parse_card(c) % 13 + 1 not in HOUSE_VALUES for c in self.restricted_cards):
            raise BadRulesError(_("restricted cards must be of a house value (9 to king)"))

    @property
    def total_card_points(self) -> int:
        """All card points of a deal (the majority bonus included)."""
        return sum(self.card_points.values()) + self.majority_points

    def sweep_value(self, card: int, index: int) -> int:
        """What a sweep made by ``card`` with play number ``index`` (0 = the bid play, 47 = the last) scores."""
        if index == LAST_PLAY:
            return self.last_sweep_points
        if self.sweep_scores_card_value:
            return card % 13 + 1
        return self.bid_sweep_points if index == 0 else self.sweep_points

    def card_point_table(self) -> tuple[int, ...]:
        """Points of each card int."""
        return tuple(self.card_points.get(card_name(c), 0) for c in range(52))

    def to_json(self) -> str | dict[str, Any]:
        """The preset's name when these rules are exactly a preset, else the preset plus what differs."""
        base = PRESETS.get(self.preset)
        if base == self:
            return self.preset
        out: dict[str, Any] = {"preset": self.preset if base is not None else "standard"}
        ref = base if base is not None else PRESETS["standard"]
        for f in dataclasses.fields(self):
            if f.name == "preset":
                continue
            mine, theirs = getattr(self, f.name), getattr(ref, f.name)
            if mine != theirs:
                out[f.name] = dict(mine) if isinstance(mine, Mapping) else (
                    list(mine) if isinstance(mine, tuple) else mine)
        return out


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "karan": Rules(preset="karan", card_points=_standard_points(2), majority_points=4, bid_sweep_points=50),
    "limited_houses": Rules(preset="limited_houses", max_houses=2),
    "break_with_loose": Rules(preset="break_with_loose", break_with_loose=True),
    "punjab_30": Rules(
        preset="punjab_30", card_points=_PUNJAB_POINTS, majority_points=4, sweep_scores_card_value=True,
        minimum_deal_score=0, baazi_lead=30, satthi_points=60, floor_redeal_cards=("Td", "9s"),
    ),
    "punjab_30_qasim": Rules(
        preset="punjab_30_qasim", card_points={**_PUNJAB_POINTS, "2s": 5}, majority_points=0,
        sweep_scores_card_value=True, minimum_deal_score=0, baazi_lead=30, satthi_points=60,
        floor_redeal_cards=("Td", "9s"), restricted_cards=("Td", "9s"),
    ),
}
#: Each preset's name for people, a catalogue message said where it is shown (the code stays as typed: ``--rules
#: punjab_30``, and in JSON).
PRESET_NAMES: dict[str, str] = {
    "standard": N_("standard"), "karan": N_("karan"), "limited_houses": N_("limited houses"),
    "break_with_loose": N_("break with loose"), "punjab_30": N_("punjab 30"), "punjab_30_qasim": N_("punjab 30 qasim"),
}


def preset_name(preset: str) -> str:
    """A preset's name in the language spoken ("punjab 30"); one without a name is shown as its code."""
    return _(PRESET_NAMES[preset]) if preset in PRESET_NAMES else preset


def _prepare(params: dict[str, Any], base: Rules) -> None:
    """JSON values of Seep's parameters as the dataclass holds them."""
    for key in ("floor_redeal_cards", "restricted_cards"):
        if key in params:
            if not isinstance(params[key], list | tuple):
                raise BadRulesError(_("rule {rule} must be a list of cards", rule=key))
            params[key] = tuple(params[key])
    if "card_points" in params and not isinstance(params["card_points"], Mapping):
        raise BadRulesError(_("rule card_points must be an object mapping cards to points"))


def rules_from_json(data: object) -> Rules:
    """Rules from a preset name or an object ``{"preset": NAME, PARAMETER: VALUE, ...}``."""
    return rules_from_data(data, Rules, PRESETS, "standard", BadRulesError, _prepare)


def load_rules(spec: str) -> Rules:
    """Rules from a preset name, or from a ``.toml`` or ``.json`` file of parameters."""
    return rules_from_json(rules_document(spec, PRESETS, BadRulesError))
