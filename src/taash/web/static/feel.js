// How the table looks, moves and sounds beyond drawing the state (table.js calls it at a few points): cards that
// move (motion.js), sounds (sound.js), your turn in a background tab (notify.js), the last play marked, the short
// moments of a sweep, a baazi or a declaration, the options (options.js: sound, a four-colour deck, large cards,
// notifications) and the panel of the cards taken and the whole log. What a state changed is each game's word: its
// view module's `feel` (static/{game}/feel.js) says who played and what came or went.

import { h, toast, withNames, words } from "/static/common.js";
import * as motion from "/static/motion.js";
import * as notify from "/static/notify.js";
import * as options from "/static/options.js";
import * as sound from "/static/sound.js";
import { TEXT } from "/static/texts.js";

let T = null; // the table page (see table.js's main)
const F = { lowWarned: "", opener: null, sheet: null };

/** Where every card is now (before a new state is drawn). */
export const measure = () => motion.measure();

/** A new state `st` was drawn over `prev` (`before`: where the cards were): move, sound, mark, tell. */
export function changed(prev, st, before, view) {
  const c = (view.feel && view.feel.changes(prev, st)) || {};
  motion.animate(before, { from: c.from || null, to: c.to || null });
  for (const e of c.events || []) {
    if (e.sound) sound.play(e.sound);
    if (e.moment) motion.moment(e.moment, e.kind);
  }
  if (prev && !view.myTurn(prev) && view.myTurn(st)) {
    if (!(c.events || []).length) sound.play("turn");
    notify.yourTurn(st.code);
  }
  if (c.last) markLast(st, c.last);
  else if (prev && st.deal && prev.deal && st.deal.number !== prev.deal.number) markLast(st, null);
}

/** The tab's title for table `base` ("taash · CODE"), marked while it is your turn in a background tab. */
export const title = (base, mine) => notify.title(base, mine);

/** The turn timer ticked: `mine` whether it is this person's, `left` the seconds left with the extra time. */
export function timer(mine, left, turnKey) {
  if (!mine || left > 10 || left <= 0 || F.lowWarned === turnKey) return;
  F.lowWarned = turnKey;
  sound.play("low");
}

// -- the last play --------------------------------------------------------------------------------------------

/** Mark the last play until the next: its cards on the floor (a style rule by card name, so that every redraw
 * keeps it), the seat that played, and the log's last line under the turn banner. */
function markLast(st, last) {
  if (!F.sheet) {
    // A style sheet made by the page (the server's Content-Security-Policy allows no inline <style>).
    F.sheet = new CSSStyleSheet();
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, F.sheet];
  }
  const line = document.getElementById("last-play");
  if (!last) {
    F.sheet.replaceSync("");
    if (line) line.hidden = true;
    return;
  }
  const safe = (c) => String(c).replace(/[^A-Za-z0-9]/g, "");
  F.sheet.replaceSync([
    ...last.cards.map((c) => `#floor [data-card="${safe(c)}"] .card-svg { outline: 3px solid var(--last-play); ` +
      "outline-offset: 1px; border-radius: 4px; }"),
    `#board [data-testid="seat-box-${Number(last.seat)}"] { box-shadow: 0 0 0 3px var(--last-play); }`,
  ].join("\n"));
  document.body.dataset.lastPlay = last.cards.join(" ");
  const said = (st.log || [])[(st.log || []).length - 1];
  if (line && said) {
    const names = st.seats.filter((s) => !s.empty).map((s) => s.name);
    line.replaceChildren(h("strong", {}, `${TEXT.lastPlay}: `), withNames(words(said), names));
    line.hidden = false;
  }
}

// -- dialogs --------------------------------------------------------------------------------------------------

/** A dialog over the page: `parts` under a title, a Close button; Escape or Close puts the focus back. */
function openDialog(id, titleText, parts) {
  closeDialog();
  F.opener = document.activeElement;
  const close = h("button", { type: "button", class: "primary", testid: "dialog-close", onclick: closeDialog },
    TEXT.close);
  const box = h("div", { id: "feel-dialog", class: "overlay", role: "dialog", "aria-modal": "true",
    "aria-labelledby": "feel-dialog-title", testid: id },
  h("div", { class: "sheet" }, h("h2", { id: "feel-dialog-title" }, titleText), parts,
    h("div", { class: "buttons" }, close)));
  // The table's keys (digits play, arrows move in the hand) stay out of the dialog.
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeDialog();
    event.stopPropagation();
  });
  box.addEventListener("click", (event) => { if (event.target === box) closeDialog(); });
  document.body.appendChild(box);
  close.focus();
  return box;
}

