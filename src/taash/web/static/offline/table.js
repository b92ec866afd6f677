// The table page offline (/offline/play?id=...): its connection is a LocalSocket (local.js) on the match saved
// under that id in IndexedDB, and its HTTP calls go to the same engine. The time from "Play offline" (the offline
// page's click) to the first deal shown is kept on the page (data-first-deal-ms) for the benchmark.

import { _ } from "/static/i18n.js";
import { LocalSocket, savedMatch } from "/static/offline/local.js";

const params = new URLSearchParams(location.search);
let socket = null;

/** The page's one local connection (made once: a local match has nothing to reconnect to). */
export function connect(old, onMessage, setStatus) {
  if (socket) return socket;
  const delay = params.has("delay") ? Number(params.get("delay")) : 700;
  setStatus(_("Starting the offline engine…"));
  socket = new LocalSocket(savedMatch(params.get("id") || ""), {
    delay,
    snapshot: params.get("snapshot") !== "0", // ?snapshot=0: the benchmark's baseline, started from scratch
    onFailed: (why) => setStatus(_("Offline play failed: {why}.", { why }), true),
  });
  socket.onmessage = (event) => {
    const m = JSON.parse(event.data);
    if (m.type === "snapshot") firstDeal();
    onMessage(m);
  };
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
