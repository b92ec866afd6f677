"""The installable app and offline play, as HTTP routes: the web app manifest, the service worker, the offline
pages, the engine's bundle, Pyodide (from the npm package ``make venv`` installed into node_modules/), and the
upload of finished offline matches to the person's history.

An uploaded match is its save (setup and actions, :mod:`taash.web.offline.engine`); the server plays it again with
its own engine, every action checked and every bot's move (up to ``hard``) compared with what that bot chooses
here, and keeps it only if it replays to its end. It is never a result: no rating, leaderboard or chips count it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from taash.i18n import LANGUAGES, N_, _, said_of
from taash.tables.adapter import TableError
from taash.web.db import OfflineMatchRow
from taash.web.http import ERRORS, ApiError, StrictIn
from taash.web.offline.bundle import bundle
from taash.web.offline.engine import OfflineMatch, Setup
from taash.web.pages import STATIC, page
from taash.web.state import Guest, State

JSON = Any
#: Where ``make venv`` installs Pyodide (``npm ci``); TAASH_PYODIDE_DIR chooses another folder.
PYODIDE = Path(os.environ.get("TAASH_PYODIDE_DIR") or Path(__file__).parents[4] / "node_modules" / "pyodide")
#: The files of Pyodide's npm package the browser loads (the rest: its sources' maps, types and consoles).
PYODIDE_FILES = {"pyodide.mjs": "text/javascript", "pyodide.asm.mjs": "text/javascript",
                 "pyodide.asm.wasm": "application/wasm", "python_stdlib.zip": "application/zip",
                 "pyodide-lock.json": "application/json"}
#: The levels whose bots' every move the server chooses again on upload (``expert`` thinks for seconds a move:
#: its moves are checked as legal only).
CHECKED_LEVELS = ("easy", "medium", "hard")
#: The largest save uploaded (a long Rummy match of 6 is some tens of kilobytes).
MAX_SAVE = 512 * 1024
#: How many offline matches a person's list shows.
LISTED = 50

MANIFEST: dict[str, JSON] = {
    "name": "taash: Seep and Rummy",
    "short_name": "taash",
    "description": "Seep and 13-card Indian Rummy with friends and bots, online or offline against the computer.",
    "start_url": "/?source=app",
    "scope": "/",
    "id": "/",
    "display": "standalone",
    "orientation": "any",
    "background_color": "#0f3d2e",
    "theme_color": "#0f3d2e",
    "icons": [
        {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
        {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
        {"src": "/static/icons/maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
    ],
}

#: The pages and answers the service worker caches besides the client's static files: the benchmark page too
#: (it times the offline engine, so it runs offline), and every language's catalogue (the offline pages speak the
#: person's language with no network).
CACHED_PAGES = ("/", "/offline", "/offline/play", "/manifest.webmanifest", "/api/games", "/offline/engine.zip",
                "/static/offline/bench.html", *(f"/api/i18n/{code}" for code in LANGUAGES))
#: The static files cached, by suffix (the client's scripts, styles, icons, fonts; not its licences or sources).
CACHED_SUFFIXES = (".js", ".css", ".svg", ".png", ".woff2")

router = APIRouter()


def cached_paths() -> list[str]:
    """Every path the service worker caches for offline play: the pages, the client's files, Pyodide's."""
    static = sorted(f"/static/{p.relative_to(STATIC).as_posix()}" for p in STATIC.rglob("*")
                    if p.suffix in CACHED_SUFFIXES and p.name != "sw.js")
    return [*CACHED_PAGES, *static, *(f"/pyodide/{name}" for name in PYODIDE_FILES)]


# -- the installable app --------------------------------------------------------------------------------------


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> JSONResponse:
    return JSONResponse(MANIFEST, media_type="application/manifest+json", headers={"Cache-Control": "no-cache"})


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    """The service worker, at the root so that its scope is the whole site; its cache's name carries the engine
    bundle's version, so a new taash replaces what was cached."""
    text = (STATIC / "offline" / "sw.js").read_text().replace("__BUNDLE__", bundle()[1])
    text = text.replace("__FILES__", json.dumps(cached_paths()))
    return Response(text, media_type="text/javascript", headers={"Cache-Control": "no-cache"})


@router.get("/offline", include_in_schema=False)
async def offline_page() -> FileResponse:
    return page("offline.html")


@router.get("/offline/play", include_in_schema=False)
async def offline_table_page() -> FileResponse:
    """The offline table: the online table's page and view code, on a local transport."""
    return page("table.html")


@router.get("/offline/engine.zip", include_in_schema=False)
async def engine_bundle() -> Response:
    data, version = bundle()
    return Response(data, media_type="application/zip", headers={"ETag": f'"{version}"', "Cache-Control": "no-cache"})


