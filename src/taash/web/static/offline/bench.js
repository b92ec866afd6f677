// The offline engine's benchmark page (/static/offline/bench.html, driven by benchmarks/offline_browser.py): the
// bots' decisions of each game timed in the worker, with the time the engine took to start.

import { games } from "/static/common.js";
import { LocalSocket } from "/static/offline/local.js";

const params = new URLSearchParams(location.search);
const level = params.get("level") || "hard";
const n = Number(params.get("n") || 40);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : null;
}

function timed(game, players) {
  return new Promise((resolve, reject) => {
    const setup = { game, players, level, length: null, rules: null, seed: 2024, name: "Bench" };
    let loadedMs = null;
    const socket = new LocalSocket({ id: "bench", setup }, {
      delay: 3_600_000, // no bot moves by itself: the benchmark moves every seat
      persist: false,
      onLoaded: (ms) => { loadedMs = ms; },
      onFailed: reject,
    });
    socket.onopen = () => socket.bench(n);
    socket.onbench = (times) => {
      socket.close();
      resolve({ game, level, decisions: times.length, median_ms: median(times), max_ms: Math.max(...times),
        engine_start_ms: loadedMs });
    };
  });
}

async function main() {
  const out = [];
  for (const g of Object.values(await games())) out.push(await timed(g.name, g.players[0][0]));
  document.getElementById("result").textContent = JSON.stringify(out, null, 2);
  document.body.dataset.done = "true";
}

main().catch((e) => {
  document.getElementById("result").textContent = `failed: ${e}`;
  document.body.dataset.done = "failed";
});
