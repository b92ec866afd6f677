"""The registered games as the server offers them (:mod:`taash.games.registry`): ``GET /api/games`` tells the
browser each game with tables (its title, seats, rules presets, formats, levels, the statistics a player's page
sums, and the URLs of its view modules); ``/games/<name>/<file>`` serves a game's browser modules kept outside
the package's static folder; and each game's own endpoints (its plugin's ``routes``) are mounted beside the
generic ones. No part of it names a game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from pydantic import AfterValidator, BaseModel, Field

from taash.games.plugin import GamePlugin
from taash.games.registry import check_level, default_game, level_words, levels, plugin, plugins
from taash.i18n import DEFAULT, N_, _, best_language, say_in
from taash.tables.adapter import adapter, game_names
from taash.web.http import ERRORS, ApiError

#: The package's static folder, served at ``/static``: a view module in it keeps its ``/static`` URL.
STATIC = Path(__file__).resolve().parent / "static"
#: A browser module's file name, as ``/games/<name>/<file>`` takes it (no folders: only the view's own folder).
MODULE_FILE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,60}\.js")


def known_game(name: str) -> str:
    """``name`` if a registered game seats tables, else ``ValueError`` naming those that do."""
    if name not in game_names():
        raise ValueError(_("unknown game {game} (games: {games})", game=repr(name[:40]), games=", ".join(game_names())))
    return name


def level_of(game: str, level: str | None) -> str:
    """The bots' level a request asked for at ``game`` (None: the game's default), or ``ValueError`` naming the
    game's levels for one it does not offer."""
    if level is None:
        return plugin(game).default_level
    try:
        return check_level(game, level)
    except ValueError:
        raise ValueError(_("level must be one of {levels} at {game}, not {level}", levels=", ".join(levels(game)),
                           game=plugin(game).title, level=repr(level[:40]))) from None


def all_levels() -> list[str]:
    """Every level some game with tables offers (a request's schema lists them; each game takes its own)."""
    return list(dict.fromkeys(level for name in game_names() for level in levels(name)))


def _games_enum(schema: dict[str, Any]) -> None:
    schema["enum"] = list(game_names())


def _levels_enum(schema: dict[str, Any]) -> None:
    schema["anyOf"] = [{"type": "string", "enum": all_levels()}, {"type": "null"}]


#: A request's bots' level: one its game offers (checked with the game: :func:`level_of`); null: the game's default.
LevelName = Annotated[str | None, Field(None, max_length=40, json_schema_extra=_levels_enum,
                                        description="The bots' level: one of the game's (GET /api/games lists "
                                                    "them); null: the game's default")]

#: A request's game: any registered game with tables (the schema lists them as they are when it is read).
GameName = Annotated[str, AfterValidator(known_game),
                     Field(default_factory=default_game, max_length=40, json_schema_extra=_games_enum,
                           description="The game, by its registry name (GET /api/games lists them)")]


class GameOut(BaseModel):
    name: str
    title: str
    players: list[tuple[int, str]] = Field(description="The player counts its tables seat and how the lobby says "
                                                       "each, the default first")
    rules: list[str] = Field(description="Its rules presets, the default first")
    formats: list[str] = Field(description="Its match formats, the default first (empty: a number of baazis)")
    levels: list[str] = Field(description="The bots' levels it offers, the easiest first (a table's ``level``)")
    default_level: str = Field(description="The level a table that names none is made with")
    level_words: dict[str, str] = Field(description="What each level's bots do, in a player's words (in the "
                                                    "language asked for)")
    stats: list[str] = Field(description="The counts a player's page sums over his matches of the game")
    view: str | None = Field(description="The URL of its view module for a table (an ES module)")
    replay_view: str | None = Field(description="The URL of its module drawing a replay's step")


def module_url(game: GamePlugin, which: str) -> str | None:
    """Where the browser imports one of a game's modules: its ``/static`` URL if it is in the package's static
    folder, else ``/games/<name>/<file>``."""
    path = game.file(which)
    if path is None:
        return None
    if path.is_relative_to(STATIC):
        return "/static/" + path.relative_to(STATIC).as_posix()
    return f"/games/{game.name}/{path.name}"


def game_out(game: GamePlugin, lang: str = DEFAULT) -> GameOut:
    """A game as the lobby offers it, its words (how a player count is said, what each level does) in ``lang``."""
    table_game = adapter(game.name)
    words = {n: say_in(lang, said) for n, said in game.player_words}
    return GameOut(name=game.name, title=game.title, players=[(n, words.get(n, str(n))) for n in game.players],
                   rules=list(table_game.presets), formats=list(table_game.formats), levels=list(levels(game.name)),
                   default_level=game.default_level,
                   level_words={level: say_in(lang, said) for level, said in level_words(game.name).items()},
                   stats=list(game.stats), view=module_url(game, "view"),
                   replay_view=module_url(game, "replay_view"))


def module_file(game: str, file: str) -> Path:
    """The file of ``game``'s browser modules that ``/games/<game>/<file>`` names: in the folder of its view
    modules (``ApiError`` ``not_found`` for anything else)."""
    try:
        found = plugin(game)
    except ValueError:
        raise ApiError("not_found", N_("no such game")) from None
    if MODULE_FILE.fullmatch(file):
        for which in ("view", "replay_view"):
            path = found.file(which)
            if path is not None and (path.parent / file).is_file():
                return path.parent / file
    raise ApiError("not_found", N_("{game} has no module {file}"), game=found.title, file=repr(file[:60]))


def games_router() -> APIRouter:
    """``GET /api/games``, the games' modules, and every game's own endpoints."""
    router = APIRouter()

    @router.get("/api/games", response_model=list[GameOut])
    async def games(request: Request) -> list[GameOut]:
        """Every game a table may be made for, the default first, as the lobby offers it (its words in the
        language of the request's ``Accept-Language``, or of its ``?lang=``)."""
        lang = best_language(request.query_params.get("lang") or request.headers.get("accept-language"))
        return [game_out(p, lang) for p in plugins() if p.name in game_names()]

    @router.get("/games/{game}/{file}", responses=ERRORS, include_in_schema=False)
    async def game_module(game: str, file: str) -> FileResponse:
        return FileResponse(module_file(game, file), media_type="text/javascript",
                            headers={"Cache-Control": "no-cache"})

    for p in plugins():
        if p.routes is not None:
            router.include_router(p.part("routes"))
    return router