@router.get("/pyodide/{name}", include_in_schema=False)
async def pyodide_file(name: str) -> FileResponse:
    kind = PYODIDE_FILES.get(name)
    if kind is None:
        raise ApiError("not_found", N_("no such file of Pyodide"))
    path = PYODIDE / name
    if not path.is_file():
        raise ApiError("not_found", N_("Pyodide is not installed on this server: run make venv (it needs npm)"))
    return FileResponse(path, media_type=kind, headers={"Cache-Control": "public, max-age=86400"})


# -- offline matches uploaded ---------------------------------------------------------------------------------


class UploadIn(StrictIn):
    save: str = Field(max_length=MAX_SAVE, description="The offline match's save, as the offline engine wrote it")


class OfflineMatchOut(BaseModel):
    id: str
    game: str
    uploaded_at: str
    summary: dict[str, JSON] = Field(description="The level, and each seat's name, whether a bot, points and win")


def replayed(save: str) -> OfflineMatch:
    """The match a save describes, played again by this server's engine, every bot's move (up to hard) chosen
    again here: ``TableError`` saying the first thing wrong."""
    try:
        data = json.loads(save)
    except ValueError:
        raise TableError("the record is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("actions"), list):
        raise TableError("the record has a setup and its actions")
    match = OfflineMatch(Setup.from_json(data.get("setup")))
    checked = match.setup.level in CHECKED_LEVELS
    for n, made in enumerate(data["actions"], 1):
        if not isinstance(made, dict) or not isinstance(made.get("action"), dict):
            raise TableError(_("action {n} is not an object", n=n))
        person = made.get("person") is True
        seat = match.table.to_move()
        if seat is not None and match.table.seats[seat].bot == person:
            raise TableError(_("action {n} is made by the wrong seat", n=n))
        if checked and not person and match.table.bot_action() != made["action"]:
            raise TableError(_("action {n} is not the bot's move", n=n))
        try:
            match.make(made["action"], person)
        except TableError as e:
            raise TableError(_("action {n} is refused: {why}", n=n, why=said_of(e))) from None
    if not match.over:
        raise TableError("the match is not finished")
    return match


def summary_of(match: OfflineMatch) -> dict[str, JSON]:
    return {"level": match.setup.level, "seed": match.setup.seed,
            "seats": [{"seat": i, "name": seat.name, "bot": seat.bot, "won": r.won, "points": r.points}
                      for i, seat, r in match.table.results()]}


@router.post("/api/offline/matches", response_model=OfflineMatchOut, responses=ERRORS)
async def upload(body: UploadIn, state: State, guest: Guest) -> OfflineMatchOut:
    """Add a finished offline match to the person's history, once the server's engine has played it again (a
    record that does not replay is refused, saying why); the same match sent twice is kept once."""
    try:
        match = replayed(body.save)
    except TableError as e:
        raise ApiError("bad", _("this offline match was refused: {why}", why=said_of(e))) from None
    key = hashlib.sha256(f"{guest}\n{body.save}".encode()).hexdigest()
    summary = summary_of(match)
    with Session(state.store.engine) as session, session.begin():
        row = session.get(OfflineMatchRow, key)
        if row is None:
            row = OfflineMatchRow(id=key, guest=guest, game=match.setup.game, save=body.save,
                                  summary=json.dumps(summary))
            session.add(row)
            session.flush()
        return out(row)


@router.get("/api/offline/matches", response_model=list[OfflineMatchOut], responses=ERRORS)
async def offline_matches(state: State, guest: Guest) -> list[OfflineMatchOut]:
    """The person's offline matches uploaded, newest first."""
    with Session(state.store.engine) as session:
        rows = session.scalars(select(OfflineMatchRow).where(OfflineMatchRow.guest == guest)
                               .order_by(OfflineMatchRow.uploaded_at.desc()).limit(LISTED))
        return [out(r) for r in rows]


@router.get("/api/people/{guest_id}/offline", response_model=list[OfflineMatchOut], responses=ERRORS)
async def persons_offline_matches(guest_id: str, state: State) -> list[OfflineMatchOut]:
    """A person's offline matches uploaded, newest first, for his page: listed apart from his matches at tables,
    as matches against the computer that no rating, leaderboard or statistic counts."""
    if not re.fullmatch(r"[0-9a-f]{1,32}", guest_id) or state.store.guest(guest_id) is None:
        raise ApiError("not_found", N_("no such person"))
    with Session(state.store.engine) as session:
        rows = session.scalars(select(OfflineMatchRow).where(OfflineMatchRow.guest == guest_id)
                               .order_by(OfflineMatchRow.uploaded_at.desc()).limit(LISTED))
        return [out(r) for r in rows]


def out(row: OfflineMatchRow) -> OfflineMatchOut:
    return OfflineMatchOut(id=row.id, game=row.game, uploaded_at=row.uploaded_at.isoformat(),
                           summary=json.loads(row.summary))
