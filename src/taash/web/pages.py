"""The browser client's pages (the lobby, a table, an invite, a replay, a person, the leaderboards, the tournaments)
and its static files; none of them is part of the API's schema."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).parent / "static"

router = APIRouter()


def page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})


#: Each page's path and the file that draws it (its script reads the rest of the URL: a table's id, a code...).
PAGES = (
    ("/", "index.html"),
    ("/t/{table_id}", "table.html"),
    ("/join/{code}", "index.html"),
    ("/r/{table_id}", "replay.html"),
    ("/p/{guest_id}", "person.html"),
    ("/leaderboard", "leaderboard.html"),
    ("/tournaments", "tournaments.html"),
    ("/tournaments/{tournament_id}", "tournaments.html"),
)


def serving(name: str) -> Callable[[], Awaitable[FileResponse]]:
    """The route that answers with the page ``name``, whatever the rest of its path says."""
    async def serve() -> FileResponse:
        return page(name)
    return serve


for path, name in PAGES:
    router.add_api_route(path, serving(name), methods=["GET"], include_in_schema=False)


def mount_static(app: FastAPI) -> None:
    """Serve the client's scripts, styles and images under ``/static`` (when the package has them)."""
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
