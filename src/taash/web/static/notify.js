// Your turn in a background tab: the tab's title says so (until the tab is looked at) and, when the person asked
// for it (the option `notify`, set by a click, which is when the browser's permission is asked) and the browser
// allows it, a notification.

import * as options from "/static/options.js";
import { TEXT } from "/static/texts.js";

const N = { base: "taash", mine: false, shown: null };

function hidden() { return document.visibilityState === "hidden"; }

/** The tab's title: `base`, marked while it is your turn and the tab is not looked at. */
export function title(base, mine) {
  N.base = base;
  N.mine = mine;
  return mine && hidden() ? TEXT.yourTurnTitle(base) : base;
}

/** It just became your turn at table `code`: tell the person, if he is looking at another tab. */
export function yourTurn(code) {
  document.title = title(N.base, true);
  if (!hidden() || !options.get("notify") || !("Notification" in window) || Notification.permission !== "granted") {
    return;
  }
  try {
    N.shown = new Notification("taash", { body: TEXT.yourTurnNote(code), tag: `taash-turn-${code}` });
    N.shown.onclick = () => { window.focus(); N.shown.close(); };
  } catch (e) {
    N.shown = null; // some browsers allow notifications only from a service worker
  }
}

/** Ask the browser's permission (inside the person's click); false when it is refused. */
export async function ask() {
  if (!("Notification" in window)) return false;
  if (Notification.permission === "granted") return true;
  if (Notification.permission === "denied") return false;
  try {
    return (await Notification.requestPermission()) === "granted";
  } catch (e) {
    return false;
  }
}

/** Put the title back (and close the notification) when the tab is looked at again. */
export function init() {
  document.addEventListener("visibilitychange", () => {
    document.title = title(N.base, N.mine);
    if (!hidden() && N.shown) {
      N.shown.close();
      N.shown = null;
    }
  });
}
