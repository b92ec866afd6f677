"""A table as the HTTP API takes and shows it: the settings a table is made with, a seat taken, and the lobby's
view of a table (its invite code only for those who may see it)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from taash.fairness import SEED_RULE
from taash.i18n import _
from taash.tables.adapter import Settings, TableError, adapter, game_names
from taash.web.games import GameName, LevelName, level_of
from taash.web.http import NAME_RULE, ApiError, StrictIn, display_name
from taash.web.hub import Live, code_matches, is_member
from taash.web.stakes import hold_for, hold_per_seat

JSON = Any

GAMES = {name: adapter(name) for name in game_names()}
ALL_PRESETS = sorted({p for g in GAMES.values() for p in g.presets})
ALL_FORMATS = sorted({f for g in GAMES.values() for f in g.formats})


class TableIn(StrictIn):
    game: GameName
    players: int = Field(4, ge=2, le=6, description="One of the game's player counts (" + "; ".join(
        f"{g.title}: {', '.join(map(str, g.player_counts))}" for g in GAMES.values()) + "; another: 400 ``bad``)")
    rules: str | None = Field(None, description="A preset of the game (" + "; ".join(
        f"{g.title}: {', '.join(g.presets)}" for g in GAMES.values()) + "); null: the game's first; "
                              "another game's: 400 ``bad``", json_schema_extra={"enum": [*ALL_PRESETS, None]})
    baazis: int = Field(1, ge=0, le=20, description="A game without formats: baazis to win the match; 0 plays a "
                                                    "single deal")
    format: str | None = Field(None, description="The match's format, for a game with formats (" + "; ".join(
        f"{g.title}: {', '.join(g.formats)}" for g in GAMES.values() if g.formats) + "); null: the game's first. "
                               "A game without formats takes none (400 ``bad``)",
                               json_schema_extra={"enum": [*ALL_FORMATS, None]})
    level: LevelName = None
    public: bool = Field(True, description="A public table is listed in the lobby and anyone may watch it; a "
                                           "private one is seen only by its creator and its players (and, until "
                                           "it starts, by whoever holds its invite code)")
    seat: int | None = Field(0, ge=0, le=5, description="The seat its creator takes at once (null: none, he "
                                                        "only manages the table)")
    stake: int = Field(0, ge=0, le=10**9, description="Chips the match is played for (0: none); see README's "
                                                     "'Playing for chips' for each game's rule and hold")
    seed: str | None = Field(None, description="Its creator's own seed for fair dealing, with ``seat``: mixed into "
                                               f"every shuffle ({SEED_RULE}; see docs/web-protocol.md)")

    @model_validator(mode="after")
    def _seat(self) -> TableIn:
        if self.seat is not None and self.seat >= self.players:
            raise ValueError(_("seat must be from 0 to {last} at a table of {players}", last=self.players - 1,
                               players=self.players))
        self.level = level_of(self.game, self.level)
        return self


class LogOut(BaseModel):
    log: list[str] = Field(description="Every line of the table's log, the first first (line 1)")


class HoldOut(BaseModel):
    hold: int = Field(description="Chips held from each player when the match starts (the most he can lose)")
    said: str = Field(description="What the stake holds, in a player's words")


class TableQuery(TableIn):
    """:class:`TableIn` in a URL's query (``GET /api/stakes/hold``): every value arrives as text, so numbers are
    read from their digits (still whole numbers in their ranges)."""

    model_config = ConfigDict(strict=False)


class SitIn(StrictIn):
    seat: int = Field(ge=0, le=5)
    name: str | None = Field(None, min_length=1, max_length=24,
                             description="The name to sit under at this table (default: your guest name); "
                                         f"names are unique per table: {NAME_RULE}")
    code: str | None = Field(None, max_length=12, description="The table's invite code: needed to sit at a "
                                                              "private table (its creator and players need none)")
    seed: str | None = Field(None, description="Your own seed for fair dealing: mixed into every shuffle of the "
                                               f"match ({SEED_RULE}; see docs/web-protocol.md)")

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        return None if v is None else display_name(v)


class SeatOut(BaseModel):
    # The module it was first written in: the published schema names it ``taash__web__app__SeatOut`` (beside
    # history's ``SeatOut``), and clients generated from the schema keep that name.
    __module__ = "taash.web.app"

    seat: int
    name: str | None
    bot: bool
    empty: bool
    account: bool = Field(default=False, description="Whether the person in the seat has an account (false: a "
                                                     "guest, a bot or nobody)")


class TableOut(BaseModel):
    id: str
    code: str | None = Field(description="The invite code; null for a private table's outsiders")
    game: str
    players: int
    rules: str
    baazis: int | None = Field(None, description="Seep: baazis to win (0: a single deal)")
    format: str | None = Field(None, description="Rummy: the match's format")
    level: str
    public: bool
    status: str
    version: int
    seats: list[SeatOut]
    invite: str | None = Field(None, description="The invite link's path; null where the code is not shown")
    stake: int = Field(0, description="Chips the match is played for (0: none)")
    hold: int = Field(0, description="Chips held from each seat when the match starts (the most it can lose)")



def table_out(live: Live, shown: bool) -> TableOut:
    """The lobby's view of a table; its invite code only where ``shown`` (see :func:`code_shown`)."""
    summary = {**live.table.summary(), "stake": live.stake,
               "hold": hold_per_seat(live.table, live.stake) if live.stake else 0}
    summary["seats"] = [{**seat, "account": s.guest is not None and s.guest in live.accounts}
                        for seat, s in zip(summary["seats"], live.table.seats, strict=True)]
    if not shown:
        return TableOut(**{**summary, "code": None}, invite=None)
    return TableOut(**summary, invite=f"/join/{live.table.code}")


def code_shown(live: Live, guest: str | None, code: str | None = None) -> bool:
    """Whether ``guest`` may be shown the table's invite code: anyone a public table's, a private table's only its
    members and whoever gave the code himself."""
    return live.table.settings.public or is_member(live, guest) or code_matches(live, code)


def private_refused(live: Live, guest: str | None, refusal: str) -> None:
    """Refuse (403) anyone but a private table's creator and players, saying ``refusal`` (a message of the
    catalogue: "a private table: only its players may see its log")."""
    if not live.table.settings.public and not is_member(live, guest):
        raise ApiError("forbidden", refusal)


def sit_action(seat: int, name: str, seed: str | None) -> dict[str, JSON]:
    """The table's sit action (with the player's own seed for fair dealing, when he gives one)."""
    action: dict[str, JSON] = {"type": "sit", "seat": seat, "name": name}
    if seed is not None:
        action["seed"] = seed
    return action


def settings_of(body: TableIn) -> Settings:
    """The settings a table asked for (``TableError`` for those no table takes)."""
    game = adapter(body.game)
    length = body.baazis if not game.formats else body.format or game.formats[0]
    if body.format is not None and not game.formats:
        raise TableError(_("{game} takes no format (it plays to baazis)", game=game.title))
    settings = game.settings(body.players, body.rules or game.presets[0], length, level_of(body.game, body.level),
                             body.public)
    hold_for(settings, body.stake)  # a game not played for chips refuses a stake
    return settings
