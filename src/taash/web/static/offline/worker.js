// The offline engine (docs/offline.md): a Web Worker running Pyodide (served by this server under /pyodide/,
// cached by the service worker) with taash's own engines and bots (/offline/engine.zip, built by the server from
// its package), answering the table's messages as the server's websocket does (taash.web.offline.engine).
//
// From the page: {op: "start", setup, delay} or {op: "resume", save, delay}; {op: "send", text} (a message of
// the protocol); {op: "api", id, method, path, body}; {op: "bench", n} (the bots' decisions timed).
// To the page: {op: "ready", ms}; {op: "message", text}; {op: "api", id, ok, text};
// {op: "bench", times}; {op: "failed", error}; {op: "save", save, over, version}.

import { loadPyodide } from "/pyodide/pyodide.mjs";

let py = null;
let match = null; // the Python OfflineMatch
let delay = 700; // milliseconds before a bot moves (so that a person sees each move)
let botTimer = null;

async function engine() {
  if (py) return py;
  const started = performance.now();
  const [pyodide, zip] = await Promise.all([
    loadPyodide({ indexURL: "/pyodide/", packages: [] }),
    fetch("/offline/engine.zip").then((r) => {
      if (!r.ok) throw new Error(`the offline engine could not be loaded (${r.status})`);
      return r.arrayBuffer();
    }),
  ]);
  pyodide.unpackArchive(zip, "zip", { extractDir: "/taash-offline" });
  pyodide.runPython("import sys; sys.path.insert(0, '/taash-offline')");
  pyodide.runPython("from taash.web.offline.engine import OfflineMatch, Setup, TableError");
  py = pyodide;
  postMessage({ op: "loaded", ms: performance.now() - started });
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
  const p = await engine();
  delay = typeof data.delay === "number" ? data.delay : delay;
  if (data.op === "resume") {
    match = p.globals.get("OfflineMatch").load(data.save);
  } else {
    match = p.globals.get("OfflineMatch").start(JSON.stringify(data.setup));
  }
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
