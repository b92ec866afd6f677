// The table page offline (/offline/play?id=...): its connection is a LocalSocket (local.js) on the match saved
// under that id in IndexedDB, and its HTTP calls go to the same engine. The time from "Play offline" (the offline
// page's click) to the first deal shown is kept on the page (data-first-deal-ms) for the benchmark.
//
// The engine starts as soon as this module is loaded, while the page is still loading the games' views: what it
// says before the page connects is kept and given to the page then (?early=0: started at connect(), as before,
// the benchmark's baseline).

import { _ } from "/static/i18n.js";
import { LocalSocket, savedMatch } from "/static/offline/local.js";

const params = new URLSearchParams(location.search);
const OFFLINE_PAGE = location.pathname === "/offline/play";
let socket = null;
/** The page's handlers once it connects; until then what the engine says waits in `early`. */
let page = null;
const early = [];

function tellPage(kind, value) {
  if (page) page[kind](value);
  else early.push([kind, value]);
}

function startEngine() {
  document.body.dataset.engineStartedMs = String(performance.now()); // when, and when the page connected: the tests
  const delay = params.has("delay") ? Number(params.get("delay")) : 700;
  socket = new LocalSocket(savedMatch(params.get("id") || ""), {
    delay,
    snapshot: params.get("snapshot") !== "0", // ?snapshot=0: the benchmark's baseline, started from scratch
    onFailed: (why) => tellPage("failed", why),
  });
  socket.onmessage = (event) => tellPage("message", JSON.parse(event.data));
}

if (OFFLINE_PAGE && params.get("early") !== "0") startEngine();

/** The page's one local connection (made once: a local match has nothing to reconnect to). */
export function connect(old, onMessage, setStatus) {
  if (!document.body.dataset.connectedMs) document.body.dataset.connectedMs = String(performance.now());
  if (!socket) startEngine();
  if (!page) {
    setStatus(_("Starting the offline engine…"));
    const message = (m) => {
      if (m.type === "snapshot") firstDeal();
      onMessage(m);
    };
    page = { message, failed: (why) => setStatus(_("Offline play failed: {why}.", { why }), true) };
    for (const [kind, value] of early.splice(0)) page[kind](value);
  }
  return socket;
}

function firstDeal() {
  const clicked = Number(sessionStorage.getItem("taash-offline-clicked") || 0);
  if (clicked && !document.body.dataset.firstDealMs) {
    document.body.dataset.firstDealMs = String(Date.now() - clicked);
    sessionStorage.removeItem("taash-offline-clicked");
  }
  document.body.dataset.offlineReady = "true";
}

/** The page's HTTP calls, answered by the engine. */
export function api(method, path, body = undefined) {
  if (!socket) return Promise.reject(new Error(_("the offline engine is not started")));
  return socket.api(method, path, body);
}
