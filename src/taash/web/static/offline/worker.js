// The offline engine (docs/offline.md): a Web Worker running Pyodide (served by this server under /pyodide/,
// cached by the service worker) with taash's own engines and bots (/offline/engine.zip, built by the server from
// its package), answering the table's messages as the server's websocket does (taash.web.offline.engine).
//
// From the page: {op: "start", setup, delay} or {op: "resume", save, delay}; {op: "send", text} (a message of
// the protocol); {op: "api", id, method, path, body}; {op: "bench", n} (the bots' decisions timed).
// To the page: {op: "ready", ms}; {op: "message", text}; {op: "api", id, ok, text};
// {op: "bench", times}; {op: "save", save, over, version}; {op: "refused", refusal: {message, values}} (a setup
// or save the engine cannot play: a message of the catalogue); {op: "unloaded", error} (Pyodide or the
// engine's bundle could not be loaded); {op: "failed", error} (anything else).

import { loadPyodide } from "/pyodide/pyodide.mjs";

let py = null;
let match = null; // the Python OfflineMatch
let delay = 700; // milliseconds before a bot moves (so that a person sees each move)
let botTimer = null;

/** Where the memory snapshot of a started engine is kept (Cache Storage, under the bundle's version). */
const SNAPSHOTS = "taash-snapshots";
/** What a snapshot holds imported (part of its key: a snapshot of other imports is never restored). */
const IMPORTS = "from taash.web.offline.engine import OfflineMatch, Setup, TableError, opened";

async function bundleZip() {
  const r = await fetch("/offline/engine.zip");
  if (!r.ok) throw new Error(`the offline engine could not be loaded (${r.status})`);
  return { zip: await r.arrayBuffer(), version: `${r.headers.get("ETag") || ""} ${IMPORTS}` };
}

/** The snapshot kept for this bundle's version, or null (none yet, or no Cache Storage). */
async function keptSnapshot(version) {
  try {
    const found = await (await caches.open(SNAPSHOTS)).match(`/offline/snapshot/${encodeURIComponent(version)}`);
    return found ? new Uint8Array(await found.arrayBuffer()) : null;
  } catch (e) {
    return null;
  }
}

/** Keep a snapshot of `pyodide` (CPython started, the engine imported, no match yet) for the next start, in
 * place of any older one. Made before any match exists, so that none is inside it. */
function keepSnapshot(pyodide, version) {
  let bytes;
  try {
    bytes = pyodide.makeMemorySnapshot();
  } catch (e) {
    return; // only slower next time: the engine starts from scratch again
  }
  caches.open(SNAPSHOTS).then(async (cache) => {
    for (const old of await cache.keys()) await cache.delete(old);
    await cache.put(`/offline/snapshot/${encodeURIComponent(version)}`, new Response(bytes));
  }).catch(() => {});
}

/**
 * Pyodide with taash's engine imported. The first start imports it and keeps a memory snapshot of the whole
 * interpreter (Pyodide's `_makeSnapshot`/`makeMemorySnapshot`); later starts restore that snapshot instead of
 * starting CPython and importing again (`_loadSnapshot`). `snapshot: false` (the benchmark's baseline) starts
 * from scratch and keeps nothing.
 */
async function engine(useSnapshot = true) {
  if (py) return py;
  const started = performance.now();
  const { zip, version } = await bundleZip();
  const kept = useSnapshot ? await keptSnapshot(version) : null;
  const pyodide = await loadPyodide({ indexURL: "/pyodide/", packages: [],
    ...(kept ? { _loadSnapshot: kept } : useSnapshot ? { _makeSnapshot: true } : {}) });
  pyodide.unpackArchive(zip, "zip", { extractDir: "/taash-offline" });
  if (!kept) {
    pyodide.runPython("import sys; sys.path.insert(0, '/taash-offline')");
    pyodide.runPython(IMPORTS);
    if (useSnapshot) keepSnapshot(pyodide, version);
  }
  py = pyodide;
  postMessage({ op: "loaded", ms: performance.now() - started, snapshot: Boolean(kept) });
  return py;
}

function tell(texts) {
  for (const text of texts) postMessage({ op: "message", text });
}

function saved() {
  postMessage({ op: "save", save: match.save(), over: match.over, version: match.table.version });
}

/** After each change: save it, then let a bot move (after `delay`) while one is to move. */
function changed() {
  saved();
  clearTimeout(botTimer);
  if (match.bot_to_move()) {
    botTimer = setTimeout(() => {
      tell(match.bot_move().toJs());
      changed();
    }, delay);
  }
}

async function begin(data) {
  let p;
  try {
    p = await engine(data.snapshot !== false);
  } catch (e) {
    postMessage({ op: "unloaded", error: String(e.message || e) });
    return;
  }
  delay = typeof data.delay === "number" ? data.delay : delay;
  const [found, refusal] = p.globals.get("opened")(data.op, data.op === "resume" ? data.save : JSON.stringify(data.setup));
  if (!found) {
    postMessage({ op: "refused", refusal: JSON.parse(refusal) }); // a message of the catalogue: the page says it
    return;
  }
  match = found;
  postMessage({ op: "ready" });
  tell([match.message("snapshot")]);
  changed();
}

function bench(n) {
  // The decisions of the match's bots, timed: each seat to move asks its bot, and the match goes on.
  const times = [];
  while (times.length < n && !match.over) {
    const t = performance.now();
    const action = match.table.bot_action();
    times.push(performance.now() - t);
    match.make(action, !match.bot_to_move());
  }
  postMessage({ op: "bench", times });
}

/** A Python exception's last line, without its class's name: the sentence it carries. */
function sentence(e) {
  return String(e.message || e).trim().split("\n").pop().replace(/^[\w.]+(Error|Exception): /, "");
}

self.onmessage = async (event) => {
  const data = event.data;
  try {
    if (data.op === "start" || data.op === "resume") await begin(data);
    else if (data.op === "send" && match) {
      const before = match.table.version;
      tell(match.receive(data.text).toJs());
      if (match.table.version !== before) changed();
    } else if (data.op === "api" && match) {
      try {
        postMessage({ op: "api", id: data.id, ok: true, text: match.api(data.method, data.path, JSON.stringify(data.body ?? null)) });
      } catch (e) {
        postMessage({ op: "api", id: data.id, ok: false, text: sentence(e) });
      }
    } else if (data.op === "bench" && match) bench(data.n);
  } catch (e) {
    postMessage({ op: "failed", error: sentence(e) });
  }
};
