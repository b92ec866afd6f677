// How the table looks, moves and sounds beyond drawing the state (table.js calls it at a few points): cards that
// move (motion.js), sounds (sound.js), your turn in a background tab (notify.js), the last play marked, the short
// moments of a sweep, a baazi or a declaration, the options (options.js: sound, a four-colour deck, large cards,
// notifications) and the panel of the cards taken and the whole log. What a state changed is each game's word: its
// view module's `feel` (static/{game}/feel.js) says who played and what came or went.

import { spokenText } from "/static/cards.js";
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
export function changed(prev, st, before, view, said = null) {
  announce(prev, st, said);
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

// -- what the others do, for a screen reader -------------------------------------------------------------------

/** How many lines the live region keeps: the newest few plays, never the whole deal. */
const ANNOUNCED = 4;

/** Another player's play (the update's line, `said`), told in the polite live region, one line per play with its
 * cards in words. The player's own moves are not told back to him: the seat that was to move in `prev` is his. */
function announce(prev, st, said) {
  const region = document.getElementById("announce");
  if (!region || !said) return;
  const you = st.you;
  const mover = prev && prev.deal ? prev.deal.to_move : null;
  if (you !== null && you !== undefined && mover === you) return;
  region.appendChild(h("p", {}, spokenText(words(said))));
  while (region.childElementCount > ANNOUNCED) region.firstElementChild.remove();
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
    line.replaceChildren(h("strong", {}, `${TEXT.lastPlay}: `), ...withNames(words(said), names));
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

/** A speaker drawn as SVG (an emoji needs a font that a browser may lack): with its sound waves, or crossed out. */
function speakerIcon(muted) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "speaker-icon");
  svg.setAttribute("aria-hidden", "true");
  const lines = ["M3 9 H7 L12 5 V19 L7 15 H3 Z",
    ...(muted ? ["M16 9 L22 15", "M22 9 L16 15"] : ["M15.5 9 Q17.5 12 15.5 15", "M18.5 6.5 Q22.5 12 18.5 17.5"])];
  lines.forEach((d, i) => {
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", d);
    path.setAttribute("class", i ? "wave" : "body");
    svg.appendChild(path);
  });
  return svg;
}

function muteButton() {
  const b = h("button", { type: "button", class: "small feel-button", testid: "mute" });
  const show = () => {
    const muted = options.get("muted");
    b.setAttribute("aria-pressed", String(!muted));
    b.replaceChildren(speakerIcon(muted), ` ${TEXT.sound}`);
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
  document.body.appendChild(h("div", { id: "announce", class: "visually-hidden", role: "log", "aria-live": "polite",
    "aria-label": TEXT.announced, testid: "announce" }));
  const logAll = document.getElementById("log-all");
  if (logAll) {
    logAll.after(h("button", { type: "button", class: "link-button", testid: "open-piles",
      onclick: () => openPiles(view) }, TEXT.piles));
  }
}
