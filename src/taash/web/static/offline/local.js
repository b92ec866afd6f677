// Offline play's side of the page (docs/offline.md): the matches saved in IndexedDB, and the local transport that
// stands in for the table's websocket: a Web Worker running taash's engine in Pyodide (worker.js), speaking the
// same messages as the server.

import { _ } from "/static/i18n.js";

const DB = "taash-offline";
/** What a person reads when the engine cannot start on this device (its reason goes to the console). */
const NOT_LOADED = () => _("The offline engine could not be loaded on this device: open this page once online, then try again.");
const STORE = "matches";

function database() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE, { keyPath: "id" });
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

async function inStore(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request && request.result);
    tx.onerror = () => reject(tx.error);
  });
}

/** Every offline match saved: {id, setup, save, over, updated, uploaded, refused}. */
export function savedMatches() { return inStore("readonly", (s) => s.getAll()); }
export function savedMatch(id) { return inStore("readonly", (s) => s.get(id)); }
export function keep(match) { return inStore("readwrite", (s) => s.put(match)); }

/** A new match's id. */
export function newId() {
  return `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * The table's websocket, in the page: the same members table.js uses (readyState, send, close, onopen, onmessage,
 * onclose), the messages answered by the engine in a worker. `match` is the IndexedDB entry (its save resumes it,
 * or its setup starts it); every change is saved there as it happens.
 */
export class LocalSocket {
  constructor(found, { delay = 700, persist = true, snapshot = true, onLoaded = () => {}, onFailed = () => {} } = {}) {
    this.readyState = 0;
    this.persist = persist;
    this.match = null;
    this.calls = new Map();
    this.worker = new Worker("/static/offline/worker.js", { type: "module" });
    this.worker.onmessage = (event) => this.fromWorker(event.data, onLoaded, onFailed);
    this.worker.onerror = (event) => {
      console.warn("the offline engine's worker:", event.message);
      onFailed(NOT_LOADED());
    };
    Promise.resolve(found).then((match) => {
      if (!match) {
        onFailed(_("There is no such offline match on this device."));
        return;
      }
      this.match = match;
      const op = match.save ? { op: "resume", save: match.save } : { op: "start", setup: match.setup };
      this.worker.postMessage({ ...op, delay, snapshot });
    }, (e) => onFailed(String(e)));
  }

  fromWorker(data, onLoaded, onFailed) {
    if (data.op === "loaded") onLoaded(data.ms);
    else if (data.op === "ready") {
      this.readyState = 1;
      if (this.onopen) this.onopen();
    } else if (data.op === "message") {
      if (this.onmessage) this.onmessage({ data: data.text });
    } else if (data.op === "save") {
      this.match = { ...this.match, save: data.save, over: data.over, updated: Date.now() };
      // Kept, the page says which version is safe in IndexedDB (data-saved-version; data-saved-over once the
      // finished match is): what a reload resumes, and what the offline page lists.
      if (this.persist) {
        keep(this.match).then(() => {
          document.body.dataset.savedVersion = String(data.version);
          document.body.dataset.savedOver = String(data.over);
        });
      }
    } else if (data.op === "api") {
      const call = this.calls.get(data.id);
      this.calls.delete(data.id);
      if (call) (data.ok ? call.resolve(JSON.parse(data.text)) : call.reject(new Error(data.text)));
    } else if (data.op === "bench") {
      if (this.onbench) this.onbench(data.times);
    } else if (data.op === "refused") onFailed(_(data.refusal.message, data.refusal.values));
    else if (data.op === "unloaded") {
      console.warn("the offline engine:", data.error);
      onFailed(NOT_LOADED());
    } else if (data.op === "failed") onFailed(data.error);
  }

  send(text) { this.worker.postMessage({ op: "send", text }); }

  /** Time `n` decisions of the match's bots (the benchmark page): answered through `onbench`. */
  bench(n) { this.worker.postMessage({ op: "bench", n }); }

  /** An HTTP call of the table's page, answered by the engine (the log; a game's own endpoints). */
  api(method, path, body) {
    const id = `${Date.now()}${Math.random()}`;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      this.worker.postMessage({ op: "api", id, method, path, body });
    });
  }

  close() {
    this.readyState = 3;
    this.worker.terminate();
  }
}
