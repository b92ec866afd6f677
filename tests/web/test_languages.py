"""The web's languages, server side: each language's catalogue for the browser is made from the .po files (every
message of the client in it, plural forms by the .po's rule), the language a request asks for, and refusals
answered in it, over HTTP and over a table's socket; English, byte for byte as before, when none is asked."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from fastapi.testclient import TestClient

from taash.i18n import LANGUAGES, best_language, client_catalogue, say_in
from taash.web.app import ServerConfig, create_app
from tests.web.server import migrated_sqlite

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "taash" / "web" / "static"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(ServerConfig(database_url=migrated_sqlite(tmp_path), bot_delay=0))
    with TestClient(app) as c:
        yield c


def client_messages() -> set[str | tuple[str, ...]]:
    """Every message of the browser's scripts and pages, as babel.cfg finds them."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    found: set[str | tuple[str, ...]] = set()
    for filename, _line, message, _comments, _context in extract_from_dir(ROOT / "src" / "taash", method_map,
                                                                           options_map):
        if "static" in Path(filename).parts:
            found.add(message if isinstance(message, str) else tuple(message))
    return found


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_of_the_client_is_in_its_catalogue_with_every_plural_form(lang: str) -> None:
    """A message missing here would show in English: the list says which to translate (`make i18n`, then the
    .po files)."""
    catalogue = client_catalogue(lang)
    messages = catalogue["messages"]
    found = client_messages()
    assert len(found) > 300  # the scripts and the pages were read
    missing = sorted(str(m) for m in found if (m if isinstance(m, str) else m[0]) not in messages)
    assert not missing, f"{lang}: {len(missing)} messages of the client untranslated: {missing[:20]}"
    for message in found:
        if isinstance(message, tuple):
            assert isinstance(messages[message[0]], list) and len(messages[message[0]]) >= 2, message


def test_every_key_of_texts_js_is_a_message_of_the_catalogue() -> None:
    """static/texts.js is the key-based API others add to: every value must go through the catalogue (`_` or
    `ngettext`), or it would never be translated."""
    source = (STATIC / "texts.js").read_text()
    body = source[source.index("export const TEXT = {"):]
    entries = re.findall(r"^  (\w+): (.+)$", body, flags=re.M)
    assert len(entries) >= 25
    bare = [key for key, value in entries if not re.search(r"\b(_|ngettext)\(", value)]
    assert not bare, f"TEXT keys not looked up in the catalogue (wrap them in _()): {bare}"


def test_every_script_that_speaks_imports_the_catalogue() -> None:
    """A script calling _() without importing it would fail in the browser; one with words and no _() at all is
    English only."""
    for path in sorted(STATIC.rglob("*.js")):
        text = path.read_text()
        if re.search(r"(?<![\w.])(_|_parts|ngettext)\(", text) and path.name != "i18n.js":
            assert 'from "/static/i18n.js"' in text, f"{path.name} uses _() without importing it"


def test_the_catalogue_endpoint_serves_each_language_and_refuses_others(client: TestClient) -> None:
    hi = client.get("/api/i18n/hi").json()
    assert hi["lang"] == "hi" and hi["languages"] == LANGUAGES and hi["plural"] == "(n > 1)"
    assert hi["messages"]["Your turn"] == say_in("hi", "Your turn") != "Your turn"
    assert isinstance(hi["messages"]["{n} card"], list)
    pa = client.get("/api/i18n/pa").json()
    assert re.search(r"[\u0a00-\u0a7f]", pa["messages"]["Your turn"])
    en = client.get("/api/i18n/en").json()
    assert en["messages"] == {} and en["lang"] == "en"
    refused = client.get("/api/i18n/fr")
    assert refused.status_code == 404 and refused.json() == {"detail": "no such language: fr", "code": "not_found"}


def test_the_language_asked_for_by_accept_language() -> None:
    assert best_language("hi-IN,hi;q=0.9,en;q=0.8") == "hi"
    assert best_language("en-GB,pa;q=0.9") == "en"
    assert best_language("fr, pa-IN;q=0.5, hi;q=0.4") == "pa"
    assert best_language("hi;q=0, pa;q=0.1") == "pa"
    assert best_language("hi;q=nonsense,pa") == "pa"
    assert best_language("") == best_language(None) == best_language("de,fr") == "en"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_an_http_refusal_comes_back_in_the_language_asked(client: TestClient, lang: str) -> None:
    english = client.get("/api/join/ZZZZ")
    assert english.json() == {"detail": "no table has that code", "code": "not_found"}
    said = client.get("/api/join/ZZZZ", headers={"Accept-Language": lang})
    assert said.status_code == english.status_code == 404
    assert said.json() == {"detail": say_in(lang, "no table has that code"), "code": "not_found"}
    assert said.json()["detail"] != english.json()["detail"]
    # A sentence with a value: the value is put into the translated sentence, not beside it.
    assert client.get("/api/i18n/xx", headers={"Accept-Language": lang}).json()["detail"] == say_in(
        lang, "no such language: {lang}", lang="xx")


def test_a_refusal_on_a_tables_socket_comes_back_in_the_language_of_its_query(client: TestClient) -> None:
    assert client.post("/api/guest", json={"name": "Asha"}).status_code == 200
    made = client.post("/api/tables", json={"players": 2, "baazis": 0, "level": "easy", "seat": 0})
    assert made.status_code == 200, made.text
    table = made.json()["id"]
    client.cookies.clear()  # a stranger now: he may watch this public table, not play at it
    for lang, expected in (("hi", say_in("hi", "spectators cannot play")), (None, "spectators cannot play")):
        query = f"?lang={lang}" if lang else ""
        with client.websocket_connect(f"/ws/{table}{query}") as ws:
            snapshot = ws.receive_json()
            ws.send_json({"type": "bid", "value": 13, "version": snapshot["version"], "id": "w1"})
            while (m := ws.receive_json())["type"] != "error":
                pass
            assert m["code"] == "not_seated" and m["message"] == expected
