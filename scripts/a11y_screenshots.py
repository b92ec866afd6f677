"""The screenshots of docs/accessibility.md: a Seep table and a Rummy table in play, each reached and played by
the keyboard (its focus drawn), and the Seep learn page, on a desktop (1280x800) and a phone (390x844), in Debian's
Chromium through Playwright. Each PNG is cut to 128 colours, so that the docs stay small.

    .venv/bin/python scripts/a11y_screenshots.py        # writes docs/screenshots/a11y-*.png

It starts its own server on loopback (tests/web/server.py's, with an SQLite file in a temporary folder).
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402 - after the path
from playwright.sync_api import Page, sync_playwright  # noqa: E402
from tests.web.server import running_server  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
MY_TURN = ("() => document.body.dataset.pending !== '1' && document.querySelector(\"[data-testid='turn-banner']\")"
           ".textContent.startsWith('Your turn')")


def save(page: Page, name: str) -> None:
    path = OUT / f"{name}.png"
    page.screenshot(path=str(path))
    with Image.open(path) as image:
        image.convert("RGB").quantize(colors=128).save(path, optimize=True)
    print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size // 1024} KiB)")


def tab_until(page: Page, test: str, most: int = 80) -> None:
    """Press Tab until the focused element passes ``test`` (a JavaScript predicate of the element)."""
    for _ in range(most):
        if page.evaluate(f"() => {{ const e = document.activeElement; return Boolean(e && ({test})(e)); }}"):
            return
        page.keyboard.press("Tab")
    raise SystemExit(f"Tab never reached {test}")


def quick_play(page: Page, url: str, game: str) -> None:
    page.goto(f"{url}/")
    page.locator("[data-testid='name-input']").fill("Asha")
    page.keyboard.press("Enter")
    page.locator("[data-testid='game']").select_option(game)
    page.locator("[data-testid='players']").select_option("2")
    page.locator("[data-testid='quick-play']").click()
    page.wait_for_url("**/t/*")
    page.wait_for_function(MY_TURN, timeout=30000)


def seep_table(page: Page, url: str) -> None:
    """A card chosen by the keys, its plays offered: the focus on the card, the plays named in words."""
    quick_play(page, url, "seep")
    if page.locator("[data-testid^='bid-']").count():
        page.keyboard.press("1")
        page.wait_for_function("() => document.querySelector(\"[data-testid='hand'] .card.playable\")")
    tab_until(page, "e => e.classList.contains('card') && e.closest(\"[data-testid='hand']\")")
    for _ in range(13):
        if page.evaluate("() => document.activeElement.classList.contains('playable')"):
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.locator("[data-testid='play-option']").first.wait_for()
    page.wait_for_timeout(400)


def rummy_table(page: Page, url: str) -> None:
    """The stock taken by the keys, then the focus on Arrange for me among the actions."""
    quick_play(page, url, "rummy")
    tab_until(page, "e => e.dataset.testid === 'take-stock'")
    page.keyboard.press("Enter")
    page.locator("[data-testid='discard']").wait_for()
    tab_until(page, "e => e.dataset.testid === 'arrange'")
    page.wait_for_timeout(400)


def learn_page(page: Page, url: str) -> None:
    """The learn page's first step, a move tried by the keys: the engine's verdict under it."""
    page.goto(f"{url}/learn/seep")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    tab_until(page, "e => (e.dataset.testid || '').startsWith('try-0-')")
    page.keyboard.press("Enter")
    page.locator("[data-testid='verdict-0'][data-verdict]").wait_for()
    page.evaluate("() => document.querySelector(\"[data-testid='step-0']\").scrollIntoView()")
    page.wait_for_timeout(300)


SCENES: dict[str, Callable[[Page, str], None]] = {"seep-table": seep_table, "rummy-table": rummy_table,
                                                  "learn-seep": learn_page}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, running_server(Path(tmp)) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for scene, play in SCENES.items():
            for size, viewport in VIEWPORTS.items():
                context = browser.new_context(viewport=viewport)  # a new guest for each: a table of his own
                page = context.new_page()
                page.set_default_timeout(20000)
                play(page, server.url)
                save(page, f"a11y-{scene}-{size}")
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
