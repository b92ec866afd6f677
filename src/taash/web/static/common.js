// Small helpers shared by the pages: HTTP calls, elements, the name box.
import { _, adoptLanguage, lang, storedLanguage, translated } from "/static/i18n.js";

/** An HTTP error from the API: `status`, `code` and the server's sentence as the message. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Call the JSON API; returns the parsed answer or throws ApiError. */
export async function api(method, path, body = undefined) {
  const init = { method, headers: { Accept: "application/json", "Accept-Language": lang }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, "network", _("cannot reach the server"));
  }
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    data = null;
  }
  if (!response.ok) {
    let message = _("the server answered {status}", { status: response.status });
    let code = "http";
    if (data && typeof data.detail === "string") {
      message = data.detail;
      code = data.code || code;
    } else if (data && Array.isArray(data.detail) && data.detail[0] && data.detail[0].msg) {
      message = data.detail[0].msg.replace(/^Value error, /, "");
      code = "invalid";
    }
    throw new ApiError(response.status, code, message);
  }
  return data;
}

/** The current guest `{id, name}`, or null when there is none yet. */
export async function me() {
  try {
    const guest = await api("GET", "/api/me");
    if (guest && guest.language && !storedLanguage()) adoptLanguage(guest.language);
    return guest;
  } catch (e) {
    if (e.status === 401) return null;
    throw e;
  }
}

/** `h("div", {class: "x", dataset: {testid: "y"}, onclick: f}, child, "text", ...)`. */
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (k === "testid") e.dataset.testid = v;
    else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else if (v === true) e.setAttribute(k, "");
    else e.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}

/** The mark beside an account's name (a guest cannot pass for an account): a ✓ titled "account", read out as
 * "account"; `null` for anyone else, so that `h(...)` leaves it out. */
export function accountMark(account) {
  return account
    ? h("span", { class: "account-mark", testid: "account-mark", title: _("account"), role: "img",
      "aria-label": _("account") }, "\u2713")
    : null;
}

/** A name form (`name-input`, `name-submit`): resolves with the new guest once the server accepted it. */
export function nameForm(container, { prompt = _("Your name"), submitLabel = _("Continue") } = {}) {
  return new Promise((resolve) => {
    const input = h("input", { type: "text", id: "name-input", testid: "name-input", maxlength: 24,
      autocomplete: "nickname", required: true, placeholder: _("e.g. Priya") });
    const error = h("p", { class: "error", role: "alert" });
    const form = h("form", { class: "name-form" },
      h("label", { for: "name-input" }, prompt),
      h("div", { class: "row" }, input, h("button", { type: "submit", testid: "name-submit" }, submitLabel)),
      error);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      error.textContent = "";
      const name = input.value.trim();
      if (!name) {
        error.textContent = _("Please type a name.");
        return;
      }
      try {
        const guest = await api("POST", "/api/guest", { name });
        form.remove();
        resolve(guest);
      } catch (e) {
        error.textContent = e.message;
      }
    });
    container.appendChild(form);
    input.focus();
  });
}

/** A person's name in a sentence: a `<bdi>`, so that a right-to-left name (or one starting with digits) keeps
 * its own direction and leaves the words and numbers around it in their order. `cut`: a name in a narrow column,
 * cut with an ellipsis on the screen (the whole name stays in the text, and in its title). */
export function nameEl(name, { cut = false } = {}) {
  return h("bdi", { class: cut ? "name cut" : "name", title: cut ? name : null }, String(name));
}

/** A seat's name as the page's reader reads it: a bot's, which the server sends as records keep it ("Asha (bot)",
 * where it was not said in the page's language already), marked in the page's language. */
export function seatName(seat) {
  const name = String(seat.name || "");
  return seat.bot && name.endsWith(" (bot)") ? _("{name} (bot)", { name: name.slice(0, -6) }) : name;
}

/** Names joined for a sentence: "A, B" (or with `sep`), each isolated by nameEl. */
export function joinNames(names, sep = ", ") {
  return names.flatMap((n, i) => (i ? [sep, nameEl(n)] : [nameEl(n)]));
}

/** A sentence written by the server (the log, a verdict) with each of `names` in it isolated by nameEl: the
 * words around a right-to-left name keep their order. */
export function withNames(text, names) {
  const list = [...new Set(names.filter((n) => n))].sort((a, b) => b.length - a.length);
  if (!list.length) return [text];
  const any = list.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  const re = new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])(${any})(?![\\p{L}\\p{M}\\p{N}])`, "u");
  return text.split(re).map((part, i) => (i % 2 ? nameEl(part) : part)).filter((part) => part !== "");
}

/** Show `message` (text, or text and elements) in the page's toast for a few seconds. */
export function toast(message, kind = "info") {
  let box = document.getElementById("toast");
  if (!box) {
    box = h("div", { id: "toast", role: "status", "aria-live": "polite" });
    document.body.appendChild(box);
  }
  box.replaceChildren(...[message].flat(Infinity));
  box.className = "toast show " + kind;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.className = "toast"; }, 4000);
}

let gamesAsked = null;
/** Every game a table may be made for, by name, the default first, as the server's registry says (GET
 * /api/games: title, players, rules, formats, levels, stats, and the URLs of its view modules); asked once. */
export function games() {
  if (!gamesAsked) {
    gamesAsked = api("GET", "/api/games")
      .then((list) => Object.fromEntries(list.map((g) => [g.name, { ...g, title: translated(g.title) }])));
    gamesAsked.catch(() => { gamesAsked = null; });  // asked again next time
  }
  return gamesAsked;
}
const FORMAT_NAMES = { points: _("points (one deal)"), pool101: _("pool 101"), pool201: _("pool 201"),
  deals2: _("2 deals"), deals3: _("3 deals"), deals6: _("6 deals") };
/** "pool101" -> "pool 101". */
export function formatLabel(name) { return FORMAT_NAMES[name] || String(name); }
const LEVEL_NAMES = { easy: _("easy"), medium: _("medium"), hard: _("hard"), learned: _("learned"), expert: _("expert") };
/** A level's name in the page's language ("medium"). */
export function levelLabel(level) { return LEVEL_NAMES[level] || String(level); }

const RULE_NAMES = { standard: _("standard"), karan: _("karan"), limited_houses: _("limited houses"),
  break_with_loose: _("break with loose"), punjab_30: _("punjab 30"), punjab_30_qasim: _("punjab 30 qasim"),
  octro: _("octro"), classic: _("classic") };
/** A rules preset's name in the page's language ("punjab_30_qasim" -> "punjab 30 qasim"); the code is sent as it is
 * (one the catalogue does not name is shown as its code, spaced). */
export function ruleLabel(name) { return RULE_NAMES[name] || String(name).replace(/_/g, " "); }

/** The engine's words for people: a ten is written "10", as on the cards ("Throw T♣" -> "Throw 10♣"). */
export function words(text) { return String(text).replace(/\bT([\u2660\u2665\u2666\u2663])/g, "10$1"); }

/** Chips won or lost, signed: "+180", "−200" (a true minus), "0"; "—" for none (a match without stakes). */
export function chipsText(chips) {
  if (chips === null || chips === undefined) return "\u2014";
  const amount = Math.abs(chips).toLocaleString("en-IN");
  return chips > 0 ? `+${amount}` : chips < 0 ? `\u2212${amount}` : "0";
}

/** A player's own seed for fair dealing: 16 random bytes in hex, drawn here, so that the server cannot know it
 * before it committed to its secret (docs/web-protocol.md, "Fair dealing"). */
export function newSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
