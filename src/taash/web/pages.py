"""The browser client's pages (the lobby, a table, an invite, a replay, a person, the leaderboards) and its static
files; none of them is part of the API's schema."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).parent / "static"

router = APIRouter()


def page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})


@router.get("/", include_in_schema=False)
async def lobby_page() -> FileResponse:
    return page("index.html")


@router.get("/t/{table_id}", include_in_schema=False)
async def table_page(table_id: str) -> FileResponse:
    return page("table.html")


@router.get("/join/{code}", include_in_schema=False)
async def join_page(code: str) -> FileResponse:
    return page("index.html")


@router.get("/r/{table_id}", include_in_schema=False)
async def replay_page(table_id: str) -> FileResponse:
    return page("replay.html")


@router.get("/p/{guest_id}", include_in_schema=False)
async def person_page(guest_id: str) -> FileResponse:
    return page("person.html")


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_page() -> FileResponse:
    return page("leaderboard.html")


@router.get("/tournaments", include_in_schema=False)
async def tournaments_page() -> FileResponse:
    return page("tournaments.html")


@router.get("/tournaments/{tournament_id}", include_in_schema=False)
async def tournament_page(tournament_id: str) -> FileResponse:
    return page("tournament.html")


def mount_static(app: FastAPI) -> None:
    """Serve the client's scripts, styles and images under ``/static`` (when the package has them)."""
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
