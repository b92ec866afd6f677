// The installable app, on every page that imports this: the service worker registered (/sw.js caches the client
// and the offline engine), and the lobby's install button shown when the browser offers to install
// (beforeinstallprompt).

import { TEXT } from "/static/texts.js";

export function register() {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  }
}

/** Show `button` (hidden until then) when the browser may install the app, and install on a click. */
export function installButton(button) {
  if (!button) return;
  button.textContent = TEXT.installApp;
  let offer = null;
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    offer = event;
    button.hidden = false;
  });
  window.addEventListener("appinstalled", () => { button.hidden = true; });
  button.addEventListener("click", async () => {
    if (!offer) return;
    offer.prompt();
    await offer.userChoice;
    offer = null;
    button.hidden = true;
  });
}
