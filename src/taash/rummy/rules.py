"""13-card Indian Rummy rules as data: one :class:`Rules` value holds every parameter; presets are values of it.

Source: ``shared/rummy-rules.md`` (the project's rulings R1-R8) after the 13-card Indian Rummy text of the project's
sources (Octro's game) and the conventions of the large Indian rummy sites.

A custom variant is a preset plus overrides, given as a dict, a JSON object or a TOML/JSON file::

    preset = "classic"
    ace_points = 1
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from taash.i18n import N_, _
from taash.packs import Pack
from taash.rulebook import rules_document, rules_from_data
from taash.rummy.errors import BadRulesError

#: Players a deal may seat.
PLAYER_COUNTS = range(2, 7)

_OCTRO_PACKS = {2: (2, 4), 3: (2, 4), 4: (3, 6), 5: (3, 6), 6: (3, 6)}
_CLASSIC_PACKS = {n: (2, 2) for n in PLAYER_COUNTS}


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule parameter of a 13-card Rummy variant (defaults are the ``octro`` game)."""

    #: Name of the preset these rules start from (for records and display).
    preset: str = "octro"
    #: Standard packs and printed jokers shuffled for each number of players (section 1).
    packs: Mapping[int, tuple[int, int]] = field(default_factory=lambda: dict(_OCTRO_PACKS))
    #: R2: a card of the wild rank may be used as itself (then it is no joker, and keeps a run pure).
    wild_as_natural: bool = True
    #: R5/R6: most jokers (printed or wild) in one run or set; 0 means no limit.
    max_jokers_per_meld: int = 1
    #: Fewest natural (non-joker) cards in a run or a set.
    min_natural_cards: int = 2
    #: Most cards in a set (one per suit).
    max_set_size: int = 4
    #: Runs a valid declaration needs (section 4), and how many of them must be pure (0 runs: any melds declare).
    runs_required: int = 2
    pure_runs_required: int = 1
    #: A valid declaration needs a run (pure or impure) of at least 4 cards (the ``octro`` rule ``long_run``).
    long_run: bool = True
    #: R7: points of an ace (tens and faces 10, two to nine their rank, jokers 0).
    ace_points: int = 1
    #: Most points one hand scores (section 5).
    max_points: int = 80
    #: A drop before taking any card, a drop later in the deal, a wrong declaration (points format).
    first_drop: int = 20
    middle_drop: int = 40
    wrong_declaration: int = 80
    #: R3: a card taken from the discard pile may not be discarded in the same turn.
    keep_taken_discard: bool = True
    #: Timed play: turns in a row that time out before the player is dropped (middle drop); 0: never dropped.
    timeouts_to_drop: int = 3

    def __post_init__(self) -> None:
        packs: dict[int, tuple[int, int]] = {}
        try:
            for key, value in dict(self.packs).items():
                players = int(key)
                count, jokers = value
                if isinstance(count, bool) or isinstance(jokers, bool):
                    raise TypeError
                packs[players] = (int(count), int(jokers))
        except (TypeError, ValueError):
            raise BadRulesError(_("rule packs maps a number of players to [packs, jokers]")) from None
        if sorted(packs) != list(PLAYER_COUNTS):
            raise BadRulesError(_("rule packs must give [packs, jokers] for each of 2 to 6 players"))
        for players, (count, jokers) in packs.items():
            if not 1 <= count <= 4 or not 0 <= jokers <= 8:
                raise BadRulesError(_("rule packs: {players} players need 1 to 4 packs and 0 to 8 jokers",
                                       players=players))
            if 52 * count + jokers < 13 * players + 2 + 13:
                raise BadRulesError(_("rule packs: {count} packs are too few for {players} players", count=count,
                                       players=players))
        object.__setattr__(self, "packs", packs)
        for name, low, high in (("max_jokers_per_meld", 0, 13), ("min_natural_cards", 1, 3),
                                ("max_set_size", 3, 4), ("runs_required", 0, 4), ("pure_runs_required", 0, 4),
                                ("ace_points", 0, 10), ("max_points", 1, 1000), ("first_drop", 0, 1000),
                                ("middle_drop", 0, 1000), ("wrong_declaration", 0, 1000),
                                ("timeouts_to_drop", 0, 100)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise BadRulesError(_("rule {rule} must be a whole number from {low} to {high}, not {value}", rule=name,
                                       low=low, high=high, value=repr(value)))
        if self.pure_runs_required > self.runs_required:
            raise BadRulesError(_("rule pure_runs_required cannot exceed runs_required"))
        for name in ("wild_as_natural", "long_run", "keep_taken_discard"):
            if not isinstance(getattr(self, name), bool):
                raise BadRulesError(_("rule {rule} must be true or false", rule=name))

    def pack(self, players: int) -> Pack:
        """The cards shuffled for a deal of ``players``."""
        if players not in PLAYER_COUNTS:
            raise BadRulesError(_("13-card Rummy is played by 2 to 6 players, not {players}", players=players))
        count, jokers = self.packs[players]
        return Pack(count, jokers)

    def to_json(self) -> str | dict[str, Any]:
        """The preset's name when these rules are exactly a preset, else the preset plus what differs."""
        base = PRESETS.get(self.preset)
        if base == self:
            return self.preset
        ref = base if base is not None else PRESETS["octro"]
        out: dict[str, Any] = {"preset": ref.preset}
        for f in dataclasses.fields(self):
            mine, theirs = getattr(self, f.name), getattr(ref, f.name)
            if f.name != "preset" and mine != theirs:
                out[f.name] = {str(k): list(v) for k, v in mine.items()} if isinstance(mine, Mapping) else mine
        return out


PRESETS: dict[str, Rules] = {
    "octro": Rules(),
    "classic": Rules(
        preset="classic", packs=_CLASSIC_PACKS, max_jokers_per_meld=0, long_run=False, ace_points=10,
    ),
}
#: Each preset's name for people, a catalogue message said where it is shown (the code stays as typed: ``--rules
#: classic``, and in JSON).
PRESET_NAMES: dict[str, str] = {"octro": N_("octro"), "classic": N_("classic")}


def preset_name(preset: str) -> str:
    """A preset's name in the language spoken ("classic"); one without a name is shown as its code."""
    return _(PRESET_NAMES[preset]) if preset in PRESET_NAMES else preset


def _prepare(params: dict[str, Any], base: Rules) -> None:
    """A ``packs`` object changes the player counts it names and keeps the preset's others."""
    if "packs" in params:
        if not isinstance(params["packs"], Mapping):
            raise BadRulesError(_("rule packs maps a number of players to [packs, jokers]"))
        params["packs"] = {**base.packs, **params["packs"]}


def rules_from_json(data: object) -> Rules:
    """Rules from a preset name or an object ``{"preset": NAME, PARAMETER: VALUE, ...}`` (``None``: ``octro``)."""
    return rules_from_data(data, Rules, PRESETS, "octro", BadRulesError, _prepare)


def load_rules(spec: str) -> Rules:
    """Rules from a preset name, or from a ``.toml`` or ``.json`` file of parameters."""
    return rules_from_json(rules_document(spec, PRESETS, BadRulesError))
