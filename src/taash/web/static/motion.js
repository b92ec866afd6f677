// Cards that move, by the FLIP technique on the already-final page: measure where every card is (`measure`), draw
// the new state at once, then (`animate`) fly a copy of each card that moved from where it was to where it now
// lies. The copies lie in a layer that takes no clicks, and the real cards are where they belong from the first
// moment (only made invisible while their copy flies), so an animation never delays input or the server. Nothing
// moves when the system asks for reduced motion.

import { reducedMotion } from "/static/options.js";

const FLY_MS = 320;
const GONE_MS = 450;
const MOMENT_MS = 1400;
let started = 0;
let flying = []; // the animations of the last batch, finished at once when the next state comes

/** The place a card lies in: the hand, the loose cards, a house, the discard pile... (a card that changes place
 * moves; one that only shifts in its place, as the others make room, does not fly unless asked). */
function zoneOf(el) {
  const z = el.closest(".house, .loose, .hand, .pile-button, .wild, .seat-box");
  return z ? z.dataset.testid || z.className : "";
}

/** Every card drawn under `root` (elements with `data-card`), by a key that tells twins apart: name#occurrence. */
export function measure(root = document.getElementById("game")) {
  const out = new Map();
  if (!root || reducedMotion() || document.visibilityState === "hidden") return out;
  const seen = new Map();
  for (const el of root.querySelectorAll("[data-card]")) {
    if (el.closest("[hidden]")) continue;
    const n = seen.get(el.dataset.card) || 0;
    seen.set(el.dataset.card, n + 1);
    const rect = el.getBoundingClientRect();
    if (rect.width && rect.height) out.set(`${el.dataset.card}#${n}`, { el, rect, zone: zoneOf(el) });
  }
  return out;
}

function layer() {
  let box = document.getElementById("motion-layer");
  if (!box) {
    box = document.createElement("div");
    box.id = "motion-layer";
    box.className = "motion-layer";
    box.setAttribute("aria-hidden", "true");
    document.body.appendChild(box);
  }
  return box;
}

/** A copy of card element `el`'s face at `rect` (viewport pixels), in the layer; no ids, nothing to focus. */
function ghost(el, rect) {
  const g = document.createElement("div");
  g.className = "motion-ghost";
  Object.assign(g.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`,
    height: `${rect.height}px` });
  const face = el.querySelector("svg");
  if (face) g.appendChild(face.cloneNode(true));
  layer().appendChild(g);
  return g;
}

function count(n) {
  started += n;
  // For tests and tools: how many cards have been flown on this page.
  document.body.dataset.animations = String(started);
}

/** The transform that puts a box of `to`'s size and place at `from`'s. */
function offset(from, to) {
  return `translate(${from.left - to.left}px, ${from.top - to.top}px) ` +
    `scale(${from.width / to.width}, ${from.height / to.height})`;
}

/** Whether a card moved from box `a` to box `b`: a raise of a chosen or hovered card (up to 14 pixels, drawn by
 * style.css) is not a move. */
function moved(a, b) {
  return Math.abs(a.left - b.left) > 6 || Math.abs(a.top - b.top) > 16 || Math.abs(a.width - b.width) > 3;
}

/** A card-sized box at the middle of element `el` (where a card comes from or goes to). */
function spot(el, like) {
  const r = el.getBoundingClientRect();
  const w = like.width;
  const h = like.height;
  return { left: r.left + r.width / 2 - w / 2, top: r.top + r.height / 2 - h / 2, width: w, height: h };
}

/** Fly each card that changed places since `before` (a `measure`) to its new place (with `shifts`, also each card
 * that moved within its place: a hand rearranged); a card new to the page flies in from element `from`, a card gone
 * from it flies out to element `to` (either may be null: then it just appears or goes). Returns the animations. */
export function animate(before, { from = null, to = null, root = document.getElementById("game"), shifts = false } = {}) {
  // A new state lands every card of the last one where it belongs: states that come faster than cards fly never
  // pile flights up.
  for (const a of flying) a.finish();
  flying = [];
  if (!before || !before.size && !from || reducedMotion()) return [];
  const after = measure(root);
  const anims = [];
  for (const [key, now] of after) {
    const was = before.get(key);
    const go = was && (shifts || was.zone !== now.zone) && moved(was.rect, now.rect);
    const start = was ? (go ? was.rect : null) : from ? spot(from, now.rect) : null;
    if (!start) continue;
    const g = ghost(now.el, now.rect);
    const fly = g.animate([{ transform: offset(start, now.rect), opacity: was ? 1 : 0.4 },
      { transform: "none", opacity: 1 }], { duration: FLY_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
    // The card itself is in its place (and takes clicks) at once: only unseen until its copy lands on it (a still
    // style, not an animation of its own: nothing more to redraw while the copy flies).
    now.el.style.opacity = "0";
    const land = () => {
      g.remove();
      now.el.style.opacity = "";
    };
    fly.finished.then(land, land);
    anims.push(fly);
  }
  if (to) {
    for (const [key, was] of before) {
      if (after.has(key) || !was.el.querySelector("svg")) continue;
      const g = ghost(was.el, was.rect);
      const end = spot(to, was.rect);
      const fly = g.animate([{ transform: "none", opacity: 1 },
        { transform: `${offset(end, was.rect)} scale(0.6)`, opacity: 0.2 }],
      { duration: GONE_MS, delay: 120, easing: "ease-in", fill: "backwards" });
      fly.finished.then(() => g.remove(), () => g.remove());
      anims.push(fly);
    }
  }
  count(anims.length);
  flying = anims;
  return anims;
}

/** A short moment of its own (a sweep, a baazi, a declaration): `text` over the table for under 1.5 s, read out,
 * taking no clicks; still, with no movement, when the system asks for reduced motion. */
export function moment(text, kind) {
  let box = document.getElementById("moment");
  if (!box) {
    box = document.createElement("div");
    box.id = "moment";
    box.dataset.testid = "moment";
    box.setAttribute("role", "status");
    document.body.appendChild(box);
  }
  box.className = `moment ${kind}`;
  box.textContent = text;
  box.hidden = false;
  clearTimeout(moment.timer);
  moment.timer = setTimeout(() => { box.hidden = true; }, MOMENT_MS);
  if (!reducedMotion()) {
    box.animate([{ transform: "translate(-50%, 0) scale(0.6)", opacity: 0 },
      { transform: "translate(-50%, 0) scale(1.08)", opacity: 1, offset: 0.2 },
      { transform: "translate(-50%, 0) scale(1)", opacity: 1, offset: 0.8 },
      { transform: "translate(-50%, 0) scale(1)", opacity: 0 }], { duration: MOMENT_MS });
  }
}
