// Play now (the lobby's button): a place in the server's queue over /ws/play-now, while the page stays open.
import { _ } from "/static/i18n.js";

/**
 * Join the Play now queue with `options` (the table form's settings and `wait`, in seconds). Calls
 * `onWaiting({waiting, players, bots_at})` as the pool changes, `onMatched({table, seat, url})` once seated,
 * `onError(message)` when the server refuses or the connection is lost. Returns `{cancel()}`.
 */
export function playNow(options, { onWaiting, onMatched, onError }) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/play-now`);
  let done = false;
  const finish = () => { done = true; ws.close(); };
  ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "play_now", ...options })));
  ws.addEventListener("message", (event) => {
    let m;
    try {
      m = JSON.parse(event.data);
    } catch (e) {
      return;
    }
    if (m.type === "waiting") onWaiting(m);
    else if (m.type === "matched") {
      done = true;
      onMatched(m);
    } else if (m.type === "error") {
      finish();
      onError(m.message);
    } else if (m.type === "cancelled" && m.reason) {
      finish();
      onError(m.reason);
    }
  });
  ws.addEventListener("close", (event) => {
    if (done) return;
    done = true;
    onError(event.reason || _("lost the connection to the Play now queue: press Play now again"));
  });
  return {
    cancel() {
      if (done) return;
      done = true;
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "cancel" }));
      ws.close();
    },
  };
}
