"""Offline play measured in Chromium (Debian's, through Playwright), as docs/results/offline.md publishes it. From the
repository root, after ``make venv`` (which installs Pyodide with npm):

    .venv/bin/python benchmarks/offline_browser.py [--starts 3] [--decisions 40]

It starts ``taash serve`` on a free port, visits the offline page once online (the service worker caches what
offline play needs) and reports:

- the bytes cached for offline play (every response in the service worker's cache, as the browser holds them);
- the time from a click on "Play offline" to the first deal shown, offline, once cached (``--starts`` times each
  way, a new Seep match each, the median and each): the engine started from scratch (``?snapshot=0``), from its
  memory snapshot once the table page connects (``?early=0``), and from the snapshot as the page loads (what
  players get), in turns so that all see the same load; and the snapshot's bytes;
- the bots' decisions of each game at ``hard`` in the offline engine's worker (the benchmark page
  /static/offline/bench.html): the median and the longest, and how long the engine took to start there.

Not a test: the numbers depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.web.server import free_port

CHROMIUM = "/usr/bin/chromium"
CACHED_BYTES = """async () => {
  let bytes = 0, files = 0;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    if (name === "taash-snapshots") continue; // made on this device, not downloaded: counted apart
    for (const request of await cache.keys()) {
      bytes += (await (await cache.match(request)).blob()).size;
      files += 1;
    }
  }
  return [bytes, files];
}"""


SNAPSHOT_BYTES = """async () => {
  const cache = await caches.open("taash-snapshots");
  let bytes = 0;
  for (const request of await cache.keys()) bytes += (await (await cache.match(request)).blob()).size;
  return bytes;
}"""


def serve(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "taash.cli.main", "serve", "--port", str(port), "--database-url",
                             f"sqlite:///{folder / 'bench.db'}", "--log-level", "warning"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start in 120 s")


def measure(url: str, starts: int, decisions: int) -> dict[str, object]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.set_default_timeout(300_000)
        page.goto(f"{url}/offline")
        page.evaluate("() => navigator.serviceWorker.ready")
        wanted = len(json.loads(page.evaluate("() => fetch('/sw.js').then(r => r.text())")
                                .split("const FILES = ", 1)[1].split(";\n", 1)[0]))
        page.wait_for_function(f"async () => (await ({CACHED_BYTES})())[1] >= {wanted}")
        cached, files = page.evaluate(CACHED_BYTES)
        context.set_offline(True)
        # Every start timed three ways, in turns so that all see the same load: from scratch (?snapshot=0, as
        # before snapshots), from the engine's memory snapshot started once the page connects (?early=0, as before
        # the early start; its first start makes the snapshot), and from the snapshot started as the page loads.
        firsts: dict[str, list[int]] = {"scratch": [], "snapshot": [], "snapshot_early": []}
        for _ in range(starts):
            for kind, query in (("scratch", "?snapshot=0"), ("snapshot", "?early=0"), ("snapshot_early", "")):
                page.goto(f"{url}/offline{query}")
                page.wait_for_function("() => document.body.dataset.ready === 'true'")
                page.locator("[data-testid='offline-game']").select_option("seep")
                page.locator("[data-testid='offline-play']").click()
                page.wait_for_function("() => document.body.dataset.firstDealMs")
                firsts[kind].append(int(page.evaluate("() => document.body.dataset.firstDealMs")))
        snapshot_bytes = page.evaluate(SNAPSHOT_BYTES)
        context.set_offline(False)  # the benchmark page is not one the app caches (the engine it times is)
        page.goto(f"{url}/static/offline/bench.html?level=hard&n={decisions}")
        page.wait_for_function("() => document.body.dataset.done")
        bench = json.loads(page.locator("[data-testid='bench-result']").inner_text())
        browser.close()
    return {"cached_bytes": cached, "cached_files": files, "snapshot_bytes": snapshot_bytes,
            "first_deal_ms": firsts,
            "first_deal_median_ms": {kind: statistics.median(ms) for kind, ms in firsts.items()},
            "decisions": bench}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=3, help="offline starts timed (a new match each)")
    parser.add_argument("--decisions", type=int, default=40, help="bots' decisions timed per game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        proc, url = serve(Path(folder))
        try:
            print(json.dumps(measure(url, args.starts, args.decisions), indent=2))
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
