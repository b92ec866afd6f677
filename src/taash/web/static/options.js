// The player's display and sound options, remembered in this browser (localStorage): sound muted, a four-colour
// deck, large cards, turn notifications. Applying them sets classes on the page's root element (style.css draws
// the deck and the card sizes from them); whether motion is reduced is the system's word (prefers-reduced-motion).

const KEY = "taash-options";
const DEFAULTS = { muted: false, fourColour: false, largeCards: false, notify: false };
const CLASSES = { fourColour: "four-colour", largeCards: "large-cards" };
const listeners = [];

function read() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    const out = { ...DEFAULTS };
    for (const k of Object.keys(DEFAULTS)) if (typeof saved[k] === "boolean") out[k] = saved[k];
    return out;
  } catch (e) {
    return { ...DEFAULTS }; // private mode or a bad value: the defaults
  }
}

const current = read();

/** The value of option `name`. */
export function get(name) { return current[name]; }

/** Set option `name` to `value`, remember it and apply it. */
export function set(name, value) {
  current[name] = Boolean(value);
  try { localStorage.setItem(KEY, JSON.stringify(current)); } catch (e) { /* private mode: for this page only */ }
  apply();
  for (const f of listeners) f(name, current[name]);
}

/** Call `f(name, value)` whenever an option changes. */
export function onChange(f) { listeners.push(f); }

/** Put the options' classes on the root element. */
export function apply() {
  for (const [name, cls] of Object.entries(CLASSES)) document.documentElement.classList.toggle(cls, current[name]);
}

/** Whether the system asks for reduced motion (checked each time: the person may change it). */
export function reducedMotion() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

apply();
