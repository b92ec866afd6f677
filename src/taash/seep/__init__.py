"""Seep (Sweep), the Indian fishing card game: an exact and fast rules engine.

Rules: ``shared/seep-rules.md`` in the project (after pagat.com's Seep page and its variants). Formats:
``shared/seep-protocol.md``. Layers: :mod:`~taash.seep.rules` (parameters and presets),
:mod:`~taash.seep.groups` and :mod:`~taash.seep.plays` (legal plays), :mod:`~taash.seep.deal` (one deal),
:mod:`~taash.seep.match` (baazis and dealers), :mod:`~taash.seep.view` (what a seat sees),
:mod:`~taash.seep.notation` and :mod:`~taash.seep.record` (JSON formats).

>>> from taash.seep import Match, PRESETS
>>> match = Match(PRESETS["standard"], players=4, seed=7)
>>> match.deal.legal_bids()
[9, 12]
"""

from taash.seep.deal import Deal, DealScore, Phase
from taash.seep.errors import BadPositionError, BadRulesError, IllegalPlayError, RecordError, SeepError
from taash.seep.match import DealResult, Match, next_dealer, score_deal
from taash.seep.notation import Position, legal_outcomes, play_from_json, play_to_json, position_from_json
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
)
from taash.seep.record import GameRecord, record_from_json, record_of, replay, replay_to_json
from taash.seep.rules import PRESETS, Rules, load_rules, rules_from_json
from taash.seep.view import PlayerView, view_of

__all__ = [
    "ADD",
    "BREAK",
    "CAPTURE",
    "ESTABLISH",
    "KIND_NAMES",
    "PRESETS",
    "THROW",
    "BadPositionError",
    "BadRulesError",
    "Deal",
    "DealResult",
    "DealScore",
    "GameRecord",
    "House",
    "IllegalPlayError",
    "Match",
    "Phase",
    "Play",
    "PlayerView",
    "Position",
    "RecordError",
    "Rules",
    "SeepError",
    "apply_play",
    "legal_outcomes",
    "legal_plays",
    "load_rules",
    "next_dealer",
    "play_from_json",
    "play_to_json",
    "position_from_json",
    "record_from_json",
    "record_of",
    "replay",
    "replay_to_json",
    "rules_from_json",
    "score_deal",
    "view_of",
]