function closeDialog() {
  const box = document.getElementById("feel-dialog");
  if (!box) return;
  box.remove();
  if (F.opener && F.opener.focus) F.opener.focus();
  F.opener = null;
}

function checkbox(name, label, testid, onchange = null) {
  const input = h("input", { type: "checkbox", testid, checked: options.get(name) });
  input.addEventListener("change", async () => {
    if (onchange && !(await onchange(input.checked))) {
      input.checked = false;
      return;
    }
    options.set(name, input.checked);
  });
  return h("label", { class: "check" }, input, ` ${label}`);
}

function openOptions() {
  const asked = async (on) => {
    if (!on) return true;
    const ok = await notify.ask();
    if (!ok) toast(TEXT.notifyDenied, "error");
    return ok;
  };
  openDialog("options-dialog", TEXT.optionsTitle, [
    h("div", { class: "option-list" },
      checkbox("fourColour", TEXT.fourColour, "opt-four-colour"),
      checkbox("largeCards", TEXT.largeCards, "opt-large-cards"),
      checkbox("notify", TEXT.notify, "opt-notify", asked),
      options.reducedMotion() ? h("p", { class: "muted" }, TEXT.reducedMotion) : null),
  ]);
}

async function openPiles(view) {
  const st = T.S.state;
  if (!st) return;
  // A scrolling list: focusable, so that the keys scroll it too.
  const log = h("ol", { class: "log whole-log", testid: "piles-log", "aria-labelledby": "piles-log-title", tabindex: 0 },
    h("li", {}, TEXT.logLoading));
  openDialog("piles-dialog", TEXT.pilesTitle, [
    h("div", { class: "piles" }, view().feel ? view().feel.piles(st) : []),
    h("h3", { id: "piles-log-title" }, TEXT.wholeLog),
    log,
  ]);
  const names = st.seats.filter((s) => !s.empty).map((s) => s.name);
  try {
    const lines = (await T.api("GET", `/api/tables/${T.tableId}/log`)).log;
    log.replaceChildren(...lines.map((line) => h("li", {}, withNames(words(line), names))));
    log.scrollTop = log.scrollHeight;
  } catch (e) {
    log.replaceChildren(h("li", { class: "error" }, TEXT.logFailed(e.message)));
  }
}

// -- the controls ---------------------------------------------------------------------------------------------

function muteButton() {
  const b = h("button", { type: "button", class: "small feel-button", testid: "mute" });
  const show = () => {
    const muted = options.get("muted");
    b.setAttribute("aria-pressed", String(!muted));
    b.replaceChildren(h("span", { "aria-hidden": "true" }, muted ? "🔇" : "🔊"), ` ${TEXT.sound}`);
    b.title = muted ? TEXT.soundOff : TEXT.soundOn;
  };
  b.addEventListener("click", () => options.set("muted", !options.get("muted")));
  options.onChange(show);
  show();
  return b;
}

/** Set up the table's options, sounds and panels (`table`: the table page, `view`: the current game's view). */
export function init(table, view) {
  T = table;
  sound.init();
  notify.init();
  const bar = document.querySelector(".topbar");
  if (bar) {
    bar.appendChild(h("span", { class: "feel-controls" }, muteButton(),
      h("button", { type: "button", class: "small feel-button", testid: "options", onclick: openOptions },
        `⚙ ${TEXT.options}`)));
  }
  const banner = document.getElementById("turn-banner");
  if (banner) banner.after(h("p", { id: "last-play", class: "last-play", testid: "last-play", hidden: true }));
  const logAll = document.getElementById("log-all");
  if (logAll) {
    logAll.after(h("button", { type: "button", class: "link-button", testid: "open-piles",
      onclick: () => openPiles(view) }, TEXT.piles));
  }
}
